#pragma once

#include "widgets/retranslator.h"

#include <QObject>

#include <functional>

class RunController;
class QAction;
class QMenu;
class QWidget;
class RunView;
class ZsetPanel;

// File menu entries that write documents: pictures of the window and its views, the data behind
// them (request log, ZSET snapshot, summary) as CSV or JSON.
class ExportActions : public QObject
{
    Q_OBJECT
public:
    // What there is to export, and where to say it was saved.
    struct Sources
    {
        QWidget* window = nullptr; // the whole window; also the parent of dialogs
        QWidget* runs = nullptr; // both runs in compare mode
        RunView* left = nullptr;
        ZsetPanel* zset = nullptr;
        RunController* runController = nullptr; // the runs fired and what they ran
        std::function<void(const QString&)> status;
    };
    ExportActions(Sources sources, QMenu* fileMenu, QObject* parent);

    void exportPicture();
    void copyPicture();
    void exportRequestLog();
    void exportZsetSnapshot();
    void exportSummary();

    // The data exports without dialogs (headless runs, tests); false with a message.
    static bool writeRequestLog(const RunController& runs, const QString& path, QString* error);
    static bool writeSummary(const RunController& runs, const QString& path, QString* error);

    // On a language change (the window forwards it: these are not widgets).
    void retranslate() const { m_texts.retranslate(); }

private:
    QAction* translated(QAction* action, const char* text);
    QMenu* translatedMenu(QMenu* menu, const char* text);
    QString askPath(const QString& title, const QString& name);

    Sources m_sources;
    Retranslator m_texts;
};
