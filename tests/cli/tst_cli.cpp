#include "cliprocess.h"
#include "limiters/zsetkeys.h"
#include "testredis.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTemporaryFile>
#include <QtTest>

#include <sys/stat.h>

#include <csignal>

namespace {
QString testUrl()
{
    return TestRedis::endpoint().displayUrl();
}
} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void usageErrors_data();
    void usageErrors();
    void helpDocumentsEveryFlag();
    void jsonHasTheContractKeys();
    void strategyIsStillReadAsTheLimiter();
    void usersHaveTheirOwnLimiters();
    void humanSummaryShowsTheBug();
    void cannotConnectExitsThree();
    void scriptErrorExitsFourWithTheLine();
    void refusesRemoteServersWithoutConsent();
    void deletesItsKeyUnlessAskedToKeep();
    void endlessFileInputsAreRefused_data();
    void endlessFileInputsAreRefused();
    void fifoInputIsRefusedAtOnce();
    void interruptedRunSaysSoInItsExitCode();
    void signalAtAnyMomentOfARunEndsIt();
};

void TestCli::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    TestRedis::server();
}

void TestCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("no command") << QStringList() << "Usage";
    QTest::newRow("unknown command") << args({"fire"}) << "unknown command";
    QTest::newRow("unknown flag") << args({"run", "--fast"}) << "fast";
    QTest::newRow("zero requests") << args({"run", "--requests", "0"}) << "--requests";
    QTest::newRow("requests not a number") << args({"run", "--requests", "many"}) << "--requests";
    QTest::newRow("too many connections") << args({"run", "--connections", "5000"}) << "--connections";
    QTest::newRow("bad pace") << args({"run", "--pace", "steady"}) << "--pace";
    QTest::newRow("bad clock") << args({"run", "--clock", "sundial"}) << "--clock";
    QTest::newRow("bad strategy") << args({"run", "--limiter", "uuid"}) << "--limiter";
    QTest::newRow("strategy and script") << args({"run", "--limiter", "now", "--script", "x.lua"}) << "either";
    QTest::newRow("negative limit") << args({"run", "--limit", "-3"}) << "--limit";
    QTest::newRow("bad url") << args({"run", "--redis", "localhost:6379"}) << "not a Redis URL";
    QTest::newRow("tls options with redis://")
        << args({"run", "--redis", "redis://127.0.0.1", "--tls-ca", "/ca.pem"}) << "rediss://127.0.0.1:6379";
    QTest::newRow("tls options without --redis") << args({"run", "--insecure"}) << "rediss://host:port";
    QTest::newRow("tls certificate without its key")
        << args({"run", "--redis", "rediss://127.0.0.1", "--tls-cert", "/me.crt"}) << "--tls-key";
    QTest::newRow("--reuse-key without --key") << args({"run", "--reuse-key"}) << "--reuse-key goes with --key";
    // Issue #20: control characters were echoed raw, and bytes that are not UTF-8 became U+FFFD.
    QTest::newRow("--key with an escape sequence") << args({"run", "--key", "a\x1b[2Jb"}) << "--key: ";
    QTest::newRow("--key with a newline") << args({"run", "--key", "a\nb"}) << "--key: ";
    QTest::newRow("--key that was not UTF-8") << args({"run", "--key", "a\xef\xbf\xbd"}) << "--key: ";
}

void TestCli::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, messagePart);
    const CliResult result = runCli(arguments);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(QString::fromUtf8(result.err).contains(messagePart), result.err.constData());
    QVERIFY(result.out.isEmpty());
}

void TestCli::helpDocumentsEveryFlag()
{
    const CliResult result = runCli(QStringList {QStringLiteral("run"), QStringLiteral("--help")});
    QCOMPARE(result.exitCode, 0);
    for (const char* flag :
         {"--redis", "--no-spawn",     "--limiter", "--script", "--requests", "--connections", "--pipeline",
          "--pace",  "--clock",        "--window",  "--limit",  "--key",      "--keep",        "--seed",
          "--json",  "--allow-remote", "--timeout", "--users",  "Examples:",  "Exit codes"})
        QVERIFY2(result.out.contains(flag), flag);
}

void TestCli::jsonHasTheContractKeys()
{
    const CliResult result = runCli(QStringList {
        QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), QStringLiteral("--limiter"), QStringLiteral("now"),
        QStringLiteral("--clock"), QStringLiteral("frozen"), QStringLiteral("--requests"), QStringLiteral("300"),
        QStringLiteral("--limit"), QStringLiteral("10"), QStringLiteral("--json")});
    QCOMPARE(result.exitCode, 0);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(result.out, &error);
    QVERIFY2(document.isObject(), qPrintable(error.errorString()));
    const QJsonObject json = document.object();
    for (const char* key : {"server_version", "strategy"})
        QVERIFY2(json.value(QLatin1String(key)).isString(), key);
    for (const char* key :
         {"requests", "sent", "errors", "stored", "lost", "overwritten", "final_count", "max_count", "admitted",
          "admitted_over_limit", "duration_ms", "throughput_rps", "latency_us_p50", "latency_us_p99"})
        QVERIFY2(json.value(QLatin1String(key)).isDouble(), key);
    QCOMPARE(json.value(QLatin1String("strategy")).toString(), QStringLiteral("now"));
    QCOMPARE(json.value(QLatin1String("sent")).toInt(), 300);
    QCOMPARE(json.value(QLatin1String("stored")).toInt(), 1);
    QCOMPARE(json.value(QLatin1String("lost")).toInt(), 299);
    QCOMPARE(json.value(QLatin1String("admitted_over_limit")).toInt(), 290);
    // The server as its users name it ("Redis 7.0.15", "Valkey 8.1.1"), as INFO says.
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    const QByteArray named = "using " + redis.server().displayName().toUtf8();
    QVERIFY2(result.err.contains(named), result.err.constData());
    QCOMPARE(json.value(QLatin1String("server")).toObject(), redis.server().toJson());
    QCOMPARE(json.value(QLatin1String("server_version")).toString(), redis.server().version);
}

void TestCli::strategyIsStillReadAsTheLimiter()
{
    // --limiter's first name picks the same limiter; an unknown one is refused under either name.
    for (const QString& flag : {QStringLiteral("--strategy"), QStringLiteral("--limiter")}) {
        const CliResult result
            = runCli({QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), flag, QStringLiteral("request-id"),
                      QStringLiteral("--clock"), QStringLiteral("frozen"), QStringLiteral("--requests"),
                      QStringLiteral("20"), QStringLiteral("--json")});
        QCOMPARE(result.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(result.out).object();
        QCOMPARE(json.value(QLatin1String("strategy")).toString(), QStringLiteral("request-id"));
        QCOMPARE(json.value(QLatin1String("stored")).toInt(), 20);
        const CliResult wrong = runCli(
            {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), flag, QStringLiteral("no-such-limiter")});
        QCOMPARE(wrong.exitCode, 2); // usage
        QVERIFY2(wrong.err.contains("--limiter"), wrong.err.constData());
    }
}

void TestCli::usersHaveTheirOwnLimiters()
{
    // 10 users of 30 requests each at one frozen `now`: each user's key holds 1 member.
    const CliResult result = runCli(QStringList {
        QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), QStringLiteral("--clock"),
        QStringLiteral("frozen"), QStringLiteral("--requests"), QStringLiteral("300"), QStringLiteral("--users"),
        QStringLiteral("10"), QStringLiteral("--limit"), QStringLiteral("10"), QStringLiteral("--json")});
    QCOMPARE(result.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(result.out).object();
    QCOMPARE(json.value(QLatin1String("users")).toInt(), 10);
    QCOMPARE(json.value(QLatin1String("stored")).toInt(), 10);
    QCOMPARE(json.value(QLatin1String("admitted_over_limit")).toInt(), 200);
    const QJsonArray users = json.value(QLatin1String("per_user")).toArray();
    QCOMPARE(users.size(), 10);
    for (const auto& value : users) {
        const QJsonObject user = value.toObject();
        QCOMPARE(user.value(QLatin1String("sent")).toInt(), 30);
        QCOMPARE(user.value(QLatin1String("overwritten")).toInt(), 29);
        QCOMPARE(user.value(QLatin1String("admitted_over_limit")).toInt(), 20);
        QCOMPARE(user.value(QLatin1String("members_at_end")).toInt(), 1); // ZCARD of the user's key
        QVERIFY(user.value(QLatin1String("key"))
                    .toString()
                    .endsWith(QStringLiteral(":u%1}").arg(user.value(QLatin1String("user")).toInt())));
    }
    const QJsonArray nodes = json.value(QLatin1String("per_node")).toArray();
    QCOMPARE(nodes.size(), 1);
    QCOMPARE(nodes.at(0).toObject().value(QLatin1String("users")).toInt(), 10);
    QCOMPARE(nodes.at(0).toObject().value(QLatin1String("overwritten")).toInt(), 290);
    // In words: the node's line and the users.
    const CliResult text
        = runCli(QStringList {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), QStringLiteral("--clock"),
                              QStringLiteral("frozen"), QStringLiteral("--requests"), QStringLiteral("40"),
                              QStringLiteral("--users"), QStringLiteral("4")});
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("users         4 keys on 1 node(s)"), text.out.constData());
    QVERIFY2(text.out.contains("4 users, sent 40, errors 0, overwritten 36"), text.out.constData());
}

void TestCli::humanSummaryShowsTheBug()
{
    const CliResult result
        = runCli(QStringList {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), QStringLiteral("--clock"),
                              QStringLiteral("frozen"), QStringLiteral("--requests"), QStringLiteral("50")});
    QCOMPARE(result.exitCode, 0);
    QVERIFY2(result.out.contains("stored        1 "), result.out.constData());
    QVERIFY(result.out.contains("overwritten   49"));
}

void TestCli::cannotConnectExitsThree()
{
    QTemporaryDir dir;
    const CliResult result
        = runCli(QStringList {QStringLiteral("run"), QStringLiteral("--redis"),
                              QStringLiteral("unix://") + dir.filePath(QStringLiteral("none.sock"))});
    QCOMPARE(result.exitCode, 3);
    QVERIFY2(result.err.contains("none.sock"), result.err.constData());
}

void TestCli::scriptErrorExitsFourWithTheLine()
{
    QTemporaryFile script(QDir::tempPath() + QStringLiteral("/broken-XXXXXX.lua"));
    QVERIFY(script.open());
    script.write("local key = KEYS[1]\nlocal now = tonumber(ARGV[1]\nreturn 1\n");
    script.close();
    const CliResult result = runCli(QStringList {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(),
                                                 QStringLiteral("--script"), script.fileName()});
    QCOMPARE(result.exitCode, 4);
    QVERIFY2(result.err.contains("line 3") || result.err.contains("line 2"), result.err.constData());

    const CliResult missing
        = runCli(QStringList {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), QStringLiteral("--script"),
                              QStringLiteral("/nonexistent/limiter.lua")});
    QCOMPARE(missing.exitCode, 4);
    QVERIFY(missing.err.contains("/nonexistent/limiter.lua"));
}

void TestCli::refusesRemoteServersWithoutConsent()
{
    // Refused before any connection is tried: no traffic leaves this machine.
    const CliResult result = runCli(
        QStringList {QStringLiteral("run"), QStringLiteral("--redis"), QStringLiteral("redis://203.0.113.7:6379")});
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(result.err.contains("--allow-remote"), result.err.constData());
}

void TestCli::deletesItsKeyUnlessAskedToKeep()
{
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    const CliResult kept = runCli(QStringList {
        QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), QStringLiteral("--requests"), QStringLiteral("20"),
        QStringLiteral("--key"), QStringLiteral("cli-kept"), QStringLiteral("--json")});
    QCOMPARE(kept.exitCode, 0);
    QCOMPARE(redis.command({"EXISTS", "zsetlab:cli-kept"}).toInteger(), 1LL);
    redis.command({"DEL", "zsetlab:cli-kept"});

    const CliResult dropped
        = runCli(QStringList {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), QStringLiteral("--requests"),
                              QStringLiteral("20"), QStringLiteral("--json")});
    QCOMPARE(dropped.exitCode, 0);
    const QByteArray key
        = QJsonDocument::fromJson(dropped.out).object().value(QLatin1String("key")).toString().toUtf8();
    QVERIFY(key.startsWith("zsetlab:run:"));
    QCOMPARE(redis.command({"EXISTS", key}).toInteger(), 0LL);
}

void TestCli::endlessFileInputsAreRefused_data()
{
    // Issue #20: these reached 9.6 GB and 3.3 GB of memory within seconds.
    QTest::addColumn<QStringList>("arguments");
    QTest::newRow("run --script /dev/zero") << QStringList {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(),
                                                            QStringLiteral("--script"), QStringLiteral("/dev/zero")};
    QTest::newRow("doctor /dev/zero") << args({"doctor", "/dev/zero"});
}

void TestCli::endlessFileInputsAreRefused()
{
    QFETCH(QStringList, arguments);
    const CliResult result = runCli(arguments, 30000);
    QCOMPARE(result.exitCode, 4);
    QVERIFY2(result.err.contains("/dev/zero: it is a device, not a file"), result.err.constData());
}

// A FIFO nobody writes to blocked open() for good, and Ctrl+C with it: refused before opening.
void TestCli::fifoInputIsRefusedAtOnce()
{
    QTemporaryDir dir;
    const QString fifo = dir.filePath(QStringLiteral("script.lua"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const QStringList& arguments : {QStringList {QStringLiteral("doctor"), fifo},
                                         QStringList {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(),
                                                      QStringLiteral("--script"), fifo}}) {
        QElapsedTimer clock;
        clock.start();
        const CliResult result = runCli(arguments, 10000);
        QCOMPARE(result.exitCode, 4);
        QVERIFY2(result.err.contains("named pipe (FIFO), not a file"), result.err.constData());
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QString::number(clock.elapsed())));
    }
}

// Issue #20: a run ended by Ctrl+C exited 0, as if it had sent every request.
void TestCli::interruptedRunSaysSoInItsExitCode()
{
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    const QByteArray key = TestRedis::uniqueKey("interrupted");
    QProcess cli;
    // One request per ms for 1000 s: still running when interrupted.
    cli.start(qEnvironmentVariable("ZSETLAB_CLI"),
              {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), QStringLiteral("--requests"),
               QStringLiteral("1000000"), QStringLiteral("--pace"), QStringLiteral("interval:1000"),
               QStringLiteral("--key"), QString::fromUtf8(key), QStringLiteral("--json")});
    QVERIFY(cli.waitForStarted(10000));
    // The first request is in Redis: the run, and its handler of SIGINT, are under way.
    QTRY_VERIFY_WITH_TIMEOUT(redis.command({"EXISTS", key}).toInteger() == 1, 20000);
    ::kill(pid_t(cli.processId()), SIGINT);
    QVERIFY(cli.waitForFinished(10000));
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QCOMPARE(cli.exitCode(), 130);
    const QJsonObject summary = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    QCOMPARE(summary.value(QLatin1String("stopped")).toBool(), true);
    QVERIFY(summary.value(QLatin1String("sent")).toInt() < 1000000);
    QVERIFY(ZsetKeys::deleteRunKeys(redis, key));
}

// Issue #34: a SIGINT 15-35 ms after the start fired every request and exited 0; an early
// SIGTERM exited 143 without a summary. A signal at any moment of a run, 0 to 100 ms after the
// process started, now ends it with 130 and leaves no key of the run behind. The child starts
// with both signals blocked, as its first instruction would see them: a signal sent while the
// dynamic loader still runs is then delivered when main() installs its handlers, as it is to
// any process once it has reached main().
void TestCli::signalAtAnyMomentOfARunEndsIt()
{
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    auto runKeys = [&redis] {
        QList<QByteArray> keys;
        QByteArray cursor = "0";
        do { // the test's own server: listing keys is fine here
            const RedisReply page = redis.command({"SCAN", cursor, "MATCH", "zsetlab:run:*", "COUNT", "1000"});
            cursor = page.elements().at(0).bytes();
            for (const RedisReply& key : page.elements().at(1).elements())
                keys << key.bytes();
        } while (cursor != "0");
        return keys;
    };
    QCOMPARE(runKeys(), QList<QByteArray>());
    constexpr int tries = 20;
    for (int i = 0; i < tries; ++i) {
        const int signal = i % 2 == 0 ? SIGINT : SIGTERM;
        const int afterMs = i * 100 / (tries - 1);
        QProcess cli;
        cli.setChildProcessModifier([] {
            sigset_t both;
            sigemptyset(&both);
            sigaddset(&both, SIGINT);
            sigaddset(&both, SIGTERM);
            ::sigprocmask(SIG_BLOCK, &both, nullptr);
        });
        // 200,000 requests take seconds: every signal comes before the end.
        cli.start(qEnvironmentVariable("ZSETLAB_CLI"),
                  {QStringLiteral("run"), QStringLiteral("--redis"), testUrl(), QStringLiteral("--requests"),
                   QStringLiteral("200000"), QStringLiteral("--json")});
        QVERIFY(cli.waitForStarted(10000));
        // The moment of the signal is what the test varies, not a wait for something.
        QTest::qSleep(afterMs);
        ::kill(pid_t(cli.processId()), signal);
        QVERIFY(cli.waitForFinished(20000));
        const QByteArray err = cli.readAllStandardError();
        QVERIFY2(cli.exitStatus() == QProcess::NormalExit,
                 qPrintable(QStringLiteral("signal %1 at %2 ms killed the process").arg(signal).arg(afterMs)));
        QVERIFY2(cli.exitCode() == 130,
                 qPrintable(QStringLiteral("signal %1 at %2 ms: exit %3, %4")
                                .arg(signal)
                                .arg(afterMs)
                                .arg(cli.exitCode())
                                .arg(QString::fromUtf8(err))));
        const QByteArray out = cli.readAllStandardOutput();
        if (!out.isEmpty()) { // the summary of what was answered, when the run had begun
            const QJsonObject summary = QJsonDocument::fromJson(out).object();
            QVERIFY(summary.value(QLatin1String("sent")).toInt() < 200000);
        } else {
            QVERIFY2(err.contains("nothing was sent"), err.constData());
        }
        QCOMPARE(runKeys(), QList<QByteArray>());
    }
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
