#include "cliprocess.h"
#include "redis/privateredisserver.h"
#include "redis/redisconnection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <memory>

namespace {
// Starts zsetlab-cli watch and returns once MONITOR is on (its own line on stderr says so).
bool startWatch(QProcess& watch, const QStringList& arguments, QByteArray* err)
{
    watch.start(qEnvironmentVariable("ZSETLAB_CLI"), QStringList {QStringLiteral("watch")} + arguments);
    if (!watch.waitForStarted(10000))
        return false;
    QElapsedTimer clock;
    clock.start();
    while (!err->contains("MONITOR is on") && clock.elapsed() < 30000 && watch.state() == QProcess::Running) {
        watch.waitForReadyRead(1000);
        *err += watch.readAllStandardError();
    }
    return err->contains("MONITOR is on");
}

QJsonObject keyObject(const QJsonObject& report, const QString& key)
{
    for (const auto& item : report.value(QLatin1String("keys")).toArray()) {
        if (item.toObject().value(QLatin1String("key")).toString() == key)
            return item.toObject();
    }
    return {};
}
} // namespace

class TestWatchCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void usageErrors_data();
    void usageErrors();
    void reportsWhatTheRunOverwrote_data();
    void reportsWhatTheRunOverwrote();
    void withoutMonitorPermissionExitsThree();
    void interruptedWatchPrintsWhatItSaw();
    void tableColumnsStayInLineForLongKeys();

private:
    std::unique_ptr<PrivateRedisServer> m_server;
    QString url() const { return m_server->endpoint().displayUrl(); }
};

void TestWatchCli::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    m_server = std::make_unique<PrivateRedisServer>();
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
}

void TestWatchCli::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("duration zero") << args({"watch", "--duration", "0"}) << "--duration";
    QTest::newRow("duration not a number") << args({"watch", "--duration", "soon"}) << "--duration";
    QTest::newRow("db not a number") << args({"watch", "--db", "x"}) << "--db";
    QTest::newRow("empty pattern") << args({"watch", "--pattern", ""}) << "--pattern";
    QTest::newRow("bad url") << args({"watch", "--redis", "http://x"}) << "--redis";
    QTest::newRow("remote server without consent")
        << args({"watch", "--redis", "redis://203.0.113.7:6379"}) << "--allow-remote";
    QTest::newRow("unknown flag") << args({"watch", "--write"}) << "write";
    QTest::newRow("key without a replay to save") << args({"watch", "--key", "rl:1"}) << "--save-replay";
    QTest::newRow("replay in no folder") << args({"watch", "--save-replay", "/nonexistent/w.zsetreplay"})
                                         << "does not exist";
}

void TestWatchCli::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, messagePart);
    const CliResult result = runCli(arguments, 30000);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(QString::fromUtf8(result.err).contains(messagePart), result.err.constData());
}

void TestWatchCli::reportsWhatTheRunOverwrote_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("now overwrites: exit 1") << QStringLiteral("now") << 1;
    QTest::newRow("request-id: none, exit 0") << QStringLiteral("request-id") << 0;
}

void TestWatchCli::reportsWhatTheRunOverwrote()
{
    QFETCH(QString, strategy);
    QFETCH(int, exitCode);
    const QString name = QStringLiteral("cliwatch-") + strategy;
    const QString key = QStringLiteral("zsetlab:") + name;
    QProcess watch;
    QByteArray err;
    QTemporaryDir folder;
    const QString replay = folder.filePath(QStringLiteral("watched.zsetreplay"));
    QVERIFY2(
        startWatch(watch,
                   {QStringLiteral("--redis"), url(), QStringLiteral("--pattern"), key, QStringLiteral("--duration"),
                    QStringLiteral("8000"), QStringLiteral("--json"), QStringLiteral("--save-replay"), replay},
                   &err),
        err.constData());
    QVERIFY2(err.contains("MONITOR slows this server"), err.constData());
    const CliResult run
        = runCli({QStringLiteral("run"), QStringLiteral("--redis"), url(), QStringLiteral("--limiter"), strategy,
                  QStringLiteral("--requests"), QStringLiteral("1000"), QStringLiteral("--window"),
                  QStringLiteral("60000"), QStringLiteral("--key"), name, QStringLiteral("--json")},
                 60000);
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
    QVERIFY(watch.waitForFinished(60000));
    QCOMPARE(watch.exitCode(), exitCode);
    const QJsonObject report = QJsonDocument::fromJson(watch.readAllStandardOutput()).object();
    QCOMPARE(report.value(QLatin1String("schema")).toString(), QStringLiteral("zsetlab.watch/1"));
    // The server's version as the run saw it (Redis 7, Redis 8 or Valkey alike).
    QVERIFY(!summary.value(QLatin1String("server_version")).toString().isEmpty());
    QCOMPARE(report.value(QLatin1String("server_version")).toString(),
             summary.value(QLatin1String("server_version")).toString());
    // ... and named as its users name it, as the run named it: flavour, own version, Redis version.
    QCOMPARE(report.value(QLatin1String("server")).toObject(), summary.value(QLatin1String("server")).toObject());
    QVERIFY(!report.value(QLatin1String("server")).toObject().value(QLatin1String("flavour")).toString().isEmpty());
    const QJsonObject watched = keyObject(report, key);
    QVERIFY2(!watched.isEmpty(), QJsonDocument(report).toJson().constData());
    QCOMPARE(watched.value(QLatin1String("requests")).toInt(), summary.value(QLatin1String("sent")).toInt());
    QCOMPARE(watched.value(QLatin1String("overwrites")).toInt(), summary.value(QLatin1String("overwritten")).toInt());
    QCOMPARE(watched.value(QLatin1String("distinct_members")).toInt(), summary.value(QLatin1String("stored")).toInt());
    QCOMPARE(watched.value(QLatin1String("state_known")).toBool(), true);
    RedisConnection redis;
    QVERIFY(redis.open(m_server->endpoint()));
    QCOMPARE(qint64(watched.value(QLatin1String("size")).toInteger()),
             redis.command({"ZCARD", key.toUtf8()}).toInteger());
    const QJsonObject source = watched.value(QLatin1String("sources")).toArray().first().toObject();
    QCOMPARE(source.value(QLatin1String("kind")).toString(), QStringLiteral("script"));
    QCOMPARE(source.value(QLatin1String("sha")).toString().size(), 40);

    // The key, saved as a replay: after its last request, the set Redis holds.
    err += watch.readAllStandardError();
    QVERIFY2(err.contains("saved ") && err.contains(key.toUtf8()), err.constData());
    const CliResult opened
        = runCli({QStringLiteral("replay"), replay, QStringLiteral("--members"), QStringLiteral("--json")}, 30000);
    QCOMPARE(opened.exitCode, 0);
    const QJsonObject state = QJsonDocument::fromJson(opened.out).object();
    QCOMPARE(state.value(QLatin1String("state_from")).toString(), QStringLiteral("watched"));
    QCOMPARE(state.value(QLatin1String("requests")).toInt(), state.value(QLatin1String("request")).toInt());
    const RedisReply zrange = redis.command({"ZRANGE", key.toUtf8(), "0", "-1", "WITHSCORES"});
    const QJsonArray members = state.value(QLatin1String("member_list")).toArray();
    QCOMPARE(qsizetype(zrange.elements().size()), members.size() * 2);
    for (qsizetype i = 0; i < members.size(); ++i) {
        const QJsonObject m = members.at(i).toObject();
        QCOMPARE(m.value(QLatin1String("member")).toString().toUtf8(), zrange.elements()[size_t(2 * i)].bytes());
        QCOMPARE(m.value(QLatin1String("score")).toDouble(), zrange.elements()[size_t(2 * i + 1)].bytes().toDouble());
    }
    redis.command({"DEL", key.toUtf8(), (key + QStringLiteral(":seq")).toUtf8()});
}

void TestWatchCli::withoutMonitorPermissionExitsThree()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection admin;
    QVERIFY(admin.open(server.endpoint()));
    QCOMPARE(admin.command({"ACL", "SETUSER", "default", "-monitor"}).text(), QStringLiteral("OK"));
    const CliResult result = runCli(
        {QStringLiteral("watch"), QStringLiteral("--redis"), server.endpoint().displayUrl(), QStringLiteral("--json")},
        30000);
    QCOMPARE(result.exitCode, 3);
    QVERIFY2(result.err.contains("ACL SETUSER default +monitor"), result.err.constData());
    QVERIFY(result.out.isEmpty());
}

void TestWatchCli::interruptedWatchPrintsWhatItSaw()
{
    QProcess watch;
    QByteArray err;
    QVERIFY2(startWatch(watch,
                        {QStringLiteral("--redis"), url(), QStringLiteral("--pattern"),
                         QStringLiteral("zsetlab:cli-interrupted"), QStringLiteral("--json")},
                        &err),
             err.constData());
    RedisConnection app;
    QVERIFY(app.open(m_server->endpoint()));
    app.command({"ZADD", "zsetlab:cli-interrupted", "7", "7"});
    app.command({"ZADD", "zsetlab:cli-interrupted", "7", "7"});
    ::kill(pid_t(watch.processId()), SIGINT);
    QVERIFY(watch.waitForFinished(20000));
    QCOMPARE(watch.exitStatus(), QProcess::NormalExit);
    QCOMPARE(watch.exitCode(), 130);
    // Interrupted right after the app's commands, it still counts every one of them.
    const QJsonObject report = QJsonDocument::fromJson(watch.readAllStandardOutput()).object();
    const QJsonObject key = keyObject(report, QStringLiteral("zsetlab:cli-interrupted"));
    QCOMPARE(key.value(QLatin1String("zadds")).toInteger(), 2);
    QCOMPARE(key.value(QLatin1String("overwrites")).toInteger(), 1);
    app.command({"DEL", "zsetlab:cli-interrupted"});
}

void TestWatchCli::tableColumnsStayInLineForLongKeys()
{
    const QByteArray key = "zsetlab:app:20261201-150304-f7d41a:u0-a-long-user-key";
    QProcess watch;
    QByteArray err;
    QVERIFY2(startWatch(watch,
                        {QStringLiteral("--redis"), url(), QStringLiteral("--pattern"), QString::fromUtf8(key),
                         QStringLiteral("--duration"), QStringLiteral("1500")},
                        &err),
             err.constData());
    RedisConnection app;
    QVERIFY(app.open(m_server->endpoint()));
    app.command({"ZADD", key, "7", "7"});
    app.command({"ZADD", key, "7", "7"});
    QVERIFY(watch.waitForFinished(20000));
    QCOMPARE(watch.exitCode(), 1); // an overwrite was seen
    const QList<QByteArray> lines = watch.readAllStandardOutput().split('\n');
    QByteArray header, row;
    for (const QByteArray& line : lines) {
        if (line.trimmed().startsWith("key "))
            header = line;
        else if (line.trimmed().startsWith(key))
            row = line;
    }
    QVERIFY2(!header.isEmpty() && !row.isEmpty(), lines.join('\n').constData());
    // The requests column ends where its header does: "requests" over "2".
    const qsizetype headerEnd = header.indexOf("requests") + qsizetype(qstrlen("requests"));
    const qsizetype valueEnd = row.indexOf(" 2 ") + 2;
    QCOMPARE(valueEnd, headerEnd);
    app.command({"DEL", key});
}

QTEST_GUILESS_MAIN(TestWatchCli)
#include "tst_watchcli.moc"
