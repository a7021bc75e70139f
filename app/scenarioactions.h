#pragma once

#include "retranslator.h"

#include <QObject>
#include <QStringList>

class MainWindow;
class QAction;
class QMenu;

// File menu entries for scenarios: open (also the shipped examples and recent files) and save.
class ScenarioActions : public QObject
{
    Q_OBJECT
public:
    ScenarioActions(MainWindow* window, QMenu* fileMenu);

    // Opens a scenario file into the window; false (after telling the user) when it is invalid.
    bool open(const QString& path);
    void openDialog();
    void saveDialog();

    // On a language change (MainWindow forwards it: these are not widgets).
    void retranslate() const { m_texts.retranslate(); }

private:
    QAction* translated(QAction* action, const char* text);
    QMenu* translatedMenu(QMenu* menu, const char* text);
    Retranslator m_texts;
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();

    MainWindow* m_window;
    QMenu* m_recent = nullptr;
};
