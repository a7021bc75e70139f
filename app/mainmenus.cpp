#include "mainmenus.h"

#include "burst/planfields.h"
#include "burst/planmodel.h"
#include "charts/timelineview.h"
#include "mainwindow.h"
#include "replay/recording.h"
#include "run/exportactions.h"
#include "run/replayactions.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "run/runsarea.h"
#include "run/runview.h"
#include "run/scenarioactions.h"
#include "studies/algorithmswindow.h"
#include "studies/sweepwindow.h"
#include "widgets/language.h"
#include "widgets/manualdialog.h"
#include "widgets/presentation.h"
#include "widgets/screenfit.h"

#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>

MainMenus::MainMenus(MainWindow* window)
    : QObject(window)
    , m_window(window)
{
    createFile();
    createBurst();
    createView();
    createHelp();
}

void MainMenus::createFile()
{
    MainWindow* w = m_window;
    auto* file = translated(w->menuBar()->addMenu(QString()), QT_TR_NOOP("&File"));
    ScenarioActions::Host host;
    host.dialogParent = w;
    host.apply = [w](const Scenario& scenario) { w->applyScenario(scenario); };
    host.current = [w] { return w->currentScenario(); };
    host.run = [w] { return w->run(RunController::Left)->cursor()->recording(); };
    host.status = [w](const QString& message) { w->showStatus(message); };
    w->m_scenarioActions = new ScenarioActions(host, file, w);
    ReplayActions::Host replayHost;
    replayHost.dialogParent = w;
    replayHost.current = [w] { return w->run(RunController::Left)->recording(); };
    replayHost.show = [w](std::shared_ptr<const Recording> recording, const QString& path) {
        // The Burst panel takes the replay's plan: F5 fires the same burst here, live.
        BurstPlan plan;
        QString why;
        if (recording->info().knowledge != ZsetKnowledge::Watched && recording->info().script.isEmpty()
            && PlanFields::fromJson(recording->info().plan, &plan, &why) && plan.limiter) {
            w->m_planModel->edit([&plan](ExperimentPlan& experiment) {
                plan.key = experiment.burst.key;
                experiment.burst = plan;
                experiment.compare = false;
            });
        }
        w->showOpenedRecording(std::move(recording), QFileInfo(path).fileName());
    };
    replayHost.status = [w](const QString& message) { w->showStatus(message); };
    replayHost.shown = [w] { // compare mode's or a what-if's right side plays beside the left
        std::vector<std::shared_ptr<const Recording>> runs {w->run(RunController::Left)->recording()};
        if (w->m_right->isVisibleTo(w) && w->run(RunController::Right)->hasRecording())
            runs.push_back(w->run(RunController::Right)->recording());
        return runs;
    };
    replayHost.language = [] { return Language::current(); };
    replayHost.exportAnimation
        = [w](const AnimationJob& job, QString* error, const AnimationEncoder::Progress& progress) {
              return w->exportAnimation(job, error, progress);
          };
    w->m_replayActions = new ReplayActions(replayHost, file, w);
    ExportActions::Sources sources;
    sources.window = w;
    sources.runs = w->m_runs;
    sources.left = w->m_left;
    sources.zset = w->m_zsetPanel;
    sources.runController = w->m_controller;
    sources.status = [w](const QString& message) { w->showStatus(message, 5000); };
    w->m_exportActions = new ExportActions(sources, file, w);
    file->addSeparator();
    translated(file->addAction(QString(), QKeySequence::Quit, w, &QWidget::close), QT_TR_NOOP("&Quit"));
}

void MainMenus::createBurst()
{
    MainWindow* w = m_window;
    auto* burst = translated(w->menuBar()->addMenu(QString()), QT_TR_NOOP("&Burst"));
    m_fire
        = translated(burst->addAction(QString(), QKeySequence(Qt::Key_F5), w, &MainWindow::fire), QT_TR_NOOP("&Fire"));
    m_stop = translated(burst->addAction(QString(), QKeySequence(Qt::Key_Escape), w, &MainWindow::stop),
                        QT_TR_NOOP("&Stop"));
    m_reset = translated(burst->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_R), w, &MainWindow::reset),
                         QT_TR_NOOP("&Reset"));
    m_stop->setEnabled(false);
    burst->addSeparator();
    translated(burst->addAction(QString(), w, &MainWindow::showConnectDialog), QT_TR_NOOP("&Connect to Redis…"));
    translated(burst->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_D), w, &MainWindow::showScriptDoctor),
               QT_TR_NOOP("Script &Doctor…"));
    translated(burst->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_T), w, [w] { w->stepNextRequest(); }),
               QT_TR_NOOP("S&tep Through the Next Request…"));
}

void MainMenus::createView()
{
    MainWindow* w = m_window;
    auto* view = translated(w->menuBar()->addMenu(QString()), QT_TR_NOOP("&View"));
    view->setObjectName(QStringLiteral("ViewMenu"));
    // The lesson in front from anywhere: the clicker's keys are the lesson's from then on.
    translated(view->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_L), w, &MainWindow::showLesson),
               QT_TR_NOOP("Show the Le&sson"));
    m_compare = translated(view->addAction(QString()), QT_TR_NOOP("&Compare Side by Side"));
    m_compare->setCheckable(true);
    m_compare->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_M));
    connect(m_compare, &QAction::triggered, this,
            [w](bool on) { w->m_planModel->edit([on](ExperimentPlan& plan) { plan.compare = on; }); });
    translated(
        view->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_F), w->m_left->timeline(), &TimelineView::fitAll),
        QT_TR_NOOP("&Fit Timeline"));
    // now.lua beside a unique member, the lines that differ marked.
    translated(view->addAction(QString(), w, [w] { w->showScriptView(QStringLiteral("request-id")); }),
               QT_TR_NOOP("Limiter &Scripts Side by Side…"));
    // The rate sweep and the simulated app servers, in a window of their own.
    translated(view->addAction(QString(), w, [w] { SweepWindow::showFor(w, w->m_session); }),
               QT_TR_NOOP("Collision &Curve and Servers…"));
    // The limiter algorithms on the same traffic: accuracy against memory.
    translated(view->addAction(QString(), w, [w] { AlgorithmsWindow::showFor(w, w->m_session); }),
               QT_TR_NOOP("Compare Al&gorithms…"));
    view->addSeparator();
    Presentation* presentation = w->m_presentation;
    QAction* zoomIn
        = translated(view->addAction(QString(), presentation, &Presentation::zoomIn), QT_TR_NOOP("Zoom &In"));
    zoomIn->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    translated(view->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_Minus), presentation, &Presentation::zoomOut),
               QT_TR_NOOP("Zoom &Out"));
    translated(view->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_0), presentation, &Presentation::resetZoom),
               QT_TR_NOOP("&Actual Size"));
    // The lesson on a stage of its own, made for a projector; the workbench's own presenter mode
    // (everything larger, full screen) stays for showing the tool itself.
    QAction* stage = translated(view->addAction(QString(), QKeySequence(Qt::Key_F11), w, &MainWindow::presentLesson),
                                QT_TR_NOOP("Present the &Lesson"));
    m_texts.add([stage] { stage->setToolTip(tr("The lesson alone, full screen, one step at a time. Esc: back.")); });
    QAction* presenting = translated(view->addAction(QString()), QT_TR_NOOP("&Presenter Mode"));
    presenting->setCheckable(true);
    presenting->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F11));
    m_texts.add([presenting] { presenting->setToolTip(tr("Full screen with larger text, for a projector.")); });
    connect(presenting, &QAction::toggled, presentation, &Presentation::setPresenting);
    QAction* contrast = translated(view->addAction(QString()), QT_TR_NOOP("&High Contrast"));
    contrast->setCheckable(true);
    contrast->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
    connect(contrast, &QAction::toggled, presentation, &Presentation::setHighContrast);
    createLanguage(view);
    view->addSeparator();
    for (const char* name : {"BurstDock", "LessonDock", "WatchDock", "ZsetDock"})
        view->addAction(w->findChild<QDockWidget*>(QLatin1String(name))->toggleViewAction());
}

void MainMenus::createLanguage(QMenu* view)
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

void MainMenus::createHelp()
{
    auto* help = translated(m_window->menuBar()->addMenu(QString()), QT_TR_NOOP("&Help"));
    QAction* manual = translated(help->addAction(QString(), this, &MainMenus::showManual), QT_TR_NOOP("&Manual"));
    manual->setObjectName(QStringLiteral("ManualAction"));
    manual->setShortcut(QKeySequence::HelpContents);
    translated(help->addAction(QString(), this, &MainMenus::showAbout), QT_TR_NOOP("&About zsetlab"));
}

void MainMenus::showManual()
{
    if (!m_manual) {
        m_manual = new ManualDialog(m_window);
        m_manual->setObjectName(QStringLiteral("ManualDialog"));
    }
    if (!m_manual->isVisible())
        ScreenFit::placeOnScreen(m_manual, m_window);
    m_manual->show();
    m_manual->raise();
}

void MainMenus::showAbout()
{
    QMessageBox box(m_window);
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

QAction* MainMenus::translated(QAction* action, const char* text)
{
    m_texts.add([action, text] { action->setText(tr(text)); });
    return action;
}

QMenu* MainMenus::translated(QMenu* menu, const char* text)
{
    m_texts.add([menu, text] { menu->setTitle(tr(text)); });
    return menu;
}
