// A fork of a recorded run: the rest of its requests, with the same timestamps, at another
// limiter, on new keys that start from the ZSET the original held at that request.

#include "redis/nodeconnections.h"
#include "replay/replayfork.h"
#include "testbursts.h"
#include "testredis.h"

#include <QTest>

namespace {
QStringList described(const std::vector<ReplayMember>& members)
{
    QStringList list;
    for (const ReplayMember& m : members)
        list << QStringLiteral("%1@%2").arg(QString::fromUtf8(m.member)).arg(QString::fromLatin1(scoreText(m.score)));
    return list;
}

QStringList zrange(RedisConnection& connection, const QByteArray& key)
{
    const RedisReply reply = connection.command({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    QStringList list;
    for (size_t i = 0; i + 1 < reply.elements().size(); i += 2)
        list << QStringLiteral("%1@%2").arg(QString::fromUtf8(reply.elements()[i].bytes()),
                                            QString::fromUtf8(reply.elements()[i + 1].bytes()));
    return list;
}
} // namespace

class TestReplayFork : public QObject
{
    Q_OBJECT
private slots:
    void forkGoesOnWithTheSameTimestamps_data();
    void forkGoesOnWithTheSameTimestamps();
    void forksThatCannotBeAreRefused();
};

void TestReplayFork::forkGoesOnWithTheSameTimestamps_data()
{
    QTest::addColumn<bool>("cluster");
    QTest::addColumn<int>("users");
    QTest::newRow("one server") << false << 1;
    QTest::newRow("cluster, 3 users") << true << 3;
}

void TestReplayFork::forkGoesOnWithTheSameTimestamps()
{
    QFETCH(bool, cluster);
    QFETCH(int, users);
    const RedisEndpoint endpoint = cluster ? TestRedis::cluster().endpoint() : TestRedis::endpoint();
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.requests = 200;
    plan.pacing.kind = Pacing::Kind::Poisson;
    plan.pacing.perMs = 3;
    plan.clock = ClockKind::Schedule;
    plan.windowMs = 30; // EXPIRE takes it as seconds: the keys outlive the test
    plan.limit = 20;
    plan.users = users;
    plan.seed = 5;
    const Recording original = TestBursts::recordToTheEnd(endpoint, plan);

    const int from = 80;
    ForkChange change;
    // A unique member whose script sets EXPIRE in seconds: the fork's keys outlive the reads below
    // (request-id's PEXPIRE of 30 ms let a loaded machine find them gone).
    change.limiter = LimiterCatalog::builtin("random");
    BurstPlan forkPlan;
    QString error;
    QVERIFY2(ReplayFork::plan(original, from, change, &forkPlan, &error), qPrintable(error));
    QCOMPARE(forkPlan.requests, original.requests() - from);
    QCOMPARE(forkPlan.users, users);

    // The fork's keys start from the original's ZSETs right before request `from`.
    NodeConnections nodes;
    QVERIFY2(nodes.open(endpoint, {}, &error), qPrintable(error));
    QVERIFY2(ReplayFork::seed(nodes, original, from, forkPlan, &error), qPrintable(error));
    for (int k = 0; k < users; ++k) {
        int last = from - 1;
        while (original.log().userOf(last) != ReplayFork::originalUser(original, from, k))
            --last;
        const QByteArray key = forkPlan.userKey(forkPlan.key, k);
        QCOMPARE(zrange(nodes.forKey(key), key), described(original.stateAt(last, true).memberList));
    }

    forkPlan.keepKey = true; // read below
    Recording fork = TestBursts::recordToTheEnd(endpoint, forkPlan);
    QCOMPARE(fork.requests(), original.requests() - from);
    for (int j = 0; j < fork.requests(); ++j)
        QCOMPARE(fork.log().now(j), original.log().now(from + j));
    // Request `from`: the original overwrote or added its `now` member; the fork adds a member of
    // its own to the same ZSET, so it counts one more where the original overwrote.
    const int extra = original.log().added(from) == 0 ? 1 : 0;
    QCOMPARE(fork.log().count(0), original.history().sizeAfter(from) + extra);
    QCOMPARE(fork.log().overwritten(), 0);

    // The fork's recording knows what it started from: at its end, each user's ZSET is what
    // Redis holds, seeded members trimmed by the window (30 ms of a 67 ms run) included.
    fork.setSeeded(ReplayFork::seededMembers(original, from, forkPlan));
    QVERIFY(!fork.info().seeded.empty());
    int trimmedOrKept = 0;
    for (int k = 0; k < users; ++k) {
        const QByteArray key = forkPlan.userKey(forkPlan.key, k);
        int last = fork.requests() - 1;
        while (fork.log().userOf(last) != k)
            --last;
        const ReplayState end = fork.stateAt(last, true);
        QCOMPARE(zrange(nodes.forKey(key), key), described(end.memberList));
        QCOMPARE(end.members, qint64(end.memberList.size()));
        trimmedOrKept += int(end.memberList.size());
        nodes.forKey(key).command({"DEL", key});
    }
    QVERIFY(trimmedOrKept > 0);
    // Right after the fork's first request, its user's ZSET held the seeded members and its own.
    const ReplayState first = fork.stateAt(0, true);
    QCOMPARE(first.members, fork.log().count(0));
    QVERIFY(std::any_of(first.memberList.begin(), first.memberList.end(),
                        [](const ReplayMember& m) { return m.request < 0; }));
}

void TestReplayFork::forksThatCannotBeAreRefused()
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("token-bucket");
    plan.requests = 20;
    plan.limit = 5;
    const Recording bucket = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    BurstPlan fork;
    QString error;
    QVERIFY(!ReplayFork::plan(bucket, 10, {}, &fork, &error));
    QVERIFY2(error.contains(QLatin1String("no members")), qPrintable(error));
    QVERIFY(ReplayFork::plan(bucket, 0, {}, &fork, &error)); // from the first request: nothing to copy
    QVERIFY(!ReplayFork::plan(bucket, 20, {}, &fork, &error));
    QVERIFY2(error.contains(QLatin1String("from 1 to 20")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestReplayFork)
#include "tst_replayfork.moc"
