#include "burst/burstengine.h"
#include "cliprocess.h"
#include "limiters/limitercatalog.h"
#include "testredis.h"

#include <QtTest>

#include <array>
#include <map>

// The limiter catalog: every entry runs through the burst engine by its own call and reply, checks
// its keys before the first call and deletes them after, and every list of limiters is read from it.
class TestLimiterCatalog : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void everyLimiterRunsAndCleansUp_data();
    void everyLimiterRunsAndCleansUp();
    void aCompanionOfAnotherTypeStopsTheRunBeforeAnyWrite();
    void aUsersScriptIsAnEntryMadeAtRunTime();
    void anAlgorithmNeedsALimit();
    void theCallTemplateIsWhatEvalshaSends_data();
    void theCallTemplateIsWhatEvalshaSends();
    void theCommandLineListsTheCatalog();

private:
    BurstSummary run(const BurstPlan& plan, QByteArray* key = nullptr);
    RedisConnection m_redis;
};

void TestLimiterCatalog::initTestCase()
{
    QVERIFY(TestRedis::connect(m_redis));
    QVERIFY(LimiterCatalog::all().size() >= 5);
    QCOMPARE(LimiterCatalog::find(QStringLiteral("no-such-limiter")), LimiterRef());
}

BurstSummary TestLimiterCatalog::run(const BurstPlan& plan, QByteArray* key)
{
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    if (!engine.start(TestRedis::endpoint(), plan))
        return {};
    if (!QTest::qWaitFor([&finished] { return finished.count() == 1; }, 60000))
        return {};
    if (key)
        *key = engine.key();
    return finished.at(0).at(0).value<BurstSummary>();
}

void TestLimiterCatalog::everyLimiterRunsAndCleansUp_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("limit");
    QTest::addColumn<int>("stored"); // requests whose ZADD added a member; -1: not a ZSET the reply tells of
    QTest::addColumn<int>("admitted");
    QTest::addColumn<int>("finalCount"); // what the store counts in the window at the end; -1 unknown
    const bool reseeds = m_redis.server().reseedsLuaRandomPerCall();
    // 50 requests carrying one millisecond; the algorithms, which decide themselves, under a limit of 10.
    for (const LimiterRef& limiter : LimiterCatalog::all()) {
        const QByteArray id = limiter->id.toUtf8();
        if (limiter->needsLimit()) {
            const std::map<QByteArray, std::array<int, 3>> expected {
                // stored, admitted, final count
                {"fixed-window", {-1, 10, 50}}, // the counter counts refused calls too
                {"sliding-log", {10, 10, 10}},
                // one member for the whole millisecond
                {"sliding-log-now", {1, 50, 1}},
                {"sliding-counter", {-1, 10, 10}},
                {"token-bucket", {-1, 10, -1}},
                {"gcra", {-1, 10, -1}},
                {"list-log", {-1, 10, 10}},
            };
            QVERIFY2(expected.count(id), id.constData());
            const auto& e = expected.at(id);
            QTest::newRow(id.constData()) << limiter->id << 10 << e[0] << e[1] << e[2];
            continue;
        }
        int stored = limiter->isUnique() ? 50 : 1;
        if (limiter->id == QLatin1String("random") && reseeds)
            stored = 1;
        QTest::newRow(id.constData()) << limiter->id << 0 << stored << 50 << stored;
    }
}

void TestLimiterCatalog::everyLimiterRunsAndCleansUp()
{
    QFETCH(QString, id);
    QFETCH(int, limit);
    QFETCH(int, stored);
    QFETCH(int, admitted);
    QFETCH(int, finalCount);
    const LimiterRef limiter = LimiterCatalog::builtin(id);
    QVERIFY(limiter->displayName().size() > 1);
    QVERIFY(limiter->displaySummary().size() > 20);
    BurstPlan plan;
    plan.limiter = limiter;
    plan.requests = 50;
    plan.limit = limit;
    plan.clock = ClockKind::Frozen;
    plan.windowMs = 60000;
    QByteArray key;
    const BurstSummary summary = run(plan, &key);
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.limiter, id);
    QCOMPARE(summary.sent, 50);
    QCOMPARE(summary.errors, 0);
    QCOMPARE(summary.admitted, qint64(admitted));
    if (stored >= 0)
        QCOMPARE(summary.stored, qint64(stored));
    QCOMPARE(summary.finalCount, qint64(finalCount));
    // Every key of its store is gone: the run key and its companions.
    const QList<QByteArray> keys = limiter->store.keysFor(key);
    QVERIFY(!keys.isEmpty());
    RedisArgs exists {"EXISTS"};
    exists << keys;
    QCOMPARE(m_redis.command(exists).toInteger(), 0LL);
}

void TestLimiterCatalog::aCompanionOfAnotherTypeStopsTheRunBeforeAnyWrite()
{
    // sequence keeps a counter (a string) beside its ZSET: a hash there is not its to overwrite.
    const QByteArray key = TestRedis::uniqueKey("taken-companion");
    const QByteArray counter = key + ":seq";
    m_redis.command({"HSET", counter, "field", "value"});
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("sequence");
    plan.key = key;
    plan.keepKey = true;
    plan.requests = 10;
    const BurstSummary summary = run(plan);
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Script);
    QVERIFY2(summary.failure.message.contains(QString::fromUtf8(counter)), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 0);
    QCOMPARE(m_redis.command({"EXISTS", key}).toInteger(), 0LL); // nothing written
    QCOMPARE(m_redis.command({"HGET", counter, "field"}).text(), QStringLiteral("value"));
    m_redis.command({"DEL", counter});
}

void TestLimiterCatalog::aUsersScriptIsAnEntryMadeAtRunTime()
{
    // A script with a companion key of its own, named in its call template: deleted with the run.
    const LimiterScript script
        = LimiterScript::fromSource(QStringLiteral("hits.lua"),
                                    "redis.call('INCR', KEYS[2])\n"
                                    "local added = redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])\n"
                                    "return {redis.call('ZCARD', KEYS[1]), added, ARGV[2]}\n");
    CallTemplate call;
    QString error;
    QVERIFY2(CallTemplate::parse(QStringLiteral("{key} {key}:hits"), QStringLiteral("{now} {uuid}"), &call, &error),
             qPrintable(error));
    const LimiterRef limiter = LimiterCatalog::custom(script, std::make_shared<const CallTemplate>(call));
    QCOMPARE(limiter->role, LimiterEntry::Role::Custom);
    QVERIFY(limiter->store.keysFor("k").contains("k:hits"));
    BurstPlan plan;
    plan.limiter = limiter;
    plan.requests = 20;
    plan.clock = ClockKind::Frozen;
    QByteArray key;
    const BurstSummary summary = run(plan, &key);
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.limiter, QStringLiteral("hits.lua"));
    QCOMPARE(summary.stored, 20);
    QCOMPARE(m_redis.command({"EXISTS", key, key + ":hits"}).toInteger(), 0LL);
}

// The Script Doctor reads a built-in script with its callTemplate(): the keys and arguments there
// must be the ones a burst sends (the sequence strategy's counter is KEYS[2]).
void TestLimiterCatalog::theCallTemplateIsWhatEvalshaSends_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("keys");
    for (const LimiterRef& limiter : LimiterCatalog::all())
        QTest::newRow(qPrintable(limiter->id)) << limiter->id << limiter->callTemplate().keysText();
}

void TestLimiterCatalog::theCallTemplateIsWhatEvalshaSends()
{
    QFETCH(QString, id);
    QFETCH(QString, keys);
    const LimiterRef limiter = LimiterCatalog::builtin(id);
    CallValues values;
    values.key = "zsetlab:{run:test}";
    values.nowMicros = 1710000000123456;
    values.windowMs = 60000;
    values.limit = 5;
    values.seq = 7;
    values.uuid = "u-1";
    const CallTemplate call = limiter->callTemplate();
    const RedisArgs sent = limiter->evalsha(values);
    QCOMPARE(sent.mid(3), call.expandKeys(values) + call.expandArgs(values));
    QCOMPARE(sent.at(2).toInt(), call.keyCount());
    if (id == QLatin1String("sequence"))
        QCOMPARE(keys, QStringLiteral("{key} {key}:seq"));
}

void TestLimiterCatalog::anAlgorithmNeedsALimit()
{
    // The algorithms decide by the limit themselves: without one, the plan says so before a call.
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("gcra");
    plan.limit = 0;
    QVERIFY2(plan.validate().contains(QLatin1String("limit")), qPrintable(plan.validate()));
    plan.limit = 1;
    QCOMPARE(plan.validate(), QString());
}

void TestLimiterCatalog::theCommandLineListsTheCatalog()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const CliResult help = runCli({QStringLiteral("run"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    const QString text = QString::fromUtf8(help.out).simplified();
    for (const QString& id : LimiterCatalog::ids())
        QVERIFY2(text.contains(id), qPrintable(id));
    const CliResult wrong = runCli({QStringLiteral("run"), QStringLiteral("--limiter"), QStringLiteral("uuid")});
    QCOMPARE(wrong.exitCode, 2);
    QVERIFY2(QString::fromUtf8(wrong.err).contains(LimiterCatalog::ids().join(QStringLiteral(", "))),
             wrong.err.constData());
}

QTEST_GUILESS_MAIN(TestLimiterCatalog)
#include "tst_limitercatalog.moc"
