#include "redis/serversession.h"
#include "testredis.h"

#include <QtTest>

#include <csignal>

class TestServerSession : public QObject
{
    Q_OBJECT
private slots:
    void connectsToAGivenUrl();
    void refusesABadUrlAtOnce();
    void reportsAServerThatIsNotThere();
    void reportsLossAndRecovery();
    void replacesADeadPrivateServer();
};

void TestServerSession::connectsToAGivenUrl()
{
    ServerSession session;
    QSignalSpy connected(&session, &ServerSession::connected);
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    session.connectTo(request);
    QCOMPARE(session.state(), ServerSession::State::Connecting); // returns before the network answers
    QTRY_COMPARE_WITH_TIMEOUT(connected.count(), 1, 5000);
    QVERIFY(session.isUsable());
    QCOMPARE(session.origin(), RedisServerChoice::Origin::Given);
    QVERIFY2(session.description().startsWith(session.server().displayName()), qPrintable(session.description()));
}

void TestServerSession::refusesABadUrlAtOnce()
{
    ServerSession session;
    QSignalSpy failed(&session, &ServerSession::failed);
    RedisServerChoice::Request request;
    request.url = QStringLiteral("redis://127.0.0.1:6380");
    request.tls.caFile = QStringLiteral("/ca.pem"); // TLS options with a plain URL
    session.connectTo(request);
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains(QLatin1String("rediss://")));
    QCOMPARE(session.state(), ServerSession::State::Disconnected);
}

void TestServerSession::reportsAServerThatIsNotThere()
{
    ServerSession session;
    QSignalSpy failed(&session, &ServerSession::failed);
    QTemporaryDir dir;
    RedisServerChoice::Request request;
    request.url = QStringLiteral("unix://") + dir.filePath(QStringLiteral("absent.sock"));
    session.connectTo(request);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
    QVERIFY(failed.at(0).at(0).toString().contains(QLatin1String("absent.sock")));
}

void TestServerSession::reportsLossAndRecovery()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    ServerSession session;
    session.setHealthInterval(100);
    QSignalSpy lost(&session, &ServerSession::lost);
    QSignalSpy restored(&session, &ServerSession::restored);
    RedisServerChoice::Request request;
    request.url = server.endpoint().displayUrl();
    request.options.connectTimeout = std::chrono::milliseconds(300);
    request.options.commandTimeout = std::chrono::milliseconds(300);
    session.connectTo(request);
    QTRY_VERIFY_WITH_TIMEOUT(session.isUsable(), 5000);
    const auto pid = static_cast<pid_t>(server.serverPid());
    ::kill(pid, SIGSTOP); // the server stops answering
    QTRY_COMPARE_WITH_TIMEOUT(lost.count(), 1, 5000);
    QCOMPARE(session.state(), ServerSession::State::Lost);
    ::kill(pid, SIGCONT);
    QTRY_COMPARE_WITH_TIMEOUT(restored.count(), 1, 5000);
    QVERIFY(session.isUsable());
}

void TestServerSession::replacesADeadPrivateServer()
{
    ServerSession session;
    QSignalSpy lost(&session, &ServerSession::lost);
    QSignalSpy replaced(&session, &ServerSession::privateServerReplaced);
    RedisServerChoice::Request request;
    request.privateServer = true; // not 6379, even if something answers there
    session.connectTo(request);
    QTRY_VERIFY_WITH_TIMEOUT(session.isUsable(), 10000);
    QCOMPARE(session.origin(), RedisServerChoice::Origin::Private);
    const RedisEndpoint endpoint = session.endpoint();
    const qint64 firstPid = session.privateServer()->serverPid();
    QVERIFY(firstPid > 0);

    ::kill(static_cast<pid_t>(firstPid), SIGKILL);
    QTRY_COMPARE_WITH_TIMEOUT(replaced.count(), 1, 5000);
    QCOMPARE(lost.count(), 1);
    QVERIFY(!lost.at(0).at(0).toString().contains(QLatin1String("start redis-server")));
    QVERIFY(session.isUsable());
    QVERIFY(session.lastError().isEmpty());
    QCOMPARE(session.endpoint().displayUrl(), endpoint.displayUrl());
    QVERIFY(session.privateServer()->serverPid() != firstPid);
    RedisConnection connection;
    QVERIFY2(connection.open(session.endpoint(), session.options()), qPrintable(connection.lastError().message));
    QCOMPARE(connection.command({"PING"}).text(), QStringLiteral("PONG"));

    session.disconnectFromServer(); // a deliberate stop is not replaced
    QCoreApplication::processEvents();
    QCOMPARE(replaced.count(), 1);
    QVERIFY(!QFile::exists(endpoint.socketPath));
}

QTEST_GUILESS_MAIN(TestServerSession)
#include "tst_serversession.moc"
