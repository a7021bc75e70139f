// zsetlab-cli app under zsetlab-cli watch, on a real server: the watch reports, key by key, the
// overwrites the app counted from its own ZADD replies, and no key the test made changes.
#include "cliprocess.h"
#include "redis/privateredisserver.h"
#include "redis/redisconnection.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest>

#include <csignal>
#include <memory>

namespace {
// Starts zsetlab-cli watch and returns once its stderr says MONITOR is on.
bool startWatch(QProcess& watch, const QStringList& arguments, QByteArray* err)
{
    watch.start(qEnvironmentVariable("ZSETLAB_CLI"), QStringList {QStringLiteral("watch")} + arguments);
    if (!watch.waitForStarted(10000))
        return false;
    QElapsedTimer clock;
    clock.start();
    while (!err->contains("watching; MONITOR is on.") && clock.elapsed() < 30000
           && watch.state() == QProcess::Running) {
        watch.waitForReadyRead(1000);
        *err += watch.readAllStandardError();
    }
    return err->contains("watching; MONITOR is on.");
}

QJsonObject keyObject(const QJsonObject& report, const QString& key)
{
    for (const auto& item : report.value(QLatin1String("keys")).toArray()) {
        if (item.toObject().value(QLatin1String("key")).toString() == key)
            return item.toObject();
    }
    return {};
}

// What makes a key the same before and after: its value's digest, its TTL and its deadline.
struct KeyState
{
    QByteArray digest;
    qint64 pttl = 0;
    qint64 deadline = 0;
    bool operator==(const KeyState& other) const
    {
        // PTTL counts down; a key with a TTL is compared by its deadline (PEXPIREAT), one without by PTTL -1.
        return digest == other.digest && deadline == other.deadline && (pttl < 0) == (other.pttl < 0)
            && (pttl >= 0 || pttl == other.pttl);
    }
};

KeyState stateOf(RedisConnection& redis, const QByteArray& key)
{
    KeyState state;
    const RedisReply digest = redis.command({"DEBUG", "DIGEST-VALUE", key});
    state.digest = digest.elements().empty() ? digest.toDisplayString().toUtf8() : digest.elements().at(0).bytes();
    state.pttl = redis.command({"PTTL", key}).toInteger();
    state.deadline = redis.command({"PEXPIRETIME", key}).toInteger();
    return state;
}
} // namespace

class TestWatchApp : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void usageErrors_data();
    void usageErrors();
    void watchReportsTheAppsOwnOverwrites_data();
    void watchReportsTheAppsOwnOverwrites();
    void anExistingUserKeyStopsTheAppBeforeAnyWrite();
    void interruptedAppDeletesItsKeys();

private:
    // Keys of every type, outside and inside zsetlab's prefix, some with a TTL: the app and the
    // watch must leave each as it was.
    void makeForeignKeys();
    QHash<QByteArray, KeyState> foreignStates();

    std::unique_ptr<PrivateRedisServer> m_server;
    RedisConnection m_redis;
    QList<QByteArray> m_foreign;
    QString url() const { return m_server->endpoint().displayUrl(); }
};

void TestWatchApp::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    // DEBUG DIGEST-VALUE is refused by default on Redis 7; "local" allows it on the unix socket.
    m_server = std::make_unique<PrivateRedisServer>(
        QStringList {QStringLiteral("--enable-debug-command"), QStringLiteral("local")});
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
    QVERIFY2(m_redis.open(m_server->endpoint()), qPrintable(m_redis.lastError().message));
    makeForeignKeys();
}

void TestWatchApp::makeForeignKeys()
{
    for (const QByteArray& prefix : {QByteArrayLiteral("app:foreign:"), QByteArrayLiteral("zsetlab:foreign:")}) {
        const QByteArray withTtl = prefix.startsWith("zsetlab") ? QByteArrayLiteral("3600000") : QByteArray();
        m_redis.command({"SET", prefix + "string", QByteArrayLiteral("v\x00\xff")});
        m_redis.command({"HSET", prefix + "hash", "f", "1", "g", "2"});
        m_redis.command({"RPUSH", prefix + "list", "a", "b", "a"});
        m_redis.command({"SADD", prefix + "set", "x", "y"});
        // A zset that looks like a limiter's: its member is its score.
        m_redis.command({"ZADD", prefix + "zset", "1710000000000", "1710000000000", "5", "five"});
        for (const char* type : {"string", "hash", "list", "set", "zset"}) {
            m_foreign << prefix + type;
            if (!withTtl.isEmpty())
                m_redis.command({"PEXPIRE", prefix + type, withTtl});
        }
    }
}

QHash<QByteArray, KeyState> TestWatchApp::foreignStates()
{
    QHash<QByteArray, KeyState> states;
    for (const QByteArray& key : std::as_const(m_foreign))
        states.insert(key, stateOf(m_redis, key));
    return states;
}

void TestWatchApp::usageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("no limiter") << args({"app", "--rate", "1", "--duration", "10"}) << "--limiter";
    QTest::newRow("no rate") << args({"app", "--limiter", "now", "--duration", "10"}) << "--rate";
    QTest::newRow("unknown limiter") << args({"app", "--limiter", "fast", "--rate", "1", "--duration", "10"})
                                     << "client-unique";
    QTest::newRow("rate zero") << args({"app", "--limiter", "now", "--rate", "0", "--duration", "10"}) << "--rate";
    QTest::newRow("users zero") << args({"app", "--limiter", "now", "--rate", "1", "--duration", "10", "--users", "0"})
                                << "--users";
    QTest::newRow("algorithm without a limit")
        << args({"app", "--limiter", "sliding-log-now", "--rate", "1", "--duration", "10"}) << "--limit";
    QTest::newRow("too many requests") << args({"app", "--limiter", "now", "--rate", "1000", "--duration", "3600000"})
                                       << "--rate";
    QTest::newRow("key with a control character")
        << args({"app", "--limiter", "now", "--rate", "1", "--duration", "10", "--key", "a\x1b[2J"}) << "--key";
}

void TestWatchApp::usageErrors()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, messagePart);
    const CliResult result = runCli(arguments << QStringLiteral("--redis") << url(), 30000);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(QString::fromUtf8(result.err).contains(messagePart), result.err.constData());
    QVERIFY(result.out.isEmpty());
}

void TestWatchApp::watchReportsTheAppsOwnOverwrites_data()
{
    QTest::addColumn<QString>("limiter");
    QTest::addColumn<QString>("sourceKind");
    QTest::addColumn<bool>("correct");
    QTest::newRow("Lua app, member = now") << QStringLiteral("now") << QStringLiteral("script") << false;
    QTest::newRow("client-side pipeline, member = now")
        << QStringLiteral("client-now") << QStringLiteral("client") << false;
    QTest::newRow("Lua app, member = request id") << QStringLiteral("request-id") << QStringLiteral("script") << true;
    QTest::newRow("client-side pipeline, unique member")
        << QStringLiteral("client-unique") << QStringLiteral("client") << true;
}

void TestWatchApp::watchReportsTheAppsOwnOverwrites()
{
    QFETCH(QString, limiter);
    QFETCH(QString, sourceKind);
    QFETCH(bool, correct);
    const QHash<QByteArray, KeyState> before = foreignStates();
    const QString name = QStringLiteral("watchapp-") + limiter;

    QProcess watch;
    QByteArray watchErr;
    QVERIFY2(startWatch(watch,
                        {QStringLiteral("--redis"), url(), QStringLiteral("--pattern"), QStringLiteral("zsetlab:*"),
                         QStringLiteral("--duration"), QStringLiteral("120000"), QStringLiteral("--json")},
                        &watchErr),
             watchErr.constData());
    const CliResult app = runCli({QStringLiteral("app"), QStringLiteral("--redis"), url(), QStringLiteral("--limiter"),
                                  limiter, QStringLiteral("--users"), QStringLiteral("4"), QStringLiteral("--rate"),
                                  QStringLiteral("5"), QStringLiteral("--duration"), QStringLiteral("400"),
                                  QStringLiteral("--key"), name, QStringLiteral("--json")},
                                 60000);
    ::kill(pid_t(watch.processId()), SIGINT);
    QVERIFY(watch.waitForFinished(30000));
    QCOMPARE(app.exitCode, 0);
    QCOMPARE(watch.exitCode(), 130);
    const QJsonObject ran = QJsonDocument::fromJson(app.out).object();
    const QJsonObject report = QJsonDocument::fromJson(watch.readAllStandardOutput()).object();
    QCOMPARE(ran.value(QLatin1String("schema")).toString(), QStringLiteral("zsetlab.app/1"));
    QCOMPARE(report.value(QLatin1String("schema")).toString(), QStringLiteral("zsetlab.watch/1"));

    const QJsonArray keys = ran.value(QLatin1String("keys")).toArray();
    QCOMPARE(keys.size(), 4);
    qint64 overwritten = 0;
    for (int user = 0; user < 4; ++user) {
        const QJsonObject own = keys.at(user).toObject();
        const QString key = QStringLiteral("zsetlab:%1:u%2").arg(name).arg(user);
        QCOMPARE(own.value(QLatin1String("key")).toString(), key);
        const QJsonObject seen = keyObject(report, key);
        QVERIFY2(!seen.isEmpty(), QJsonDocument(report).toJson().constData());
        QCOMPARE(seen.value(QLatin1String("overwrites")).toInteger(),
                 own.value(QLatin1String("overwritten")).toInteger());
        QCOMPARE(seen.value(QLatin1String("requests")).toInteger(), own.value(QLatin1String("requests")).toInteger());
        QCOMPARE(seen.value(QLatin1String("distinct_members")).toInteger(),
                 own.value(QLatin1String("stored")).toInteger());
        QCOMPARE(seen.value(QLatin1String("state_known")).toBool(), true);
        const QJsonArray sources = seen.value(QLatin1String("sources")).toArray();
        QCOMPARE(sources.size(), 1);
        QCOMPARE(sources.first().toObject().value(QLatin1String("kind")).toString(), sourceKind);
        overwritten += own.value(QLatin1String("overwritten")).toInteger();
        QCOMPARE(m_redis.command({"EXISTS", key.toUtf8()}).toInteger(), 0); // deleted at the end
    }
    if (correct)
        QCOMPARE(overwritten, 0);
    else
        QVERIFY2(overwritten > 0, app.out.constData()); // 5 requests per ms share milliseconds

    const QHash<QByteArray, KeyState> after = foreignStates();
    for (const QByteArray& key : std::as_const(m_foreign))
        QVERIFY2(after.value(key) == before.value(key), key.constData());
    QCOMPARE(before.value("zsetlab:foreign:zset").digest.size(), 40); // a digest, not DEBUG's refusal
}

void TestWatchApp::anExistingUserKeyStopsTheAppBeforeAnyWrite()
{
    const QHash<QByteArray, KeyState> before = foreignStates();
    m_redis.command({"SET", "zsetlab:watchapp-taken:u2", "mine"});
    const CliResult app = runCli({QStringLiteral("app"), QStringLiteral("--redis"), url(), QStringLiteral("--limiter"),
                                  QStringLiteral("client-now"), QStringLiteral("--users"), QStringLiteral("4"),
                                  QStringLiteral("--rate"), QStringLiteral("1"), QStringLiteral("--duration"),
                                  QStringLiteral("100"), QStringLiteral("--key"), QStringLiteral("watchapp-taken")},
                                 30000);
    QCOMPARE(app.exitCode, 4);
    QVERIFY2(app.err.contains("zsetlab:watchapp-taken:u2"), app.err.constData());
    for (const char* key : {"zsetlab:watchapp-taken:u0", "zsetlab:watchapp-taken:u1", "zsetlab:watchapp-taken:u3"})
        QCOMPARE(m_redis.command({"EXISTS", key}).toInteger(), 0);
    QCOMPARE(m_redis.command({"GET", "zsetlab:watchapp-taken:u2"}).bytes(), QByteArray("mine"));
    m_redis.command({"DEL", "zsetlab:watchapp-taken:u2"});
    const QHash<QByteArray, KeyState> after = foreignStates();
    for (const QByteArray& key : std::as_const(m_foreign))
        QVERIFY2(after.value(key) == before.value(key), key.constData());
}

void TestWatchApp::interruptedAppDeletesItsKeys()
{
    QProcess app;
    app.start(qEnvironmentVariable("ZSETLAB_CLI"),
              {QStringLiteral("app"), QStringLiteral("--redis"), url(), QStringLiteral("--limiter"),
               QStringLiteral("now"), QStringLiteral("--users"), QStringLiteral("2"), QStringLiteral("--rate"),
               QStringLiteral("1"), QStringLiteral("--duration"), QStringLiteral("60000"), QStringLiteral("--key"),
               QStringLiteral("watchapp-interrupted"), QStringLiteral("--json")});
    QVERIFY(app.waitForStarted(10000));
    // Interrupted once its first request is in: the key exists.
    QTRY_COMPARE_WITH_TIMEOUT(m_redis.command({"EXISTS", "zsetlab:watchapp-interrupted:u0"}).toInteger(), 1, 20000);
    ::kill(pid_t(app.processId()), SIGINT);
    QVERIFY(app.waitForFinished(20000));
    QCOMPARE(app.exitStatus(), QProcess::NormalExit);
    QCOMPARE(app.exitCode(), 130);
    const QJsonObject ran = QJsonDocument::fromJson(app.readAllStandardOutput()).object();
    QCOMPARE(ran.value(QLatin1String("stopped")).toBool(), true);
    QVERIFY(ran.value(QLatin1String("requests")).toInteger() > 0);
    QVERIFY(ran.value(QLatin1String("requests")).toInteger() < 60000);
    for (const char* key : {"zsetlab:watchapp-interrupted:u0", "zsetlab:watchapp-interrupted:u1"})
        QCOMPARE(m_redis.command({"EXISTS", key}).toInteger(), 0);
}

QTEST_GUILESS_MAIN(TestWatchApp)
#include "tst_watchapp.moc"
