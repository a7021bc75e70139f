#include "limiters/limitercatalog.h"
#include "limiters/limiterscript.h"
#include "limiters/zsetkeys.h"
#include "testredis.h"

#include <QFileInfo>
#include <QTemporaryFile>
#include <QtTest>

namespace {
constexpr long long baseMs = 1710000000000LL;

// Calls a script by zsetlab's convention: KEYS = the keys its catalog entry keeps (the sequence
// counter too), ARGV = now, window, limit, request id.
RedisReply callLimiter(ScriptRunner& runner, RedisConnection& connection, const QByteArray& key, long long now,
                       long long window, int requestId)
{
    const LimiterRef limiter = LimiterCatalog::find(runner.script().name());
    return runner.run(
        connection, limiter ? limiter->store.keysFor(key) : QList<QByteArray> {key},
        {QByteArray::number(now), QByteArray::number(window), "0", "req-" + QByteArray::number(requestId)});
}
} // namespace

class TestLimiterScripts : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void oneMillisecondCollides_data();
    void oneMillisecondCollides();
    void twoMillisecondsApartNeverCollide_data();
    void twoMillisecondsApartNeverCollide();
    void theWindowTrimsOldEntries();
    void survivesScriptFlush();
    void explainsAKeyOfTheWrongType();
    void reportsTheLineOfASyntaxError();
    void reportsTheLineOfARuntimeError();
    void readsScriptsFromFiles();
    void computesTheShaRedisWill();
    void deletesOnlyItsOwnKeys();

private:
    RedisConnection m_connection;
};

void TestLimiterScripts::initTestCase()
{
    QVERIFY(TestRedis::connect(m_connection));
}

void TestLimiterScripts::oneMillisecondCollides_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<int>("members");
    const bool reseeds = m_connection.server().reseedsLuaRandomPerCall();
    QTest::newRow("now: one member for 1000 calls") << QStringLiteral("now") << 1;
    QTest::newRow("random: 1000 on Redis 7, 1 before") << QStringLiteral("random") << (reseeds ? 1 : 1000);
    QTest::newRow("request-id: 1000") << QStringLiteral("request-id") << 1000;
    QTest::newRow("sequence: 1000") << QStringLiteral("sequence") << 1000;
}

void TestLimiterScripts::oneMillisecondCollides()
{
    QFETCH(QString, strategy);
    QFETCH(int, members);
    ScriptRunner runner(LimiterCatalog::builtin(strategy)->script);
    const QByteArray key = TestRedis::uniqueKey("frozen");
    const int calls = 1000;
    int overwritten = 0;
    long long lastCount = 0;
    for (int i = 0; i < calls; ++i) {
        const RedisReply reply = callLimiter(runner, m_connection, key, baseMs, 60000, i);
        QVERIFY2(reply.type() == RedisReply::Type::Array, qPrintable(reply.toDisplayString()));
        QCOMPARE(reply.elements().size(), size_t(3));
        if (reply.elements()[1].toInteger() == 0)
            ++overwritten;
        lastCount = reply.elements()[0].toInteger();
    }
    QCOMPARE(m_connection.command({"ZCARD", key}).toInteger(), members);
    QCOMPARE(lastCount, members);
    QCOMPARE(overwritten, calls - members);
    ZsetKeys::deleteRunKeys(m_connection, key);
}

void TestLimiterScripts::twoMillisecondsApartNeverCollide_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::newRow("now") << QStringLiteral("now");
    QTest::newRow("random") << QStringLiteral("random");
    QTest::newRow("request-id") << QStringLiteral("request-id");
    QTest::newRow("sequence") << QStringLiteral("sequence");
}

void TestLimiterScripts::twoMillisecondsApartNeverCollide()
{
    QFETCH(QString, strategy);
    ScriptRunner runner(LimiterCatalog::builtin(strategy)->script);
    const QByteArray key = TestRedis::uniqueKey("spaced");
    const int calls = 500;
    for (int i = 0; i < calls; ++i) {
        const RedisReply reply = callLimiter(runner, m_connection, key, baseMs + 2 * i, 10000000, i);
        QCOMPARE(reply.elements().at(1).toInteger(), 1LL);
        QCOMPARE(reply.elements().at(0).toInteger(), i + 1LL);
    }
    ZsetKeys::deleteRunKeys(m_connection, key);
}

void TestLimiterScripts::theWindowTrimsOldEntries()
{
    ScriptRunner runner(LimiterCatalog::builtin("request-id")->script);
    const QByteArray key = TestRedis::uniqueKey("window");
    // One request per ms with a 10 ms window: the count settles at 10.
    long long count = 0;
    for (int i = 0; i < 50; ++i)
        count = callLimiter(runner, m_connection, key, baseMs + i, 10, i).elements().at(0).toInteger();
    QCOMPARE(count, 10LL);
    const long long ttl = m_connection.command({"PTTL", key}).toInteger();
    QVERIFY2(ttl > 0 && ttl <= 10, "request-id expires after one window (PEXPIRE)");
    ZsetKeys::deleteRunKeys(m_connection, key);
}

void TestLimiterScripts::survivesScriptFlush()
{
    ScriptRunner runner(LimiterCatalog::builtin("sequence")->script);
    const QByteArray key = TestRedis::uniqueKey("flush");
    QCOMPARE(callLimiter(runner, m_connection, key, baseMs, 1000, 1).elements().at(0).toInteger(), 1LL);
    QVERIFY(!m_connection.command({"SCRIPT", "FLUSH"}).isError());
    QCOMPARE(m_connection.command({"SCRIPT", "EXISTS", runner.script().sha1()}).elements().at(0).toInteger(), 0LL);
    const RedisReply reply = callLimiter(runner, m_connection, key, baseMs, 1000, 2);
    QVERIFY2(!reply.isError(), qPrintable(reply.toDisplayString()));
    QCOMPARE(reply.elements().at(0).toInteger(), 2LL);
    ZsetKeys::deleteRunKeys(m_connection, key);
}

void TestLimiterScripts::explainsAKeyOfTheWrongType()
{
    ScriptRunner runner(LimiterCatalog::builtin("now")->script);
    const QByteArray key = TestRedis::uniqueKey("string");
    m_connection.command({"SET", key, "not a zset"});
    const RedisReply reply = callLimiter(runner, m_connection, key, baseMs, 1000, 1);
    QVERIFY(reply.isServerError());
    QCOMPARE(reply.errorCode(), QByteArray("WRONGTYPE"));
    const QString message = ScriptRunner::describeFailure(reply, key);
    QVERIFY2(message.contains(QString::fromUtf8(key)), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("not a sorted set")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("another key")), qPrintable(message));
    QCOMPARE(m_connection.command({"GET", key}).text(), QStringLiteral("not a zset")); // untouched
    m_connection.command({"DEL", key});
}

void TestLimiterScripts::reportsTheLineOfASyntaxError()
{
    ScriptRunner runner(LimiterScript::fromSource(QStringLiteral("broken.lua"),
                                                  "local key = KEYS[1]\nlocal now = tonumber(ARGV[1])\n"
                                                  "local x = = 3\nreturn {1, 1, 'x'}\n"));
    QVERIFY(!runner.load(m_connection));
    QCOMPARE(runner.errorLine(), 3);
    QVERIFY2(runner.error().contains(QLatin1String("line 3")), qPrintable(runner.error()));
    QVERIFY2(runner.error().contains(QLatin1String("broken.lua")), qPrintable(runner.error()));
    // The same through run(): the NOSCRIPT reload fails and the reply carries the reason.
    const RedisReply reply = callLimiter(runner, m_connection, TestRedis::uniqueKey("syntax"), baseMs, 10, 1);
    QVERIFY(reply.isError());
    QCOMPARE(runner.errorLine(), 3);
}

void TestLimiterScripts::reportsTheLineOfARuntimeError()
{
    ScriptRunner runner(LimiterScript::fromSource(QStringLiteral("typo.lua"),
                                                  "local key = KEYS[1]\n"
                                                  "local now = tonumber(ARGV[1])\n"
                                                  "redis.call('ZADD', key, now, membr)\n"
                                                  "return {1, 1, 'x'}\n"));
    const QByteArray key = TestRedis::uniqueKey("runtime");
    const RedisReply reply = callLimiter(runner, m_connection, key, baseMs, 10, 1);
    QVERIFY(reply.isServerError());
    const ScriptError error = ScriptError::fromReply(reply.text());
    QCOMPARE(error.line, 3);
    QVERIFY2(ScriptRunner::describeFailure(reply, key).contains(QLatin1String("line 3")),
             qPrintable(ScriptRunner::describeFailure(reply, key)));
}

void TestLimiterScripts::readsScriptsFromFiles()
{
    LimiterScript script;
    QString error;
    QVERIFY(!LimiterScript::fromFile(QStringLiteral("/nonexistent/limiter.lua"), &script, &error));
    QVERIFY2(error.contains(QLatin1String("/nonexistent/limiter.lua")), qPrintable(error));

    QTemporaryFile file;
    QVERIFY(file.open());
    file.write(LimiterCatalog::builtin("request-id")->script.source());
    file.close();
    QVERIFY2(LimiterScript::fromFile(file.fileName(), &script, &error), qPrintable(error));
    QCOMPARE(script.name(), QFileInfo(file.fileName()).fileName());
    ScriptRunner runner(script);
    const QByteArray key = TestRedis::uniqueKey("file");
    QCOMPARE(callLimiter(runner, m_connection, key, baseMs, 10, 1).elements().at(2).text(), QStringLiteral("req-1"));
    ZsetKeys::deleteRunKeys(m_connection, key);
}

void TestLimiterScripts::computesTheShaRedisWill()
{
    for (const LimiterRef& limiter : LimiterCatalog::all()) {
        const LimiterScript& script = limiter->script;
        QCOMPARE(script.name(), limiter->id);
        QCOMPARE(m_connection.command({"SCRIPT", "LOAD", script.source()}).bytes(), script.sha1());
    }
}

void TestLimiterScripts::deletesOnlyItsOwnKeys()
{
    const QByteArray foreign = "someone:else:" + TestRedis::uniqueKey("foreign");
    m_connection.command({"SET", foreign, "keep me"});
    QVERIFY(!ZsetKeys::deleteRunKeys(m_connection, foreign));
    QCOMPARE(m_connection.command({"GET", foreign}).text(), QStringLiteral("keep me"));
    m_connection.command({"DEL", foreign});

    const QByteArray key = ZsetKeys::freshRunKey();
    QVERIFY(key.startsWith("zsetlab:run:"));
    QVERIFY(key != ZsetKeys::freshRunKey());
    QCOMPARE(ZsetKeys::userKey(QStringLiteral("limiter")), QByteArray("zsetlab:limiter"));
    QCOMPARE(ZsetKeys::userKey(QStringLiteral("zsetlab:limiter")), QByteArray("zsetlab:limiter"));

    ScriptRunner runner(LimiterCatalog::builtin("sequence")->script);
    QVERIFY(!callLimiter(runner, m_connection, key, baseMs, 60000, 1).isError());
    QCOMPARE(m_connection.command({"EXISTS", key, key + ":seq"}).toInteger(), 2LL);
    QVERIFY(ZsetKeys::deleteRunKeys(m_connection, key));
    QCOMPARE(m_connection.command({"EXISTS", key, key + ":seq"}).toInteger(), 0LL);
}

QTEST_GUILESS_MAIN(TestLimiterScripts)
#include "tst_limiterscripts.moc"
