#pragma once

#include "animationexport.h"
#include "limiterexperiment.h"
#include "redisserverchoice.h"
#include "retranslator.h"
#include "scenario.h"

#include <QMainWindow>

#include <array>
#include <memory>
#include <optional>

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
class ManualDialog;
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
class ScriptView;
class ScreenFit;
class ServerBar;
class ElidingLabel;
class ServerSession;
class Spotlight;
class WatchPanel;
class ZsetPanel;

// The zsetlab window. It composes the panels and the core objects (the server session, the plan
// model, the experiment) and wires them; the panels hold their own logic and get the few objects
// they use from here. Nothing in app/ uses the window itself; the accessors are for tests.
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
    // The same, carrying the left run as a replay; false with *error when none is on screen or
    // it is too large for a scenario file.
    bool currentScenarioWithRun(Scenario* scenario, QString* error) const;
    // Steps "the next request" of the last burst (same script, same key, same now) in Redis's
    // Lua debugger; returns the view.
    DebuggerView* stepNextRequest();
    ScriptDoctorDialog* scriptDoctor();
    // Opens the Script Doctor on the screen (Ctrl+D).
    void showScriptDoctor();

    ServerSession* session() const { return m_session; }
    PlanModel* planModel() const { return m_planModel; }
    LimiterExperiment* experiment() const { return m_experiment; }
    FireControl* fireControl() const { return m_fireControl; }
    QWidget* runsArea() const;
    ScenarioActions* scenarioActions() const { return m_scenarioActions; }
    ReplayActions* replayActions() const { return m_replayActions; }
    // Opens a replay file into the first run view (no Redis needed); false (after telling the user)
    // when it cannot be read.
    bool openReplay(const QString& path, QString* error = nullptr);
    ExportActions* exportActions() const { return m_exportActions; }
    Presentation* presentation() const { return m_presentation; }
    Lesson* lesson() const { return m_lesson; }
    LessonPanel* lessonPanel() const { return m_lessonPanel; }
    WatchPanel* watchPanel() const { return m_watchPanel; }
    Spotlight* spotlight() const { return m_spotlight; }
    // Pictures of a given size (headless exports): the window is that size and arranges its docks
    // as a screen of that size would have them, whatever the screen.
    void setPictureSize(QSize size);
    // Brings the lesson's dock to the front (it shares a tab with the Burst panel).
    void showLesson();
    void showWatch();
    BurstPanel* burstPanel() const { return m_burstPanel; }
    RunView* runView(LimiterExperiment::Side side) const { return side == LimiterExperiment::Left ? m_left : m_right; }
    // The run each side shows: its writes, figures, recording and cursor.
    RunModel* run(LimiterExperiment::Side side) const { return m_runModels[side]; }
    ZsetPanel* zsetPanel() const { return m_zsetPanel; }
    ServerBar* serverBar() const { return m_serverBar; }
    QAction* fireAction() const { return m_fire; }
    QAction* stopAction() const { return m_stop; }
    QAction* resetAction() const { return m_reset; }

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
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void moveEvent(QMoveEvent* event) override;

private:
    // Arranges the docks for the screen, and steps the zoom down when even that does not fit.
    void fitScreen();
    // The timeline is the window's largest view (RunView::setTimelineAtLeast).
    void keepTimelineLargest();
    void panelInFrontChanged(); // a side panel came to the front or went behind
    void createDocks();
    void createMenus();
    void createLanguageMenu(QMenu* view);
    void wireExperiment();
    // Menu texts that follow the language (text: a QT_TR_NOOP source text).
    QAction* translated(QAction* action, const char* text);
    QMenu* translated(QMenu* menu, const char* text);
    void showCompareMode(bool on);
    void updateRunTitles();
    void onServerConnected();
    void onRunStarted(LimiterExperiment::Side side);
    void onRunFinished(LimiterExperiment::Side side, const BurstSummary& summary);
    void onAllFinished();
    void showZsetOf(LimiterExperiment::Side side);
    // The ZSET panel shows the replay of that side at its cursor.
    void showReplayState(LimiterExperiment::Side side);
    // A what-if was fired: both sides on screen, the run's cursor at its first request.
    void showWhatIf(int from, int requests);
    // An opened replay (a file's, a scenario's) on the left, stepped through from its end.
    void showOpenedRecording(std::shared_ptr<const Recording> recording, const QString& name);
    void showScriptView(const QString& limiterId);
    void showStatus(const QString& message, int timeoutMs = 8000);
    void showServerStatus(); // the permanent label: which server, in the language of the moment
    // Marks the part of the window that shows the lesson's result (nullptr: none).
    void pointAt(QWidget* part);
    // The ZSET panel in the runs' place (a lesson step about it, on a screen where its dock shares
    // the lesson's tabs), or back in its dock.
    void lendZsetToRuns(bool lend);
    void showConnectDialog();
    void showAbout();
    void showManual();
    void restoreSettings();
    void saveSettings() const;

    ServerSession* m_session = nullptr;
    PlanModel* m_planModel = nullptr;
    LimiterExperiment* m_experiment = nullptr;
    FireControl* m_fireControl = nullptr;
    ServerBar* m_serverBar = nullptr;
    BurstPanel* m_burstPanel = nullptr;
    std::array<RunModel*, 2> m_runModels {};
    RunView* m_left = nullptr;
    RunView* m_right = nullptr;
    RunsArea* m_runsArea = nullptr; // the runs, one or two, and the bar that steps both
    QSplitter* m_runs = nullptr; // its splitter
    QStackedWidget* m_runsPlace = nullptr; // the runs, or a lesson step's figure
    LessonFigure* m_lessonFigure = nullptr;
    ZsetPanel* m_zsetPanel = nullptr;
    QDockWidget* m_zsetDock = nullptr;
    QScrollArea* m_zsetArea = nullptr; // the ZSET panel's place in its dock
    bool m_zsetLent = false; // the ZSET panel shows in the runs' place (lendZsetToRuns)
    ElidingLabel* m_serverStatus = nullptr;
    ScreenFit* m_screenFit = nullptr;
    QAction* m_fire = nullptr;
    QAction* m_stop = nullptr;
    QAction* m_reset = nullptr;
    QAction* m_compare = nullptr;
    QTimer* m_zsetRefresh = nullptr;
    LimiterExperiment::Side m_zsetSide = LimiterExperiment::Left;
    // Per side: when the run's snapshot was taken (its keys: LimiterExperiment::snapshotKeyOf each user's).
    std::array<std::optional<qint64>, 2> m_snapshots;
    ScenarioActions* m_scenarioActions = nullptr;
    ReplayActions* m_replayActions = nullptr;
    WhatIf* m_whatIf = nullptr; // the what-if on the right, from the left run's recording
    QSize m_frameSeen; // the window manager's frame around the window, as last seen
    QSize m_pictureSize; // setPictureSize()
    bool m_leftIsOpenedReplay = false; // the first run view shows a replay file, not the engine's run
    ExportActions* m_exportActions = nullptr;
    Presentation* m_presentation = nullptr;
    Lesson* m_lesson = nullptr;
    LessonPanel* m_lessonPanel = nullptr;
    Spotlight* m_spotlight = nullptr; // the lesson's "look here"
    QDockWidget* m_lessonDock = nullptr;
    bool m_lessonCovered = false; // the spotlight raised a dock over the lesson's tab
    int m_fullScreenAgain = 0; // full screen asked for again after the window manager ended it
    bool m_fitting = false; // fitScreen() at work: its own resizes do not ask for another
    bool m_zoomOutPending = false; // the window did not fit: checked again a little later
    bool m_zoomOutConfirmed = false; // that second check: it steps the text down if need be
    WatchPanel* m_watchPanel = nullptr;
    ScriptView* m_scriptView = nullptr;
    DebuggerView* m_debuggerView = nullptr;
    ScriptDoctorDialog* m_scriptDoctor = nullptr;
    ManualDialog* m_manual = nullptr;
    Scenario m_scenario; // the last one applied: its title and view range
    Retranslator m_texts;
};
