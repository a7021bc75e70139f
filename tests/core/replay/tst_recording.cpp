// The state a recording rebuilds at request N is what Redis held after the first N requests:
// the same N requests, with the same timestamps, fired again on a fresh key, leave the same ZSET.

#include "burst/burstengine.h"
#include "replay/recording.h"
#include "testbursts.h"
#include "testredis.h"

#include <QSignalSpy>
#include <QTest>

namespace {
// ZRANGE key 0 -1 WITHSCORES on whichever node holds the key (one server: node 0 only).
std::vector<ReplayMember> zrange(const std::vector<RedisEndpoint>& nodes, const QByteArray& key)
{
    for (const RedisEndpoint& node : nodes) {
        RedisConnection connection;
        if (!connection.open(node))
            qFatal("cannot connect: %s", qPrintable(connection.lastError().message));
        const RedisReply reply = connection.command({"ZRANGE", key, "0", "-1", "WITHSCORES"});
        if (reply.isServerError() && reply.errorCode() == "MOVED")
            continue;
        std::vector<ReplayMember> members;
        for (size_t i = 0; i + 1 < reply.elements().size(); i += 2)
            members.push_back({reply.elements()[i].bytes(), reply.elements()[i + 1].bytes().toDouble(), -1});
        return members;
    }
    qFatal("no node holds %s", key.constData());
}

// A member written from a request id names the request, whatever run made it: compare the ids.
QByteArray sameAcrossRuns(const QByteArray& member)
{
    const int colon = member.lastIndexOf(':');
    return colon < 0 ? member : member.mid(colon + 1);
}

QStringList described(const std::vector<ReplayMember>& members)
{
    QStringList list;
    for (const ReplayMember& m : members)
        list << QStringLiteral("%1@%2")
                    .arg(QString::fromUtf8(sameAcrossRuns(m.member)))
                    .arg(QString::fromLatin1(scoreText(m.score)));
    return list;
}

BurstPlan seededPlan(const QString& strategy, int requests, int users)
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin(strategy);
    plan.requests = requests;
    plan.connections = 1;
    plan.pacing.kind = Pacing::Kind::Poisson;
    plan.clock = ClockKind::Schedule;
    // Short against the traffic's timestamps, so that members leave the window while it runs. The
    // key's TTL is the window on the server's own clock (EXPIRE takes it as seconds, PEXPIRE as
    // ms): a PEXPIRE window must outlast the test reading the key well after the last write.
    if (strategy == QLatin1String("now")) {
        plan.pacing.perMs = 3; // several requests share most milliseconds
        plan.windowMs = 40;
    } else {
        plan.pacing.perMs = 0.05;
        plan.windowMs = 2000;
    }
    plan.limit = 50;
    plan.seed = 11;
    plan.users = users;
    plan.keepKey = true;
    return plan;
}
} // namespace

class TestRecording : public QObject
{
    Q_OBJECT

private:
    void compareWithPrefixRuns(const std::vector<RedisEndpoint>& nodes, const QString& strategy, int users);

private slots:
    void stateAtRequestIsWhatRedisHeld_data();
    void stateAtRequestIsWhatRedisHeld();
    void stateAtRequestIsWhatTheClusterHeld_data();
    void stateAtRequestIsWhatTheClusterHeld();
    void figuresSoFarAddUp();
    void jumpsFindTheNextOverwriteAndTheNextAdmissionBeyondTheLimit();
    void aTimeFindsTheLastRequestBeforeALaterNow();
    void aHistoryBuiltAsTheRunGoesIsTheOnePassOne();
    void aRecordingOutlivesTheEnginesNextRun();
};

void TestRecording::compareWithPrefixRuns(const std::vector<RedisEndpoint>& nodes, const QString& strategy, int users)
{
    const BurstPlan plan = seededPlan(strategy, 240, users);
    const Recording recording = TestBursts::recordToTheEnd(nodes.front(), plan);
    QCOMPARE(recording.requests(), plan.requests);
    QVERIFY(recording.log().overwritten() > 0 || strategy != QLatin1String("now")); // the bug shows

    // At the end: what Redis holds in every user's key.
    for (int u = 0; u < users; ++u) {
        int last = plan.requests - 1;
        while (recording.log().userOf(last) != u)
            --last;
        const ReplayState state = recording.stateAt(last, true);
        QCOMPARE(state.key, recording.keyOfUser(u));
        QCOMPARE(described(state.memberList), described(zrange(nodes, state.key)));
        QCOMPARE(state.members, qint64(state.memberList.size()));
    }

    // At several N: the first N requests fired again, with the same timestamps, on fresh keys.
    std::vector<qint64> nows;
    nows.reserve(recording.requests());
    for (int i = 0; i < recording.requests(); ++i)
        nows.push_back(recording.log().now(i));
    for (const int n : {1, 2, 3, 17, 100, 239}) {
        BurstPlan prefix = plan;
        prefix.requests = n;
        prefix.replayNows = std::make_shared<std::vector<qint64>>(nows.begin(), nows.begin() + n);
        const Recording again = TestBursts::recordToTheEnd(nodes.front(), prefix);
        for (int u = 0; u < std::min(users, n); ++u) {
            int last = n - 1;
            while (recording.log().userOf(last) != u)
                --last;
            const ReplayState state = recording.stateAt(last, true);
            const std::vector<ReplayMember> held = zrange(nodes, again.keyOfUser(u));
            QVERIFY2(described(state.memberList) == described(held),
                     qPrintable(QStringLiteral("N = %1, user %2: replay %3, Redis %4")
                                    .arg(n)
                                    .arg(u)
                                    .arg(described(state.memberList).join(u' '), described(held).join(u' '))));
            QCOMPARE(state.members, qint64(held.size()));
            QCOMPARE(state.countReturned, again.log().count(last)); // what the script answered, the same
        }
        RedisConnection cleanup;
        for (int u = 0; u < users; ++u) {
            for (const RedisEndpoint& node : nodes) {
                if (cleanup.open(node))
                    cleanup.command({"DEL", again.keyOfUser(u)});
            }
        }
    }
}

void TestRecording::stateAtRequestIsWhatRedisHeld_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::newRow("now") << QStringLiteral("now");
    QTest::newRow("request-id") << QStringLiteral("request-id");
}

void TestRecording::stateAtRequestIsWhatRedisHeld()
{
    QFETCH(QString, strategy);
    compareWithPrefixRuns({TestRedis::endpoint()}, strategy, 1);
}

void TestRecording::stateAtRequestIsWhatTheClusterHeld_data()
{
    stateAtRequestIsWhatRedisHeld_data();
}

void TestRecording::stateAtRequestIsWhatTheClusterHeld()
{
    QFETCH(QString, strategy);
    PrivateRedisCluster& cluster = TestRedis::cluster();
    QVERIFY(cluster.isRunning());
    std::vector<RedisEndpoint> nodes;
    nodes.reserve(cluster.size());
    for (int i = 0; i < cluster.size(); ++i)
        nodes.push_back(cluster.endpoint(i));
    compareWithPrefixRuns(nodes, strategy, 3);
}

void TestRecording::figuresSoFarAddUp()
{
    const BurstPlan plan = seededPlan(QStringLiteral("now"), 3000, 1);
    const Recording recording = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    qint64 overwritten = 0;
    qint64 beyond = 0;
    qint64 stored = 0;
    qint64 admitted = 0;
    qint64 maxCount = 0;
    for (int i = 0; i < recording.requests(); ++i) {
        overwritten += recording.log().added(i) == 0;
        beyond += recording.log().isAdmittedOverLimit(i);
        stored += recording.log().added(i) == 1;
        admitted += recording.log().isAdmitted(i);
        maxCount = std::max(maxCount, recording.log().count(i));
        const ReplayTotals totals = recording.totalsThrough(i);
        QCOMPARE(totals.sent, i + 1);
        QCOMPARE(totals.stored, stored);
        QCOMPARE(totals.admitted, admitted);
        QCOMPARE(totals.maxCount, maxCount);
        const ReplayState state = recording.stateAt(i, false);
        QCOMPARE(state.request, i + 1);
        QCOMPARE(state.overwritten, overwritten);
        QCOMPARE(state.admittedBeyondLimitSoFar, beyond);
        QCOMPARE(state.trueCount, recording.log().truth(i));
    }
    QCOMPARE(overwritten, recording.log().overwritten());
    QCOMPARE(beyond, recording.log().admittedOverLimit());
    QVERIFY(beyond > 0);
    // A part of the run (what a what-if from 1000 that stopped after 700 requests is compared with).
    const ReplayTotals part = recording.totalsFrom(1000, 1699);
    qint64 partOverwritten = 0, partBeyond = 0, partMax = 0;
    for (int i = 1000; i <= 1699; ++i) {
        partOverwritten += recording.log().added(i) == 0;
        partBeyond += recording.log().isAdmittedOverLimit(i);
        partMax = std::max(partMax, recording.log().count(i));
    }
    QCOMPARE(part.sent, 700);
    QCOMPARE(part.overwritten, partOverwritten);
    QCOMPARE(part.admittedBeyondLimit, partBeyond);
    QCOMPARE(part.maxCount, partMax);
    QCOMPARE(recording.totalsFrom(1000).sent, recording.requests() - 1000);
}

void TestRecording::jumpsFindTheNextOverwriteAndTheNextAdmissionBeyondTheLimit()
{
    const BurstPlan plan = seededPlan(QStringLiteral("now"), 3000, 1);
    const Recording recording = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    for (int from = -1; from < recording.requests(); from += 97) {
        int overwrite = -1;
        int beyond = -1;
        for (int r = from + 1; r < recording.requests(); ++r) {
            if (overwrite < 0 && recording.log().added(r) == 0)
                overwrite = r;
            if (beyond < 0 && recording.log().isAdmittedOverLimit(r))
                beyond = r;
        }
        QCOMPARE(recording.nextOverwrite(from), overwrite);
        QCOMPARE(recording.nextBeyondLimit(from), beyond);
    }
}

void TestRecording::aTimeFindsTheLastRequestBeforeALaterNow()
{
    // Two app servers, one clock 30 ms behind: the nows go back and forth.
    BurstPlan plan = seededPlan(QStringLiteral("now"), 3000, 1);
    plan.connections = 2;
    plan.clockOffsetsMs = {0, -30};
    const Recording recording = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    const RequestLog& log = recording.log();
    int backwards = 0;
    for (int i = 1; i < log.size(); ++i)
        backwards += log.now(i) < log.now(i - 1);
    QVERIFY(backwards > 0);
    for (qint64 now = log.minNow() - 1; now <= log.maxNow() + 1;
         now += std::max<qint64>(1, (log.maxNow() - log.minNow()) / 500)) {
        int expected = -1;
        while (expected + 1 < log.size() && log.now(expected + 1) <= now)
            ++expected;
        QCOMPARE(recording.lastRequestThrough(now), expected);
    }
    QCOMPARE(recording.lastRequestThrough(log.maxNow()), log.size() - 1);
}

// The window builds a run's history batch by batch, as the engine hands them over (RunController):
// it is the history one pass over the finished log gives, request by request.
void TestRecording::aHistoryBuiltAsTheRunGoesIsTheOnePassOne()
{
    BurstPlan plan = seededPlan(QStringLiteral("now"), 6000, 3); // members written again and trimmed
    plan.keepKey = false;
    BurstEngine engine;
    ZsetHistoryBuilder builder;
    int batches = 0;
    int builtAlong = 0; // the most built while requests were still to come
    connect(&engine, &BurstEngine::batchAvailable, this, [&] {
        builder.advance(engine.log());
        ++batches;
        if (builder.built() < plan.requests)
            builtAlong = std::max(builtAlong, builder.built());
    });
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY2(engine.start(TestRedis::endpoint(), plan), qPrintable(engine.planError()));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 120000));
    QVERIFY2(batches > 1, "the run came in one batch: nothing was built along the way");
    QVERIFY2(builtAlong > plan.requests / 2, qPrintable(QString::number(builtAlong)));
    const Recording along = Recording::fromEngine(engine, QStringLiteral("burst"), &builder);
    const Recording onePass = Recording::fromEngine(engine);
    const ZsetHistory& a = along.history();
    const ZsetHistory& b = onePass.history();
    QCOMPARE(a.requests(), 6000);
    QCOMPARE(a.requests(), b.requests());
    int overwrites = 0;
    for (int i = 0; i < b.requests(); ++i) {
        QCOMPARE(a.endOf(i), b.endOf(i));
        QCOMPARE(a.sizeAfter(i), b.sizeAfter(i));
        QCOMPARE(a.writesOfMemberThrough(i), b.writesOfMemberThrough(i));
        overwrites += b.writesOfMemberThrough(i) > 1 ? 1 : 0;
    }
    QVERIFY(overwrites > 0);
    for (int i : {0, 999, 3001, 5999})
        for (int user = 0; user < 3; ++user)
            QCOMPARE(a.writesAliveAfter(along.log(), i, user), b.writesAliveAfter(onePass.log(), i, user));
    QCOMPARE(builder.built(), 0); // finished: it starts over
}

// A recording holds the engine's log itself, not a copy (a million rows would take 45 ms to copy
// at the run's end): the engine's next run starts a log of its own and leaves the recording as
// it was.
void TestRecording::aRecordingOutlivesTheEnginesNextRun()
{
    BurstPlan plan = seededPlan(QStringLiteral("now"), 900, 1);
    plan.keepKey = false;
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY2(engine.start(TestRedis::endpoint(), plan), qPrintable(engine.planError()));
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 1; }, 60000));
    const Recording recording = Recording::fromEngine(engine);
    QCOMPARE(&recording.log(), &engine.log()); // shared
    QCOMPARE(recording.requests(), 900);
    const QByteArray tag = recording.log().runTag();
    const ReplayState before = recording.stateAt(899, true);
    QVERIFY(before.overwritten > 0);

    plan.requests = 300;
    plan.pacing.perMs = 1;
    QVERIFY2(engine.start(TestRedis::endpoint(), plan), qPrintable(engine.planError()));
    QVERIFY(&recording.log() != &engine.log());
    QVERIFY(QTest::qWaitFor([&] { return finished.count() == 2; }, 60000));
    QCOMPARE(engine.log().requests(), 300);
    QCOMPARE(recording.log().requests(), 900);
    QCOMPARE(recording.log().finished(), 900);
    QCOMPARE(recording.log().runTag(), tag);
    QVERIFY(engine.log().runTag() != tag);
    const ReplayState after = recording.stateAt(899, true);
    QCOMPARE(after.toJson(true), before.toJson(true));
}

QTEST_GUILESS_MAIN(TestRecording)
#include "tst_recording.moc"
