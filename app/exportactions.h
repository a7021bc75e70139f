#pragma once

#include "retranslator.h"

#include <QObject>

class MainWindow;
class QAction;
class QMenu;

// File menu entries that write documents: pictures of the window and its views, the data behind
// them (request log, ZSET snapshot, summary) as CSV or JSON.
class ExportActions : public QObject
{
    Q_OBJECT
public:
    ExportActions(MainWindow* window, QMenu* fileMenu);

    void exportPicture();
    void copyPicture();
    void exportRequestLog();
    void exportZsetSnapshot();
    void exportSummary();

    // The data exports without dialogs (headless runs, tests); false with a message.
    static bool writeRequestLog(MainWindow* window, const QString& path, QString* error);
    static bool writeSummary(MainWindow* window, const QString& path, QString* error);

    // On a language change (MainWindow forwards it: these are not widgets).
    void retranslate() const { m_texts.retranslate(); }

private:
    QAction* translated(QAction* action, const char* text);
    QMenu* translatedMenu(QMenu* menu, const char* text);
    Retranslator m_texts;
    QString askPath(const QString& title, const QString& name);

    MainWindow* m_window;
};
