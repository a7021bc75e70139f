#include "redis/redisconnection.h"
#include "testredis.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace {
// A TCP socket on loopback that listens but never answers: connects succeed, replies never come.
struct SilentListener
{
    int fd = -1;
    int port = 0;
    explicit SilentListener(bool listening)
    {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address {};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        address.sin_port = 0;
        if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0)
            qFatal("cannot bind a loopback socket");
        socklen_t length = sizeof address;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
        port = ntohs(address.sin_port);
        if (listening)
            ::listen(fd, 4);
    }
    ~SilentListener() { ::close(fd); }
};
} // namespace

class TestRedisConnection : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void readsServerInfo();
    void readsValkeysServerMode();
    void reportsNothingListening();
    void reportsMissingSocket();
    void timesOutOnASilentServer();
    void passwords_data();
    void passwords();
    void passwordHintOfAUnixUrlWorks_data();
    void passwordHintOfAUnixUrlWorks();
    void namesMissingAclPermissions();
    void refusesADatabaseTheServerLacks();
    void selectsTheDatabaseOfTheUrl();
    void interruptWakesABlockedCommand();
    void knowsWhichVersionsScript_data();
    void knowsWhichVersionsScript();

private:
    std::unique_ptr<PrivateRedisServer> m_guarded; // requirepass and an ACL user
};

void TestRedisConnection::initTestCase()
{
    m_guarded = std::make_unique<PrivateRedisServer>(QStringList {
        QStringLiteral("--requirepass"), QStringLiteral("s3cret"), QStringLiteral("--user"), QStringLiteral("alice"),
        QStringLiteral("on"), QStringLiteral(">wonder"), QStringLiteral("~zsetlab:*"), QStringLiteral("+@all")});
    QVERIFY2(m_guarded->start(), qPrintable(m_guarded->errorString()));
}

void TestRedisConnection::cleanupTestCase()
{
    m_guarded.reset();
}

void TestRedisConnection::readsServerInfo()
{
    RedisConnection connection;
    QVERIFY(TestRedis::connect(connection));
    QVERIFY(connection.server().majorVersion >= 2);
    QVERIFY(!connection.server().version.isEmpty());
    QCOMPARE(connection.server().mode, QStringLiteral("standalone"));
    QCOMPARE(connection.server().processId, TestRedis::server().serverPid());
    QCOMPARE(connection.command({"PING"}).text(), QStringLiteral("PONG"));
}

// Valkey 8.1.1's INFO server (FACTS.md) says server_mode where Redis says redis_mode: a Valkey
// cluster was taken for a single server, and a sandbox was made on one master of three.
void TestRedisConnection::readsValkeysServerMode()
{
    const ServerInfo valkey = ServerInfo::parse("# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\n"
                                                "valkey_version:8.1.1\r\nserver_mode:cluster\r\nos:Linux\r\n");
    QCOMPARE(valkey.mode, QStringLiteral("cluster"));
    QCOMPARE(valkey.name, QStringLiteral("valkey"));
    QCOMPARE(valkey.nameVersion, QStringLiteral("8.1.1")); // its own, for what a replay records
    QCOMPARE(valkey.version, QStringLiteral("7.2.4")); // the Redis it answers as, for feature checks
    const ServerInfo redis = ServerInfo::parse("# Server\r\nredis_version:7.0.15\r\nredis_mode:cluster\r\n");
    QCOMPARE(redis.mode, QStringLiteral("cluster"));
    QCOMPARE(redis.name, QStringLiteral("redis"));
    QCOMPARE(redis.nameVersion, QStringLiteral("7.0.15"));
    // Named as its users name it; the JSON keeps the Redis version it answers as beside its own.
    QCOMPARE(valkey.displayName(), QStringLiteral("Valkey 8.1.1"));
    QCOMPARE(redis.displayName(), QStringLiteral("Redis 7.0.15"));
    QCOMPARE(valkey.toJson().value(QLatin1String("flavour")).toString(), QStringLiteral("valkey"));
    QCOMPARE(valkey.toJson().value(QLatin1String("version")).toString(), QStringLiteral("8.1.1"));
    QCOMPARE(valkey.toJson().value(QLatin1String("redis_version")).toString(), QStringLiteral("7.2.4"));
    QCOMPARE(redis.toJson().value(QLatin1String("version")).toString(), QStringLiteral("7.0.15"));
}

void TestRedisConnection::reportsNothingListening()
{
    int port = 0;
    {
        SilentListener bound(false); // take a free port, then release it: nothing listens there
        port = bound.port;
    }
    RedisEndpoint endpoint;
    endpoint.port = port;
    RedisConnection connection;
    QVERIFY(!connection.open(endpoint));
    QCOMPARE(connection.lastError().kind, RedisError::Kind::Refused);
    QVERIFY2(connection.lastError().message.contains(QStringLiteral("127.0.0.1:%1").arg(port)),
             qPrintable(connection.lastError().message));
    QVERIFY(connection.lastError().message.contains(QLatin1String("Start redis-server")));
    QVERIFY(!connection.isOpen());
}

void TestRedisConnection::reportsMissingSocket()
{
    QTemporaryDir dir;
    RedisConnection connection;
    QVERIFY(!connection.open(RedisEndpoint::unixSocket(dir.filePath(QStringLiteral("none.sock")))));
    QCOMPARE(connection.lastError().kind, RedisError::Kind::NoSocket);
    QVERIFY(connection.lastError().message.contains(QLatin1String("none.sock")));
}

void TestRedisConnection::timesOutOnASilentServer()
{
    SilentListener silent(true);
    RedisEndpoint endpoint;
    endpoint.port = silent.port;
    ConnectOptions options;
    options.commandTimeout = std::chrono::milliseconds(300);
    RedisConnection connection;
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!connection.open(endpoint, options));
    QCOMPARE(connection.lastError().kind, RedisError::Kind::Timeout);
    QVERIFY2(connection.lastError().message.contains(QLatin1String("300 ms")),
             qPrintable(connection.lastError().message));
    QVERIFY2(clock.elapsed() < 2000, "the command timeout, not the default, must bound the wait");
}

void TestRedisConnection::passwords_data()
{
    QTest::addColumn<QString>("user");
    QTest::addColumn<QString>("password");
    QTest::addColumn<int>("expected");
    QTest::newRow("no password given") << ""
                                       << "" << int(RedisError::Kind::PasswordRequired);
    QTest::newRow("wrong password") << ""
                                    << "guess" << int(RedisError::Kind::WrongPassword);
    QTest::newRow("right password") << ""
                                    << "s3cret" << int(RedisError::Kind::None);
    QTest::newRow("acl user, right password") << "alice"
                                              << "wonder" << int(RedisError::Kind::None);
    QTest::newRow("acl user, wrong password") << "alice"
                                              << "s3cret" << int(RedisError::Kind::WrongPassword);
    QTest::newRow("unknown acl user") << "mallory"
                                      << "x" << int(RedisError::Kind::WrongPassword);
}

void TestRedisConnection::passwords()
{
    QFETCH(QString, user);
    QFETCH(QString, password);
    QFETCH(int, expected);
    RedisEndpoint endpoint = m_guarded->endpoint();
    endpoint.user = user;
    endpoint.password = password;
    RedisConnection connection;
    const bool opened = connection.open(endpoint);
    QCOMPARE(int(connection.lastError().kind), expected);
    QCOMPARE(opened, expected == int(RedisError::Kind::None));
    if (!opened) {
        QVERIFY2(connection.lastError().message.contains(QLatin1String("URL")),
                 qPrintable(connection.lastError().message));
        QVERIFY(password.size() < 4 || !connection.lastError().message.contains(password));
    }
}

void TestRedisConnection::passwordHintOfAUnixUrlWorks_data()
{
    QTest::addColumn<QString>("hintPart");
    QTest::addColumn<QString>("credentials");
    QTest::newRow("default user") << QStringLiteral("unix://:PASSWORD@") << QStringLiteral(":s3cret@");
    QTest::newRow("acl user") << QStringLiteral("unix://USER:PASSWORD@") << QStringLiteral("alice:wonder@");
}

void TestRedisConnection::passwordHintOfAUnixUrlWorks()
{
    // The message names a URL form for the socket; written out with the real password, it must
    // parse and connect.
    QFETCH(QString, hintPart);
    QFETCH(QString, credentials);
    RedisConnection refused;
    QVERIFY(!refused.open(m_guarded->endpoint()));
    const QString message = refused.lastError().message;
    const QString hinted = hintPart + m_guarded->endpoint().socketPath;
    QVERIFY2(message.contains(hinted), qPrintable(message));

    QString url = hinted;
    url.replace(hintPart, QStringLiteral("unix://") + credentials);
    RedisEndpoint endpoint;
    QString error;
    QVERIFY2(RedisEndpoint::parse(url, &endpoint, &error), qPrintable(error));
    RedisConnection connection;
    QVERIFY2(connection.open(endpoint), qPrintable(connection.lastError().message));
}

void TestRedisConnection::namesMissingAclPermissions()
{
    PrivateRedisServer server({QStringLiteral("--user"), QStringLiteral("bob"), QStringLiteral("on"),
                               QStringLiteral(">pw"), QStringLiteral("~zsetlab:*"), QStringLiteral("+@all"),
                               QStringLiteral("-evalsha"), QStringLiteral("-script")});
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisEndpoint endpoint = server.endpoint();
    endpoint.user = QStringLiteral("bob");
    endpoint.password = QStringLiteral("pw");
    RedisConnection connection;
    QVERIFY2(connection.open(endpoint), qPrintable(connection.lastError().message));
    const RedisReply reply = connection.command({"SCRIPT", "LOAD", "return 1"});
    QVERIFY(reply.isServerError());
    const RedisError error = classifyReplyError(reply, endpoint);
    QCOMPARE(error.kind, RedisError::Kind::NoPermission);
    QVERIFY2(error.message.contains(QLatin1String("ACL SETUSER bob")), qPrintable(error.message));
}

void TestRedisConnection::refusesADatabaseTheServerLacks()
{
    RedisEndpoint endpoint = TestRedis::endpoint();
    endpoint.db = 99; // the default server has 16
    RedisConnection connection;
    QVERIFY(!connection.open(endpoint));
    QCOMPARE(connection.lastError().kind, RedisError::Kind::BadDatabase);
    QVERIFY(connection.lastError().message.contains(QLatin1String("99")));
}

void TestRedisConnection::selectsTheDatabaseOfTheUrl()
{
    RedisEndpoint endpoint = TestRedis::endpoint();
    endpoint.db = 3;
    RedisConnection inDb3;
    QVERIFY(inDb3.open(endpoint));
    const QByteArray key = TestRedis::uniqueKey("db");
    QVERIFY(!inDb3.command({"SET", key, "here"}).isError());
    RedisConnection inDb0;
    QVERIFY(TestRedis::connect(inDb0));
    QVERIFY(inDb0.command({"GET", key}).isNil());
    QCOMPARE(inDb3.command({"GET", key}).text(), QStringLiteral("here"));
    inDb3.command({"DEL", key});
}

void TestRedisConnection::interruptWakesABlockedCommand()
{
    RedisConnection connection;
    ConnectOptions options;
    options.commandTimeout = std::chrono::seconds(30);
    QVERIFY(connection.open(TestRedis::endpoint(), options));
    RedisReply reply;
    std::atomic<bool> done {false};
    std::thread blocked([&] {
        reply = connection.command({"BLPOP", TestRedis::uniqueKey("never-pushed"), "20"});
        done = true;
    });
    // Wait until the server reports the client as blocked, then interrupt.
    RedisConnection observer;
    QVERIFY(TestRedis::connect(observer));
    QTRY_VERIFY_WITH_TIMEOUT(observer.command({"INFO", "clients"}).bytes().contains("blocked_clients:1"), 5000);
    QElapsedTimer clock;
    clock.start();
    connection.interrupt();
    QTRY_VERIFY_WITH_TIMEOUT(done.load(), 2000);
    blocked.join();
    QVERIFY(clock.elapsed() < 1000);
    QVERIFY(reply.isConnectionLost());
}

void TestRedisConnection::knowsWhichVersionsScript_data()
{
    QTest::addColumn<QByteArray>("info");
    QTest::addColumn<bool>("scripting");
    QTest::addColumn<bool>("reseeds");
    QTest::newRow("2.4") << QByteArray("# Server\r\nredis_version:2.4.18\r\n") << false << false;
    QTest::newRow("2.6") << QByteArray("redis_version:2.6.17\r\nredis_mode:standalone\r\n") << true << true;
    QTest::newRow("6.2") << QByteArray("redis_version:6.2.14\r\n") << true << true;
    QTest::newRow("7.0") << QByteArray("redis_version:7.0.15\r\n") << true << false;
}

void TestRedisConnection::knowsWhichVersionsScript()
{
    QFETCH(QByteArray, info);
    QFETCH(bool, scripting);
    QFETCH(bool, reseeds);
    const ServerInfo server = ServerInfo::parse(info);
    QCOMPARE(server.hasScripting(), scripting);
    QCOMPARE(server.reseedsLuaRandomPerCall(), reseeds);
}

QTEST_GUILESS_MAIN(TestRedisConnection)
#include "tst_redisconnection.moc"
