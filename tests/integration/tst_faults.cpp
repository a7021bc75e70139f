// What a burst does when the server fails under it: killed, restarted, paused, out of memory,
// refusing a permission. Each test starts a redis-server of its own (it kills, pauses or
// reconfigures it) and checks the engine and the CLI: the fault is reported promptly, the partial
// log stays whole, and the run goes on or ends as the user chose. Killed, restarted and paused
// servers are tested over a unix socket and over TLS (rediss://) alike.
#include "burst/burstengine.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "redis/redisconnection.h"
#include "redis/tlsoptions.h"
#include "testredis.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryFile>
#include <QtTest>

#include <thread>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {
// A limiter that adds first and trims after. Under maxmemory its first write is the ZADD, which
// Redis refuses with OOM; the built-in scripts trim first, and Redis lets a script's later
// writes through so as not to stop it halfway.
const QByteArray addFirstScript = R"lua(local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local added = redis.call('ZADD', key, now, ARGV[4])
redis.call('ZREMRANGEBYSCORE', key, 0, now - window)
local count = redis.call('ZCARD', key)
redis.call('PEXPIRE', key, window)
return {count, added, ARGV[4]}
)lua";

BurstPlan pacedPlan(const QString& strategy, int requests, const char* pace)
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin(strategy);
    plan.clock = ClockKind::SystemMs;
    plan.requests = requests;
    QString error;
    const bool parsed = Pacing::parse(QString::fromLatin1(pace), &plan.pacing, &error);
    Q_ASSERT(parsed);
    Q_UNUSED(parsed);
    return plan;
}

PrivateTls tlsIf(bool tls)
{
    PrivateTls settings;
    settings.enabled = tls;
    return settings;
}

// Where the run goes: the server's unix socket, or its TLS port.
RedisEndpoint target(const PrivateRedisServer& server, bool tls)
{
    return tls ? server.tlsEndpoint() : server.endpoint();
}

QStringList redisArgs(const PrivateRedisServer& server, bool tls)
{
    const RedisEndpoint endpoint = target(server, tls);
    return QStringList {QStringLiteral("--redis"), endpoint.displayUrl()} + TlsOptions::arguments(endpoint.tls);
}

void addTransportRows(const char* name)
{
    QTest::newRow(qPrintable(QString::fromLatin1(name) + QStringLiteral(", unix socket"))) << false;
    QTest::newRow(qPrintable(QString::fromLatin1(name) + QStringLiteral(", TLS"))) << true;
}

void signalServer(const PrivateRedisServer& server, int signal)
{
    ::kill(static_cast<pid_t>(server.serverPid()), signal);
}

// A TCP port nobody listens on right now, for a server that needs a URL with a user name.
int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
        qFatal("cannot bind a loopback socket");
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
    ::close(fd);
    return ntohs(address.sin_port);
}

QStringList aclUser(const char* denied)
{
    QStringList arguments {QStringLiteral("--user"), QStringLiteral("bob"),        QStringLiteral("on"),
                           QStringLiteral(">pw"),    QStringLiteral("~zsetlab:*"), QStringLiteral("+@all")};
    arguments << QString::fromLatin1(denied).split(QLatin1Char(' '));
    return arguments;
}

qint64 zcard(const PrivateRedisServer& server, const QByteArray& key)
{
    RedisConnection redis;
    return redis.open(server.endpoint()) ? redis.command({"ZCARD", key}).toInteger() : -1;
}

// The summary's own promise, whatever happened: every finished request is stored, overwritten
// or an error, and the log has exactly the rows the summary counts.
void verifyConsistent(const BurstEngine& engine, const BurstSummary& summary)
{
    const RequestLog& log = engine.log();
    QCOMPARE(summary.sent, qint64(log.finished()));
    QCOMPARE(summary.stored + summary.overwritten + summary.errors, summary.sent);
    int done = 0;
    for (int i = 0; i < log.size(); ++i)
        done += log.isDone(i) ? 1 : 0;
    QCOMPARE(done, log.finished());
}

// zsetlab-cli running in the background, its stderr read as it comes.
struct CliRun
{
    QProcess process;
    QByteArray err;

    void start(const QStringList& arguments) { process.start(qEnvironmentVariable("ZSETLAB_CLI"), arguments); }
    const QByteArray& errSoFar()
    {
        err += process.readAllStandardError();
        return err;
    }
    int finish()
    {
        if (!process.waitForFinished(60000))
            return -1;
        errSoFar();
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }
};

QStringList cliArgs(std::initializer_list<QString> items)
{
    return QStringList(items);
}
} // namespace

class TestFaults : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void killedServerIsReportedWithinASecond_data();
    void killedServerIsReportedWithinASecond();
    void restartedServerLetsTheRunGoOn_data();
    void restartedServerLetsTheRunGoOn();
    void killedConnectionsLeaveNoRunKeys();
    void outOfMemoryCountsErrors_data();
    void outOfMemoryCountsErrors();
    void missingAclPermissionNamesTheFix_data();
    void missingAclPermissionNamesTheFix();
    void wrongPasswordNamesTheFix();
    void cliExitsThreeWithThePartialSummaryWhenKilled_data();
    void cliExitsThreeWithThePartialSummaryWhenKilled();
    void cliHonoursTheTimeoutOnAPausedServer_data();
    void cliHonoursTheTimeoutOnAPausedServer();
    void cliGoesOnAfterAPause_data();
    void cliGoesOnAfterAPause();
    void cliGoesOnAfterARestart_data();
    void cliGoesOnAfterARestart();
    void cliOutOfMemory();
    void cliPermissionAndPassword();
    void cleanupRefusedByAclNamesWhatIsLeft();
    void cleanupWaitsForABusyServerThenSaysSo();
    void cliFlagsNameTheirRange_data();
    void cliFlagsNameTheirRange();
};

void TestFaults::initTestCase()
{
    if (PrivateRedisServer::executable().isEmpty())
        QSKIP("redis-server is not installed");
}

void TestFaults::killedServerIsReportedWithinASecond_data()
{
    QTest::addColumn<int>("reconnectForMs");
    QTest::addColumn<bool>("tls");
    QTest::newRow("giving up at once") << 0 << false;
    QTest::newRow("after 400 ms of trying again") << 400 << false;
    QTest::newRow("giving up at once, TLS") << 0 << true;
    QTest::newRow("after 400 ms of trying again, TLS") << 400 << true;
}

void TestFaults::killedServerIsReportedWithinASecond()
{
    QFETCH(int, reconnectForMs);
    QFETCH(bool, tls);
    PrivateRedisServer server({}, {}, tlsIf(tls));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    BurstEngine engine;
    BurstPlan plan = pacedPlan(QStringLiteral("now"), 100000, "interval:200"); // 20 s
    plan.connections = 2;
    plan.pipeline = 4;
    plan.reconnectForMs = reconnectForMs;
    QSignalSpy lost(&engine, &BurstEngine::connectionLost);
    QSignalSpy failed(&engine, &BurstEngine::failed);
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(target(server, tls), plan));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 200, 20000);

    signalServer(server, SIGKILL);
    QElapsedTimer clock;
    clock.start();
    if (reconnectForMs > 0) {
        QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, 1000);
        qInfo("killed: connectionLost after %lld ms", clock.elapsed());
        QVERIFY2(lost.at(0).at(0).toString().contains(QLatin1String("Lost the connection")),
                 qPrintable(lost.at(0).at(0).toString()));
    }
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 1000 + reconnectForMs);
    qInfo("killed: failed after %lld ms (reconnect budget %d ms)", clock.elapsed(), reconnectForMs);
    QCOMPARE(failed.count(), 1);

    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Connection);
    QVERIFY2(summary.failure.message.contains(QLatin1String("Lost the connection")),
             qPrintable(summary.failure.message));
    if (reconnectForMs > 0)
        QVERIFY2(summary.failure.message.contains(QLatin1String("did not come back")),
                 qPrintable(summary.failure.message));
    QCOMPARE(summary.reconnects, 0);
    QVERIFY(summary.sent >= 200);
    QVERIFY(summary.sent < plan.requests);
    verifyConsistent(engine, summary);
}

// Issue #20: `--reconnect-for 0` then CLIENT KILL TYPE normal failed the run and left its key
// with about 1,000 s to live: the control connection that was to delete it was killed too.
void TestFaults::killedConnectionsLeaveNoRunKeys()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection admin;
    QVERIFY(admin.open(server.endpoint()));
    BurstEngine engine;
    BurstPlan plan = pacedPlan(QStringLiteral("sequence"), 100000, "interval:200"); // 20 s
    plan.reconnectForMs = 0;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(server.endpoint(), plan));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 200, 20000);
    const QByteArray key = engine.key();
    QCOMPARE(admin.command({"EXISTS", key, key + ":seq"}).toInteger(), 2LL);

    // Every connection but this one (SKIPME yes): the run's and its control connection.
    QVERIFY(admin.command({"CLIENT", "KILL", "TYPE", "normal"}).toInteger() >= 2);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Connection);
    QCOMPARE(admin.command({"EXISTS", key, key + ":seq"}).toInteger(), 0LL);
}

void TestFaults::restartedServerLetsTheRunGoOn_data()
{
    QTest::addColumn<bool>("tls");
    addTransportRows("restarted");
}

void TestFaults::restartedServerLetsTheRunGoOn()
{
    QFETCH(bool, tls);
    PrivateRedisServer server({}, {}, tlsIf(tls));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    BurstEngine engine;
    BurstPlan plan = pacedPlan(QStringLiteral("request-id"), 4000, "interval:500"); // 2 s
    plan.connections = 2;
    plan.pipeline = 2;
    QSignalSpy lost(&engine, &BurstEngine::connectionLost);
    QSignalSpy restored(&engine, &BurstEngine::connectionRestored);
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(target(server, tls), plan));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 500, 20000);

    signalServer(server, SIGKILL);
    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, 1000);
    qInfo("restart: connectionLost after %lld ms", clock.elapsed());
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    const qint64 restartedAt = clock.elapsed();
    QTRY_VERIFY_WITH_TIMEOUT(restored.count() >= 1, 5000);
    qInfo("restart: server up again %lld ms after the kill, the run went on %lld ms later", restartedAt,
          clock.elapsed() - restartedAt);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);

    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, plan.requests);
    QVERIFY(summary.reconnects >= 1);
    // Only what was on its way when the server died is lost: at most pipeline x connections.
    QVERIFY2(summary.errors <= plan.pipeline * plan.connections, qPrintable(QString::number(summary.errors)));
    QCOMPARE(summary.stored + summary.errors, summary.sent);
    QVERIFY(summary.toJson().value(QLatin1String("reconnects")).toInt() >= 1);
    verifyConsistent(engine, summary);
    // The control connection was made again too: the final count is read, the key deleted.
    QVERIFY(summary.finalCount > 0);
    RedisConnection redis;
    QVERIFY(redis.open(server.endpoint()));
    QCOMPARE(redis.command({"EXISTS", engine.key()}).toInteger(), 0LL);
}

void TestFaults::outOfMemoryCountsErrors_data()
{
    QTest::addColumn<bool>("stopOnErrors");
    QTest::newRow("the run goes on") << false;
    QTest::newRow("the run stops when asked") << true;
}

void TestFaults::outOfMemoryCountsErrors()
{
    QFETCH(bool, stopOnErrors);
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection redis;
    QVERIFY(redis.open(server.endpoint()));
    BurstEngine engine;
    BurstPlan plan = pacedPlan(QStringLiteral("now"), 3000, "interval:200"); // 0.6 s
    plan.limiter = LimiterCatalog::custom(LimiterScript::fromSource(QStringLiteral("add-first.lua"), addFirstScript));
    plan.stopOnErrors = stopOnErrors;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(server.endpoint(), plan));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 300, 20000);

    QVERIFY(!redis.command({"CONFIG", "SET", "maxmemory-policy", "noeviction"}).isError());
    QVERIFY(!redis.command({"CONFIG", "SET", "maxmemory", "1"}).isError());
    if (stopOnErrors) {
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    } else {
        QTRY_VERIFY_WITH_TIMEOUT(engine.log().errors() >= 100 || finished.count() > 0, 10000);
        QVERIFY(!redis.command({"CONFIG", "SET", "maxmemory", "0"}).isError());
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    }
    redis.command({"CONFIG", "SET", "maxmemory", "0"});

    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    verifyConsistent(engine, summary);
    QVERIFY(summary.errors >= 1);
    const RequestLog& log = engine.log();
    for (int i = 0; i < log.size(); ++i) {
        if (log.isFailed(i))
            QVERIFY2(log.error(i).contains(QLatin1String("OOM")), qPrintable(log.error(i)));
    }
    QVERIFY(!summary.errorMessages.isEmpty());
    QVERIFY2(summary.errorMessages.constFirst().contains(QLatin1String("out of memory")),
             qPrintable(summary.errorMessages.constFirst()));
    if (stopOnErrors) {
        QCOMPARE(summary.failure.kind, BurstFailure::Kind::Script);
        QVERIFY2(summary.failure.message.contains(QLatin1String("OOM")), qPrintable(summary.failure.message));
        QVERIFY(summary.sent < plan.requests);
    } else {
        QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
        QCOMPARE(summary.sent, plan.requests);
        QVERIFY2(summary.errors >= 100 && summary.errors < plan.requests, qPrintable(QString::number(summary.errors)));
        QVERIFY(summary.stored > 300); // before and after the memory ran out
    }
}

void TestFaults::missingAclPermissionNamesTheFix_data()
{
    QTest::addColumn<QString>("denied");
    QTest::newRow("SCRIPT LOAD refused") << QStringLiteral("-evalsha -script");
    QTest::newRow("EVALSHA refused") << QStringLiteral("-evalsha");
}

void TestFaults::missingAclPermissionNamesTheFix()
{
    QFETCH(QString, denied);
    PrivateRedisServer server(aclUser(denied.toLatin1().constData()));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisEndpoint bob = server.endpoint();
    bob.user = QStringLiteral("bob");
    bob.password = QStringLiteral("pw");
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(bob, pacedPlan(QStringLiteral("now"), 100, "burst")));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Script);
    QVERIFY2(summary.failure.message.contains(QLatin1String("ACL SETUSER bob")), qPrintable(summary.failure.message));
    QVERIFY2(summary.failure.message.contains(QLatin1String("NOPERM")), qPrintable(summary.failure.message));
    QVERIFY(summary.sent <= 1);
}

void TestFaults::wrongPasswordNamesTheFix()
{
    PrivateRedisServer server(aclUser("-evalsha"));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisEndpoint bob = server.endpoint();
    bob.user = QStringLiteral("bob");
    bob.password = QStringLiteral("not-pw");
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(bob, pacedPlan(QStringLiteral("now"), 100, "burst")));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Connection);
    QVERIFY2(summary.failure.message.contains(QLatin1String("refused the user name or password")),
             qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 0);
}

void TestFaults::cliExitsThreeWithThePartialSummaryWhenKilled_data()
{
    QTest::addColumn<bool>("json");
    QTest::newRow("json") << true;
    QTest::newRow("text") << false;
}

void TestFaults::cliExitsThreeWithThePartialSummaryWhenKilled()
{
    QFETCH(bool, json);
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    CliRun cli;
    QStringList arguments
        = cliArgs({QStringLiteral("run"), QStringLiteral("--redis"), server.endpoint().displayUrl(),
                   QStringLiteral("--pace"), QStringLiteral("interval:500"), QStringLiteral("--requests"),
                   QStringLiteral("100000"), QStringLiteral("--key"), QStringLiteral("faults-killed"),
                   QStringLiteral("--reconnect-for"), QStringLiteral("300")});
    if (json)
        arguments << QStringLiteral("--json");
    cli.start(arguments);
    QTRY_VERIFY_WITH_TIMEOUT(zcard(server, "zsetlab:faults-killed") >= 100, 20000);

    signalServer(server, SIGKILL);
    QElapsedTimer clock;
    clock.start();
    QTRY_VERIFY_WITH_TIMEOUT(cli.errSoFar().contains("Lost the connection"), 1000);
    qInfo("cli, killed: reported after %lld ms", clock.elapsed());
    QCOMPARE(cli.finish(), 3);
    qInfo("cli, killed: exited 3 after %lld ms", clock.elapsed());
    const QByteArray out = cli.process.readAllStandardOutput();
    if (json) {
        QJsonParseError error;
        const QJsonObject summary = QJsonDocument::fromJson(out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, out.constData());
        const qint64 sent = summary.value(QLatin1String("sent")).toInteger();
        QVERIFY(sent >= 100);
        QCOMPARE(summary.value(QLatin1String("stored")).toInteger()
                     + summary.value(QLatin1String("overwritten")).toInteger()
                     + summary.value(QLatin1String("errors")).toInteger(),
                 sent);
        QVERIFY(summary.value(QLatin1String("error"))
                    .toObject()
                    .value(QLatin1String("message"))
                    .toString()
                    .contains(QLatin1String("did not come back")));
    } else {
        QVERIFY2(out.contains("  sent  ") && out.contains("  error  "), out.constData());
    }
}

void TestFaults::cliHonoursTheTimeoutOnAPausedServer_data()
{
    QTest::addColumn<int>("reconnectForMs");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<bool>("tls");
    QTest::newRow("no retry window: fails at the timeout") << 0 << QStringLiteral("300 ms") << false;
    QTest::newRow("paused past the retry window") << 1500 << QStringLiteral("did not come back within 1.5 s") << false;
    QTest::newRow("no retry window, TLS") << 0 << QStringLiteral("300 ms") << true;
    QTest::newRow("past the retry window, TLS") << 1500 << QStringLiteral("did not come back within 1.5 s") << true;
}

void TestFaults::cliHonoursTheTimeoutOnAPausedServer()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QFETCH(int, reconnectForMs);
    QFETCH(QString, expected);
    QFETCH(bool, tls);
    PrivateRedisServer server({}, {}, tlsIf(tls));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    CliRun cli;
    cli.start(cliArgs({QStringLiteral("run")}) + redisArgs(server, tls)
              + cliArgs({QStringLiteral("--timeout"), QStringLiteral("300"), QStringLiteral("--reconnect-for"),
                         QString::number(reconnectForMs), QStringLiteral("--pace"), QStringLiteral("interval:500"),
                         QStringLiteral("--requests"), QStringLiteral("100000"), QStringLiteral("--key"),
                         QStringLiteral("faults-paused"), QStringLiteral("--json")}));
    QTRY_VERIFY_WITH_TIMEOUT(zcard(server, "zsetlab:faults-paused") >= 100, 20000);

    signalServer(server, SIGSTOP);
    QElapsedTimer clock;
    clock.start();
    const int exitCode = cli.finish();
    const qint64 elapsed = clock.elapsed();
    signalServer(server, SIGCONT);
    qInfo("cli, paused: exited %d after %lld ms with --timeout 300 --reconnect-for %d", exitCode, elapsed,
          reconnectForMs);
    QCOMPARE(exitCode, 3);
    // The retry window is used in full (a timed-out server is tried again like a dropped one), and
    // the run ends soon after it: one attempt is bounded by the timeout.
    QVERIFY(elapsed >= reconnectForMs);
    QVERIFY(elapsed < reconnectForMs + 2000);
    const QJsonObject summary = QJsonDocument::fromJson(cli.process.readAllStandardOutput()).object();
    QVERIFY(summary.value(QLatin1String("sent")).toInteger() >= 100);
    const QString message = summary.value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    QVERIFY2(message.contains(QLatin1String("300 ms")), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
    QVERIFY2(cli.err.contains("300 ms"), cli.err.constData());
}

void TestFaults::cliGoesOnAfterAPause_data()
{
    QTest::addColumn<bool>("tls");
    addTransportRows("paused");
}

void TestFaults::cliGoesOnAfterAPause()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QFETCH(bool, tls);
    PrivateRedisServer server({}, {}, tlsIf(tls));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    CliRun cli;
    cli.start(cliArgs({QStringLiteral("run")}) + redisArgs(server, tls)
              + cliArgs({QStringLiteral("--limiter"), QStringLiteral("request-id"), QStringLiteral("--timeout"),
                         QStringLiteral("300"), QStringLiteral("--reconnect-for"), QStringLiteral("20000"),
                         QStringLiteral("--pace"), QStringLiteral("interval:500"), QStringLiteral("--requests"),
                         QStringLiteral("3000"), QStringLiteral("--key"), QStringLiteral("faults-pause"),
                         QStringLiteral("--json")}));
    QTRY_VERIFY_WITH_TIMEOUT(zcard(server, "zsetlab:faults-pause") >= 100, 20000);

    // Paused past the command timeout (SIGSTOP, as a debugger or a swapping host would), then resumed
    // within the retry window: the run connects again and finishes.
    signalServer(server, SIGSTOP);
    QTRY_VERIFY2_WITH_TIMEOUT(cli.errSoFar().contains("no reply within 300 ms"), cli.err.constData(), 5000);
    signalServer(server, SIGCONT);
    QTRY_VERIFY2_WITH_TIMEOUT(cli.errSoFar().contains("connected again"), cli.err.constData(), 10000);
    QCOMPARE(cli.finish(), 0);
    const QJsonObject summary = QJsonDocument::fromJson(cli.process.readAllStandardOutput()).object();
    QCOMPARE(summary.value(QLatin1String("sent")).toInt(), 3000);
    QVERIFY(summary.value(QLatin1String("reconnects")).toInt() >= 1);
    QVERIFY(!summary.contains(QLatin1String("error")));
    QCOMPARE(summary.value(QLatin1String("stored")).toInteger()
                 + summary.value(QLatin1String("overwritten")).toInteger()
                 + summary.value(QLatin1String("errors")).toInteger(),
             3000);
}

void TestFaults::cliGoesOnAfterARestart_data()
{
    QTest::addColumn<bool>("tls");
    addTransportRows("restarted");
}

void TestFaults::cliGoesOnAfterARestart()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QFETCH(bool, tls);
    PrivateRedisServer server({}, {}, tlsIf(tls));
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    CliRun cli;
    cli.start(cliArgs({QStringLiteral("run")}) + redisArgs(server, tls)
              + cliArgs({QStringLiteral("--limiter"), QStringLiteral("request-id"), QStringLiteral("--pace"),
                         QStringLiteral("interval:500"), QStringLiteral("--requests"), QStringLiteral("3000"),
                         QStringLiteral("--key"), QStringLiteral("faults-restart"), QStringLiteral("--json")}));
    QTRY_VERIFY_WITH_TIMEOUT(zcard(server, "zsetlab:faults-restart") >= 100, 20000);

    signalServer(server, SIGKILL);
    QTRY_VERIFY_WITH_TIMEOUT(cli.errSoFar().contains("Lost the connection"), 1000);
    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QTRY_VERIFY2_WITH_TIMEOUT(cli.errSoFar().contains("connected again"), cli.err.constData(), 5000);
    QCOMPARE(cli.finish(), 0);
    const QJsonObject summary = QJsonDocument::fromJson(cli.process.readAllStandardOutput()).object();
    QCOMPARE(summary.value(QLatin1String("sent")).toInt(), 3000);
    QVERIFY(summary.value(QLatin1String("reconnects")).toInt() >= 1);
    QVERIFY(!summary.contains(QLatin1String("error")));
}

void TestFaults::cliOutOfMemory()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    PrivateRedisServer server({QStringLiteral("--maxmemory"), QStringLiteral("1"), QStringLiteral("--maxmemory-policy"),
                               QStringLiteral("noeviction")});
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QTemporaryFile script(QDir::tempPath() + QStringLiteral("/add-first-XXXXXX.lua"));
    QVERIFY(script.open());
    script.write(addFirstScript);
    script.close();
    const QStringList arguments = cliArgs(
        {QStringLiteral("run"), QStringLiteral("--redis"), server.endpoint().displayUrl(), QStringLiteral("--script"),
         script.fileName(), QStringLiteral("--requests"), QStringLiteral("50"), QStringLiteral("--json")});

    CliRun goesOn;
    goesOn.start(arguments);
    QCOMPARE(goesOn.finish(), 0);
    const QJsonObject counted = QJsonDocument::fromJson(goesOn.process.readAllStandardOutput()).object();
    QCOMPARE(counted.value(QLatin1String("sent")).toInt(), 50);
    QCOMPARE(counted.value(QLatin1String("errors")).toInt(), 50);
    const QJsonArray messages = counted.value(QLatin1String("error_messages")).toArray();
    QVERIFY(!messages.isEmpty());
    QVERIFY2(messages.at(0).toString().contains(QLatin1String("OOM")), qPrintable(messages.at(0).toString()));

    CliRun stops;
    stops.start(arguments + QStringList {QStringLiteral("--stop-on-error")});
    QCOMPARE(stops.finish(), 4);
    QVERIFY2(stops.err.contains("OOM"), stops.err.constData());
    const QJsonObject stopped = QJsonDocument::fromJson(stops.process.readAllStandardOutput()).object();
    QVERIFY(stopped.value(QLatin1String("sent")).toInt() < 50);
    QVERIFY(stopped.value(QLatin1String("errors")).toInt() >= 1);

    // What the README says of the built-in scripts: their first write is the trim, so Redis 7.0
    // lets them go on past maxmemory.
    CliRun builtIn;
    builtIn.start(cliArgs({QStringLiteral("run"), QStringLiteral("--redis"), server.endpoint().displayUrl(),
                           QStringLiteral("--limiter"), QStringLiteral("request-id"), QStringLiteral("--requests"),
                           QStringLiteral("50"), QStringLiteral("--json")}));
    QCOMPARE(builtIn.finish(), 0);
    const QJsonObject trimmedFirst = QJsonDocument::fromJson(builtIn.process.readAllStandardOutput()).object();
    QCOMPARE(trimmedFirst.value(QLatin1String("errors")).toInt(), 0);
    QCOMPARE(trimmedFirst.value(QLatin1String("stored")).toInt(), 50);
}

void TestFaults::cliPermissionAndPassword()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const int port = freeLoopbackPort();
    QStringList arguments = aclUser("-evalsha -script");
    arguments << QStringLiteral("--port") << QString::number(port) << QStringLiteral("--bind")
              << QStringLiteral("127.0.0.1");
    PrivateRedisServer server(arguments);
    QVERIFY2(server.start(), qPrintable(server.errorString()));

    CliRun refused;
    refused.start(cliArgs({QStringLiteral("run"), QStringLiteral("--redis"),
                           QStringLiteral("redis://bob:pw@127.0.0.1:%1").arg(port), QStringLiteral("--requests"),
                           QStringLiteral("10")}));
    QCOMPARE(refused.finish(), 4);
    QVERIFY2(refused.err.contains("ACL SETUSER bob"), refused.err.constData());

    CliRun wrong;
    wrong.start(cliArgs({QStringLiteral("run"), QStringLiteral("--redis"),
                         QStringLiteral("redis://bob:not-pw@127.0.0.1:%1").arg(port), QStringLiteral("--requests"),
                         QStringLiteral("10")}));
    QCOMPARE(wrong.finish(), 3);
    QVERIFY2(wrong.err.contains("refused the user name or password"), wrong.err.constData());
}

// A user that may not DEL: the run ends, says which key it left, with its TTL and the command that
// deletes it, and exits 5; the key is there, with a TTL.
void TestFaults::cleanupRefusedByAclNamesWhatIsLeft()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const int port = freeLoopbackPort();
    QStringList arguments = aclUser("-del -unlink");
    arguments << QStringLiteral("--port") << QString::number(port) << QStringLiteral("--bind")
              << QStringLiteral("127.0.0.1");
    PrivateRedisServer server(arguments);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    CliRun result;
    result.start(cliArgs({QStringLiteral("run"), QStringLiteral("--redis"),
                          QStringLiteral("redis://bob:pw@127.0.0.1:%1").arg(port), QStringLiteral("--requests"),
                          QStringLiteral("20"), QStringLiteral("--json")}));
    QCOMPARE(result.finish(), 5);
    const QByteArray out = result.process.readAllStandardOutput();
    const QJsonObject summary = QJsonDocument::fromJson(out).object();
    const QJsonArray left = summary.value(QStringLiteral("keys_left")).toArray();
    QCOMPARE(left.size(), 1);
    const QByteArray key = left.at(0).toObject().value(QStringLiteral("key")).toString().toUtf8();
    QVERIFY(key.startsWith("zsetlab:run:"));
    QVERIFY2(result.err.contains("could not delete") && result.err.contains(QByteArray("redis-cli DEL " + key))
                 && result.err.contains("NOPERM"),
             result.err.constData());
    RedisConnection admin;
    QVERIFY(admin.open(server.endpoint()));
    const qint64 members = admin.command({"ZCARD", key}).toInteger();
    QVERIFY(members > 0);
    QCOMPARE(members, summary.value(QStringLiteral("members_at_end")).toInteger()); // all it wrote is there
    const qint64 ttl = admin.command({"PTTL", key}).toInteger();
    QVERIFY2(ttl > 0, qPrintable(QString::number(ttl)));
    QCOMPARE(left.at(0).toObject().value(QStringLiteral("ttl_ms")).toInteger() > 0, true);
}

// Another client's script keeps the server BUSY past the end of the run: the run asks again for a
// bounded time, then ends and names the key it could not delete.
void TestFaults::cleanupWaitsForABusyServerThenSaysSo()
{
    PrivateRedisServer server({QStringLiteral("--lua-time-limit"), QStringLiteral("100")});
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    BurstPlan plan = pacedPlan(QStringLiteral("request-id"), 400, "interval:2000");
    plan.windowMs = 60000; // the key's own TTL outlasts the test
    QVERIFY(engine.start(server.endpoint(), plan));
    RedisConnection admin; // opened now: while the server is BUSY, only a connection made before gets in
    QVERIFY(admin.open(server.endpoint()));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 10, 10000);
    // A script of someone else's that runs for up to 15 s; SCRIPT KILL ends it below.
    std::thread busy([endpoint = server.endpoint()] {
        RedisConnection other;
        if (!other.open(endpoint))
            return;
        other.setCommandTimeout(std::chrono::milliseconds(30000));
        other.command({"EVAL",
                       "local t = redis.call('TIME') local stop = t[1] + 15 "
                       "while tonumber(redis.call('TIME')[1]) < stop do end return 1",
                       "0"});
    });
    // However the test ends, the busy script is killed and its thread joined.
    auto endBusy = qScopeGuard([&admin, &busy] {
        if (busy.joinable()) {
            admin.command({"SCRIPT", "KILL"});
            busy.join();
        }
    });
    QElapsedTimer clock;
    clock.start();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    const qint64 took = clock.elapsed();
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    admin.command({"SCRIPT", "KILL"});
    busy.join();
    QVERIFY2(took >= 4500 && took < 12000, qPrintable(QString::number(took))); // it asked again, for a while
    QCOMPARE(summary.keysLeft.size(), 1);
    QCOMPARE(summary.keysLeft.at(0).key, engine.key());
    QVERIFY2(summary.keysLeft.at(0).why.contains(QLatin1String("BUSY")), qPrintable(summary.keysLeft.at(0).why));
    QVERIFY2(summary.keysLeftText().contains(QLatin1String("redis-cli DEL ") + QString::fromUtf8(engine.key())),
             qPrintable(summary.keysLeftText()));
    QVERIFY(admin.command({"EXISTS", engine.key()}).toInteger() == 1); // left, as it says
}

void TestFaults::cliFlagsNameTheirRange_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("messageParts");
    auto row
        = [](const char* name, std::initializer_list<const char*> arguments, std::initializer_list<const char*> parts) {
              QStringList args {QStringLiteral("run")};
              for (const char* argument : arguments)
                  args << QString::fromUtf8(argument);
              QStringList expected;
              for (const char* part : parts)
                  expected << QString::fromUtf8(part);
              QTest::newRow(name) << args << expected;
          };
    row("reconnect-for negative", {"--reconnect-for", "-1"}, {"--reconnect-for", "0 to 600000"});
    row("reconnect-for not a number", {"--reconnect-for", "soon"}, {"--reconnect-for", "0 to 600000"});
    row("timeout too short", {"--timeout", "5"}, {"--timeout", "10 to 600000"});
    row("window zero", {"--window", "0"}, {"--window", "from 1 to"});
    row("pipeline too deep", {"--pipeline", "5000"}, {"--pipeline", "1 to 1024"});
    row("seed negative", {"--seed", "-1"}, {"--seed", "from 0 to"});
    row("limit too high", {"--limit", "2000000000"}, {"--limit", "0 to 1000000000"});
    row("interval zero", {"--pace", "interval:0"}, {"--pace", "1 to 60000000"});
    row("poisson zero", {"--pace", "poisson:0"}, {"--pace", "0.0001 to 1000"});
    row("empty script path", {"--script", ""}, {"--script"});
    row("empty key", {"--key", ""}, {"--key"});
    row("url without a scheme", {"--redis", "localhost"}, {"--redis", "redis://host"});
}

void TestFaults::cliFlagsNameTheirRange()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, messageParts);
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    CliRun cli;
    cli.start(arguments);
    QCOMPARE(cli.finish(), 2);
    for (const QString& part : messageParts)
        QVERIFY2(QString::fromUtf8(cli.err).contains(part), cli.err.constData());
    QVERIFY(cli.process.readAllStandardOutput().isEmpty());
}

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_faults.moc"
