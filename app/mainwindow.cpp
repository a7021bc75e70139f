#include "mainwindow.h"

#include "burst/planmodel.h"
#include "charts/timelineview.h"
#include "connectdialog.h"
#include "lesson/lessonplace.h"
#include "mainmenus.h"
#include "redis/serversession.h"
#include "replay/recording.h"
#include "replay/replayfile.h"
#include "run/burstpanel.h"
#include "run/exportactions.h"
#include "run/firecontrol.h"
#include "run/replayactions.h"
#include "run/runanimation.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "run/runsarea.h"
#include "run/runstatus.h"
#include "run/runview.h"
#include "run/scenarioactions.h"
#include "run/transportbar.h"
#include "run/whatif.h"
#include "run/zsetpanel.h"
#include "script/scriptdoctordialog.h"
#include "script/scripttools.h"
#include "watch/watchpanel.h"
#include "widgets/docktitlebar.h"
#include "widgets/elidinglabel.h"
#include "widgets/pagestack.h"
#include "widgets/pictureexport.h"
#include "widgets/presentation.h"
#include "widgets/screenfit.h"
#include "widgets/serverbar.h"
#include "widgets/spotlight.h"
#include "widgets/verticalscrollarea.h"
#include "widgets/windowfit.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QJsonDocument>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <memory>

namespace {
// What the window fires before the user changes anything: enough to show the bug on the first click.
ExperimentPlan windowDefaults()
{
    ExperimentPlan plan;
    plan.burst.requests = 200;
    plan.burst.limit = 10;
    return plan;
}

const char planSetting[] = "burst/experiment";
} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("zsetlab"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/zsetlab.svg")));
    setObjectName(QStringLiteral("MainWindow"));
    m_session = new ServerSession(this);
    m_presentation = new Presentation(this);
    m_planModel = new PlanModel(this);
    m_planModel->setPlan(windowDefaults());
    m_experiment = new LimiterExperiment(this);
    m_controller = new RunController(m_experiment, this);
    m_fireControl = new FireControl(m_session, m_experiment, this);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 0, 4, 0);
    m_serverBar = new ServerBar(m_session, central);
    layout->addWidget(m_serverBar);
    // The runs' place; a lesson step whose result is no run (the script, a TTL, the memory) shows
    // its figure there until a run starts again.
    m_runsPlace = new PageStack(central);
    m_runsArea = new RunsArea(run(LimiterExperiment::Left), run(LimiterExperiment::Right), m_runsPlace);
    m_runs = m_runsArea->splitter();
    m_left = m_runsArea->left();
    m_right = m_runsArea->right();
    m_whatIf = new WhatIf({m_controller, m_fireControl, this}, this);
    connect(m_whatIf, &WhatIf::started, this, &MainWindow::showWhatIf);
    connect(m_whatIf, &WhatIf::failed, this, [this](const QString& message) { showStatus(message, 15000); });
    m_runsPlace->addWidget(m_runsArea);
    // The runs set the place's size whichever page is in front; a lesson's figure (or the ZSET
    // panel lent to it) takes what the runs leave, so the docks do not move as the steps change.
    layout->addWidget(m_runsPlace, 1);
    setCentralWidget(central);

    createDocks();
    ScriptTools::Stage scripts;
    scripts.window = this;
    scripts.session = m_session;
    scripts.planModel = m_planModel;
    scripts.runs = m_controller;
    scripts.status = [this](const QString& message) { showStatus(message); };
    m_scriptTools = new ScriptTools(scripts);
    m_serverStatus = new ElidingLabel(this);
    m_serverStatus->setObjectName(QStringLiteral("ServerStatus"));
    statusBar()->addPermanentWidget(m_serverStatus);
    m_serverStatus->giveWayToMessages(statusBar());
    m_menus = new MainMenus(this);

    connect(m_burstPanel, &BurstPanel::fireRequested, this, &MainWindow::fire);
    connect(m_burstPanel, &BurstPanel::stopRequested, this, &MainWindow::stop);
    connect(m_burstPanel, &BurstPanel::resetRequested, this, &MainWindow::reset);
    connect(m_burstPanel, &BurstPanel::customScriptRequested, this, &MainWindow::showScriptDoctor);
    connect(m_planModel, &PlanModel::changed, this, [this] { showCompareMode(m_planModel->plan().compare); });
    connect(m_serverBar, &ServerBar::connectRequested, this, &MainWindow::showConnectDialog);
    connect(m_session, &ServerSession::connected, this, &MainWindow::onServerConnected);
    connect(m_session, &ServerSession::stateChanged, this, &MainWindow::showServerStatus);
    connect(m_session, &ServerSession::failed, this, [this](const QString& message) { showStatus(message, 10000); });
    connect(m_session, &ServerSession::privateServerReplaced, this, [this] {
        // Said whether or not the burst noticed: a replacement can be quicker than its next look.
        showStatus(m_experiment->isRunning()
                       ? tr("zsetlab's private Redis server stopped. A new, empty one took its place on the same "
                            "socket and the burst goes on there.")
                       : tr("A new private Redis server took the place of the one that stopped; it starts empty."),
                   10000);
    });
    wireRuns();
    connect(m_watchPanel, &WatchPanel::scriptRequested, this, [this](const QString& name, const QByteArray& source) {
        scriptDoctor()->setSource(name, source);
        showScriptDoctor();
    });
    // The watched key's members, read as for a burst (ZRANGE, page by page), while it is drawn.
    connect(m_watchPanel, &WatchPanel::keyShown, this, [this](int db, const QByteArray& key) {
        if (db != m_session->endpoint().db)
            return; // the table reads the session's database
        m_zsetPanel->showKey(key, &run(LimiterExperiment::Left)->writes(),
                             tr("%1 (watched)").arg(QString::fromUtf8(key)));
        m_zsetPanel->setFollowing(true);
        // The watched key has the runs' place alone: a compare-mode burst beside it would read as
        // part of the watch.
        run(LimiterExperiment::Right)->clear();
        m_right->hide();
    });
    // Esc stops a watch as it stops a burst.
    connect(m_watchPanel, &WatchPanel::runningChanged, this, [this](bool watching) {
        stopAction()->setEnabled(watching || m_experiment->isRunning());
        if (!watching && !m_experiment->isRunning())
            m_zsetPanel->setFollowing(false);
    });
    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    m_burstPanel = new BurstPanel(m_planModel, this);
    auto* burstDock = new QDockWidget(this);
    m_texts.add([burstDock] { burstDock->setWindowTitle(tr("Burst")); });
    burstDock->setObjectName(QStringLiteral("BurstDock"));
    burstDock->setWidget(new VerticalScrollArea(m_burstPanel, burstDock));
    addDockWidget(Qt::LeftDockWidgetArea, burstDock);

    m_zsetPanel = new ZsetPanel(this);
    auto* zsetDock = new QDockWidget(this);
    m_zsetDock = zsetDock;
    m_texts.add([zsetDock] { zsetDock->setWindowTitle(tr("ZSET contents")); });
    zsetDock->setObjectName(QStringLiteral("ZsetDock"));
    m_zsetArea = new VerticalScrollArea(m_zsetPanel, zsetDock); // behind the lesson's tab it claims no width
    zsetDock->setWidget(m_zsetArea);
    addDockWidget(Qt::RightDockWidgetArea, zsetDock);

    LessonServices services;
    services.session = m_session;
    services.experiment = m_experiment;
    services.fire = [this](const ExperimentPlan& plan, QString* error) {
        const bool fired = m_fireControl->fire(plan);
        if (!fired)
            *error = m_fireControl->error();
        return fired;
    };
    services.traffic = [this] { return m_planModel->plan().burst; };
    LessonPlace::Parts parts;
    parts.window = this;
    parts.runsPlace = m_runsPlace;
    parts.runsPage = m_runsArea;
    parts.runs = m_runs;
    parts.left = m_left;
    parts.zset = m_zsetPanel;
    parts.zsetArea = m_zsetArea;
    parts.zsetDock = m_zsetDock;
    parts.tabWith = burstDock;
    m_lessonPlace = new LessonPlace(parts, services);
    QDockWidget* lessonDock = m_lessonPlace->dock();

    WatchPanel::Stage watch;
    watch.session = m_session;
    watch.run = run(LimiterExperiment::Left);
    watch.timelineBusy = [this] { return m_experiment->isRunning(); };
    m_watchPanel = new WatchPanel(watch, this);
    auto* watchDock = new QDockWidget(this);
    m_texts.add([watchDock] { watchDock->setWindowTitle(tr("Watch")); });
    watchDock->setObjectName(QStringLiteral("WatchDock"));
    watchDock->setWidget(new VerticalScrollArea(m_watchPanel, watchDock));
    addDockWidget(Qt::LeftDockWidgetArea, watchDock);
    tabifyDockWidget(lessonDock, watchDock);
    burstDock->raise();
    m_screenFit = new ScreenFit(this, zsetDock, lessonDock);
    m_screenFit->setMainArea([this] { return m_runsArea->timelineArea(); });
    m_windowFit = new WindowFit(this, m_screenFit, m_presentation);
    m_windowFit->setAfterFit([this] { keepTimelineLargest(); });
    for (QDockWidget* dock : {burstDock, zsetDock, lessonDock, watchDock}) {
        DockTitleBar::install(dock);
        // Another panel in front may be larger than the last: the timeline stays the largest view.
        connect(dock, &QDockWidget::visibilityChanged, m_windowFit, &WindowFit::panelInFrontChanged,
                Qt::QueuedConnection);
    }
    m_windowFit->setStatus([this](const QString& message) { showStatus(message, 5000); });
    m_lessonPlace->setFit(m_screenFit, [this] { m_windowFit->fit(); });
    m_presentation->setFitCheck([this] {
        const bool fits = m_screenFit->fit();
        keepTimelineLargest();
        return fits;
    });
}

void MainWindow::wireRuns()
{
    connect(m_controller, &RunController::runStarted, this, &MainWindow::onRunStarted);
    connect(m_controller, &RunController::runFinished, this, &MainWindow::onRunFinished);
    connect(m_controller, &RunController::allFinished, this, &MainWindow::onAllFinished);
    connect(m_controller, &RunController::snapshotTaken, this, [this](LimiterExperiment::Side side) {
        if (m_zsetSide == side)
            showZsetOf(side);
    });
    connect(m_experiment, &LimiterExperiment::failed, this,
            [this](const QString& message) { showStatus(message, 15000); });
    // A dropped connection shows at once, not at the end of the run's reconnect attempts.
    auto shownLoss = std::make_shared<QString>(); // cleared on reconnecting, unless something came since
    connect(m_controller, &RunController::connectionLost, this, [this, shownLoss](const QString& message) {
        // The burst's own message would advise starting redis-server on a socket that only zsetlab
        // can bring back, and does at once.
        *shownLoss = m_session->origin() == RedisServerChoice::Origin::Private
            ? tr("Lost the connection: zsetlab's private Redis server stopped. A new, "
                 "empty one starts on the same socket and the burst goes on there.")
            : message;
        statusBar()->showMessage(*shownLoss);
    });
    connect(m_controller, &RunController::connectionRestored, this, [this, shownLoss] {
        if (statusBar()->currentMessage() == *shownLoss)
            statusBar()->clearMessage();
    });
    for (auto side : {LimiterExperiment::Left, LimiterExperiment::Right}) {
        connect(runView(side), &RunView::millisecondClicked, this, [this, side](qint64, const QByteArray& member) {
            if (m_zsetSide != side)
                showZsetOf(side);
            m_zsetPanel->selectMember(member);
        });
        connect(run(side), &RunModel::cursorMoved, this, [this, side] { showReplayState(side); });
        // Save Replay and Export Animation follow the run shown, however it was recorded.
        connect(run(side), &RunModel::recordingChanged, m_replayActions, &ReplayActions::updateEnabled);
        if (side == LimiterExperiment::Left) { // a what-if goes on the right, beside the run
            for (TransportBar* bar : {runView(side)->transport(), m_runsArea->sharedTransport()}) {
                bar->setForkable(true);
                connect(bar, &TransportBar::forkRequested, m_whatIf, &WhatIf::ask);
            }
        }
        connect(runView(side), &RunView::userChosen, this, [this, side](int user) {
            m_controller->showUser(side, user);
            showZsetOf(side);
        });
    }
}

bool MainWindow::openReplay(const QString& path, QString* error)
{
    return m_replayActions->open(path, error);
}

void MainWindow::setPictureSize(QSize size)
{
    m_pictureSize = size;
    m_screenFit->setFixedRoom(size);
    resize(size);
    m_screenFit->fit();
}

void MainWindow::showWatch()
{
    auto* dock = findChild<QDockWidget*>(QStringLiteral("WatchDock"));
    dock->show();
    dock->raise();
}

void MainWindow::showLesson()
{
    m_lessonPlace->show();
}

void MainWindow::presentLesson()
{
    m_lessonPlace->present();
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        m_menus->retranslate();
        m_texts.retranslate();
        m_lessonPlace->retranslate();
        showServerStatus(); // "private server" and the like, in the new language
        m_exportActions->retranslate();
        m_scenarioActions->retranslate();
        m_replayActions->retranslate();
        updateRunTitles();
    }
}

void MainWindow::keepTimelineLargest()
{
    m_runsArea->keepTimelinesAtLeast(m_screenFit->largestPanelArea());
}

void MainWindow::connectToServer(const RedisServerChoice::Request& request)
{
    m_session->connectTo(request);
}

void MainWindow::onServerConnected()
{
    m_zsetPanel->setServer(m_session->endpoint(), m_session->options());
    showStatus(tr("Connected: %1").arg(m_session->description()), 5000);
}

void MainWindow::showServerStatus()
{
    m_serverStatus->setFullText(m_session->isUsable() ? m_session->description() : m_serverBar->statusText());
}

void MainWindow::showStatus(const QString& message, int timeoutMs)
{
    statusBar()->showMessage(message, timeoutMs);
}

void MainWindow::showCompareMode(bool on)
{
    m_menus->compare()->setChecked(on);
    const bool wasVisible = m_right->isVisible();
    m_right->setVisible(on);
    if (on && !wasVisible)
        m_runs->setSizes({1000, 1000});
    updateRunTitles();
    // Two runs side by side may push the ZSET panel into the tabs; one alone gives it its place back.
    if (on != wasVisible) {
        m_screenFit->contentsChanged();
        m_windowFit->fitSoon();
    }
}

void MainWindow::updateRunTitles()
{
    // What ran, once something did; before that, what will fire.
    const bool ran = m_experiment->hasRun(LimiterExperiment::Left);
    const bool compare = m_right->isVisible();
    const LimiterRef right = ran && m_experiment->isCompare() ? m_experiment->plan().fix : m_planModel->plan().fix;
    if (m_whatIf->isActive() && compare) {
        run(LimiterExperiment::Left)->setTitle(m_whatIf->runTitle());
        run(LimiterExperiment::Right)->setTitle(m_whatIf->whatIfTitle(m_experiment->plan().fix));
        return;
    }
    run(LimiterExperiment::Left)->setTitle(compare ? tr("member = now") : QString());
    run(LimiterExperiment::Right)->setTitle(compare ? tr("%1 member").arg(right->displayName()) : QString());
}

void MainWindow::fire()
{
    if (m_experiment->isRunning())
        return;
    if (!m_fireControl->fire(m_planModel->plan())) {
        showStatus(m_fireControl->error(), 10000);
        return;
    }
    showStatus(tr("Firing %Ln request(s)…", nullptr, m_planModel->plan().burst.requests), 0);
}

void MainWindow::stop()
{
    m_experiment->stop();
    m_watchPanel->stop();
}

void MainWindow::reset()
{
    const bool whatIf = m_whatIf->isActive();
    m_controller->reset();
    if (whatIf) { // the what-if's side goes with it, unless compare mode asks for it
        m_runsArea->setSameRequests(true);
        showCompareMode(m_planModel->plan().compare);
    }
    m_zsetPanel->setFollowing(false);
    m_zsetPanel->clear();
    showStatus(tr("Cleared; the burst's keys are deleted."), 4000);
}

void MainWindow::onRunStarted(LimiterExperiment::Side side)
{
    m_lessonPlace->lendZsetToRuns(false);
    m_runsPlace->setCurrentWidget(m_runsArea);
    if (side == LimiterExperiment::Left) {
        m_runsArea->setSameRequests(true);
        showCompareMode(m_experiment->isCompare());
        m_burstPanel->setRunning(true);
        fireAction()->setEnabled(false);
        stopAction()->setEnabled(true);
        m_watchPanel->releaseTimeline(); // the burst takes the run view; the watch goes on
    }
    showZsetOf(side);
    m_zsetPanel->setFollowing(true);
}

void MainWindow::onRunFinished(LimiterExperiment::Side side)
{
    if (m_scenario.timelineMs) // the scenario's view, once there is something to see
        runView(side)->timeline()->setVisibleRange(m_scenario.timelineMs->first, m_scenario.timelineMs->second);
    if (m_controller->summary(side).failure.kind == BurstFailure::Kind::Connection)
        QTimer::singleShot(0, m_session, [this] { m_session->connectTo(m_session->request()); });
}

void MainWindow::onAllFinished()
{
    m_zsetPanel->setFollowing(false);
    m_zsetPanel->refresh();
    m_burstPanel->setRunning(false);
    fireAction()->setEnabled(true);
    stopAction()->setEnabled(m_watchPanel->isWatching());
    if (const QString status = RunStatus::finished(*m_controller, *m_whatIf); !status.isEmpty())
        showStatus(status, 15000);
}

void MainWindow::showReplayState(LimiterExperiment::Side side)
{
    if (!run(side)->cursor()->isEmpty())
        showZsetOf(side);
}

bool MainWindow::exportAnimation(const AnimationJob& job, QString* error, const AnimationEncoder::Progress& progress)
{
    RunAnimation::Source source;
    source.window = this;
    source.statusBar = statusBar();
    source.left = run(LimiterExperiment::Left);
    source.right = m_right->isVisible() ? run(LimiterExperiment::Right) : nullptr;
    source.size = m_pictureSize.isValid() ? m_pictureSize : size();
    return RunAnimation::write(source, job, error, progress);
}

bool MainWindow::forkFrom(int from, const ForkChange& change)
{
    QString error;
    if (!m_whatIf->fire(from, change, &error)) {
        showStatus(error, 15000);
        return false;
    }
    return true;
}

void MainWindow::showWhatIf(int from, int requests)
{
    m_runsArea->setSameRequests(false); // the what-if starts at request `from`: each side its own bar
    m_burstPanel->setRunning(true);
    fireAction()->setEnabled(false);
    stopAction()->setEnabled(true);
    run(LimiterExperiment::Right)->clear();
    showCompareMode(true);
    updateRunTitles();
    run(LimiterExperiment::Left)->cursor()->setPosition(from);
    showStatus(tr("What if, from request %L1 on: firing %Ln request(s) with the same timestamps…", nullptr, requests)
                   .arg(from + 1),
               0);
}

void MainWindow::showZsetOf(LimiterExperiment::Side side)
{
    m_zsetSide = side;
    m_zsetPanel->showSource(m_controller->zsetSource(side), &run(side)->writes());
}

ScriptDoctorDialog* MainWindow::scriptDoctor()
{
    return m_scriptTools->scriptDoctor();
}

void MainWindow::showScriptDoctor()
{
    m_scriptTools->showScriptDoctor();
}

void MainWindow::showScriptView(const QString& limiterId)
{
    m_scriptTools->showScriptView(limiterId);
}

DebuggerView* MainWindow::stepNextRequest()
{
    return m_scriptTools->stepNextRequest();
}

void MainWindow::showConnectDialog()
{
    ConnectDialog dialog(m_session->request(), this);
    if (dialog.exec() == QDialog::Accepted)
        m_session->connectTo(dialog.request());
}

QWidget* MainWindow::runsArea() const
{
    return m_runs;
}

void MainWindow::applyScenario(const Scenario& scenario)
{
    m_scenario = scenario;
    m_scenario.recording.clear(); // shown below; a scenario saved later carries the run then on screen
    m_planModel->setPlan(scenario.experiment);
    if (!scenario.title.isEmpty())
        setWindowTitle(tr("%1 — zsetlab").arg(scenario.title));
    if (scenario.recording.isEmpty())
        return;
    auto recording = std::make_shared<Recording>();
    QString error;
    if (!ReplayFile::decode(scenario.recording, recording.get(), &error) || recording->isEmpty()) {
        showStatus(tr("The scenario's run does not read (%1): its plan is loaded; press F5 to fire it.").arg(error),
                   15000);
        return;
    }
    showOpenedRecording(std::move(recording), scenario.title.isEmpty() ? tr("the scenario's run") : scenario.title);
}

void MainWindow::showOpenedRecording(std::shared_ptr<const Recording> recording, const QString& name)
{
    m_runsPlace->setCurrentWidget(m_runsArea);
    showCompareMode(false);
    m_controller->showRecording(std::move(recording));
    showReplayState(LimiterExperiment::Left);
    showStatus(tr("Opened the replay %1: step through it with Left and Right, play it with Space.").arg(name));
}

Scenario MainWindow::currentScenario() const
{
    Scenario scenario = m_scenario;
    scenario.experiment = m_planModel->plan();
    const TimelineView* timeline = m_left->timeline();
    if (!timeline->model().isEmpty())
        scenario.timelineMs = std::make_pair(timeline->visibleFrom(), timeline->visibleTo());
    return scenario;
}

bool MainWindow::saveScreenshot(const QString& path, QString* error)
{
    return PictureExport::writePng(this, path, 1.0, error); // only over a regular file, whole or not at all
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    // The docks before the geometry: restored into a hidden window that restoreGeometry() has made
    // full screen or maximized, Qt 6.4 keeps a copy of the layout to apply once the window has
    // grown, and a dock moved meanwhile (ScreenFit tabifies the ZSET panel as the window shows)
    // leaves that copy pointing at freed layout items: a crash at the next layout.
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    if (!settings.contains(QStringLiteral("window/geometry")))
        resize(1440, 860);
    // The plan as it was saved, through the one mapping scenarios use; a setting that no longer
    // reads (another version, a hand edit) leaves the defaults.
    const QJsonObject saved
        = QJsonDocument::fromJson(settings.value(QLatin1String(planSetting)).toByteArray()).object();
    ExperimentPlan plan = m_planModel->plan();
    QString error;
    if (!saved.isEmpty() && plan.readJson(saved, &error) && plan.burst.validate().isEmpty())
        m_planModel->setPlan(plan);
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    // As the user has the window every day: presenter mode's full screen is for the class.
    settings.setValue(QStringLiteral("window/geometry"), m_presentation->everydayGeometry());
    settings.setValue(QStringLiteral("window/state"), m_presentation->everydayLayout());
    settings.setValue(QLatin1String(planSetting),
                      QJsonDocument(m_planModel->plan().toJson()).toJson(QJsonDocument::Compact));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_experiment->stop();
    saveSettings();
    event->accept();
}
