#include "burst/burstengine.h"
#include "burst/burstrun.h"
#include "limiters/limitercatalog.h"
#include "limiters/limiterstore.h"
#include "limiters/zsetkeys.h"
#include "redis/keyslot.h"
#include "testredis.h"

#include <QElapsedTimer>
#include <QFile>
#include <QtTest>

#include <set>

#include <csignal>

namespace {
int threadCount()
{
    QFile status(QStringLiteral("/proc/self/status"));
    status.open(QIODevice::ReadOnly);
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("Threads:"))
            return line.mid(8).trimmed().toInt();
    }
    return -1;
}

BurstPlan planOf(const QString& strategy, ClockKind clock, const char* pace, int requests, qint64 limit = 0)
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin(strategy);
    plan.clock = clock;
    plan.requests = requests;
    plan.limit = limit;
    plan.windowMs = 60000;
    plan.keepKey = true;
    QString error;
    const bool parsed = Pacing::parse(QString::fromLatin1(pace), &plan.pacing, &error);
    Q_ASSERT(parsed);
    Q_UNUSED(parsed);
    return plan;
}

// The number of distinct milliseconds in a schedule: what `now` can store, exactly.
qint64 distinctMilliseconds(const BurstPlan& plan)
{
    std::set<qint64> ms;
    for (const qint64 offset : plan.scheduleMicros())
        ms.insert(offset / 1000);
    return static_cast<qint64>(ms.size());
}
} // namespace

// Runs a burst to its end on the test server and returns its summary.
#define RUN_BURST(engine, plan, summary)                                                                               \
    do {                                                                                                               \
        QSignalSpy finishedSpy(&(engine), &BurstEngine::finished);                                                     \
        QVERIFY2((engine).start(TestRedis::endpoint(), plan), qPrintable((engine).planError()));                       \
        QTRY_COMPARE_WITH_TIMEOUT(finishedSpy.count(), 1, 120000);                                                     \
        (summary) = finishedSpy.at(0).at(0).value<BurstSummary>();                                                     \
    } while (false)

class TestBurstEngine : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void frozenClockWithLimit_data();
    void frozenClockWithLimit();
    void spacedScheduleNeverCollides_data();
    void spacedScheduleNeverCollides();
    void denseScheduleStoresOnePerMillisecond();
    void connectionsAndPipeliningKeepTheTotals_data();
    void connectionsAndPipeliningKeepTheTotals();
    void truthMatchesAUniqueLimiter();
    void streamsBatchesWhileRunning();
    void stopKeepsAConsistentPartialLog();
    void refusesAKeyOfAnotherType();
    void twoRunsNeverShareANamedKey();
    void aCompanionIsClaimedToo();
    void reportsAScriptThatDoesNotCompile();
    void reportsAServerThatIsNotThere();
    void deletesItsKeyUnlessKept();
    void survivesScriptFlushMidBurst();
    void timesOutOnAPausedServer();
    void stopsPromptlyOnAPausedServer();
    void onlyALoneConnectionToThisMachineSpins();

private:
    RedisConnection m_redis;
};

void TestBurstEngine::initTestCase()
{
    QVERIFY(TestRedis::connect(m_redis));
}

void TestBurstEngine::frozenClockWithLimit_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<qint64>("stored");
    QTest::addColumn<qint64>("overwritten");
    QTest::addColumn<qint64>("admitted");
    QTest::addColumn<qint64>("overLimit");
    QTest::addColumn<qint64>("finalCount");
    QTest::newRow("now: one member, the burst goes through")
        << QStringLiteral("now") << qint64(1) << qint64(999) << qint64(1000) << qint64(990) << qint64(1);
    QTest::newRow("request-id: counted right")
        << QStringLiteral("request-id") << qint64(1000) << qint64(0) << qint64(10) << qint64(0) << qint64(1000);
    QTest::newRow("sequence: counted right")
        << QStringLiteral("sequence") << qint64(1000) << qint64(0) << qint64(10) << qint64(0) << qint64(1000);
}

void TestBurstEngine::frozenClockWithLimit()
{
    QFETCH(QString, strategy);
    BurstEngine engine;
    const BurstPlan plan = planOf(strategy, ClockKind::Frozen, "burst", 1000, 10);
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 1000);
    QCOMPARE(summary.errors, 0);
    QTEST(summary.stored, "stored");
    QTEST(summary.overwritten, "overwritten");
    QCOMPARE(summary.lost, summary.sent - summary.stored);
    QTEST(summary.admitted, "admitted");
    QTEST(summary.admittedOverLimit, "overLimit");
    QTEST(summary.finalCount, "finalCount");
    QCOMPARE(m_redis.command({"ZCARD", engine.key()}).toInteger(), summary.finalCount);
    QCOMPARE(summary.serverVersion, m_redis.server().version);
    ZsetKeys::deleteRunKeys(m_redis, engine.key());
}

void TestBurstEngine::spacedScheduleNeverCollides_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::newRow("now") << QStringLiteral("now");
    QTest::newRow("random") << QStringLiteral("random");
    QTest::newRow("request-id") << QStringLiteral("request-id");
    QTest::newRow("sequence") << QStringLiteral("sequence");
}

void TestBurstEngine::spacedScheduleNeverCollides()
{
    QFETCH(QString, strategy);
    BurstEngine engine;
    const BurstPlan plan = planOf(strategy, ClockKind::Schedule, "interval:2000", 500);
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    QCOMPARE(summary.sent, 500);
    QCOMPARE(summary.overwritten, 0);
    QCOMPARE(summary.stored, 500);
    ZsetKeys::deleteRunKeys(m_redis, engine.key());
}

void TestBurstEngine::denseScheduleStoresOnePerMillisecond()
{
    BurstEngine engine;
    const BurstPlan plan = planOf(QStringLiteral("now"), ClockKind::Schedule, "interval:250", 1000);
    const qint64 expected = distinctMilliseconds(plan);
    QCOMPARE(expected, 250); // four requests share each millisecond
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    QCOMPARE(summary.stored, expected);
    QCOMPARE(summary.overwritten, 1000 - expected);
    QCOMPARE(m_redis.command({"ZCARD", engine.key()}).toInteger(), expected);
    // The survivors are exactly the first request of each millisecond (ZADD of an existing
    // member leaves the member and, with the same score, everything else as it was).
    const RequestLog& log = engine.log();
    for (int i = 0; i < log.size(); ++i)
        QCOMPARE(log.added(i), i % 4 == 0 ? 1 : 0);
    ZsetKeys::deleteRunKeys(m_redis, engine.key());
}

void TestBurstEngine::connectionsAndPipeliningKeepTheTotals_data()
{
    QTest::addColumn<ClockKind>("clock");
    QTest::addColumn<int>("connections");
    QTest::addColumn<int>("pipeline");
    for (const ClockKind clock : {ClockKind::Frozen, ClockKind::Schedule}) {
        const QByteArray name = clockName(clock).toLatin1();
        QTest::newRow(QByteArray(name + ", 1 connection, pipeline 16").constData()) << clock << 1 << 16;
        QTest::newRow(QByteArray(name + ", 4 connections, pipeline 1").constData()) << clock << 4 << 1;
        QTest::newRow(QByteArray(name + ", 4 connections, pipeline 8").constData()) << clock << 4 << 8;
    }
}

void TestBurstEngine::connectionsAndPipeliningKeepTheTotals()
{
    QFETCH(ClockKind, clock);
    QFETCH(int, connections);
    QFETCH(int, pipeline);
    for (const QString& strategy : {QStringLiteral("now"), QStringLiteral("request-id")}) {
        BurstPlan single = planOf(strategy, clock, "interval:250", 2000);
        BurstPlan parallel = single;
        parallel.connections = connections;
        parallel.pipeline = pipeline;
        BurstEngine first;
        BurstEngine second;
        BurstSummary one;
        BurstSummary many;
        RUN_BURST(first, single, one);
        RUN_BURST(second, parallel, many);
        QCOMPARE(many.sent, one.sent);
        QCOMPARE(many.errors, 0);
        QCOMPARE(many.stored, one.stored);
        QCOMPARE(many.overwritten, one.overwritten);
        QCOMPARE(many.finalCount, one.finalCount);
        std::set<int> used;
        for (int i = 0; i < second.log().size(); ++i)
            used.insert(second.log().connection(i));
        QCOMPARE(int(used.size()), connections);
        ZsetKeys::deleteRunKeys(m_redis, first.key());
        ZsetKeys::deleteRunKeys(m_redis, second.key());
    }
}

void TestBurstEngine::truthMatchesAUniqueLimiter()
{
    // With unique members and one connection, what Redis counted is the truth, request by request.
    BurstEngine engine;
    BurstPlan plan = planOf(QStringLiteral("request-id"), ClockKind::Schedule, "poisson:3", 3000);
    // About 600 requests in the window, trimmed all along the 1 s of schedule; the script's
    // PEXPIRE runs on Redis's own clock, so a window shorter than a stall of a loaded machine
    // would drop the key mid-burst.
    plan.windowMs = 200;
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    const RequestLog& log = engine.log();
    QCOMPARE(log.truthPrefix(), log.size());
    for (int i = 0; i < log.size(); ++i)
        QCOMPARE(log.count(i), log.truth(i));
    ZsetKeys::deleteRunKeys(m_redis, engine.key());
}

void TestBurstEngine::streamsBatchesWhileRunning()
{
    BurstEngine engine;
    BurstPlan plan = planOf(QStringLiteral("now"), ClockKind::SystemMs, "interval:100", 3000); // about 0.3 s
    QSignalSpy batches(&engine, &BurstEngine::recordsAvailable);
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(TestRedis::endpoint(), plan));
    QVERIFY(engine.isRunning()); // start() returned before the burst ended
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QVERIFY2(batches.count() >= 3, "a paced burst of 0.3 s arrives in several batches");
    int previous = 0;
    for (const auto& batch : batches) {
        QVERIFY(batch.at(0).toInt() >= previous);
        previous = batch.at(0).toInt();
    }
    QCOMPARE(previous, 3000);
    ZsetKeys::deleteRunKeys(m_redis, engine.key());
}

void TestBurstEngine::stopKeepsAConsistentPartialLog()
{
    const int threadsBefore = threadCount();
    BurstEngine engine;
    BurstPlan plan = planOf(QStringLiteral("now"), ClockKind::SystemMs, "interval:1000", 100000); // 100 s
    plan.connections = 3;
    QSignalSpy batches(&engine, &BurstEngine::recordsAvailable);
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(TestRedis::endpoint(), plan));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 50, 20000);
    QElapsedTimer clock;
    clock.start();
    engine.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!engine.isRunning());
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QVERIFY(summary.stopped);
    QVERIFY(!summary.failure.isFailure());
    const RequestLog& log = engine.log();
    QVERIFY(log.finished() < 100000);
    QCOMPARE(summary.sent, log.finished());
    QCOMPARE(summary.stored + summary.overwritten + summary.errors, summary.sent);
    int done = 0;
    for (int i = 0; i < log.size(); ++i)
        done += log.isDone(i) ? 1 : 0;
    QCOMPARE(done, log.finished());
    QCOMPARE(log.truthPrefix(), log.finished()); // no holes: what was sent was answered
    QCOMPARE(threadCount(), threadsBefore);
    ZsetKeys::deleteRunKeys(m_redis, engine.key());
}

void TestBurstEngine::refusesAKeyOfAnotherType()
{
    const QByteArray key = TestRedis::uniqueKey("list");
    m_redis.command({"RPUSH", key, "a", "b"});
    BurstEngine engine;
    BurstPlan plan = planOf(QStringLiteral("now"), ClockKind::Frozen, "burst", 100);
    plan.key = key;
    QSignalSpy failed(&engine, &BurstEngine::failed);
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Script);
    QVERIFY2(summary.failure.message.contains(QString::fromUtf8(key)), qPrintable(summary.failure.message));
    QVERIFY(summary.failure.message.contains(QLatin1String("list")));
    QCOMPARE(summary.sent, 0);
    QCOMPARE(m_redis.command({"LRANGE", key, "0", "-1"}).elements().size(), size_t(2));
    m_redis.command({"DEL", key});
}

// Issue #58, 7: --key rl with the sequence limiter (which writes rl:seq) and --key rl:seq both
// passed their claims. The companion is claimed too: a run that holds rl:seq stops the other,
// which names that key and releases what it had claimed.
void TestBurstEngine::aCompanionIsClaimedToo()
{
    const QByteArray key = TestRedis::uniqueKey("companion");
    const QByteArray companion = key + ":seq";
    QCOMPARE(LimiterCatalog::builtin("sequence")->store.keysFor(key), (QList<QByteArray> {key, companion}));
    const QByteArray otherRun = "another-run";
    QVERIFY(!m_redis.command({"SET", LimiterStore::claimKeyOf(companion), otherRun, "NX", "PX", "60000"}).isError());
    BurstPlan plan = planOf(QStringLiteral("sequence"), ClockKind::SystemMs, "burst", 20);
    plan.key = key;
    BurstEngine engine;
    BurstSummary refused;
    RUN_BURST(engine, plan, refused);
    m_redis.command({"DEL", LimiterStore::claimKeyOf(companion)});
    QCOMPARE(refused.failure.kind, BurstFailure::Kind::Script);
    QVERIFY2(refused.failure.message.contains(QString::fromUtf8(companion))
                 && refused.failure.message.contains(QLatin1String("another-run")),
             qPrintable(refused.failure.message));
    QCOMPARE(refused.sent, 0);
    QCOMPARE(m_redis.command({"EXISTS", key, companion, LimiterStore::claimKeyOf(key)}).toInteger(), 0LL);
}

// Two runs on one named key, both allowed to reuse it: the second starts while the first writes,
// so both would find the key theirs. The claim lets only the first write; the second fails at
// once, naming the claim, and writes nothing.
void TestBurstEngine::twoRunsNeverShareANamedKey()
{
    const QByteArray key = TestRedis::uniqueKey("shared");
    const QByteArray marker = LimiterStore::claimKeyOf(key);
    QCOMPARE(KeySlot::of(marker), KeySlot::of(key));
    BurstPlan plan = planOf(QStringLiteral("request-id"), ClockKind::SystemMs, "interval:5000", 600);
    plan.key = key;
    plan.keepKey = true;
    plan.reuseKey = true;
    BurstEngine first;
    QSignalSpy firstFinished(&first, &BurstEngine::finished);
    QVERIFY(first.start(TestRedis::endpoint(), plan));
    QTRY_VERIFY_WITH_TIMEOUT(first.log().finished() >= 10, 20000); // it holds the claim and writes
    QCOMPARE(m_redis.command({"EXISTS", marker}).toInteger(), 1LL);
    QVERIFY(firstFinished.isEmpty());

    BurstEngine second;
    BurstSummary refused;
    RUN_BURST(second, plan, refused);
    QCOMPARE(refused.failure.kind, BurstFailure::Kind::Script);
    QVERIFY2(refused.failure.message.contains(QLatin1String("Another zsetlab run"))
                 && refused.failure.message.contains(QString::fromUtf8(marker)),
             qPrintable(refused.failure.message));
    QCOMPARE(refused.sent, 0);

    QTRY_COMPARE_WITH_TIMEOUT(firstFinished.count(), 1, 30000);
    const BurstSummary summary = firstFinished.at(0).at(0).value<BurstSummary>();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(m_redis.command({"ZCARD", key}).toInteger(), 600LL); // the first run's members, and only those
    QCOMPARE(m_redis.command({"EXISTS", marker}).toInteger(), 0LL); // released at the end

    // Released, the key can be claimed again (reused, as allowed).
    BurstEngine third;
    BurstSummary again;
    plan.requests = 5;
    plan.pacing = Pacing();
    RUN_BURST(third, plan, again);
    QVERIFY2(!again.failure.isFailure(), qPrintable(again.failure.message));
    QCOMPARE(m_redis.command({"EXISTS", marker}).toInteger(), 0LL);
    ZsetKeys::deleteRunKeys(m_redis, key);
}

void TestBurstEngine::reportsAScriptThatDoesNotCompile()
{
    BurstEngine engine;
    BurstPlan plan = planOf(QStringLiteral("now"), ClockKind::Frozen, "burst", 10);
    plan.limiter = LimiterCatalog::custom(
        LimiterScript::fromSource(QStringLiteral("mine.lua"), "local key = KEYS[1]\n\nredis.call('ZADD' key, 1, 1)\n"));
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Script);
    QCOMPARE(summary.failure.scriptLine, 3);
    QVERIFY2(summary.failure.message.contains(QLatin1String("line 3")), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 0);
}

void TestBurstEngine::reportsAServerThatIsNotThere()
{
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QTemporaryDir dir;
    QVERIFY(engine.start(RedisEndpoint::unixSocket(dir.filePath(QStringLiteral("gone.sock"))),
                         planOf(QStringLiteral("now"), ClockKind::Frozen, "burst", 10)));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Connection);
    QVERIFY(summary.failure.message.contains(QLatin1String("gone.sock")));
}

void TestBurstEngine::deletesItsKeyUnlessKept()
{
    BurstEngine engine;
    BurstPlan plan = planOf(QStringLiteral("sequence"), ClockKind::Frozen, "burst", 50);
    plan.keepKey = false;
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    QCOMPARE(summary.finalCount, 50);
    QVERIFY(engine.key().startsWith("zsetlab:run:"));
    QCOMPARE(m_redis.command({"EXISTS", engine.key(), engine.key() + ":seq"}).toInteger(), 0LL);
}

void TestBurstEngine::survivesScriptFlushMidBurst()
{
    BurstEngine engine;
    BurstPlan plan = planOf(QStringLiteral("request-id"), ClockKind::SystemMs, "interval:200", 3000);
    plan.pipeline = 4;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(TestRedis::endpoint(), plan));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 200, 20000);
    QVERIFY(!m_redis.command({"SCRIPT", "FLUSH"}).isError());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.errors, 0);
    QCOMPARE(summary.stored, 3000);
    ZsetKeys::deleteRunKeys(m_redis, engine.key());
}

void TestBurstEngine::timesOutOnAPausedServer()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    BurstEngine engine;
    BurstPlan plan = planOf(QStringLiteral("now"), ClockKind::SystemMs, "interval:1000", 100000);
    plan.reconnectForMs = 0; // no retry window (tst_faults covers the retries after a pause)
    ConnectOptions options;
    options.commandTimeout = std::chrono::milliseconds(300);
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(server.endpoint(), plan, options));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 20, 20000);
    ::kill(static_cast<pid_t>(server.serverPid()), SIGSTOP);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    ::kill(static_cast<pid_t>(server.serverPid()), SIGCONT);
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Connection);
    QVERIFY2(summary.failure.message.contains(QLatin1String("300 ms")), qPrintable(summary.failure.message));
    QVERIFY(summary.sent >= 20);
}

void TestBurstEngine::stopsPromptlyOnAPausedServer()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    BurstEngine engine;
    BurstPlan plan = planOf(QStringLiteral("now"), ClockKind::SystemMs, "burst", 1000000);
    plan.connections = 2;
    plan.pipeline = 8;
    ConnectOptions options;
    options.commandTimeout = std::chrono::seconds(30); // Stop must not wait for it
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(server.endpoint(), plan, options));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 100, 20000);
    ::kill(static_cast<pid_t>(server.serverPid()), SIGSTOP);
    QElapsedTimer clock;
    clock.start();
    engine.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    const qint64 elapsed = clock.elapsed();
    ::kill(static_cast<pid_t>(server.serverPid()), SIGCONT);
    QVERIFY2(elapsed < 400, qPrintable(QString::number(elapsed)));
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QVERIFY(summary.stopped);
    QVERIFY(!summary.failure.isFailure());
    QCOMPARE(summary.stored + summary.overwritten, summary.sent);
}

// A worker polls for a while before it sleeps only when that is all it waits for and it has a
// core of its own: one connection, a server on this machine, two cores or more. The runs above
// (one connection over a unix socket) go through that wait, timeouts and Stop included.
void TestBurstEngine::onlyALoneConnectionToThisMachineSpins()
{
    using std::chrono::microseconds;
    QVERIFY(BurstRun::spinBeforeWaiting(1, 2, true) > microseconds(0));
    QVERIFY(BurstRun::spinBeforeWaiting(1, 2, true) <= microseconds(100));
    QCOMPARE(BurstRun::spinBeforeWaiting(2, 2, true), microseconds(0));
    QCOMPARE(BurstRun::spinBeforeWaiting(50, 16, true), microseconds(0));
    QCOMPARE(BurstRun::spinBeforeWaiting(1, 1, true), microseconds(0));
    QCOMPARE(BurstRun::spinBeforeWaiting(1, 8, false), microseconds(0));
}

QTEST_GUILESS_MAIN(TestBurstEngine)
#include "tst_burstengine.moc"
