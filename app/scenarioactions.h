#pragma once

#include <QObject>
#include <QStringList>

class MainWindow;
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

private:
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();

    MainWindow* m_window;
    QMenu* m_recent = nullptr;
};
