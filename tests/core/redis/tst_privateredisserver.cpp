#include "redis/privateredisserver.h"
#include "redis/redisconnection.h"
#include "redis/serverprograms.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
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
    void startsTheServerProgramItIsGiven();
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

void TestPrivateRedisServer::startsTheServerProgramItIsGiven()
{
    // ZSETLAB_REDIS_SERVER names the program (scripts/compat.sh gives Valkey's): here a wrapper
    // that leaves a mark, then runs the usual one.
    const QString usual = ServerPrograms::server(); // compat.sh's choice, or redis-server
    QVERIFY(!usual.isEmpty());
    const QByteArray chosen = qgetenv("ZSETLAB_REDIS_SERVER");
    QTemporaryDir dir;
    const QString mark = dir.filePath(QStringLiteral("started"));
    const QString wrapper = dir.filePath(QStringLiteral("my-redis-server"));
    QFile script(wrapper);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\ntouch '%1'\nexec '%2' \"$@\"\n").arg(mark, usual).toUtf8());
    script.close();
    QVERIFY(script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    qputenv("ZSETLAB_REDIS_SERVER", QFile::encodeName(wrapper));
    {
        PrivateRedisServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        QVERIFY(QFile::exists(mark));
        RedisConnection connection;
        QVERIFY(connection.open(server.endpoint(), {}));
        QCOMPARE(connection.command({"PING"}).text(), QStringLiteral("PONG"));
    }
    // A program that is not there: said, by the variable's name.
    qputenv("ZSETLAB_REDIS_SERVER", "/nonexistent/valkey-server");
    PrivateRedisServer missing;
    QVERIFY(!missing.start());
    QVERIFY2(missing.errorString().contains(QLatin1String("ZSETLAB_REDIS_SERVER")), qPrintable(missing.errorString()));
    if (chosen.isEmpty())
        qunsetenv("ZSETLAB_REDIS_SERVER");
    else
        qputenv("ZSETLAB_REDIS_SERVER", chosen);
    QCOMPARE(ServerPrograms::server(), usual);
}

QTEST_GUILESS_MAIN(TestPrivateRedisServer)
#include "tst_privateredisserver.moc"
