#include "privateredisserver.h"
#include "redisconnection.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QtTest>

#include <csignal>

namespace {
bool processExists(qint64 pid)
{
    return pid > 0 && QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid));
}
} // namespace

class TestPrivateRedisServer : public QObject
{
    Q_OBJECT
private slots:
    void startsAnswersAndIsPrivate();
    void isGoneAfterItsOwnerIsDestroyed();
    void isGoneWhenItsOwnerIsKilled();
    void explainsAFailedStart();
};

void TestPrivateRedisServer::startsAnswersAndIsPrivate()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    QVERIFY(server.isRunning());
    QVERIFY(server.socketPath().startsWith(server.folder()));
    QCOMPARE(QFileInfo(server.folder()).permissions() & (QFile::ReadOther | QFile::ReadGroup), QFile::Permissions());

    RedisConnection connection;
    QVERIFY2(connection.open(server.endpoint()), qPrintable(connection.lastError().message));
    QCOMPARE(connection.command({"PING"}).text(), QStringLiteral("PONG"));
    QVERIFY2(connection.command({"INFO", "server"}).bytes().contains("tcp_port:0"), "no TCP port");
    const RedisReply save = connection.command({"CONFIG", "GET", "save"});
    QCOMPARE(save.elements().at(1).text(), QString());
    const RedisReply appendOnly = connection.command({"CONFIG", "GET", "appendonly"});
    QCOMPARE(appendOnly.elements().at(1).text(), QStringLiteral("no"));
}

void TestPrivateRedisServer::isGoneAfterItsOwnerIsDestroyed()
{
    QString folder;
    qint64 pid = 0;
    {
        PrivateRedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        folder = server.folder();
        pid = server.serverPid();
        RedisConnection connection;
        QVERIFY(connection.open(server.endpoint()));
        QCOMPARE(connection.server().processId, pid);
        QVERIFY(processExists(pid));
        QVERIFY(QFileInfo::exists(folder));
    }
    QVERIFY2(!processExists(pid), "redis-server still runs after its owner was destroyed");
    QVERIFY2(!QFileInfo::exists(folder), qPrintable(folder));
}

void TestPrivateRedisServer::isGoneWhenItsOwnerIsKilled()
{
    const QString cli = qEnvironmentVariable("ZSETLAB_CLI");
    if (cli.isEmpty())
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QProcess owner;
    owner.start(cli, {QStringLiteral("server")});
    QVERIFY(owner.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(owner.canReadLine(), 10000);
    const QString url = QString::fromUtf8(owner.readLine()).trimmed();
    RedisEndpoint endpoint;
    QString error;
    QVERIFY2(RedisEndpoint::parse(url, &endpoint, &error), qPrintable(url + QLatin1Char(' ') + error));
    RedisConnection connection;
    QVERIFY(connection.open(endpoint));
    const qint64 pid = connection.server().processId;
    const QString folder = QFileInfo(endpoint.socketPath).path();
    connection.close();
    QVERIFY(processExists(pid));

    ::kill(static_cast<pid_t>(owner.processId()), SIGKILL); // no destructor runs
    QVERIFY(owner.waitForFinished());
    QTRY_VERIFY2_WITH_TIMEOUT(!processExists(pid), "redis-server outlived its killed owner", 10000);
    QTRY_VERIFY2_WITH_TIMEOUT(!QFileInfo::exists(folder), qPrintable(folder), 10000);
}

void TestPrivateRedisServer::explainsAFailedStart()
{
    PrivateRedisServer server({QStringLiteral("--maxmemory"), QStringLiteral("banana")});
    QVERIFY(!server.start());
    QVERIFY2(server.errorString().contains(QLatin1String("did not start")), qPrintable(server.errorString()));
    QVERIFY2(server.errorString().contains(QLatin1String("maxmemory")), qPrintable(server.errorString()));
    QVERIFY(!server.isRunning());
    QVERIFY(server.folder().isEmpty());
}

QTEST_GUILESS_MAIN(TestPrivateRedisServer)
#include "tst_privateredisserver.moc"
