#pragma once

#include "animation/animationexport.h"
#include "burst/limiterexperiment.h"
#include "burst/scenario.h"
#include "lesson/lessonplace.h"
#include "mainmenus.h"
#include "redis/redisserverchoice.h"
#include "run/runcontroller.h"
#include "widgets/retranslator.h"

#include <QMainWindow>

#include <memory>

class BurstPanel;
class DebuggerView;
class QDockWidget;
class ExportActions;
class FireControl;
struct ForkChange;
class Recording;
class Lesson;
class LessonFigure;
class LessonPanel;
class PlanModel;
class Presentation;
class QAction;
class QLabel;
class QScrollArea;
class QSplitter;
class QStackedWidget;
class ReplayActions;
class RunModel;
class RunsArea;
class RunView;
class WhatIf;
class ScenarioActions;
class ScriptDoctorDialog;
class ScriptTools;
class ScreenFit;
class WindowFit;
class ServerBar;
class ElidingLabel;
class ServerSession;
class Spotlight;
class WatchPanel;
class ZsetPanel;

// The zsetlab window. It composes the panels and the core objects (the server session, the plan
// model, the experiment and the runs' controller) and wires them; the panels hold their own
// logic and get the few objects they use from here, the menus are built by MainMenus and the
// window kept on its screen by WindowFit. Nothing in app/ uses the window itself but its menus;
// the accessors are for tests.
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

    // Takes a scenario's plan and view; fires nothing.
    void applyScenario(const Scenario& scenario);
    Scenario currentScenario() const;
    // Steps "the next request" of the last burst (same script, same key, same now) in Redis's
    // Lua debugger; returns the view.
    DebuggerView* stepNextRequest();
    ScriptDoctorDialog* scriptDoctor();
    // Opens the Script Doctor on the screen (Ctrl+D).
    void showScriptDoctor();
    // The limiter scripts side by side, from `limiterId`'s.
    void showScriptView(const QString& limiterId);
    void showConnectDialog();

    ServerSession* session() const { return m_session; }
    PlanModel* planModel() const { return m_planModel; }
    LimiterExperiment* experiment() const { return m_experiment; }
    RunController* runController() const { return m_controller; }
    FireControl* fireControl() const { return m_fireControl; }
    QWidget* runsArea() const;
    ScenarioActions* scenarioActions() const { return m_scenarioActions; }
    ReplayActions* replayActions() const { return m_replayActions; }
    // Opens a replay file into the first run view (no Redis needed); false (after telling the user)
    // when it cannot be read.
    bool openReplay(const QString& path, QString* error = nullptr);
    ExportActions* exportActions() const { return m_exportActions; }
    Presentation* presentation() const { return m_presentation; }
    Lesson* lesson() const { return m_lessonPlace->lesson(); }
    LessonPanel* lessonPanel() const { return m_lessonPlace->panel(); }
    WatchPanel* watchPanel() const { return m_watchPanel; }
    Spotlight* spotlight() const { return m_lessonPlace->spotlight(); }
    // Pictures of a given size (headless exports): the window is that size and arranges its docks
    // as a screen of that size would have them, whatever the screen.
    void setPictureSize(QSize size);
    // Brings the lesson's dock to the front (it shares a tab with the Burst panel).
    void showLesson();
    // The lesson on a stage of its own (F11); Esc comes back.
    void presentLesson();
    void showWatch();
    BurstPanel* burstPanel() const { return m_burstPanel; }
    RunView* runView(LimiterExperiment::Side side) const { return side == LimiterExperiment::Left ? m_left : m_right; }
    // The run each side shows: its writes, figures, recording and cursor.
    RunModel* run(LimiterExperiment::Side side) const { return m_controller->run(side); }
    ZsetPanel* zsetPanel() const { return m_zsetPanel; }
    ServerBar* serverBar() const { return m_serverBar; }
    QAction* fireAction() const { return m_menus->fire(); }
    QAction* stopAction() const { return m_menus->stop(); }
    QAction* resetAction() const { return m_menus->reset(); }

    // A what-if from request `from` (0-based) of the run the left view replays: fired on the
    // right side beside it. False with a status message when nothing was fired.
    bool forkFrom(int from, const ForkChange& change);
    // The left run, as the window draws it request by request, to a GIF, MP4 or WebM
    // (AnimationExport); false with *error.
    bool exportAnimation(const AnimationJob& job, QString* error, const AnimationEncoder::Progress& progress = {});

public slots:
    void fire();
    void stop();
    void reset();

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    friend class MainMenus; // builds the menus over the window's parts

    // The timeline is the window's largest view (RunView::setTimelineAtLeast).
    void keepTimelineLargest();
    void createDocks();
    void wireRuns();
    void showCompareMode(bool on);
    void updateRunTitles();
    void onServerConnected();
    void onRunStarted(LimiterExperiment::Side side);
    void onRunFinished(LimiterExperiment::Side side);
    void onAllFinished();
    void showZsetOf(LimiterExperiment::Side side);
    // The ZSET panel shows the replay of that side at its cursor.
    void showReplayState(LimiterExperiment::Side side);
    // A what-if was fired: both sides on screen, the run's cursor at its first request.
    void showWhatIf(int from, int requests);
    // An opened replay (a file's, a scenario's) on the left, stepped through from its end.
    void showOpenedRecording(std::shared_ptr<const Recording> recording, const QString& name);
    void showStatus(const QString& message, int timeoutMs = 8000);
    void showServerStatus(); // the permanent label: which server, in the language of the moment
    void restoreSettings();
    void saveSettings() const;

    ServerSession* m_session = nullptr;
    PlanModel* m_planModel = nullptr;
    LimiterExperiment* m_experiment = nullptr;
    RunController* m_controller = nullptr; // the two runs (each side's model) and their life
    FireControl* m_fireControl = nullptr;
    ServerBar* m_serverBar = nullptr;
    BurstPanel* m_burstPanel = nullptr;
    RunView* m_left = nullptr;
    RunView* m_right = nullptr;
    RunsArea* m_runsArea = nullptr; // the runs, one or two, and the bar that steps both
    QSplitter* m_runs = nullptr; // its splitter
    QStackedWidget* m_runsPlace = nullptr; // the runs, or a lesson step's figure
    ZsetPanel* m_zsetPanel = nullptr;
    QDockWidget* m_zsetDock = nullptr;
    QScrollArea* m_zsetArea = nullptr; // the ZSET panel's place in its dock
    ElidingLabel* m_serverStatus = nullptr;
    ScreenFit* m_screenFit = nullptr;
    WindowFit* m_windowFit = nullptr;
    MainMenus* m_menus = nullptr;
    LimiterExperiment::Side m_zsetSide = LimiterExperiment::Left;
    ScenarioActions* m_scenarioActions = nullptr;
    ReplayActions* m_replayActions = nullptr;
    WhatIf* m_whatIf = nullptr; // the what-if on the right, from the left run's recording
    QSize m_pictureSize; // setPictureSize()
    ExportActions* m_exportActions = nullptr;
    Presentation* m_presentation = nullptr;
    LessonPlace* m_lessonPlace = nullptr; // the lesson's dock, figure and spotlight
    WatchPanel* m_watchPanel = nullptr;
    ScriptTools* m_scriptTools = nullptr; // the Script Doctor, the scripts side by side, the debugger
    Scenario m_scenario; // the last one applied: its title and view range
    Retranslator m_texts;
};
