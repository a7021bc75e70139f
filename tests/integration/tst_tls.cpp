// rediss://: zsetlab's own TLS (OpenSSL under hiredis's reader and formatter) against real
// redis-servers with TLS ports and certificates of throw-away CAs. Every check the client makes
// (the CA, the name, the dates, a client certificate) fails with its own message and exit code 3;
// a burst with every catalog limiter, watch, the doctor's live probe and the Lua debugger work over
// TLS as over a socket. Faults (kill, restart, pause) over TLS are in tst_faults.
#include "burst/burstengine.h"
#include "cliprocess.h"
#include "debugger/scriptdebugger.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "redis/privateredisserver.h"
#include "redis/redisconnection.h"
#include "redis/tlsoptions.h"
#include "sourcetree.h"
#include "testbursts.h"
#include "watch/watchsession.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <memory>
#include <sys/stat.h>

namespace {
// The servers the tests connect to, each with a certificate of its own CA.
enum class Server { Good, Expired, OtherName, AsksForClientCertificate, Plain };

PrivateTls tlsOf(Server kind)
{
    PrivateTls tls;
    tls.enabled = kind != Server::Plain;
    if (kind == Server::Expired) {
        tls.validFrom = -2 * 24 * 3600;
        tls.validUntil = -24 * 3600;
    } else if (kind == Server::OtherName) {
        tls.names = {QStringLiteral("redis.example.net")};
    } else if (kind == Server::AsksForClientCertificate) {
        tls.requireClientCertificate = true;
    }
    return tls;
}

QStringList tlsArguments(const RedisEndpoint& endpoint)
{
    return QStringList {QStringLiteral("--redis"), endpoint.displayUrl()} + TlsOptions::arguments(endpoint.tls);
}
} // namespace

class TestTls : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void connectsAndPipelines();
    void eachCheckThatFailsHasItsMessage_data();
    void eachCheckThatFailsHasItsMessage();
    void insecureSkipsTheChecks();
    void everyLimiterCountsAsOverASocket_data();
    void everyLimiterCountsAsOverASocket();
    void manyLanesDeepPipelines();
    void watchSeesTheBurst();
    void doctorProbesLive();
    void debuggerStepsOverTls();
    void privateServerCommandPrintsUrlAndCa();

private:
    PrivateRedisServer& server(Server kind);
    std::map<Server, std::unique_ptr<PrivateRedisServer>> m_servers;
};

void TestTls::initTestCase()
{
    if (PrivateRedisServer::executable().isEmpty())
        QSKIP("redis-server is not installed");
}

void TestTls::cleanupTestCase()
{
    m_servers.clear();
}

PrivateRedisServer& TestTls::server(Server kind)
{
    auto& slot = m_servers[kind];
    if (!slot) {
        QStringList extra;
        if (kind == Server::Plain) // a plain TCP port, to aim rediss:// at
            extra << QStringLiteral("--port") << QString::number(PrivateRedisServer::freeLoopbackPort())
                  << QStringLiteral("--bind") << QStringLiteral("127.0.0.1");
        slot = std::make_unique<PrivateRedisServer>(extra, QByteArray(), tlsOf(kind));
        if (!slot->start())
            qFatal("cannot start a private TLS server: %s", qPrintable(slot->errorString()));
    }
    return *slot;
}

void TestTls::connectsAndPipelines()
{
    const RedisEndpoint endpoint = server(Server::Good).tlsEndpoint();
    QVERIFY(endpoint.tls.enabled);
    QVERIFY(QFile::exists(endpoint.tls.caFile));
    RedisConnection tls;
    QVERIFY2(tls.open(endpoint), qPrintable(tls.lastError().message));
    QVERIFY(!tls.server().version.isEmpty());

    // 5,000 commands queued, then their replies, in order: partial writes and reads across records.
    const QByteArray key = "zsetlab:tls-pipeline";
    const QByteArray member(300, 'm'); // bigger than one TLS record in all
    for (int i = 0; i < 5000; ++i)
        QVERIFY(tls.append({"ZADD", key, QByteArray::number(i), member + QByteArray::number(i)}));
    for (int i = 0; i < 5000; ++i)
        QCOMPARE(tls.readReply().toInteger(), 1LL);
    const RedisReply range = tls.command({"ZRANGE", key, "0", "-1"});
    QCOMPARE(range.elements().size(), size_t(5000));

    // What TLS carried is what the server holds, read over its plain socket.
    RedisConnection plain;
    QVERIFY(plain.open(server(Server::Good).endpoint()));
    QCOMPARE(plain.command({"ZCARD", key}).toInteger(), 5000LL);
    QCOMPARE(plain.command({"DEL", key}).toInteger(), 1LL);
}

void TestTls::eachCheckThatFailsHasItsMessage_data()
{
    QTest::addColumn<int>("serverKind");
    QTest::addColumn<QString>("change"); // what the user gets wrong
    QTest::addColumn<int>("kind");
    QTest::addColumn<QStringList>("messageParts");
    auto row
        = [](const char* name, Server server, const char* change, RedisError::Kind kind, const QStringList& parts) {
              QTest::newRow(name) << int(server) << QString::fromLatin1(change) << int(kind) << parts;
          };
    row("the system's CAs do not know the private CA", Server::Good, "no-ca", RedisError::Kind::TlsUnknownCa,
        {QStringLiteral("not signed by a CA"), QStringLiteral("--tls-ca FILE")});
    row("another server's CA", Server::Good, "other-ca", RedisError::Kind::TlsUnknownCa,
        {QStringLiteral("not signed by a CA"), QStringLiteral("--insecure")});
    row("a certificate for another host", Server::OtherName, "", RedisError::Kind::TlsWrongHost,
        {QStringLiteral("is for redis.example.net, not for \"127.0.0.1\""), QStringLiteral("--sni NAME")});
    row("a name the certificate does not list", Server::Good, "sni", RedisError::Kind::TlsWrongHost,
        {QStringLiteral("not for \"cache.example.org\""), QStringLiteral("127.0.0.1, localhost")});
    row("an expired certificate", Server::Expired, "", RedisError::Kind::TlsExpired,
        {QStringLiteral("expired on"), QStringLiteral("Renew")});
    row("no client certificate", Server::AsksForClientCertificate, "no-client-cert",
        RedisError::Kind::TlsClientCertificate,
        {QStringLiteral("requires a client certificate"), QStringLiteral("--tls-cert FILE and --tls-key FILE")});
    row("a client certificate of another CA", Server::AsksForClientCertificate, "other-client-cert",
        RedisError::Kind::TlsClientCertificate, {QStringLiteral("refused the client certificate")});
    row("a CA file that is not there", Server::Good, "missing-ca", RedisError::Kind::Tls,
        {QStringLiteral("Cannot read the CA certificate"), QStringLiteral("no such file")});
    // Issue #44: a FIFO as --tls-ca or --tls-key blocked open() for 11 minutes, deaf to signals.
    row("a CA file that is a named pipe", Server::Good, "fifo-ca", RedisError::Kind::Tls,
        {QStringLiteral("Cannot read the CA certificate"), QStringLiteral("named pipe (FIFO)")});
    row("a key that is a named pipe", Server::AsksForClientCertificate, "fifo-key", RedisError::Kind::Tls,
        {QStringLiteral("Cannot use the key"), QStringLiteral("named pipe (FIFO)")});
    row("a key that is not the certificate's", Server::AsksForClientCertificate, "wrong-key", RedisError::Kind::Tls,
        {QStringLiteral("does not belong to the certificate")});
    // redis-server reads a ClientHello as the start of an inline command and waits for its end.
    row("a port without TLS", Server::Plain, "plain-port", RedisError::Kind::Timeout,
        {QStringLiteral("No TLS handshake"), QStringLiteral("A plain port takes redis://")});
}

void TestTls::eachCheckThatFailsHasItsMessage()
{
    QFETCH(int, serverKind);
    QFETCH(QString, change);
    QFETCH(int, kind);
    QFETCH(QStringList, messageParts);
    PrivateRedisServer& target = server(Server(serverKind));
    RedisEndpoint endpoint = target.tlsEndpoint();
    const RedisEndpoint other = server(Server::Good).tlsEndpoint();
    const QString otherFolder = server(Server::Good).tlsFolder();
    if (change == QLatin1String("no-ca"))
        endpoint.tls.caFile.clear();
    else if (change == QLatin1String("other-ca"))
        endpoint.tls.caFile = server(Server::Expired).caFile();
    else if (change == QLatin1String("sni"))
        endpoint.tls.serverName = QStringLiteral("cache.example.org");
    else if (change == QLatin1String("no-client-cert"))
        endpoint.tls.certFile = endpoint.tls.keyFile = QString();
    else if (change == QLatin1String("other-client-cert")) {
        endpoint.tls.certFile = otherFolder + QStringLiteral("/client.crt");
        endpoint.tls.keyFile = otherFolder + QStringLiteral("/client.key");
    } else if (change == QLatin1String("missing-ca"))
        endpoint.tls.caFile = target.tlsFolder() + QStringLiteral("/absent.crt");
    else if (change == QLatin1String("fifo-ca") || change == QLatin1String("fifo-key")) {
        static QTemporaryDir pipes;
        const QString fifo = pipes.filePath(change);
        QVERIFY(QFileInfo::exists(fifo) || ::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        (change == QLatin1String("fifo-ca") ? endpoint.tls.caFile : endpoint.tls.keyFile) = fifo;
    } else if (change == QLatin1String("wrong-key"))
        endpoint.tls.keyFile = otherFolder + QStringLiteral("/client.key");
    else if (change == QLatin1String("plain-port")) {
        endpoint = other;
        RedisConnection plain;
        QVERIFY(plain.open(target.endpoint()));
        endpoint.port = plain.command({"CONFIG", "GET", "port"}).elements().at(1).bytes().toInt();
    }

    RedisConnection connection;
    ConnectOptions options;
    options.connectTimeout = options.commandTimeout = std::chrono::milliseconds(3000);
    QVERIFY(!connection.open(endpoint, options));
    const QString message = connection.lastError().message;
    QVERIFY2(int(connection.lastError().kind) == kind, qPrintable(message));
    for (const QString& part : messageParts)
        QVERIFY2(message.contains(part), qPrintable(message));

    // The CLI says the same and exits 3 (cannot connect), having sent nothing.
    const CliResult cli = runCli(QStringList {QStringLiteral("run"), QStringLiteral("--requests"), QStringLiteral("10")}
                                 + tlsArguments(endpoint));
    QCOMPARE(cli.exitCode, 3);
    for (const QString& part : messageParts)
        QVERIFY2(QString::fromUtf8(cli.err).contains(part), cli.err.constData());
    QVERIFY(cli.out.isEmpty());
}

void TestTls::insecureSkipsTheChecks()
{
    RedisEndpoint endpoint = server(Server::Expired).tlsEndpoint();
    endpoint.tls.caFile.clear();
    endpoint.tls.insecure = true;
    RedisConnection connection;
    QVERIFY2(connection.open(endpoint), qPrintable(connection.lastError().message));
    QCOMPARE(connection.command({"PING"}).bytes(), QByteArray("PONG"));

    // The host's name is what --sni changes: the certificate for redis.example.net is taken with it.
    RedisEndpoint named = server(Server::OtherName).tlsEndpoint();
    named.tls.serverName = QStringLiteral("redis.example.net");
    RedisConnection byName;
    QVERIFY2(byName.open(named), qPrintable(byName.lastError().message));
}

void TestTls::everyLimiterCountsAsOverASocket_data()
{
    QTest::addColumn<QString>("id");
    for (const LimiterRef& limiter : LimiterCatalog::all())
        QTest::newRow(qPrintable(limiter->id)) << limiter->id;
}

void TestTls::everyLimiterCountsAsOverASocket()
{
    QFETCH(QString, id);
    const BurstPlan plan = TestBursts::replayPlan(LimiterCatalog::builtin(id));
    const BurstSummary overSocket = TestBursts::runToTheEnd(server(Server::Good).endpoint(), plan);
    const BurstSummary overTls = TestBursts::runToTheEnd(server(Server::Good).tlsEndpoint(), plan);
    VERIFY_SAME_TOTALS(overTls, overSocket, plan);
    QCOMPARE(overTls.maxCount, overSocket.maxCount);
}

void TestTls::manyLanesDeepPipelines()
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("request-id");
    plan.requests = 20000;
    plan.connections = 8;
    plan.pipeline = 64;
    plan.windowMs = 600000;
    const BurstSummary summary = TestBursts::runToTheEnd(server(Server::Good).tlsEndpoint(), plan);
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 20000);
    QCOMPARE(summary.errors, 0);
    QCOMPARE(summary.stored, 20000);
    QCOMPARE(summary.membersAtEnd, 20000); // ZCARD, as Redis counted
}

void TestTls::watchSeesTheBurst()
{
    PrivateRedisServer& target = server(Server::Good);
    const QByteArray key = ZsetKeys::freshRunKey() + "-watched";
    WatchSession session;
    WatchSession::Settings settings;
    settings.endpoint = target.tlsEndpoint(); // MONITOR over TLS
    settings.patterns = {KeyPattern(key)};
    settings.duration = std::chrono::milliseconds(120000);
    settings.snapshotInterval = std::chrono::milliseconds(50);
    WatchSnapshot latest;
    connect(&session, &WatchSession::snapshotAvailable, this, [&](const WatchSnapshot& s) { latest = s; });
    QSignalSpy started(&session, &WatchSession::started);
    QSignalSpy finished(&session, &WatchSession::finished);
    QVERIFY(session.start(settings));
    QVERIFY(started.wait(20000));

    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.requests = 3000;
    plan.connections = 2;
    plan.pipeline = 8;
    plan.windowMs = 60000;
    plan.key = key;
    plan.keepKey = true;
    const BurstSummary summary = TestBursts::runToTheEnd(target.tlsEndpoint(), plan);
    QCOMPARE(summary.sent, 3000);
    QCOMPARE(summary.errors, 0);
    QVERIFY2(summary.overwritten > 0, "the burst should have shared milliseconds");

    auto watchedIn = [&key](const WatchSnapshot& snapshot) {
        for (const WatchedKey& watched : snapshot.keys)
            if (watched.key == key)
                return watched;
        return WatchedKey();
    };
    QTRY_COMPARE_WITH_TIMEOUT(watchedIn(latest).zadds, summary.sent, 30000);
    session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const WatchedKey watched = watchedIn(finished.at(0).at(0).value<WatchResult>().snapshot);
    QCOMPARE(watched.overwrites, summary.overwritten);
    QCOMPARE(watched.distinctMembers, summary.stored);
    RedisConnection plain;
    QVERIFY(plain.open(target.endpoint()));
    QCOMPARE(watched.size, plain.command({"ZCARD", key}).toInteger());
    QVERIFY(ZsetKeys::deleteRunKeys(plain, key));
}

void TestTls::doctorProbesLive()
{
    const QString script = sourcePath(QStringLiteral("lua/now.lua"));
    QVERIFY(!script.isEmpty());
    const CliResult result
        = runCli(QStringList {QStringLiteral("doctor"), script, QStringLiteral("--live"), QStringLiteral("--json")}
                 + tlsArguments(server(Server::Good).tlsEndpoint()));
    QCOMPARE(result.exitCode, 1); // the `now` member loses requests: a finding
    const QJsonObject report = QJsonDocument::fromJson(result.out).object();
    QVERIFY2(report.contains(QLatin1String("live")), result.out.constData());
    QVERIFY2(QString::fromUtf8(result.out).contains(QLatin1String("stored as 1 entry")), result.out.constData());
    QVERIFY2(result.err.contains("rediss://127.0.0.1"), result.err.constData());
}

void TestTls::debuggerStepsOverTls()
{
    PrivateRedisServer& target = server(Server::Good);
    const QByteArray key = ZsetKeys::freshRunKey() + "-ldb";
    RedisConnection plain;
    QVERIFY(plain.open(target.endpoint()));
    const qint64 now = 1'710'000'000'000;
    // The first request of the millisecond, as the `now` limiter stores it: member = score = now.
    QCOMPARE(plain.command({"ZADD", key, QByteArray::number(now), QByteArray::number(now)}).toInteger(), 1LL);

    ScriptDebugger debugger;
    debugger.setServer(target.tlsEndpoint(), {});
    QSignalSpy stopped(&debugger, &ScriptDebugger::stopped);
    QSignalSpy finished(&debugger, &ScriptDebugger::finished);
    QSignalSpy failed(&debugger, &ScriptDebugger::failed);
    const RedisArgs argv {QByteArray::number(now), "1000", "10", "second"};
    // A forked session cannot live over TLS (Redis ends the session when it forks): said at once.
    QVERIFY(!debugger.start(LimiterCatalog::builtin("now")->script, key, argv, ScriptDebugger::Mode::Forked));
    QCOMPARE(failed.count(), 1);
    QVERIFY2(failed.at(0).at(0).toString().contains(QLatin1String("synchronous mode")),
             qPrintable(failed.at(0).at(0).toString()));

    QVERIFY(debugger.start(LimiterCatalog::builtin("now")->script, key, argv, ScriptDebugger::Mode::Sync));
    QTRY_VERIFY_WITH_TIMEOUT(stopped.count() == 1 || failed.count() == 2, 10000);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(stopped.last().at(0).value<DebugStep>().zsetSize, 1);
    debugger.step();
    QTRY_VERIFY_WITH_TIMEOUT(stopped.count() == 2 || finished.count() == 1, 10000);
    QCOMPARE(stopped.count(), 2);
    QVERIFY(stopped.last().at(0).value<DebugStep>().line > stopped.first().at(0).value<DebugStep>().line);
    debugger.continueToEnd();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const auto reply = finished.last().at(1).value<RedisReply>();
    QCOMPARE(reply.elements().size(), size_t(3));
    QCOMPARE(reply.elements()[1].toInteger(), 0); // the same millisecond: ZADD overwrote
    QCOMPARE(reply.elements()[0].toInteger(), 1); // count 1 for two requests
    QCOMPARE(plain.command({"ZCARD", key}).toInteger(), 1LL); // sync: kept, as Redis holds it
    QCOMPARE(plain.command({"DEL", key}).toInteger(), 1LL);
}

void TestTls::privateServerCommandPrintsUrlAndCa()
{
    QProcess cli;
    cli.start(qEnvironmentVariable("ZSETLAB_CLI"), {QStringLiteral("server"), QStringLiteral("--tls")});
    QVERIFY(cli.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(cli.canReadLine(), 20000);
    const QString url = QString::fromUtf8(cli.readLine()).trimmed();
    QVERIFY2(url.startsWith(QLatin1String("rediss://127.0.0.1:")), qPrintable(url));
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += cli.readAllStandardError()).contains("Ctrl+C"), 5000);
    const QString caLine
        = QString::fromUtf8(err).section(QStringLiteral("CA certificate: "), 1).section(QLatin1Char('\n'), 0, 0);
    QVERIFY2(QFile::exists(caLine), err.constData());

    // What it prints is enough to connect, and the name is checked (127.0.0.1 is in the certificate).
    RedisEndpoint endpoint;
    QString why;
    TlsSettings tls;
    tls.caFile = caLine;
    QVERIFY2(RedisEndpoint::parse(url, tls, &endpoint, &why), qPrintable(why));
    RedisConnection connection;
    QVERIFY2(connection.open(endpoint), qPrintable(connection.lastError().message));
    cli.terminate();
    QVERIFY(cli.waitForFinished(10000));
    QVERIFY(!QFile::exists(caLine)); // its folder went with it
}

QTEST_GUILESS_MAIN(TestTls)
#include "tst_tls.moc"
