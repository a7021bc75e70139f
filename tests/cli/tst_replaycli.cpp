// zsetlab-cli run --save-replay and zsetlab-cli replay, as a user runs them.

#include "cliprocess.h"
#include "testbursts.h"
#include "testredis.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/stat.h>
#include <sys/sysmacros.h>

class TestReplayCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void theLastRequestIsWhatRedisHolds();
    void oneMillisecondOfThreeRequests();
    void badInputsSayWhatToDo();
    void aWebPageIsWrittenWhereItMayBe();
    void onlyARegularFileIsReplaced_data();
    void onlyARegularFileIsReplaced();
    void aReplayThatCannotBeWrittenSaysWhyAndLeavesNothing();
    void aSignalStopsALongReplayWithinASecond_data();
    void aSignalStopsALongReplayWithinASecond();

private:
    QTemporaryDir m_dir;
};

void TestReplayCli::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QVERIFY(TestRedis::server().isRunning());
}

void TestReplayCli::theLastRequestIsWhatRedisHolds()
{
    const QString file = m_dir.filePath(QStringLiteral("poisson.zsetreplay"));
    const QByteArray key = TestRedis::uniqueKey("replaycli");
    const CliResult run = runCli(
        {QStringLiteral("run"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl(),
         QStringLiteral("--limiter"), QStringLiteral("now"), QStringLiteral("--pace"), QStringLiteral("poisson:3"),
         QStringLiteral("--clock"), QStringLiteral("schedule"), QStringLiteral("--window"), QStringLiteral("50"),
         QStringLiteral("--requests"), QStringLiteral("500"), QStringLiteral("--limit"), QStringLiteral("60"),
         QStringLiteral("--key"), QString::fromUtf8(key.mid(8)), QStringLiteral("--save-replay"), file});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const CliResult replay
        = runCli({QStringLiteral("replay"), file, QStringLiteral("--members"), QStringLiteral("--json")});
    QVERIFY2(replay.exitCode == 0, replay.err.constData());
    const QJsonObject state = QJsonDocument::fromJson(replay.out).object();
    QCOMPARE(state.value(QLatin1String("request")).toInt(), 500);
    for (const char* field : {"now", "members", "count_returned", "true_count", "overwritten", "admitted_beyond_limit"})
        QVERIFY2(state.value(QLatin1String(field)).isDouble(), field);
    QVERIFY(state.value(QLatin1String("overwritten")).toInt() > 0);

    RedisConnection connection;
    QVERIFY(TestRedis::connect(connection));
    const RedisReply held = connection.command({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    const QJsonArray members = state.value(QLatin1String("member_list")).toArray();
    QCOMPARE(qsizetype(held.elements().size()), members.size() * 2);
    QCOMPARE(state.value(QLatin1String("members")).toInt(), members.size());
    for (qsizetype i = 0; i < members.size(); ++i) {
        const QJsonObject m = members.at(i).toObject();
        QCOMPARE(m.value(QLatin1String("member")).toString().toUtf8(), held.elements()[size_t(2 * i)].bytes());
        QCOMPARE(qint64(m.value(QLatin1String("score")).toDouble()),
                 held.elements()[size_t(2 * i + 1)].bytes().toLongLong());
    }
    connection.command({"DEL", key});
}

void TestReplayCli::oneMillisecondOfThreeRequests()
{
    // The lesson's moment: three requests in one millisecond; ZADD answers 1, 0, 0 and ZCARD 1.
    const QString file = m_dir.filePath(QStringLiteral("three.zsetreplay"));
    const CliResult run = runCli({QStringLiteral("run"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl(),
                                  QStringLiteral("--limiter"), QStringLiteral("now"), QStringLiteral("--clock"),
                                  QStringLiteral("frozen"), QStringLiteral("--requests"), QStringLiteral("3"),
                                  QStringLiteral("--save-replay"), file});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    for (int at = 1; at <= 3; ++at) {
        const CliResult replay = runCli(
            {QStringLiteral("replay"), file, QStringLiteral("--at"), QString::number(at), QStringLiteral("--json")});
        QCOMPARE(replay.exitCode, 0);
        const QJsonObject state = QJsonDocument::fromJson(replay.out).object();
        QCOMPARE(state.value(QLatin1String("added")).toInt(), at == 1 ? 1 : 0);
        QCOMPARE(state.value(QLatin1String("members")).toInt(), 1);
        QCOMPARE(state.value(QLatin1String("count_returned")).toInt(), 1);
        QCOMPARE(state.value(QLatin1String("true_count")).toInt(), at);
        QCOMPARE(state.value(QLatin1String("overwritten")).toInt(), at - 1);
    }
    const CliResult text = runCli({QStringLiteral("replay"), file, QStringLiteral("--at"), QStringLiteral("2")});
    QVERIFY2(text.out.contains("request 2 of 3") && text.out.contains("ZADD replied 0"), text.out.constData());
}

void TestReplayCli::badInputsSayWhatToDo()
{
    const QString file = m_dir.filePath(QStringLiteral("three.zsetreplay"));
    CliResult result = runCli({QStringLiteral("replay"), file, QStringLiteral("--at"), QStringLiteral("4")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("--at must be from 1 to 3"), result.err.constData());
    result = runCli({QStringLiteral("replay")});
    QCOMPARE(result.exitCode, 2);

    QFile corrupt(m_dir.filePath(QStringLiteral("cut.zsetreplay")));
    QFile whole(file);
    QVERIFY(whole.open(QIODevice::ReadOnly) && corrupt.open(QIODevice::WriteOnly));
    corrupt.write(whole.readAll().chopped(9));
    corrupt.close();
    result = runCli({QStringLiteral("replay"), corrupt.fileName()});
    QCOMPARE(result.exitCode, 4);
    QVERIFY2(result.err.contains("ends early"), result.err.constData());
    result = runCli({QStringLiteral("replay"), m_dir.filePath(QStringLiteral("none.zsetreplay"))});
    QCOMPARE(result.exitCode, 4);
    QVERIFY2(result.err.contains("Could not open"), result.err.constData());

    result = runCli({QStringLiteral("run"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl(),
                     QStringLiteral("--requests"), QStringLiteral("5"), QStringLiteral("--save-replay"),
                     m_dir.filePath(QStringLiteral("no/folder/x.zsetreplay"))});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("Could not save the replay"), result.err.constData());
}

void TestReplayCli::aWebPageIsWrittenWhereItMayBe()
{
    const QString file = m_dir.filePath(QStringLiteral("three.zsetreplay"));
    QFile replay(file);
    QVERIFY(replay.open(QIODevice::ReadOnly));
    const QByteArray before = replay.readAll();
    const QString page = m_dir.filePath(QStringLiteral("three.html"));
    CliResult result = runCli({QStringLiteral("replay"), file, QStringLiteral("--export-html"), page,
                               QStringLiteral("--beside"), file, QStringLiteral("--lang"), QStringLiteral("vi")});
    QVERIFY2(result.exitCode == 0, result.err.constData());
    QVERIFY2(result.out.contains("3 and 3 requests, in step"), result.out.constData());
    QFile html(page);
    QVERIFY(html.open(QIODevice::ReadOnly));
    QVERIFY(html.readAll().contains("<html lang=\"vi\">"));

    struct Refused
    {
        QStringList arguments;
        const char* said;
    };
    const Refused refusals[] = {
        {{QStringLiteral("--export-html"), m_dir.filePath(QStringLiteral("no/folder/x.html"))}, "does not exist"},
        {{QStringLiteral("--export-html"), m_dir.path()}, "is a folder"},
        {{QStringLiteral("--export-html"), file}, "the replay the page is made from"},
        {{QStringLiteral("--beside"), file}, "--beside goes with --export-html"},
        {{QStringLiteral("--export-html"), page, QStringLiteral("--lang"), QStringLiteral("fr")},
         "--lang must be en or vi"},
        {{QStringLiteral("--export-html"), page, QStringLiteral("--at"), QStringLiteral("2")}, "writes the whole run"},
    };
    for (const Refused& refused : refusals) {
        result = runCli(QStringList {QStringLiteral("replay"), file} + refused.arguments);
        QCOMPARE(result.exitCode, 2);
        QVERIFY2(result.err.contains(refused.said), result.err.constData());
    }
    result = runCli({QStringLiteral("replay"), file, QStringLiteral("--export-html"), page, QStringLiteral("--beside"),
                     m_dir.filePath(QStringLiteral("none.zsetreplay"))});
    QCOMPARE(result.exitCode, 4);
    QVERIFY2(result.err.contains("--beside: Could not open"), result.err.constData());
    QVERIFY(replay.seek(0));
    QCOMPARE(replay.readAll(), before); // refused as the output, the replay is as it was
}

// Issue #44: --save-replay replaced a device node (a real /dev/full), a FIFO and a link's target
// (a mode-600 file of someone else's), silently and after the run. Refused before the run now.
void TestReplayCli::onlyARegularFileIsReplaced_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("said");
    QTest::newRow("named pipe") << "fifo"
                                << "named pipe (FIFO), not a regular file";
    QTest::newRow("symbolic link") << "link"
                                   << "is a symbolic link";
    QTest::newRow("folder") << "folder"
                            << "is a folder";
    QTest::newRow("device node") << "device"
                                 << "is a device, not a regular file";
}

void TestReplayCli::onlyARegularFileIsReplaced()
{
    QFETCH(QString, kind);
    QFETCH(QString, said);
    const QString folder = m_dir.filePath(QStringLiteral("only-") + kind);
    QVERIFY(QDir().mkpath(folder));
    const QString path = QDir(folder).filePath(QStringLiteral("run.zsetreplay"));
    const QString target = QDir(folder).filePath(QStringLiteral("someone-elses"));
    QFile precious(target);
    QVERIFY(precious.open(QIODevice::WriteOnly) && precious.write("precious") == 8);
    precious.close();
    QVERIFY(precious.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
    if (kind == QLatin1String("fifo")) {
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == QLatin1String("link")) {
        QVERIFY(QFile::link(target, path));
    } else if (kind == QLatin1String("folder")) {
        QVERIFY(QDir().mkpath(path));
    } else if (::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0600, makedev(1, 3)) != 0) {
        // A device node of the test's own (the same as /dev/null): only root may make one.
        QSKIP(qPrintable(QStringLiteral("cannot make a device node here (%1); tst_outputfile refuses /dev/null "
                                        "and /dev/full by looking at them")
                             .arg(QString::fromLocal8Bit(::strerror(errno)))));
    }
    struct stat before
    {
    };
    QCOMPARE(::lstat(QFile::encodeName(path).constData(), &before), 0);

    const QByteArray key = TestRedis::uniqueKey("refusedreplay");
    const CliResult result
        = runCli({QStringLiteral("run"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl(),
                  QStringLiteral("--requests"), QStringLiteral("5"), QStringLiteral("--key"),
                  QString::fromUtf8(key.mid(8)), QStringLiteral("--save-replay"), path},
                 30000);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("--save-replay") && result.err.contains(said.toUtf8()), result.err.constData());
    QVERIFY2(result.out.isEmpty(), result.out.constData()); // before the run: no summary, nothing sent
    RedisConnection connection;
    QVERIFY(TestRedis::connect(connection));
    QCOMPARE(connection.command({"EXISTS", key}).toInteger(), 0LL);

    struct stat after
    {
    };
    QCOMPARE(::lstat(QFile::encodeName(path).constData(), &after), 0);
    QCOMPARE(after.st_ino, before.st_ino); // the same node, not replaced
    QCOMPARE(after.st_mode, before.st_mode);
    QVERIFY(precious.open(QIODevice::ReadOnly));
    QCOMPARE(precious.readAll(), QByteArray("precious"));
    if (kind == QLatin1String("device"))
        QFile::remove(path);
}

// Issue #44: on a full disk --save-replay said "Unknown error" and exited 2 (bad usage) after
// the whole run. A file size limit makes the write fail (EFBIG) on any file system.
void TestReplayCli::aReplayThatCannotBeWrittenSaysWhyAndLeavesNothing()
{
    const QString folder = m_dir.filePath(QStringLiteral("limited"));
    QVERIFY(QDir().mkpath(folder));
    const QString path = QDir(folder).filePath(QStringLiteral("big.zsetreplay"));
    const CliResult result = runCliWithFileLimit(
        {QStringLiteral("run"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl(),
         QStringLiteral("--clock"), QStringLiteral("schedule"), QStringLiteral("--pace"), QStringLiteral("poisson:2"),
         QStringLiteral("--requests"), QStringLiteral("3000"), QStringLiteral("--save-replay"), path},
        1024);
    QCOMPARE(result.exitCode, 7);
    QVERIFY2(result.err.contains(::strerror(EFBIG)), result.err.constData());
    QVERIFY2(!result.err.contains("Unknown error"), result.err.constData());
    QVERIFY2(result.out.contains("sent"), result.out.constData()); // the run's summary all the same
    QCOMPARE(QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList());
}

namespace {
// The CLI has installed its SIGINT handler (the signal would otherwise end it on the spot).
bool catchesSigint(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return false;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("SigCgt:"))
            return (line.mid(7).trimmed().toULongLong(nullptr, 16) >> (SIGINT - 1)) & 1;
    }
    return false;
}
} // namespace

// Issue #58, 4: the web export and `replay --json` went on to their end after Ctrl+C or SIGTERM
// and exited 0 up to 7.7 s later. They end within a second, exit 130, and leave no file.
void TestReplayCli::aSignalStopsALongReplayWithinASecond_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("signal");
    QTest::newRow("web page, SIGINT") << QStringLiteral("html") << int(SIGINT);
    QTest::newRow("web page, SIGTERM") << QStringLiteral("html") << int(SIGTERM);
    QTest::newRow("--json, SIGINT") << QStringLiteral("json") << int(SIGINT);
}

void TestReplayCli::aSignalStopsALongReplayWithinASecond()
{
    QFETCH(QString, mode);
    QFETCH(int, signal);
    const QString replay = m_dir.filePath(QStringLiteral("long.zsetreplay"));
    if (!QFile::exists(replay)) {
        QString error;
        QVERIFY2(TestBursts::writeLongReplay(replay, 3'000'000, &error), qPrintable(error));
    }
    const QString page = m_dir.filePath(QStringLiteral("long-%1.html").arg(signal));
    QStringList arguments {QStringLiteral("replay"), replay};
    arguments << (mode == QLatin1String("html") ? QStringList {QStringLiteral("--export-html"), page}
                                                : QStringList {QStringLiteral("--json"), QStringLiteral("--members")});
    QProcess cli;
    cli.start(qEnvironmentVariable("ZSETLAB_CLI"), arguments);
    QVERIFY(cli.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(catchesSigint(cli.processId()) || cli.state() != QProcess::Running, 10000);
    QVERIFY2(cli.state() == QProcess::Running, "the replay was read before the signal could be sent");
    QElapsedTimer clock;
    clock.start();
    ::kill(pid_t(cli.processId()), signal);
    QVERIFY(cli.waitForFinished(10000));
    const qint64 took = clock.elapsed();
    const QByteArray err = cli.readAllStandardError();
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QVERIFY2(cli.exitCode() == 130, err.constData());
    // Within a second; a sanitizer's build does the same work two to three times slower.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    constexpr qint64 withinMs = 2500;
#else
    constexpr qint64 withinMs = 1000;
#endif
    QVERIFY2(took < withinMs, qPrintable(QStringLiteral("%1 ms after the signal").arg(took)));
    QVERIFY2(cli.readAllStandardOutput().isEmpty(), "a cut replay printed a state");
    QVERIFY(!QFile::exists(page));
}

QTEST_GUILESS_MAIN(TestReplayCli)
#include "tst_replaycli.moc"
