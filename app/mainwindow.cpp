#include "mainwindow.h"

#include "manualdialog.h"

#include "algorithmswindow.h"

#include "burstpanel.h"
#include "connectdialog.h"
#include "countschart.h"
#include "debuggerview.h"
#include "docktitlebar.h"
#include "elidinglabel.h"
#include "exportactions.h"
#include "firecontrol.h"
#include "language.h"
#include "lesson.h"
#include "lessonfigure.h"
#include "lessonpanel.h"
#include "numberspanel.h"
#include "outputfile.h"
#include "planfields.h"
#include "planmodel.h"
#include "presentation.h"
#include "recording.h"
#include "replayactions.h"
#include "replayfile.h"
#include "replayplayer.h"
#include "runmodel.h"
#include "runpicture.h"
#include "runsarea.h"
#include "runview.h"
#include "scenarioactions.h"
#include "screenfit.h"
#include "scriptdoctordialog.h"
#include "scriptview.h"
#include "serverbar.h"
#include "serversession.h"
#include "spotlight.h"
#include "sweepwindow.h"
#include "timelineview.h"
#include "transportbar.h"
#include "verticalscrollarea.h"
#include "watchpanel.h"
#include "whatif.h"
#include "zsetkeys.h"
#include "zsetpanel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QBuffer>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFileInfo>
#include <QImageWriter>
#include <QJsonDocument>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScopedValueRollback>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
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
    m_fireControl = new FireControl(m_session, m_experiment, this);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 0, 4, 0);
    m_serverBar = new ServerBar(m_session, central);
    layout->addWidget(m_serverBar);
    for (RunModel*& run : m_runModels)
        run = new RunModel(this);
    // The runs' place; a lesson step whose result is no run (the script, a TTL, the memory) shows
    // its figure there until a run starts again.
    m_runsPlace = new QStackedWidget(central);
    m_runsArea = new RunsArea(m_runModels[LimiterExperiment::Left], m_runModels[LimiterExperiment::Right], m_runsPlace);
    m_runs = m_runsArea->splitter();
    m_left = m_runsArea->left();
    m_right = m_runsArea->right();
    m_right->timeline()->setViewport(m_left->timeline()->viewport()); // compare mode zooms both sides at once
    // Side by side, both show the same chart and their figures in line.
    connect(m_left, &RunView::chartShown, m_right, &RunView::showChart);
    connect(m_right, &RunView::chartShown, m_left, &RunView::showChart);
    m_left->alignFiguresWith(m_right);
    m_right->alignFiguresWith(m_left);
    m_whatIf = new WhatIf({run(LimiterExperiment::Left), m_fireControl, this}, this);
    connect(m_whatIf, &WhatIf::started, this, &MainWindow::showWhatIf);
    connect(m_whatIf, &WhatIf::failed, this, [this](const QString& message) { showStatus(message, 15000); });
    m_runsPlace->addWidget(m_runsArea);
    // The runs set the place's size whichever page is in front; a lesson's figure (or the ZSET
    // panel lent to it) takes what the runs leave, so the docks do not move as the steps change.
    layout->addWidget(m_runsPlace, 1);
    setCentralWidget(central);

    createDocks();
    m_serverStatus = new ElidingLabel(this);
    m_serverStatus->setObjectName(QStringLiteral("ServerStatus"));
    statusBar()->addPermanentWidget(m_serverStatus);
    m_serverStatus->giveWayToMessages(statusBar());
    createMenus();

    m_zsetRefresh = new QTimer(this);
    m_zsetRefresh->setObjectName(QStringLiteral("ZsetRefresh"));
    m_zsetRefresh->setInterval(300);
    connect(m_zsetRefresh, &QTimer::timeout, m_zsetPanel, &ZsetPanel::refresh);

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
    wireExperiment();
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
        m_zsetRefresh->start();
        // The watched key has the runs' place alone: a compare-mode burst beside it would read as
        // part of the watch.
        run(LimiterExperiment::Right)->clear();
        m_right->hide();
    });
    // Esc stops a watch as it stops a burst.
    connect(m_watchPanel, &WatchPanel::runningChanged, this, [this](bool watching) {
        m_stop->setEnabled(watching || m_experiment->isRunning());
        if (!watching && !m_experiment->isRunning())
            m_zsetRefresh->stop();
    });
    restoreSettings();
}

MainWindow::~MainWindow()
{
    // The docks hide as QMainWindow's destructor deletes them, when this is a MainWindow no more.
    m_lessonDock->disconnect(this);
}

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

    LessonStage stage;
    stage.session = m_session;
    stage.experiment = m_experiment;
    stage.fire = [this](const ExperimentPlan& plan, QString* error) {
        const bool fired = m_fireControl->fire(plan);
        if (!fired)
            *error = m_fireControl->error();
        return fired;
    };
    stage.traffic = [this] { return m_planModel->plan().burst; };
    m_lesson = new Lesson(stage, this);
    m_lessonFigure = new LessonFigure(m_lesson, m_runsPlace);
    m_lessonFigure->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored); // the runs' room, no more
    m_runsPlace->addWidget(m_lessonFigure);
    connect(m_lesson, &Lesson::changed, this, [this] {
        // The runs, until a step's result is a figure (the script, a TTL, the memory).
        if (!LessonFigure::draws(m_lesson->spotlight()))
            m_runsPlace->setCurrentWidget(m_runsArea);
    });
    LessonViews views;
    views.left = m_left;
    views.runs = m_runs;
    views.zset = m_zsetPanel;
    views.figure = m_lessonFigure;
    m_spotlight = new Spotlight(this);
    const QList<QWidget*> parts {m_runs,      m_left->numbers(), m_left->timeline(), m_left->countsFrame(),
                                 m_zsetPanel, m_lessonFigure};
    for (QWidget* part : parts)
        m_spotlight->reserve(part);
    views.spotlight = [this](QWidget* part) { pointAt(part); };
    m_lessonPanel = new LessonPanel(m_lesson, views, this);
    auto* lessonDock = new QDockWidget(this);
    m_texts.add([lessonDock] { lessonDock->setWindowTitle(tr("Lesson")); });
    lessonDock->setObjectName(QStringLiteral("LessonDock"));
    lessonDock->setWidget(new VerticalScrollArea(m_lessonPanel, lessonDock));
    addDockWidget(Qt::LeftDockWidgetArea, lessonDock);
    tabifyDockWidget(burstDock, lessonDock);
    m_lessonDock = lessonDock;
    m_lessonPanel->setInFront(false);
    // The clicker's keys stay the lesson's while a result it pointed at covers it (a low screen).
    connect(lessonDock, &QDockWidget::visibilityChanged, this,
            [this](bool visible) { m_lessonPanel->setInFront(visible || m_lessonCovered); });

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
    m_screenFit->setMainArea([this] {
        qint64 area = 0;
        for (const RunView* run : {m_left, m_right})
            if (run->timeline()->isVisible())
                area += qint64(run->timeline()->width()) * run->timeline()->height();
        return area;
    });
    for (QDockWidget* dock : {burstDock, zsetDock, lessonDock, watchDock}) {
        DockTitleBar::install(dock);
        // Another panel in front may be larger than the last: the timeline stays the largest view.
        connect(dock, &QDockWidget::visibilityChanged, this, &MainWindow::panelInFrontChanged, Qt::QueuedConnection);
    }
    m_presentation->setFitCheck([this] {
        const bool fits = m_screenFit->fit();
        keepTimelineLargest();
        return fits;
    });
    connect(m_presentation, &Presentation::zoomLimited, this,
            [this] { showStatus(tr("The text is as large as this screen allows."), 5000); });
}

void MainWindow::wireExperiment()
{
    connect(m_experiment, &LimiterExperiment::runStarted, this, &MainWindow::onRunStarted);
    connect(m_experiment, &LimiterExperiment::batchAvailable, this,
            [this](LimiterExperiment::Side side, const RequestBatch& batch) { run(side)->addBatch(batch); });
    connect(m_experiment, &LimiterExperiment::runFinished, this, &MainWindow::onRunFinished);
    connect(m_experiment, &LimiterExperiment::allFinished, this, &MainWindow::onAllFinished);
    connect(m_experiment, &LimiterExperiment::snapshotTaken, this,
            [this](LimiterExperiment::Side side, const QByteArray& key, qint64 takenAtMs) {
                if (!m_experiment->hasRun(side) || !key.startsWith(m_experiment->engine(side).key()))
                    return; // reset or fired again since
                m_snapshots[side] = takenAtMs;
                if (m_zsetSide == side && !m_experiment->engine(side).isRunning())
                    showZsetOf(side);
            });
    connect(m_experiment, &LimiterExperiment::failed, this,
            [this](const QString& message) { showStatus(message, 15000); });
    auto shownLoss = std::make_shared<QString>(); // cleared on reconnecting, unless something came since
    for (auto side : {LimiterExperiment::Left, LimiterExperiment::Right}) {
        // A dropped connection shows at once, not at the end of the run's reconnect attempts.
        connect(&m_experiment->engine(side), &BurstEngine::connectionLost, this,
                [this, shownLoss](const QString& message) {
                    // The burst's own message would advise starting redis-server on a socket that only
                    // zsetlab can bring back, and does at once.
                    *shownLoss = m_session->origin() == RedisServerChoice::Origin::Private
                        ? tr("Lost the connection: zsetlab's private Redis server stopped. A new, "
                             "empty one starts on the same socket and the burst goes on there.")
                        : message;
                    statusBar()->showMessage(*shownLoss);
                });
        connect(&m_experiment->engine(side), &BurstEngine::connectionRestored, this, [this, shownLoss] {
            if (statusBar()->currentMessage() == *shownLoss)
                statusBar()->clearMessage();
        });
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
            run(side)->showUser(user, m_experiment->engine(side).batchOfUser(user));
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
    m_lessonDock->show();
    m_lessonDock->raise();
}

void MainWindow::createMenus()
{
    auto* file = translated(menuBar()->addMenu(QString()), QT_TR_NOOP("&File"));
    ScenarioActions::Host host;
    host.dialogParent = this;
    host.apply = [this](const Scenario& scenario) { applyScenario(scenario); };
    host.current = [this] { return currentScenario(); };
    host.currentWithRun
        = [this](Scenario* scenario, QString* error) { return currentScenarioWithRun(scenario, error); };
    host.status = [this](const QString& message) { showStatus(message); };
    m_scenarioActions = new ScenarioActions(host, file, this);
    ReplayActions::Host replayHost;
    replayHost.dialogParent = this;
    replayHost.current = [this] { return run(LimiterExperiment::Left)->recording(); };
    replayHost.show = [this](std::shared_ptr<const Recording> recording, const QString& path) {
        // The Burst panel takes the replay's plan: F5 fires the same burst here, live.
        BurstPlan plan;
        QString why;
        if (recording->info().knowledge != ZsetKnowledge::Watched && recording->info().script.isEmpty()
            && PlanFields::fromJson(recording->info().plan, &plan, &why) && plan.limiter) {
            m_planModel->edit([&plan](ExperimentPlan& experiment) {
                plan.key = experiment.burst.key;
                experiment.burst = plan;
                experiment.compare = false;
            });
        }
        showOpenedRecording(std::move(recording), QFileInfo(path).fileName());
    };
    replayHost.status = [this](const QString& message) { showStatus(message); };
    replayHost.shown = [this] { // compare mode's or a what-if's right side plays beside the left
        std::vector<std::shared_ptr<const Recording>> runs {run(LimiterExperiment::Left)->recording()};
        if (m_right->isVisibleTo(this) && run(LimiterExperiment::Right)->hasRecording())
            runs.push_back(run(LimiterExperiment::Right)->recording());
        return runs;
    };
    replayHost.language = [] { return Language::current(); };
    replayHost.exportAnimation
        = [this](const AnimationJob& job, QString* error, const AnimationEncoder::Progress& progress) {
              return exportAnimation(job, error, progress);
          };
    m_replayActions = new ReplayActions(replayHost, file, this);
    ExportActions::Sources sources;
    sources.window = this;
    sources.runs = m_runs;
    sources.left = m_left;
    sources.zset = m_zsetPanel;
    sources.experiment = m_experiment;
    sources.status = [this](const QString& message) { showStatus(message, 5000); };
    m_exportActions = new ExportActions(sources, file, this);
    file->addSeparator();
    translated(file->addAction(QString(), QKeySequence::Quit, this, &QWidget::close), QT_TR_NOOP("&Quit"));

    auto* burst = translated(menuBar()->addMenu(QString()), QT_TR_NOOP("&Burst"));
    m_fire = translated(burst->addAction(QString(), QKeySequence(Qt::Key_F5), this, &MainWindow::fire),
                        QT_TR_NOOP("&Fire"));
    m_stop = translated(burst->addAction(QString(), QKeySequence(Qt::Key_Escape), this, &MainWindow::stop),
                        QT_TR_NOOP("&Stop"));
    m_reset = translated(burst->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_R), this, &MainWindow::reset),
                         QT_TR_NOOP("&Reset"));
    m_stop->setEnabled(false);
    burst->addSeparator();
    translated(burst->addAction(QString(), this, &MainWindow::showConnectDialog), QT_TR_NOOP("&Connect to Redis…"));
    translated(burst->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_D), this, &MainWindow::showScriptDoctor),
               QT_TR_NOOP("Script &Doctor…"));
    translated(burst->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_T), this, [this] { stepNextRequest(); }),
               QT_TR_NOOP("S&tep Through the Next Request…"));

    auto* view = translated(menuBar()->addMenu(QString()), QT_TR_NOOP("&View"));
    view->setObjectName(QStringLiteral("ViewMenu"));
    // The lesson in front from anywhere: the clicker's keys are the lesson's from then on.
    translated(view->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_L), this, &MainWindow::showLesson),
               QT_TR_NOOP("Show the Le&sson"));
    m_compare = translated(view->addAction(QString()), QT_TR_NOOP("&Compare Side by Side"));
    m_compare->setCheckable(true);
    m_compare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    connect(m_compare, &QAction::triggered, this,
            [this](bool on) { m_planModel->edit([on](ExperimentPlan& plan) { plan.compare = on; }); });
    translated(
        view->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_F), m_left->timeline(), &TimelineView::fitAll),
        QT_TR_NOOP("&Fit Timeline"));
    // now.lua beside a unique strategy, the lines that differ marked.
    translated(view->addAction(QString(), this, [this] { showScriptView(QStringLiteral("request-id")); }),
               QT_TR_NOOP("Limiter &Scripts Side by Side…"));
    // The rate sweep and the simulated app servers, in a window of their own.
    translated(view->addAction(QString(), this, [this] { SweepWindow::showFor(this, m_session); }),
               QT_TR_NOOP("Collision &Curve and Servers…"));
    // The limiter algorithms on the same traffic: accuracy against memory.
    translated(view->addAction(QString(), this, [this] { AlgorithmsWindow::showFor(this, m_session); }),
               QT_TR_NOOP("Compare Al&gorithms…"));
    view->addSeparator();
    QAction* zoomIn
        = translated(view->addAction(QString(), m_presentation, &Presentation::zoomIn), QT_TR_NOOP("Zoom &In"));
    zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    translated(
        view->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_Minus), m_presentation, &Presentation::zoomOut),
        QT_TR_NOOP("Zoom &Out"));
    translated(view->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_0), m_presentation, &Presentation::resetZoom),
               QT_TR_NOOP("&Actual Size"));
    QAction* presenting = translated(view->addAction(QString()), QT_TR_NOOP("&Presenter Mode"));
    presenting->setCheckable(true);
    presenting->setShortcut(QKeySequence(Qt::Key_F11));
    m_texts.add([presenting] { presenting->setToolTip(tr("Full screen with larger text, for a projector.")); });
    connect(presenting, &QAction::toggled, m_presentation, &Presentation::setPresenting);
    QAction* contrast = translated(view->addAction(QString()), QT_TR_NOOP("&High Contrast"));
    contrast->setCheckable(true);
    contrast->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
    connect(contrast, &QAction::toggled, m_presentation, &Presentation::setHighContrast);
    createLanguageMenu(view);
    view->addSeparator();
    for (const char* name : {"BurstDock", "LessonDock", "WatchDock", "ZsetDock"})
        view->addAction(findChild<QDockWidget*>(QLatin1String(name))->toggleViewAction());

    auto* help = translated(menuBar()->addMenu(QString()), QT_TR_NOOP("&Help"));
    QAction* manual = translated(help->addAction(QString(), this, &MainWindow::showManual), QT_TR_NOOP("&Manual"));
    manual->setObjectName(QStringLiteral("ManualAction"));
    manual->setShortcut(QKeySequence::HelpContents);
    translated(help->addAction(QString(), this, &MainWindow::showAbout), QT_TR_NOOP("&About zsetlab"));
}

void MainWindow::createLanguageMenu(QMenu* view)
{
    QMenu* languages = translated(view->addMenu(QString()), QT_TR_NOOP("&Language"));
    auto* group = new QActionGroup(languages);
    for (const QString& code : Language::available()) {
        QAction* action = languages->addAction(Language::nativeName(code)); // each in its own language
        action->setCheckable(true);
        action->setChecked(code == Language::current());
        action->setData(code);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [code] { Language::choose(code); });
    }
}

QAction* MainWindow::translated(QAction* action, const char* text)
{
    m_texts.add([action, text] { action->setText(tr(text)); });
    return action;
}

QMenu* MainWindow::translated(QMenu* menu, const char* text)
{
    m_texts.add([menu, text] { menu->setTitle(tr(text)); });
    return menu;
}

void MainWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        m_texts.retranslate();
        showServerStatus(); // "private server" and the like, in the new language
        m_exportActions->retranslate();
        m_scenarioActions->retranslate();
        m_replayActions->retranslate();
        updateRunTitles();
        // Once every panel has its new texts: a longer language may need the room of a dock.
        QTimer::singleShot(0, this, &MainWindow::fitScreen);
    }
    // Not when fitScreen() itself restored the state (keepOnScreen): each fit would ask for the
    // next, and the window would be laid out again and again, endlessly.
    if (event->type() == QEvent::WindowStateChange && !m_fitting)
        QTimer::singleShot(0, this, &MainWindow::fitScreen);
}

void MainWindow::fitScreen()
{
    // A window that grew past its screen (its minimum size grows with compare mode before the
    // docks are rearranged) is taken out of full screen by some window managers (openbox): the
    // presenter asks for it again, a few times at most, then the fit below decides.
    if (m_presentation->isPresenting() && !isFullScreen() && m_fullScreenAgain < 3) {
        ++m_fullScreenAgain;
        showFullScreen();
        return; // fitted on the state change that follows
    }
    if (isFullScreen())
        m_fullScreenAgain = 0;
    // Sizes that settle after a zoom (panels that measure their text later) can still push the
    // window past its screen: then the text steps back down to the largest size that fits.
    bool limited = false;
    // Its own resizes are not new reasons to fit again: a minimum past the screen would loop.
    const QScopedValueRollback<bool> fitting(m_fitting, true);
    bool fitted = m_screenFit->fit();
    if (!fitted && m_presentation->zoom() > 1.0 + 1e-9 && !m_zoomOutConfirmed) {
        // A minimum size past the screen may last a moment only (a panel that takes its new
        // contents' size on a later event, sooner or later as the machine is busy): the text
        // steps down only when the window still does not fit a little later.
        if (!m_zoomOutPending) {
            m_zoomOutPending = true;
            QTimer::singleShot(250, this, [this] {
                m_zoomOutPending = false;
                const QScopedValueRollback<bool> confirmed(m_zoomOutConfirmed, true);
                fitScreen();
            });
        }
        keepTimelineLargest();
        return;
    }
    while (!fitted && m_presentation->zoom() > 1.0 + 1e-9) {
        m_presentation->zoomOut();
        limited = true;
        fitted = m_screenFit->fit();
    }
    keepTimelineLargest();
    if (limited)
        showStatus(tr("The text is as large as this screen allows."), 5000);
}

void MainWindow::panelInFrontChanged()
{
    // The charts into tabs first; should the timeline still be smaller than the panel now in
    // front (the Burst panel, wider than the lesson, at 1280x720), the ZSET panel joins the tabs.
    keepTimelineLargest();
    const QScopedValueRollback<bool> fitting(m_fitting, true); // its resizes are not new reasons to fit
    if (m_screenFit->keepMainViewLargest())
        keepTimelineLargest();
}

void MainWindow::keepTimelineLargest()
{
    // Larger than the side panel in front: the counts chart goes into a tab beside it if need be.
    const qint64 largestPanel = m_screenFit->largestPanelArea();
    const int runs = m_right->isVisible() ? 2 : 1;
    for (RunView* run : {m_left, m_right})
        run->setTimelineAtLeast(largestPanel / runs);
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // A panel that grew (a longer text, a larger font) can push the window past its screen.
    if (!m_fitting && screen() && !screen()->availableGeometry().contains(frameGeometry()))
        QTimer::singleShot(0, this, &MainWindow::fitScreen);
}

void MainWindow::moveEvent(QMoveEvent* event)
{
    QMainWindow::moveEvent(event);
    // A window manager adds its title bar after the window is shown: the same size then reaches
    // past the screen's bottom (the status line of a 1280x720 projector hidden under it). Only a
    // new frame refits: a window the user drags partly off the screen stays where it is put.
    const QSize frame = frameGeometry().size() - size();
    if (frame == m_frameSeen)
        return;
    m_frameSeen = frame;
    if (screen() && !screen()->availableGeometry().contains(frameGeometry()))
        QTimer::singleShot(0, this, &MainWindow::fitScreen);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    QTimer::singleShot(0, this, &MainWindow::fitScreen);
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
    m_compare->setChecked(on);
    const bool wasVisible = m_right->isVisible();
    m_right->setVisible(on);
    if (on && !wasVisible)
        m_runs->setSizes({1000, 1000});
    updateRunTitles();
    // Two runs side by side may push the ZSET panel into the tabs; one alone gives it its place back.
    if (on != wasVisible) {
        m_screenFit->contentsChanged();
        QTimer::singleShot(0, this, &MainWindow::fitScreen);
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
    m_experiment->reset();
    if (m_whatIf->isActive()) { // the what-if's side goes with it, unless compare mode asks for it
        m_whatIf->clear();
        m_runsArea->setSameRequests(true);
        showCompareMode(m_planModel->plan().compare);
    }
    m_snapshots = {};
    m_zsetRefresh->stop();
    for (RunModel* side : m_runModels)
        side->clear();
    m_zsetPanel->clear();
    showStatus(tr("Cleared; the burst's keys are deleted."), 4000);
}

void MainWindow::onRunStarted(LimiterExperiment::Side side)
{
    lendZsetToRuns(false);
    m_runsPlace->setCurrentWidget(m_runsArea);
    const BurstEngine& engine = m_experiment->engine(side);
    if (side == LimiterExperiment::Left) {
        m_whatIf->clear();
        m_runsArea->setSameRequests(true);
        m_leftIsOpenedReplay = false;
        run(LimiterExperiment::Right)->clear();
        showCompareMode(m_experiment->isCompare());
        m_burstPanel->setRunning(true);
        m_fire->setEnabled(false);
        m_stop->setEnabled(true);
        m_watchPanel->releaseTimeline(); // the burst takes the run view; the watch goes on
    }
    // The right side replays the left side's timestamps (a what-if, the recording's): the same
    // origin lines them up.
    qint64 origin = side == LimiterExperiment::Right ? m_experiment->engine(LimiterExperiment::Left).startMs() : -1;
    if (side == LimiterExperiment::Right && m_whatIf->isActive())
        origin = m_whatIf->originMs();
    RunModel::Shape shape;
    shape.requests = engine.plan().requests;
    shape.limit = engine.plan().limit;
    shape.originMs = origin;
    shape.users = engine.plan().users;
    run(side)->start(shape);
    m_snapshots[side].reset();
    if (side == LimiterExperiment::Left)
        m_snapshots[LimiterExperiment::Right].reset();
    showZsetOf(side);
    m_zsetRefresh->start();
}

void MainWindow::onRunFinished(LimiterExperiment::Side side, const BurstSummary& summary)
{
    run(side)->finish(summary);
    // The run, request by request, to step through and save.
    const BurstEngine& engine = m_experiment->engine(side);
    if (engine.log().keepsRequests() && summary.sent > 0) {
        const QString source = m_whatIf->isActive() ? QStringLiteral("fork")
            : m_experiment->isCompare()             ? QStringLiteral("compare")
                                                    : QStringLiteral("burst");
        auto recording = std::make_shared<Recording>(Recording::fromEngine(engine, source));
        if (m_whatIf->isActive() && side == LimiterExperiment::Right) // it went on from the run's ZSET then
            recording->setSeeded(m_whatIf->seeded(engine.plan()));
        run(side)->setRecording(std::move(recording));
    }
    if (m_scenario.timelineMs) // the scenario's view, once there is something to see
        runView(side)->timeline()->setVisibleRange(m_scenario.timelineMs->first, m_scenario.timelineMs->second);
    if (summary.failure.kind == BurstFailure::Kind::Connection)
        QTimer::singleShot(0, m_session, [this] { m_session->connectTo(m_session->request()); });
}

void MainWindow::onAllFinished()
{
    m_zsetRefresh->stop();
    m_zsetPanel->refresh();
    m_burstPanel->setRunning(false);
    m_fire->setEnabled(true);
    m_stop->setEnabled(m_watchPanel->isWatching());
    auto figuresOf = [](const BurstSummary& summary) {
        return summary.addedKnown()
            ? tr("%L1 sent, %L2 stored, %L3 lost").arg(summary.sent).arg(summary.stored).arg(summary.lost)
            : tr("%L1 sent; stored unknown (the replies do not say), %Ln member(s) in the ZSET", nullptr,
                 int(std::min<qint64>(summary.membersAtEnd, std::numeric_limits<int>::max())))
                  .arg(summary.sent);
    };
    if (m_whatIf->isActive()) {
        const BurstSummary& fork = m_experiment->engine(LimiterExperiment::Right).summary();
        if (m_experiment->hasRun(LimiterExperiment::Right))
            showStatus(fork.failure.isFailure() ? fork.failure.message
                                                : m_whatIf->comparison(fork, run(LimiterExperiment::Left)->title(),
                                                                       run(LimiterExperiment::Right)->title()),
                       15000);
        return;
    }
    // In compare mode both sides, each named: the fix's figures alone would hide the loss.
    const BurstSummary& left = m_experiment->engine(LimiterExperiment::Left).summary();
    QString figures = figuresOf(left);
    bool stopped = left.stopped;
    BurstFailure failure = left.failure;
    if (m_experiment->hasRun(LimiterExperiment::Right)) {
        const BurstSummary& right = m_experiment->engine(LimiterExperiment::Right).summary();
        figures = tr("%1: %2 · %3: %4")
                      .arg(run(LimiterExperiment::Left)->title(), figures, run(LimiterExperiment::Right)->title(),
                           figuresOf(right));
        stopped = stopped || right.stopped;
        if (!failure.isFailure())
            failure = right.failure;
    }
    showStatus(failure.isFailure() ? failure.message
                   : stopped       ? tr("Stopped: %1.").arg(figures)
                                   : tr("Done: %1.").arg(figures),
               15000);
}

void MainWindow::showReplayState(LimiterExperiment::Side side)
{
    const ReplayPlayer* player = run(side)->cursor();
    if (player->isEmpty())
        return;
    m_zsetSide = side;
    const ReplayState state = player->recording()->stateAt(player->position(), true);
    m_zsetPanel->showState(state,
                           tr("%1 · %2 · after request %L3 of %L4")
                               .arg(QString::fromUtf8(state.key), player->recording()->info().strategy)
                               .arg(state.request)
                               .arg(state.requests));
}

bool MainWindow::exportAnimation(const AnimationJob& job, QString* error, const AnimationEncoder::Progress& progress)
{
    ReplayPlayer* player = run(LimiterExperiment::Left)->cursor();
    AnimationJob checked = job;
    if (const QString refused = AnimationExport::refusal(&checked, player->requests()); !refused.isEmpty()) {
        *error = refused;
        return false;
    }
    if (!checked.wholeWindow) {
        // The run alone, drawn apart at the frames' size: the window stays as the user left it.
        QVector<RunPicture::Side> sides {{player->recording(), run(LimiterExperiment::Left)->title()}};
        const ReplayPlayer* right = run(LimiterExperiment::Right)->cursor();
        if (m_right->isVisible() && !right->isEmpty())
            sides.append({right->recording(), run(LimiterExperiment::Right)->title()});
        const QSize size = checked.size.isValid() ? checked.size
            : m_pictureSize.isValid()             ? m_pictureSize
                                                  : this->size();
        RunPicture picture(sides, size);
        return AnimationExport::write(
            checked, [&picture](int request) { return picture.at(request); }, error, progress);
    }
    player->pause();
    const int was = player->position();
    const QString status = statusBar()->currentMessage();
    statusBar()->clearMessage(); // "step with Left and Right" means nothing in an animation
    // Each frame is the window at that request, drawn after what the event loop has pending.
    const bool written = AnimationExport::write(
        checked,
        [this, player](int request) {
            player->setPosition(request);
            QCoreApplication::sendPostedEvents();
            return grab().toImage();
        },
        error, progress);
    player->setPosition(was);
    statusBar()->showMessage(status);
    return written;
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
    m_fire->setEnabled(false);
    m_stop->setEnabled(true);
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
    if (run(side)->isReplaying() || (side == LimiterExperiment::Left && m_leftIsOpenedReplay)) {
        showReplayState(side);
        return;
    }
    m_zsetSide = side;
    const BurstEngine& engine = m_experiment->engine(side);
    // With several users, the key of the user the run view shows, and that user's figures.
    const int user = run(side)->user();
    const QByteArray key = engine.plan().userKey(engine.key(), std::max(user, 0));
    const QString caption = tr("%1 · %2").arg(QString::fromUtf8(key), engine.summary().strategy);
    if (!m_snapshots[side] || engine.isRunning()) {
        m_zsetPanel->showKey(key, &run(side)->writes(), caption);
        return;
    }
    const BurstSummary& summary = engine.summary();
    ZsetPanel::Snapshot snapshot;
    snapshot.key = LimiterExperiment::snapshotKeyOf(key);
    snapshot.takenAtMs = *m_snapshots[side];
    snapshot.liveKey = key;
    const qint64 stored = user >= 0 && user < summary.perUser.size() ? summary.perUser[user].stored : summary.stored;
    snapshot.stored = summary.addedKnown() ? stored : -1;
    snapshot.windowMs = engine.plan().windowMs;
    m_zsetPanel->showSnapshot(snapshot, &run(side)->writes(), caption);
}

ScriptDoctorDialog* MainWindow::scriptDoctor()
{
    if (!m_scriptDoctor) {
        m_scriptDoctor = new ScriptDoctorDialog(m_session, this);
        connect(m_scriptDoctor, &ScriptDoctorDialog::scriptChosen, this,
                [this](const LimiterScript& script, std::shared_ptr<const CallTemplate> call, ReplyStyle style) {
                    m_planModel->useCustomLimiter(LimiterCatalog::custom(script, std::move(call), style));
                    showStatus(tr("%1 is ready: press F5 to fire it.").arg(script.name()));
                });
    }
    return m_scriptDoctor;
}

void MainWindow::showScriptDoctor()
{
    if (!scriptDoctor()->isVisible())
        ScreenFit::placeOnScreen(scriptDoctor(), this);
    scriptDoctor()->show();
    scriptDoctor()->raise();
}

void MainWindow::showScriptView(const QString& limiterId)
{
    if (!m_scriptView)
        m_scriptView = new ScriptView(this);
    m_scriptView->showLimiter(limiterId);
    if (!m_scriptView->isVisible())
        ScreenFit::placeOnScreen(m_scriptView, this);
    m_scriptView->show();
    m_scriptView->raise();
}

DebuggerView* MainWindow::stepNextRequest()
{
    if (!m_debuggerView)
        m_debuggerView = new DebuggerView(m_session, this);
    const bool ran = m_experiment->hasRun(LimiterExperiment::Left);
    const BurstEngine& engine = m_experiment->engine(LimiterExperiment::Left);
    const BurstPlan plan = ran ? engine.plan() : m_planModel->plan().burst;
    // The next request: the last one's `now` again, so it lands in the same millisecond, called as
    // the burst calls its limiter.
    const RequestLog& log = engine.log();
    const qint64 now = ran && log.truthPrefix() > 0 ? log.now(log.truthPrefix() - 1)
                                                    : QDateTime::currentMSecsSinceEpoch() * plan.nowUnitsPerMs();
    CallValues values;
    // The run's own key, or before any run a fresh one: a fixed name may hold data this window did
    // not create, and the synchronous mode keeps the script's writes.
    values.key = ran ? engine.key() : ZsetKeys::freshRunKey();
    values.unitsPerMs = plan.nowUnitsPerMs();
    values.nowMicros = now * (1000 / values.unitsPerMs);
    values.windowMs = plan.windowMs;
    values.limit = plan.limit;
    values.seq = ran ? log.size() + 1 : 1;
    values.uuid = QByteArrayLiteral("next-request");
    const RedisArgs call = plan.limiter->evalsha(values); // EVALSHA sha numkeys KEYS... ARGV...
    const int keyCount = call.value(2).toInt();
    m_debuggerView->setRequest(plan.script(), call.mid(3, keyCount), call.mid(3 + keyCount),
                               tr("%1 on %2, now = %3 (the last request's millisecond)")
                                   .arg(plan.script().name(), QString::fromUtf8(values.key))
                                   .arg(now));
    if (!m_debuggerView->isVisible())
        ScreenFit::placeOnScreen(m_debuggerView, this);
    m_debuggerView->show();
    m_debuggerView->raise();
    return m_debuggerView;
}

void MainWindow::lendZsetToRuns(bool lend)
{
    if (lend == m_zsetLent)
        return;
    m_zsetLent = lend;
    if (lend) {
        QWidget* panel = m_zsetArea->takeWidget(); // out of its dock, whose tab goes with it
        panel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored); // the runs' room, no more
        m_runsPlace->addWidget(panel);
        m_zsetDock->hide();
        return;
    }
    m_runsPlace->setCurrentWidget(m_runsArea);
    m_runsPlace->removeWidget(m_zsetPanel);
    m_zsetPanel->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    m_zsetArea->setWidget(m_zsetPanel);
    m_zsetDock->show();
    if (!m_lessonDock->visibleRegion().isEmpty() || m_lessonDock->isVisible())
        m_lessonDock->raise(); // back in the tabs, behind the lesson
}

void MainWindow::pointAt(QWidget* part)
{
    // A part in the tabs of the lesson's place (a low screen) first gets its own place back if
    // there is room now; if not, it is shown over the lesson until the step changes.
    if (!m_lessonDock) { // the lesson panel shows its first step while the window is being made
        m_spotlight->light(part);
        return;
    }
    if (part == m_spotlight->lit())
        return; // shown already (the lesson asks again as its text changes)
    if (part && !m_lessonCovered)
        fitScreen();
    // The ZSET table in the lesson's tabs would cover the lesson and its result line: it takes the
    // runs' place instead, as wide as the window allows, for as long as the step points at it.
    if (part == m_zsetPanel && !m_zsetLent && m_screenFit->isDockMoved() && m_lessonDock->isVisible())
        lendZsetToRuns(true);
    else if (part != m_zsetPanel)
        lendZsetToRuns(false);
    const bool lessonShown = !m_lessonDock->visibleRegion().isEmpty();
    m_spotlight->light(part);
    if (part && lessonShown && m_lessonDock->visibleRegion().isEmpty()) {
        m_lessonCovered = true;
        m_lessonPanel->setInFront(true);
    } else if (!part && m_lessonCovered) {
        m_lessonCovered = false;
        showLesson();
    }
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
    run(LimiterExperiment::Left)->showRecording(std::move(recording));
    m_leftIsOpenedReplay = true;
    showReplayState(LimiterExperiment::Left);
    showStatus(tr("Opened the replay %1: step through it with Left and Right, play it with Space.").arg(name));
}

bool MainWindow::currentScenarioWithRun(Scenario* scenario, QString* error) const
{
    const std::shared_ptr<const Recording> recording = run(LimiterExperiment::Left)->cursor()->recording();
    if (!recording || recording->isEmpty()) {
        *error = tr("There is no run on screen to carry: fire a burst or open a replay first.");
        return false;
    }
    *scenario = currentScenario();
    scenario->recording = ReplayFile::encode(*recording);
    if (scenario->recording.size() > Scenario::maxRecordingBytes) {
        *error = tr("This run takes %L1 KiB as a replay, more than a scenario carries (%L2 KiB): save it with File "
                    "> Save Replay instead.")
                     .arg(scenario->recording.size() / 1024)
                     .arg(Scenario::maxRecordingBytes / 1024);
        return false;
    }
    return true;
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
    const QPixmap picture = grab();
    QBuffer bytes;
    bytes.open(QIODevice::WriteOnly);
    QImageWriter writer(&bytes, "png");
    if (!writer.write(picture.toImage())) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(path, writer.errorString());
        return false;
    }
    QString why;
    if (!OutputFile::write(path, bytes.data(), &why)) { // only over a regular file, whole or not at all
        if (error)
            *error = why;
        return false;
    }
    return true;
}

void MainWindow::showManual()
{
    if (!m_manual) {
        m_manual = new ManualDialog(this);
        m_manual->setObjectName(QStringLiteral("ManualDialog"));
    }
    if (!m_manual->isVisible())
        ScreenFit::placeOnScreen(m_manual, this);
    m_manual->show();
    m_manual->raise();
}

void MainWindow::showAbout()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("About zsetlab"));
    box.setIconPixmap(QIcon(QStringLiteral(":/icons/zsetlab.svg")).pixmap(96, 96));
    box.setText(tr("<h3>zsetlab %1</h3>"
                   "<p>Fire request bursts at a real Redis and watch a sliding-window rate limiter kept in a "
                   "ZSET count wrong when the member is the timestamp.</p>"
                   "<p>Atomic is not correct: the script runs without races, yet requests in the same "
                   "millisecond overwrite one member.</p>")
                    .arg(QStringLiteral(ZSETLAB_VERSION)));
    box.exec();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
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
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QLatin1String(planSetting),
                      QJsonDocument(m_planModel->plan().toJson()).toJson(QJsonDocument::Compact));
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_experiment->stop();
    saveSettings();
    event->accept();
}
