#pragma once

#include "burst/scenario.h"
#include "widgets/retranslator.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>

class Recording;

class QAction;
class QMenu;
class QWidget;

// File menu entries for scenarios: open (also the shipped examples and recent files) and save.
class ScenarioActions : public QObject
{
    Q_OBJECT
public:
    // What a scenario is opened into and saved from.
    struct Host
    {
        QWidget* dialogParent = nullptr;
        std::function<void(const Scenario&)> apply; // takes the scenario's plan and view; fires nothing
        std::function<Scenario()> current; // the plan and view as they are now
        // The run on screen (null: none), carried by Save Scenario with Its Run.
        std::function<std::shared_ptr<const Recording>()> run;
        std::function<void(const QString&)> status;
    };
    ScenarioActions(Host host, QMenu* fileMenu, QObject* parent);

    // Opens a scenario file into the window; false (after telling the user) when it is invalid.
    bool open(const QString& path);
    void openDialog();
    void saveDialog();
    // File > Save Scenario with Its Run…: the class sees that run, the same numbers every time.
    void saveWithRunDialog();
    // The scenario now, carrying the run on screen; false with *error when there is none to carry
    // or it is too large for a scenario file.
    bool currentWithRun(Scenario* scenario, QString* error) const;

    // On a language change (the window forwards it: these are not widgets).
    void retranslate() const { m_texts.retranslate(); }

private:
    void save(const Scenario& scenario, const QString& title);
    QAction* translated(QAction* action, const char* text);
    QMenu* translatedMenu(QMenu* menu, const char* text);
    Retranslator m_texts;
    void rememberRecent(const QString& path);
    void rebuildRecentMenu();

    Host m_host;
    QMenu* m_recent = nullptr;
};
