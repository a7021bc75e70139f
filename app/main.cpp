#include "base/interrupts.h"
#include "base/outputfile.h"
#include "commandline.h"
#include "headlessexport.h"
#include "lesson/lessonexport.h"
#include "mainwindow.h"
#include "replay/replayfile.h"
#include "run/firecontrol.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "run/runview.h"
#include "startupreport.h"
#include "widgets/language.h"
#include "widgets/spotlight.h"

#include <QApplication>
#include <QTextStream>
#include <QTimer>

namespace {
void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("zsetlab"));
    QCoreApplication::setOrganizationName(QStringLiteral("zsetlab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ZSETLAB_VERSION));
}

// The offscreen platform (exports without a display) warns that it cannot pass a window's size
// hints on, once for every widget given a minimum size: noise for a user of the CLI.
QtMessageHandler qtHandler = nullptr;
void quietHandler(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg && message.startsWith(QLatin1String("This plugin does not support propagateSizeHints")))
        return;
    qtHandler(type, context, message);
}
} // namespace

int main(int argc, char* argv[])
{
    installInterruptHandlers(); // before any work: no SIGINT or SIGTERM is lost, however early
    qtHandler = qInstallMessageHandler(quietHandler);
    // The command line first, with no display: --help, --version and usage errors must work over
    // ssh, where a QApplication would abort for want of a display.
    AppCommandLine::Result parsed;
    {
        QCoreApplication early(argc, argv);
        setIdentity();
        parsed = AppCommandLine::parse(QCoreApplication::arguments());
    }
    if (parsed.outcome != AppCommandLine::Result::Outcome::Run) {
        QTextStream(parsed.exitCode() == 0 ? stdout : stderr) << parsed.text;
        return parsed.exitCode();
    }
    const AppOptions& options = parsed.options;
    QTextStream err(stderr);

    Scenario scenario;
    if (!options.scenarioPath.isEmpty()) {
        QString error;
        if (!Scenario::load(options.scenarioPath, &scenario, &error)) {
            err << "zsetlab: " << error << '\n';
            return 2;
        }
    }

    // Every file asked for is looked at before any work: a run is not made for a file that cannot
    // be written, and only a regular file is replaced (a device, a pipe, a link or a folder is not).
    // With --lesson all, --export-png and --export-gif name folders, made when the lesson starts.
    QStringList outputs {options.job.svg, options.job.json, options.pdf};
    if (options.lessonStep != 0)
        outputs << options.job.png << options.animation.path;
    if (options.exporting || options.animating || options.lessonStep >= 0) {
        for (const QString& output : std::as_const(outputs)) {
            if (output.isEmpty())
                continue;
            if (const QString refused = OutputFile::refusal(output); !refused.isEmpty()) {
                err << "zsetlab: " << refused << '\n';
                return 2;
            }
        }
    }

    // Export runs need no display.
    if ((options.exporting || options.animating || options.lessonStep >= 0 || !options.htmlPath.isEmpty())
        && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    setIdentity();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/zsetlab.svg")));
    QApplication::setDesktopFileName(QStringLiteral("org.zsetlab.zsetlab"));

    // The language: --lang, else the scenario's, else the one last chosen, else the system's.
    QString language = Language::chosen();
    if (!scenario.language.isEmpty())
        language = scenario.language;
    if (!options.language.isEmpty())
        language = options.language;
    Language::set(language);
    if (!options.htmlPath.isEmpty()) // a page in the language chosen: no window, no Redis
        return HeadlessExport::writeWebPage(options.replayPath, options.besidePath, options.htmlPath,
                                            Language::current());

    MainWindow window;
    if (!options.scenarioPath.isEmpty())
        window.applyScenario(scenario);
    const RedisServerChoice::Request& request = options.server;
    if (options.lessonStep >= 0 || options.exporting || options.animating)
        window.setPictureSize(options.job.size); // whatever the screen
    if (options.animating) { // a replay needs no Redis: nothing connects
        QString error;
        // What the animation would hold is known from the file's header, before any of it is paid.
        qint64 requests = 0;
        if (!ReplayFile::requestsOf(options.replayPath, &requests, &error)) {
            err << "zsetlab: " << error << '\n';
            return interrupted() ? HeadlessExport::interruptedExitCode : 4;
        }
        if (const QString refused = AnimationExport::sizeRefusal(requests); !refused.isEmpty()) {
            err << "zsetlab: " << refused << '\n';
            return 2; // what was asked does not fit the replay, as a usage error
        }
        window.show();
        if (!window.openReplay(options.replayPath, &error)) {
            err << "zsetlab: " << error << '\n';
            return 4;
        }
        AnimationJob job = options.animation;
        job.size = options.job.size;
        if (const QString refused
            = AnimationExport::refusal(&job, window.run(LimiterExperiment::Left)->cursor()->requests());
            !refused.isEmpty()) {
            err << "zsetlab: " << refused << '\n';
            return 2; // what was asked does not fit the replay, as a usage error
        }
        // Ctrl+C or SIGTERM stops it between two frames: the partial file is removed, exit 130.
        const auto goOn = [](int, int) { return !interrupted(); };
        if (!window.exportAnimation(job, &error, goOn)) {
            if (interrupted()) {
                err << "zsetlab: stopped by a signal; " << job.path << " was not written.\n";
                return HeadlessExport::interruptedExitCode;
            }
            err << "zsetlab: " << error << '\n';
            return HeadlessExport::notWrittenExitCode;
        }
        QTextStream(stdout) << "zsetlab: wrote " << job.path << ", "
                            << AnimationExport::schedule(job.from, job.to, job.speed).size() << " frames\n";
        return 0;
    }
    if (options.lessonStep >= 0) {
        LessonExport::Job job;
        job.step = options.lessonStep;
        job.png = options.job.png;
        job.json = options.job.json;
        job.pdf = options.pdf;
        job.gif = options.animation.path;
        job.size = options.job.size;
        job.scale = options.job.scale;
        LessonExport::Stage stage;
        stage.window = &window;
        stage.session = window.session();
        stage.runs = window.runController();
        stage.lesson = window.lesson();
        stage.showLesson = [&window] { window.showLesson(); };
        window.fireControl()->setRemoteAllowed(options.allowRemote, false); // nobody to ask
        auto* lesson = new LessonExport(stage, job, &window);
        // Queued: a failure while connecting comes before exec(), where exit() would be lost.
        QObject::connect(
            lesson, &LessonExport::finished, &app, [](int code) { QCoreApplication::exit(code); },
            Qt::QueuedConnection);
        // A signal ends the lesson through exec()'s return, so the window deletes its keys; the
        // files of the steps written so far go too.
        onInterrupt([lesson] { lesson->interrupt(); });
        window.show();
        lesson->start(); // listening before connecting: a bad server fails at once
        window.connectToServer(request);
        return QApplication::exec();
    }
    if (options.exporting) {
        HeadlessExport::Job job = options.job;
        job.scenario = scenario;
        HeadlessExport::Stage stage;
        stage.window = &window;
        stage.session = window.session();
        stage.runs = window.runController();
        stage.fireControl = window.fireControl();
        stage.fireControl->setRemoteAllowed(options.allowRemote, false); // nobody to ask
        auto* headless = new HeadlessExport(stage, job, &window);
        // Queued: a failure while connecting comes before exec(), where exit() would be lost.
        QObject::connect(
            headless, &HeadlessExport::finished, &app, [](int code) { QCoreApplication::exit(code); },
            Qt::QueuedConnection);
        onInterrupt([headless] { headless->interrupt(); });
        window.show();
        headless->start(); // listening before connecting: a bad server fails at once
        window.connectToServer(request);
        return QApplication::exec();
    }
    // A signal closes the window as the user would: its keys are deleted on the way out.
    onInterrupt([&window] { window.close(); });
    if (StartupReport::isWanted())
        new StartupReport(&window, window.session());
    window.show();
    if (!options.replayPath.isEmpty()) // once the window is on screen: a refusal is a dialog over it
        QTimer::singleShot(0, &window, [&window, path = options.replayPath] { window.openReplay(path); });
    window.connectToServer(request);
    return QApplication::exec();
}
