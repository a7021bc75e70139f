#include "animation/animationexport.h"
#include "animation/animationreader.h"
#include "cliprocess.h"
#include "commandline.h"
#include "redis/redisconnection.h"
#include "replay/recording.h"
#include "replay/replayfile.h"
#include "sourcetree.h"
#include "testbursts.h"
#include "testredis.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <chrono>
#include <csignal>
#include <sys/stat.h>

// zsetlab's own command line: read before any display exists, so that --help, --version and usage
// errors work over ssh.
class TestCommandLine : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void parses_data();
    void parses();
    void aFileNamedAloneIsOpened();
    void helpAndVersionNeedNoDisplay_data();
    void helpAndVersionNeedNoDisplay();
    void usageErrorsNeedNoDisplay_data();
    void usageErrorsNeedNoDisplay();
    void aReplayBecomesAnAnimationWithoutADisplay();
    void aReplayBecomesAWebPageWithoutADisplay();
    void anExportGoesOnlyOverARegularFile();
    void aSignalStopsAnAnimationAndLeavesNoFile();
    void theStartIsSaidWhenAsked();

private:
    QString fiveRequestReplay(const QTemporaryDir& dir, int requests = 5);
};

using Outcome = AppCommandLine::Result::Outcome;
Q_DECLARE_METATYPE(Outcome)

void TestCommandLine::initTestCase()
{
    QCoreApplication::setApplicationName(QStringLiteral("zsetlab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ZSETLAB_VERSION));
}

void TestCommandLine::parses_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<Outcome>("outcome");
    QTest::addColumn<QString>("text");
    QTest::newRow("nothing") << args({}) << Outcome::Run << QString();
    QTest::newRow("--help lists --lang") << args({"--help"}) << Outcome::Help << "--lang <en|vi>";
    QTest::newRow("-h") << args({"-h"}) << Outcome::Help << "--export-png";
    QTest::newRow("--help-all") << args({"--help-all"}) << Outcome::Help << "-platform NAME";
    QTest::newRow("--version") << args({"--version"}) << Outcome::Version << "zsetlab " ZSETLAB_VERSION;
    QTest::newRow("Qt's -platform") << args({"-platform", "offscreen"}) << Outcome::Run << QString();
    QTest::newRow("Qt's -reverse and -style") << args({"-reverse", "-style", "fusion"}) << Outcome::Run << QString();
    QTest::newRow("unknown option") << args({"--bogus"}) << Outcome::UsageError << "Unknown option 'bogus'";
    QTest::newRow("a file to open") << args({"run.zsetreplay"}) << Outcome::Run << QString();
    QTest::newRow("two files") << args({"a.zsetreplay", "b.json"}) << Outcome::UsageError << "one file at a time";
    QTest::newRow("a replay and a scenario")
        << args({"a.zsetreplay", "--scenario", "b.json"}) << Outcome::UsageError << "not both";
    QTest::newRow("missing value") << args({"--redis"}) << Outcome::UsageError << "redis";
    QTest::newRow("bad language") << args({"--lang", "fr"}) << Outcome::UsageError << "--lang must be en or vi";
    QTest::newRow("--private") << args({"--private"}) << Outcome::Run << QString();
    QTest::newRow("--private with --redis")
        << args({"--private", "--redis", "redis://127.0.0.1"}) << Outcome::UsageError << "--private";
    QTest::newRow("export without scenario")
        << args({"--export-png", "x.png"}) << Outcome::UsageError << "need --scenario";
    QTest::newRow("bad size") << args({"--scenario", "s.json", "--export-png", "x.png", "--size", "big"})
                              << Outcome::UsageError << "--size";
    // Issue #44: --export-gif --size 8000x8000 took 4.85 GB for 20 frames. 4K UHD at most, with why.
    QTest::newRow("a GIF of 8000x8000") << args({"r.zsetreplay", "--export-gif", "x.gif", "--size", "8000x8000"})
                                        << Outcome::UsageError << "from 320x240 to 3840x2160";
    QTest::newRow("a PNG wider than 4K") << args(
        {"--scenario", "s.json", "--export-png", "x.png", "--size", "3841x900"})
                                         << Outcome::UsageError << "held in memory";
    QTest::newRow("a GIF of 4K") << args({"r.zsetreplay", "--export-gif", "x.gif", "--size", "3840x2160"})
                                 << Outcome::Run << QString();
    QTest::newRow("--redis that does not parse")
        << args({"--redis", "redis://[::1"}) << Outcome::UsageError << "--redis: ";
    // The window asks before firing at a remote server; an export has nobody to ask.
    QTest::newRow("animation without a replay")
        << args({"--export-gif", "x.gif"}) << Outcome::UsageError << "add --replay FILE";
    QTest::newRow("gif as a video") << args({"r.zsetreplay", "--export-video", "x.gif"}) << Outcome::UsageError
                                    << ".mp4 or .webm";
    QTest::newRow("bad speed") << args({"r.zsetreplay", "--export-gif", "x.gif", "--speed", "0"}) << Outcome::UsageError
                               << "--speed";
    QTest::newRow("--to before --from") << args({"r.zsetreplay", "--export-gif", "x.gif", "--from", "5", "--to", "2"})
                                        << Outcome::UsageError << "--to";
    QTest::newRow("--from alone") << args({"--from", "2"}) << Outcome::UsageError << "goes with --export-gif";
    QTest::newRow("an animation") << args({"r.zsetreplay", "--export-video", "x.webm", "--from", "2", "--speed", "2"})
                                  << Outcome::Run << QString();
    QTest::newRow("a web page") << args({"r.zsetreplay", "--export-html", "r.html", "--beside", "s.zsetreplay"})
                                << Outcome::Run << QString();
    QTest::newRow("a web page without a replay")
        << args({"--export-html", "r.html"}) << Outcome::UsageError << "add --replay FILE";
    QTest::newRow("--beside alone") << args({"r.zsetreplay", "--beside", "s.zsetreplay"}) << Outcome::UsageError
                                    << "--beside goes with --export-html";
    QTest::newRow("a web page and a GIF") << args({"r.zsetreplay", "--export-html", "r.html", "--export-gif", "r.gif"})
                                          << Outcome::UsageError << "without --export-gif";
    QTest::newRow("remote server in the window") << args({"--redis", "redis://10.1.2.3"}) << Outcome::Run << QString();
    QTest::newRow("remote server, export")
        << args({"--scenario", "s.json", "--export-png", "x.png", "--redis", "redis://10.1.2.3"}) << Outcome::UsageError
        << "add --allow-remote";
    QTest::newRow("remote server, export, --allow-remote")
        << args({"--scenario", "s.json", "--export-png", "x.png", "--redis", "redis://10.1.2.3", "--allow-remote"})
        << Outcome::Run << QString();
}

void TestCommandLine::parses()
{
    QFETCH(QStringList, arguments);
    QFETCH(Outcome, outcome);
    QFETCH(QString, text);
    const AppCommandLine::Result result = AppCommandLine::parse(QStringList {QStringLiteral("zsetlab")} + arguments);
    QCOMPARE(result.outcome, outcome);
    QVERIFY2(result.text.contains(text), qPrintable(result.text));
    QCOMPARE(result.exitCode(), outcome == Outcome::UsageError ? 2 : 0);
}

void TestCommandLine::aFileNamedAloneIsOpened()
{
    // As a desktop opens a file by double click: a replay, or a scenario (.json).
    const auto replay = AppCommandLine::parse({QStringLiteral("zsetlab"), QStringLiteral("run.zsetreplay")});
    QCOMPARE(replay.options.replayPath, QStringLiteral("run.zsetreplay"));
    QVERIFY(replay.options.scenarioPath.isEmpty());
    const auto scenario = AppCommandLine::parse({QStringLiteral("zsetlab"), QStringLiteral("demo.JSON")});
    QCOMPARE(scenario.options.scenarioPath, QStringLiteral("demo.JSON"));
    QVERIFY(scenario.options.replayPath.isEmpty());
    const auto flag
        = AppCommandLine::parse({QStringLiteral("zsetlab"), QStringLiteral("--replay"), QStringLiteral("x")});
    QCOMPARE(flag.options.replayPath, QStringLiteral("x"));
}

void TestCommandLine::helpAndVersionNeedNoDisplay_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");
    QTest::newRow("--help") << args({"--help"}) << "--lang <en|vi>";
    QTest::newRow("--version") << args({"--version"}) << "zsetlab " ZSETLAB_VERSION;
}

void TestCommandLine::helpAndVersionNeedNoDisplay()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const CliResult result = runAppWithoutDisplay(arguments); // a sanitizer build under load is slow to start
    QVERIFY2(result.exitCode == 0, result.err.constData());
    QVERIFY2(QString::fromUtf8(result.out).contains(expected), result.out.constData());
    QVERIFY2(result.err.isEmpty(), result.err.constData());
}

void TestCommandLine::usageErrorsNeedNoDisplay_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown option") << args({"--bogus"}) << "Unknown option 'bogus'";
    QTest::newRow("bad language") << args({"--lang", "fr"}) << "--lang must be en or vi";
}

void TestCommandLine::usageErrorsNeedNoDisplay()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const CliResult result = runAppWithoutDisplay(arguments, 30000);
    QCOMPARE(result.exitCode, 2);
    const QString err = QString::fromUtf8(result.err);
    QVERIFY2(err.contains(message), qPrintable(err));
    QVERIFY2(!err.contains(QLatin1String("display")), qPrintable(err));
}

void TestCommandLine::aReplayBecomesAnAnimationWithoutADisplay()
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.clock = ClockKind::Frozen;
    plan.requests = 5;
    const Recording recording = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    QTemporaryDir dir;
    const QString replay = dir.filePath(QStringLiteral("five.zsetreplay"));
    QString error;
    QVERIFY2(ReplayFile::save(replay, recording, &error), qPrintable(error));
    const QString gif = dir.filePath(QStringLiteral("five.gif"));
    const CliResult result = runAppWithoutDisplay(
        {replay, QStringLiteral("--export-gif"), gif, QStringLiteral("--size"), QStringLiteral("640x400"),
         QStringLiteral("--from"), QStringLiteral("2"), QStringLiteral("--lang"), QStringLiteral("vi")});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    AnimationFileInfo info;
    QVERIFY2(AnimationReader::probe(gif, &info, &error), qPrintable(error));
    QCOMPARE(info.frames, 4); // requests 2 to 5
    QCOMPARE(info.size, QSize(640, 400));

    // Past the replay's end: a usage error, nothing written.
    const QString past = dir.filePath(QStringLiteral("past.gif"));
    const CliResult beyond = runAppWithoutDisplay(
        {replay, QStringLiteral("--export-gif"), past, QStringLiteral("--from"), QStringLiteral("9")});
    QCOMPARE(beyond.exitCode, 2);
    QVERIFY2(beyond.err.contains("requests 1 to 5"), beyond.err.constData());
    QVERIFY(!QFile::exists(past));
    QVERIFY2(result.out.contains("5 frames") || result.out.contains("4 frames"), result.out.constData());
    // Issue #58, 7: the offscreen platform's warning came some 20 times on stderr.
    QVERIFY2(!result.err.contains("propagateSizeHints"), result.err.constData());

    // Issue #58, 3: a replay of more requests than an animation draws (a crafted file took 7 GB):
    // refused from its header, before its requests are made, and nothing written.
    const QString longReplay = dir.filePath(QStringLiteral("long.zsetreplay"));
    QVERIFY2(TestBursts::writeLongReplay(longReplay, int(AnimationExport::maxRequests) + 1, &error), qPrintable(error));
    const QString longGif = dir.filePath(QStringLiteral("long.gif"));
    const CliResult tooLong = runAppWithoutDisplay({longReplay, QStringLiteral("--export-gif"), longGif});
    QCOMPARE(tooLong.exitCode, 2);
    QVERIFY2(tooLong.err.contains("2,000,001 requests") && tooLong.err.contains("--export-html"),
             tooLong.err.constData());
    QVERIFY(!QFile::exists(longGif));

    // Not a replay: said, and no animation written.
    QFile bad(dir.filePath(QStringLiteral("bad.zsetreplay")));
    QVERIFY(bad.open(QIODevice::WriteOnly));
    bad.write("not a replay");
    bad.close();
    const QString none = dir.filePath(QStringLiteral("none.gif"));
    const CliResult refused = runAppWithoutDisplay({bad.fileName(), QStringLiteral("--export-gif"), none});
    QCOMPARE(refused.exitCode, 4);
    QVERIFY2(!refused.err.isEmpty(), refused.err.constData());
    QVERIFY(!QFile::exists(none));
}

void TestCommandLine::aReplayBecomesAWebPageWithoutADisplay()
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.clock = ClockKind::Frozen;
    plan.requests = 5;
    const Recording recording = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    QTemporaryDir dir;
    const QString replay = dir.filePath(QStringLiteral("five.zsetreplay"));
    QString error;
    QVERIFY2(ReplayFile::save(replay, recording, &error), qPrintable(error));
    const QString page = dir.filePath(QStringLiteral("five.html"));
    const CliResult result = runAppWithoutDisplay({QStringLiteral("--replay"), replay, QStringLiteral("--export-html"),
                                                   page, QStringLiteral("--lang"), QStringLiteral("vi")});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    QFile html(page);
    QVERIFY(html.open(QIODevice::ReadOnly));
    QVERIFY(html.readAll().startsWith("<!DOCTYPE html>\n<html lang=\"vi\">")); // the exporting language

    // A folder that does not exist, and the replay itself: said in the language chosen, nothing written.
    const CliResult missing = runAppWithoutDisplay({QStringLiteral("--replay"), replay, QStringLiteral("--export-html"),
                                                    dir.filePath(QStringLiteral("none/five.html"))});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains("does not exist"), missing.err.constData());
    const qint64 size = QFileInfo(replay).size();
    const CliResult itself
        = runAppWithoutDisplay({QStringLiteral("--replay"), replay, QStringLiteral("--export-html"), replay});
    QCOMPARE(itself.exitCode, 2);
    QCOMPARE(QFileInfo(replay).size(), size);
    const CliResult bad = runAppWithoutDisplay({QStringLiteral("--replay"), page, QStringLiteral("--export-html"),
                                                dir.filePath(QStringLiteral("other.html"))});
    QCOMPARE(bad.exitCode, 4); // a web page is not a replay
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("other.html"))));
}

QString TestCommandLine::fiveRequestReplay(const QTemporaryDir& dir, int requests)
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.clock = ClockKind::Frozen;
    plan.requests = requests;
    const Recording recording = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    QString replay = dir.filePath(QStringLiteral("run-%1.zsetreplay").arg(requests));
    QString error;
    if (!ReplayFile::save(replay, recording, &error))
        qWarning("%s", qPrintable(error));
    return replay;
}

// Issue #44: GIF and MP4 exports replaced a device node, a FIFO or a link's target; PNG and PDF
// followed links. Refused before any work, with exit 2; the thing at the path is as it was.
void TestCommandLine::anExportGoesOnlyOverARegularFile()
{
    QTemporaryDir dir;
    const QString replay = fiveRequestReplay(dir);
    QVERIFY(QFile::exists(replay));
    const QString target = dir.filePath(QStringLiteral("someone-elses.gif"));
    QFile precious(target);
    QVERIFY(precious.open(QIODevice::WriteOnly) && precious.write("precious") == 8);
    precious.close();
    const QString link = dir.filePath(QStringLiteral("link.gif"));
    QVERIFY(QFile::link(target, link));
    const QString fifo = dir.filePath(QStringLiteral("pipe.mp4"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString scenario = sourcePath(QStringLiteral("resources/scenarios/compare.json"));

    struct Refused
    {
        QStringList arguments;
        const char* said;
    };
    const Refused refusals[] = {
        {{replay, QStringLiteral("--export-gif"), link}, "is a symbolic link"},
        {{replay, QStringLiteral("--export-video"), fifo}, "is a named pipe (FIFO), not a regular file"},
        {{QStringLiteral("--scenario"), scenario, QStringLiteral("--export-png"), link, QStringLiteral("--redis"),
          TestRedis::endpoint().displayUrl()},
         "is a symbolic link"},
        {{QStringLiteral("--lesson"), QStringLiteral("1"), QStringLiteral("--export-pdf"), fifo,
          QStringLiteral("--redis"), TestRedis::endpoint().displayUrl()},
         "is a named pipe (FIFO)"},
    };
    for (const Refused& refused : refusals) {
        const CliResult result = runAppWithoutDisplay(refused.arguments, 60000);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(refused.said), result.err.constData());
        QVERIFY2(!result.err.contains("wrote"), result.err.constData());
    }
    QVERIFY(precious.open(QIODevice::ReadOnly));
    QCOMPARE(precious.readAll(), QByteArray("precious"));
    QVERIFY(QFileInfo(link).isSymLink());
    struct stat info
    {
    };
    QCOMPARE(::lstat(QFile::encodeName(fifo).constData(), &info), 0);
    QVERIFY(S_ISFIFO(info.st_mode));
    // Nothing beside: no part of an animation left behind.
    const QStringList left
        = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    QVERIFY2(left.filter(QStringLiteral(".part")).isEmpty(), qPrintable(left.join(QLatin1Char(' '))));
}

// Issue #44: a GIF export ran to its end on SIGINT and exited 0. It stops between two frames,
// removes what it wrote and exits 130.
void TestCommandLine::aSignalStopsAnAnimationAndLeavesNoFile()
{
    QTemporaryDir dir;
    const QString replay = fiveRequestReplay(dir, 400);
    QVERIFY(QFile::exists(replay));
    const QString gif = dir.filePath(QStringLiteral("long.gif"));
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    process.setProcessEnvironment(environment);
    process.start(qEnvironmentVariable("ZSETLAB_APP"),
                  {replay, QStringLiteral("--export-gif"), gif, QStringLiteral("--size"), QStringLiteral("3840x2160"),
                   QStringLiteral("--whole-window")});
    QVERIFY(process.waitForStarted(10000));
    // The part appears once the frames are being written (the handlers are in place long before).
    const auto partWritten = [&dir] {
        return !QDir(dir.path()).entryList({QStringLiteral(".long.gif.*.part")}, QDir::Files | QDir::Hidden).isEmpty();
    };
    QTRY_VERIFY_WITH_TIMEOUT(partWritten() || process.state() == QProcess::NotRunning, 60000);
    QVERIFY2(process.state() == QProcess::Running, "the export ended before it could be stopped");
    ::kill(pid_t(process.processId()), SIGINT);
    QVERIFY(process.waitForFinished(60000));
    const QByteArray err = process.readAllStandardError();
    QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 130, err.constData());
    QVERIFY2(err.contains("was not written"), err.constData());
    QVERIFY(!QFile::exists(gif));
    QVERIFY(!partWritten());
}

// bench_gui times the window's cold start from the outside: asked through QT_LOGGING_RULES, the
// window program says once, on the monotonic clock, when its window is painted and its server
// connected; unasked, it says nothing of it. SIGTERM then closes it as the user would.
void TestCommandLine::theStartIsSaidWhenAsked()
{
    for (const bool asked : {true, false}) {
        QTemporaryDir home;
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("HOME"), home.path());
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        if (asked)
            environment.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("zsetlab.startup.info=true"));
        else
            environment.remove(QStringLiteral("QT_LOGGING_RULES"));
        process.setProcessEnvironment(environment);
        const qint64 before
            = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
                  .count();
        process.start(qEnvironmentVariable("ZSETLAB_APP"),
                      {QStringLiteral("--redis"), TestRedis::endpoint().displayUrl()});
        QVERIFY(process.waitForStarted(10000));
        QByteArray err;
        const auto said = [&] {
            err += process.readAllStandardError();
            return err.contains("zsetlab.startup:");
        };
        if (asked) {
            QTRY_VERIFY_WITH_TIMEOUT(said() || process.state() == QProcess::NotRunning, 20000);
            const qint64 after = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count();
            static const QRegularExpression line(QStringLiteral("zsetlab.startup: window painted and connected; steady "
                                                                "clock (\\d+) ns\\n"));
            const QRegularExpressionMatch match = line.match(QString::fromUtf8(err));
            QVERIFY2(match.hasMatch(), err.constData());
            const qint64 at = match.captured(1).toLongLong();
            QVERIFY2(at > before && at < after,
                     qPrintable(QStringLiteral("%1 not in [%2, %3]").arg(at).arg(before).arg(after)));
        } else {
            // Unasked: as far as the window's connection to the server, and nothing said.
            RedisConnection redis;
            QVERIFY(redis.open(TestRedis::endpoint()));
            const auto connections = [&redis] {
                const QByteArray stats = redis.command({"INFO", "stats"}).bytes();
                const qsizetype at = stats.indexOf("total_connections_received:");
                return at < 0 ? -1 : stats.mid(at + 27, stats.indexOf('\r', at) - at - 27).toLongLong();
            };
            const qint64 mine = connections();
            QVERIFY(mine > 0);
            QTRY_VERIFY_WITH_TIMEOUT(connections() > mine || process.state() == QProcess::NotRunning, 20000);
            QVERIFY(!said());
        }
        ::kill(pid_t(process.processId()), SIGTERM);
        QVERIFY(process.waitForFinished(20000));
        err += process.readAllStandardError();
        QCOMPARE(process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(process.exitCode(), 0);
        QCOMPARE(err.count("zsetlab.startup:"), asked ? 1 : 0);
    }
}

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"
