#include "cliprocess.h"
#include "redis/privateredisserver.h"
#include "redis/redisconnection.h"
#include "testredis.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <cmath>
#include <csignal>

// zsetlab-cli sweep and zsetlab-cli clients, run as a user would.
namespace {
QStringList onTestServer(QStringList arguments)
{
    return arguments << QStringLiteral("--redis") << TestRedis::endpoint().displayUrl();
}
} // namespace

class TestSweepCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void usageErrors_data();
    void usageErrors();
    void helpDocumentsEveryFlag_data();
    void helpDocumentsEveryFlag();
    void sweepJsonHasOneEntryPerRate_data();
    void sweepJsonHasOneEntryPerRate();
    void sweepPrintsATableBesideTheTheory();
    void sweepCannotConnectExitsThree();
    void interruptedSweepSaysSoInItsExitCode();
    void interruptedDoctorProbeSaysSoInItsExitCode();
    void clientsShowCollisionsAcrossServers_data();
    void clientsShowCollisionsAcrossServers();
};

void TestSweepCli::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    TestRedis::server();
}

void TestSweepCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("sweep: unknown flag") << args({"sweep", "--fast"}) << "fast";
    QTest::newRow("sweep: bad pace") << args({"sweep", "--pace", "burst"}) << "--pace";
    QTest::newRow("sweep: rate not a number") << args({"sweep", "--rates", "1,fast"}) << "--rates";
    QTest::newRow("sweep: rate zero") << args({"sweep", "--rates", "0"}) << "--rates";
    QTest::newRow("sweep: frozen clock") << args({"sweep", "--clock", "frozen"}) << "--clock";
    QTest::newRow("sweep: zero requests") << args({"sweep", "--requests", "0"}) << "--requests";
    QTest::newRow("sweep: bad strategy") << args({"sweep", "--limiter", "uuid"}) << "--limiter";
    QTest::newRow("sweep: negative limit") << args({"sweep", "--limit", "-1"}) << "--limit";
    QTest::newRow("sweep: stray argument") << args({"sweep", "now"}) << "unexpected";
    QTest::newRow("sweep: bad url") << args({"sweep", "--redis", "localhost:6379"}) << "not a Redis URL";
    QTest::newRow("clients: no server") << args({"clients"}) << "at least one server";
    QTest::newRow("clients: unknown field") << args({"clients", "speed=3"}) << "unknown field";
    QTest::newRow("clients: bad offset") << args({"clients", "rate=2", "rate=2,offset=ahead"}) << "client 2";
    QTest::newRow("clients: bad default pace") << args({"clients", "offset=0", "--pace", "steady"}) << "--pace";
}

void TestSweepCli::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, messagePart);
    const CliResult result = runCli(arguments);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(QString::fromUtf8(result.err).contains(messagePart), result.err.constData());
    QVERIFY(result.out.isEmpty());
}

void TestSweepCli::helpDocumentsEveryFlag_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("flags");
    const QStringList shared
        = args({"--redis", "--no-spawn", "--timeout", "--allow-remote", "--limiter", "--requests", "--clock",
                "--window", "--limit", "--seed", "--pipeline", "--json", "Examples:", "Exit codes"});
    QTest::newRow("sweep") << "sweep" << (shared + args({"--rates", "--pace", "--connections", "poisson|even"}));
    QTest::newRow("clients") << "clients" << (shared + args({"--pace", "rate=", "offset=", "drift=", "pace="}));
}

void TestSweepCli::helpDocumentsEveryFlag()
{
    QFETCH(QString, command);
    QFETCH(QStringList, flags);
    const CliResult result = runCli({command, QStringLiteral("--help")});
    QCOMPARE(result.exitCode, 0);
    for (const QString& flag : flags)
        QVERIFY2(result.out.contains(flag.toUtf8()), qPrintable(flag));
    const CliResult usage = runCli({QStringLiteral("--help")});
    QVERIFY(usage.out.contains(command.toUtf8()));
}

void TestSweepCli::sweepJsonHasOneEntryPerRate_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<QString>("pace");
    QTest::newRow("now, poisson") << "now"
                                  << "poisson";
    QTest::newRow("now, even") << "now"
                               << "even";
    QTest::newRow("request-id, poisson") << "request-id"
                                         << "poisson";
}

void TestSweepCli::sweepJsonHasOneEntryPerRate()
{
    QFETCH(QString, strategy);
    QFETCH(QString, pace);
    const CliResult result = runCli(onTestServer(
        {QStringLiteral("sweep"), QStringLiteral("--rates"), QStringLiteral("0.5,2,10"), QStringLiteral("--requests"),
         QStringLiteral("5000"), QStringLiteral("--limiter"), strategy, QStringLiteral("--pace"), pace,
         QStringLiteral("--limit"), QStringLiteral("100"), QStringLiteral("--json")}));
    QCOMPARE(result.exitCode, 0);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(result.out, &error);
    QVERIFY2(document.isObject(), qPrintable(error.errorString()));
    const QJsonObject json = document.object();
    QCOMPARE(json.value(QLatin1String("strategy")).toString(), strategy);
    QCOMPARE(json.value(QLatin1String("pace")).toString(), pace);
    QCOMPARE(json.value(QLatin1String("clock")).toString(), QStringLiteral("schedule"));
    const QJsonArray points = json.value(QLatin1String("points")).toArray();
    QCOMPARE(points.size(), 3);
    const double rates[] = {0.5, 2, 10};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject point = points[i].toObject();
        for (const char* key :
             {"rate_per_ms", "sent", "stored", "stored_fraction", "theory_fraction", "admitted_over_limit"})
            QVERIFY2(point.value(QLatin1String(key)).isDouble(), key);
        QCOMPARE(point.value(QLatin1String("rate_per_ms")).toDouble(), rates[i]);
        QCOMPARE(point.value(QLatin1String("sent")).toInt(), 5000);
        const double measured = point.value(QLatin1String("stored_fraction")).toDouble();
        const double theory = point.value(QLatin1String("theory_fraction")).toDouble();
        QVERIFY2(std::abs(measured - theory) <= 0.02, qPrintable(QStringLiteral("%1 vs %2").arg(measured).arg(theory)));
        QCOMPARE(point.value(QLatin1String("stored")).toInt(), qRound(measured * 5000));
    }
    // Beyond the limit only when members collide: at 10 per ms, 10,000 requests share a window.
    const int overLimit = points[2].toObject().value(QLatin1String("admitted_over_limit")).toInt();
    QCOMPARE(overLimit > 0, strategy == QLatin1String("now"));
}

void TestSweepCli::sweepPrintsATableBesideTheTheory()
{
    const CliResult result = runCli(onTestServer(args({"sweep", "--rates", "1,5", "--requests", "5000"})));
    QCOMPARE(result.exitCode, 0);
    const QString out = QString::fromUtf8(result.out);
    for (const char* column : {"rate/ms", "sent", "stored %", "theory %", "difference", "(1 - e^-L) / L"})
        QVERIFY2(out.contains(QLatin1String(column)), column);
    // Theory at 1 per ms: 63.2 %; at 5 per ms: 19.9 %.
    QVERIFY2(out.contains(QLatin1String("63.2")), qPrintable(out));
    QVERIFY2(out.contains(QLatin1String("19.9")), qPrintable(out));
    RedisConnection redis; // named as INFO names it: "Redis 7.0.15", "Valkey 8.1.1"
    QVERIFY(TestRedis::connect(redis));
    const QByteArray named = "using " + redis.server().displayName().toUtf8();
    QVERIFY2(result.err.contains(named), result.err.constData());
}

void TestSweepCli::sweepCannotConnectExitsThree()
{
    QTemporaryDir dir;
    const CliResult result = runCli({QStringLiteral("sweep"), QStringLiteral("--redis"),
                                     QStringLiteral("unix://") + dir.filePath(QStringLiteral("none.sock"))});
    QCOMPARE(result.exitCode, 3);
    QVERIFY2(result.err.contains("none.sock"), result.err.constData());
}

// Issue #20: a sweep ended by Ctrl+C exited 0, as if every rate had been measured.
void TestSweepCli::interruptedSweepSaysSoInItsExitCode()
{
    PrivateRedisServer server; // its own, so that any EVALSHA it counts is this sweep's
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection redis;
    QVERIFY2(redis.open(server.endpoint()), qPrintable(redis.lastError().message));
    QProcess cli;
    // One request per ms on the real clock for 1,000 s: still running when interrupted.
    cli.start(qEnvironmentVariable("ZSETLAB_CLI"),
              {QStringLiteral("sweep"), QStringLiteral("--redis"), server.endpoint().displayUrl(),
               QStringLiteral("--clock"), QStringLiteral("system-ms"), QStringLiteral("--rates"), QStringLiteral("1,2"),
               QStringLiteral("--requests"), QStringLiteral("1000000"), QStringLiteral("--json")});
    QVERIFY(cli.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(redis.command({"INFO", "commandstats"}).bytes().contains("cmdstat_evalsha"), 20000);
    ::kill(pid_t(cli.processId()), SIGINT);
    QVERIFY(cli.waitForFinished(10000));
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QCOMPARE(cli.exitCode(), 130);
    const QJsonObject result = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    QCOMPARE(result.value(QLatin1String("stopped")).toBool(), true);
}

// The same for the doctor's live probe, cancelled while it runs the script.
void TestSweepCli::interruptedDoctorProbeSaysSoInItsExitCode()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QTemporaryDir dir;
    const QString script = dir.filePath(QStringLiteral("slow.lua"));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    // Counts like a limiter, but each call is busy for 300 ms: the probe takes minutes.
    file.write("local function usec() local t = redis.call('TIME'); return t[1] * 1000000 + t[2] end\n"
               "local start = usec()\n"
               "while usec() - start < 300000 do end\n"
               "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1])\n"
               "return redis.call('ZCARD', KEYS[1])\n");
    file.close();
    QProcess cli;
    cli.start(qEnvironmentVariable("ZSETLAB_CLI"),
              {QStringLiteral("doctor"), script, QStringLiteral("--live"), QStringLiteral("--redis"),
               server.endpoint().displayUrl(), QStringLiteral("--json")});
    QVERIFY(cli.waitForStarted(10000));
    // Said once Ctrl+C is handled; the probe then takes minutes with this script.
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += cli.readAllStandardError()).contains("Ctrl+C stops the probe"), 20000);
    ::kill(pid_t(cli.processId()), SIGINT);
    QVERIFY(cli.waitForFinished(20000));
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QCOMPARE(cli.exitCode(), 130);
}

void TestSweepCli::clientsShowCollisionsAcrossServers_data()
{
    QTest::addColumn<QStringList>("servers");
    QTest::addColumn<int>("acrossServers");
    QTest::newRow("same clock") << args({"pace=interval:10000", "pace=interval:10000"}) << 100;
    QTest::newRow("5 ms apart") << args({"pace=interval:10000;pace=interval:10000,offset=5"}) << 0;
}

void TestSweepCli::clientsShowCollisionsAcrossServers()
{
    QFETCH(QStringList, servers);
    QFETCH(int, acrossServers);
    const CliResult result = runCli(onTestServer(QStringList {QStringLiteral("clients")} + servers
                                                 + args({"--clock", "schedule", "--requests", "200", "--json"})));
    QCOMPARE(result.exitCode, 0);
    const QJsonObject json = QJsonDocument::fromJson(result.out).object();
    QCOMPARE(json.value(QLatin1String("sent")).toInt(), 200);
    QCOMPARE(json.value(QLatin1String("overwritten")).toInt(), acrossServers);
    const QJsonArray clients = json.value(QLatin1String("clients")).toArray();
    QCOMPARE(clients.size(), 2);
    int across = 0;
    for (const auto& client : clients) {
        QCOMPARE(client.toObject().value(QLatin1String("sent")).toInt(), 100);
        across += client.toObject().value(QLatin1String("overwrote_other_client")).toInt();
    }
    QCOMPARE(across, acrossServers);

    const CliResult text = runCli(onTestServer(QStringList {QStringLiteral("clients")} + servers
                                               + args({"--clock", "schedule", "--requests", "200"})));
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("by another"), text.out.constData());
    QVERIFY(text.out.contains("pace=interval:10000"));
}

QTEST_GUILESS_MAIN(TestSweepCli)
#include "tst_sweepcli.moc"
