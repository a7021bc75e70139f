#pragma once

#include "limiterexperiment.h"
#include "redisserverchoice.h"
#include "retranslator.h"
#include "scenario.h"

#include <QMainWindow>

class BurstPanel;
class Presentation;
class ExportActions;
class ScenarioActions;
class QAction;
class QLabel;
class QSplitter;
class RunView;
class ServerBar;
class ServerSession;
class ZsetPanel;

// The zsetlab window. It arranges the panels and wires them to the core objects (the server
// session and the experiment); the panels hold their own logic.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Connects as the command line asked (URL, or local/private).
    void connectToServer(const RedisServerChoice::Request& request);
    // Saves a picture of the whole window (PNG); false with a message on failure.
    bool saveScreenshot(const QString& path, QString* error = nullptr);

    // Takes a scenario's plan, compare mode and view; fires nothing.
    void applyScenario(const Scenario& scenario);
    Scenario currentScenario() const;

    ServerSession* session() const { return m_session; }
    QWidget* runsArea() const;
    ScenarioActions* scenarioActions() const { return m_scenarioActions; }
    ExportActions* exportActions() const { return m_exportActions; }
    Presentation* presentation() const { return m_presentation; }
    class LessonPanel* lessonPanel() const { return m_lessonPanel; }
    // Opens the script view on a strategy (the lesson's first step).
    void showScriptView(MemberStrategy strategy);
    // Steps "the next request" of the last burst (same script, same key, same now) in Redis's
    // Lua debugger; returns the view.
    class DebuggerView* stepNextRequest();
    // Draws attention to a part of the window for a moment.
    void spotlight(QWidget* widget);
    class ScriptDoctorDialog* scriptDoctor();
    LimiterExperiment* experiment() const { return m_experiment; }
    BurstPanel* burstPanel() const { return m_burstPanel; }
    RunView* runView(LimiterExperiment::Side side) const { return side == LimiterExperiment::Left ? m_left : m_right; }
    ZsetPanel* zsetPanel() const { return m_zsetPanel; }
    ServerBar* serverBar() const { return m_serverBar; }
    QAction* fireAction() const { return m_fire; }
    QAction* stopAction() const { return m_stop; }
    QAction* resetAction() const { return m_reset; }

public slots:
    void fire();
    void stop();
    void reset();

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void createMenus();
    void createLanguageMenu(QMenu* view);
    // Menu texts that follow the language (text: a QT_TR_NOOP source text).
    QAction* translated(QAction* action, const char* text);
    QMenu* translated(QMenu* menu, const char* text);
    void setCompareMode(bool on);
    void onServerConnected();
    void onRunStarted(LimiterExperiment::Side side);
    void onRunFinished(LimiterExperiment::Side side, const BurstSummary& summary);
    void showZsetOf(LimiterExperiment::Side side);
    void showConnectDialog();
    void showScriptDoctor();
    void showAbout();
    bool confirmRemoteBurst();
    void restoreSettings();
    void saveSettings() const;

    ServerSession* m_session = nullptr;
    LimiterExperiment* m_experiment = nullptr;
    ServerBar* m_serverBar = nullptr;
    BurstPanel* m_burstPanel = nullptr;
    RunView* m_left = nullptr;
    RunView* m_right = nullptr;
    QSplitter* m_runs = nullptr;
    ZsetPanel* m_zsetPanel = nullptr;
    QLabel* m_serverStatus = nullptr;
    QAction* m_fire = nullptr;
    QAction* m_stop = nullptr;
    QAction* m_reset = nullptr;
    QAction* m_compare = nullptr;
    QTimer* m_zsetRefresh = nullptr;
    LimiterExperiment::Side m_zsetSide = LimiterExperiment::Left;
    QString m_confirmedRemote; // the remote endpoint the user agreed to load, this session
    ScenarioActions* m_scenarioActions = nullptr;
    ExportActions* m_exportActions = nullptr;
    Presentation* m_presentation = nullptr;
    class LessonPanel* m_lessonPanel = nullptr;
    class ScriptView* m_scriptView = nullptr;
    class DebuggerView* m_debuggerView = nullptr;
    class ScriptDoctorDialog* m_scriptDoctor = nullptr;
    Scenario m_scenario; // the last one applied: its title and view range
    Retranslator m_texts;
};
