#include "algorithms/algorithmcomparison.h"
#include "burst/burstengine.h"
#include "cliprocess.h"
#include "debugger/scriptdebugger.h"
#include "doctor/scriptprobe.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "redis/clustermap.h"
#include "redis/keyslot.h"
#include "results/zsetreader.h"
#include "testbursts.h"
#include "testredis.h"
#include "watch/apptraffic.h"
#include "watch/watchsession.h"

#include <QtTest>

#include <csignal>

namespace {
// The node that serves `key`, connected.
bool openOnNodeOf(RedisConnection& connection, const QByteArray& key)
{
    ClusterMap map;
    QString error;
    if (!openForKey(connection, TestRedis::cluster().endpoint(), key, {}, &map, &error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    return true;
}

// The slot map, read through `endpoint`.
bool readSlotMap(const RedisEndpoint& endpoint, ClusterMap* map)
{
    RedisConnection connection;
    QString error;
    if (!connection.open(endpoint) || !ClusterMap::read(connection, map, &error)) {
        qWarning("%s", qPrintable(error.isEmpty() ? connection.lastError().message : error));
        return false;
    }
    return true;
}

QByteArray nodeId(RedisConnection& connection)
{
    return connection.command({"CLUSTER", "MYID"}).bytes();
}

qint64 infoField(RedisConnection& connection, const char* section, const QByteArray& field)
{
    const QByteArray text = connection.command({"INFO", section}).bytes();
    for (const QByteArray& line : text.split('\n')) {
        // "cmdstat_asking:calls=12,usec=..." and "errorstat_MOVED:count=3"
        if (line.startsWith(QByteArray(field + ":calls=")) || line.startsWith(QByteArray(field + ":count=")))
            return line.mid(line.indexOf('=') + 1).split(',').value(0).toLongLong();
    }
    return 0;
}
} // namespace

class TestCluster : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void redirectIsRead_data();
    void redirectIsRead();
    void keySlotAgreesWithTheServer_data();
    void keySlotAgreesWithTheServer();
    void everyKeyIsServedWhereTheMapSays();
    void runKeysShareASlotPerUser();
    void limiterGivesTheSameTotalsAsOneServer_data();
    void limiterGivesTheSameTotalsAsOneServer();
    void manyUsersGiveTheSameTotalsAsOneServer_data();
    void manyUsersGiveTheSameTotalsAsOneServer();
    void aKeyWithoutAHashTagSaysHowToFixIt();
    void reshardingMidBurstLosesNothing();
    void slotMovedBetweenBurstsIsFollowed();
    void stopWhileTheSlotMovesEndsPromptly();
    void zsetReaderFollowsAMovedKey();
    void algorithmsCompareAlikeOnACluster();
    void aKilledMasterFailsOnlyTheRunsItServed();
    void aKilledMasterFailsOnlyItsUsers();
    void redisCliReshardMovesAUserWithoutLoss();
    void doctorProbesOnAPrivateClusterFirst();
    void debuggerStepsOnTheKeysMaster();
    void appSpreadsItsUsersOverTheMasters_data();
    void appSpreadsItsUsersOverTheMasters();
    void watchSeesEveryMaster();
    void serverCommandStartsAndRemovesACluster();
};

void TestCluster::initTestCase()
{
    QVERIFY(TestRedis::cluster().isRunning());
    QCOMPARE(TestRedis::cluster().size(), 3);
}

void TestCluster::redirectIsRead_data()
{
    QTest::addColumn<QByteArray>("error");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("slot");
    QTest::addColumn<QString>("host");
    QTest::addColumn<int>("port");
    QTest::newRow("moved") << QByteArray("MOVED 3999 127.0.0.1:6381") << int(ClusterRedirect::Kind::Moved) << 3999
                           << QStringLiteral("127.0.0.1") << 6381;
    QTest::newRow("ask") << QByteArray("ASK 12182 127.0.0.1:30002") << int(ClusterRedirect::Kind::Ask) << 12182
                         << QStringLiteral("127.0.0.1") << 30002;
    QTest::newRow("ipv6") << QByteArray("MOVED 1 ::1:7000") << int(ClusterRedirect::Kind::Moved) << 1
                          << QStringLiteral("::1") << 7000;
    QTest::newRow("no endpoint") << QByteArray("MOVED 3999 :6381") << int(ClusterRedirect::Kind::Moved) << 3999
                                 << QString() << 6381;
    QTest::newRow("unknown endpoint") << QByteArray("ASK 7 ?:6381") << int(ClusterRedirect::Kind::Ask) << 7
                                      << QStringLiteral("?") << 6381;
    QTest::newRow("other error") << QByteArray("ERR unknown command") << int(ClusterRedirect::Kind::None) << -1
                                 << QString() << 0;
    QTest::newRow("no port") << QByteArray("MOVED 12 somewhere") << int(ClusterRedirect::Kind::None) << -1 << QString()
                             << 0;
}

void TestCluster::redirectIsRead()
{
    QFETCH(QByteArray, error);
    QFETCH(int, kind);
    // A real error reply, as the server sends it, read through hiredis.
    RedisConnection connection;
    QVERIFY(TestRedis::connect(connection));
    const RedisReply reply = connection.command({"EVAL", "return redis.error_reply(ARGV[1])", "0", error});
    QVERIFY(reply.isServerError());
    const ClusterRedirect redirect = ClusterRedirect::of(reply);
    QCOMPARE(int(redirect.kind), kind);
    if (redirect.isRedirect()) {
        QTEST(redirect.slot, "slot");
        QTEST(redirect.node.host, "host");
        QTEST(redirect.node.port, "port");
    }
}

void TestCluster::keySlotAgreesWithTheServer_data()
{
    QTest::addColumn<QByteArray>("key");
    for (const char* key : {"foo", "bar", "{user1000}.following", "{user1000}.followers", "foo{}{bar}", "foo{{bar}}zap",
                            "foo{bar}{zap}", "{}", "}{", "123456789", "zsetlab:run:{20261201-165123-28f833}:seq"})
        QTest::newRow(key) << QByteArray(key);
    QTest::newRow("binary") << QByteArray("\x00\xff{\x01\x02}", 6);
    QTest::newRow("empty") << QByteArray();
}

void TestCluster::keySlotAgreesWithTheServer()
{
    QFETCH(QByteArray, key);
    RedisConnection connection;
    QVERIFY(connection.open(TestRedis::cluster().endpoint()));
    const RedisReply slot = connection.command({"CLUSTER", "KEYSLOT", key});
    QVERIFY2(!slot.isError(), qPrintable(slot.text()));
    QCOMPARE(KeySlot::of(key), int(slot.toInteger()));
}

void TestCluster::everyKeyIsServedWhereTheMapSays()
{
    ClusterMap map;
    QVERIFY(readSlotMap(TestRedis::cluster().endpoint(), &map));
    QCOMPARE(map.masters().size(), 3);
    const QVector<int> counts = map.slotCounts();
    QCOMPARE(std::accumulate(counts.begin(), counts.end(), 0), KeySlot::slotCount);
    QSet<int> nodesUsed;
    for (int i = 0; i < 60; ++i) {
        const QByteArray key = ZsetKeys::freshRunKey() + QByteArray::number(i);
        RedisConnection connection;
        QVERIFY(openOnNodeOf(connection, key));
        // A read on the wrong node would answer MOVED.
        const RedisReply exists = connection.command({"EXISTS", key});
        QVERIFY2(!exists.isError(), qPrintable(exists.text()));
        QCOMPARE(connection.endpoint().port, map.masters()[map.masterOfKey(key)].port);
        nodesUsed.insert(connection.endpoint().port);
    }
    QCOMPARE(nodesUsed.size(), 3);
}

void TestCluster::runKeysShareASlotPerUser()
{
    const QByteArray run = ZsetKeys::freshRunKey();
    QCOMPARE(KeySlot::of(run), KeySlot::of(run + ":seq"));
    const QByteArray user = ZsetKeys::userOfRun(run, 7);
    QVERIFY(user.startsWith("zsetlab:run:{"));
    QVERIFY(user.endsWith(":u7}"));
    QCOMPARE(KeySlot::of(user), KeySlot::of(user + ":seq"));
    QSet<int> userSlots;
    for (int u = 0; u < 50; ++u)
        userSlots.insert(KeySlot::of(ZsetKeys::userOfRun(run, u)));
    QVERIFY2(userSlots.size() > 40, "the users' keys should spread over the slots");
    QCOMPARE(ZsetKeys::userOfRun(QByteArrayLiteral("zsetlab:limiter"), 3), QByteArray("zsetlab:limiter:u3"));
}

void TestCluster::limiterGivesTheSameTotalsAsOneServer_data()
{
    QTest::addColumn<QString>("id");
    for (const LimiterRef& limiter : LimiterCatalog::all())
        QTest::newRow(qPrintable(limiter->id)) << limiter->id;
}

void TestCluster::limiterGivesTheSameTotalsAsOneServer()
{
    QFETCH(QString, id);
    const BurstPlan plan = TestBursts::replayPlan(LimiterCatalog::builtin(id));

    QByteArray clusterKey;
    const BurstSummary single = TestBursts::runToTheEnd(TestRedis::endpoint(), plan);
    const BurstSummary cluster = TestBursts::runToTheEnd(TestRedis::cluster().endpoint(), plan, &clusterKey);
    VERIFY_SAME_TOTALS(cluster, single, plan);
    QCOMPARE(cluster.maxCount, single.maxCount);
    // The run deleted its keys on the node that holds them.
    RedisConnection node;
    QVERIFY(openOnNodeOf(node, clusterKey));
    QList<QByteArray> exists {"EXISTS"};
    exists << plan.limiter->store.keysFor(clusterKey);
    QCOMPARE(node.command(exists).toInteger(), 0LL);
}

void TestCluster::manyUsersGiveTheSameTotalsAsOneServer_data()
{
    limiterGivesTheSameTotalsAsOneServer_data();
}

void TestCluster::manyUsersGiveTheSameTotalsAsOneServer()
{
    QFETCH(QString, id);
    BurstPlan plan = TestBursts::replayPlan(LimiterCatalog::builtin(id));
    plan.users = 100;
    plan.requests = 3000; // 30 per user
    plan.limit = 5;
    // Groups of 400 at one `now`, 3 ms apart: each user has 4 requests per `now`.
    auto nows = std::make_shared<std::vector<qint64>>();
    for (int i = 0; i < plan.requests; ++i)
        nows->push_back((1'800'000'000'000 + (i / 400) * 3) * plan.nowUnitsPerMs());
    plan.replayNows = nows;

    QByteArray clusterKey;
    const BurstSummary single = TestBursts::runToTheEnd(TestRedis::endpoint(), plan);
    const BurstSummary cluster = TestBursts::runToTheEnd(TestRedis::cluster().endpoint(), plan, &clusterKey);
    VERIFY_SAME_TOTALS(cluster, single, plan);

    // User by user, as each limiter saw it and as Redis held it at the end.
    QCOMPARE(cluster.perUser.size(), plan.users);
    QCOMPARE(single.perUser.size(), plan.users);
    ClusterMap map;
    QVERIFY(readSlotMap(TestRedis::cluster().endpoint(), &map));
    for (int u = 0; u < plan.users; ++u) {
        const UserResult& a = single.perUser[u];
        const UserResult& b = cluster.perUser[u];
        QCOMPARE(b.key, ZsetKeys::userOfRun(clusterKey, u));
        QCOMPARE(b.sent, qint64(plan.requests / plan.users));
        QCOMPARE(b.stored, a.stored);
        QCOMPARE(b.overwritten, a.overwritten);
        QCOMPARE(b.admitted, a.admitted);
        QCOMPARE(b.admittedOverLimit, a.admittedOverLimit);
        QCOMPARE(b.finalCount, a.finalCount);
        QCOMPARE(b.membersAtEnd, a.membersAtEnd);
        if (id == QLatin1String("now")) // what the run says against what the user's ZSET held
            QCOMPARE(b.membersAtEnd, b.stored);
        const ClusterMap::Node master = map.masters().value(map.masterOfKey(b.key));
        QCOMPARE(b.node, QStringLiteral("%1:%2").arg(master.host).arg(master.port));
    }
    // Per node: every master served some users, and the rows add up to the run.
    const QVector<UserResult> nodes = cluster.perNode();
    QCOMPARE(nodes.size(), TestRedis::cluster().size());
    qint64 users = 0;
    qint64 overwritten = 0;
    qint64 beyond = 0;
    for (const UserResult& node : nodes) {
        QVERIFY(node.users > 0);
        users += node.users;
        overwritten += node.overwritten;
        beyond += node.admittedOverLimit;
    }
    QCOMPARE(users, qint64(plan.users));
    QCOMPARE(overwritten, cluster.overwritten);
    QCOMPARE(beyond, cluster.admittedOverLimit);
    // The run deleted every user's keys on the node that holds them.
    for (int u = 0; u < plan.users; u += 7) {
        RedisConnection node;
        QVERIFY(openOnNodeOf(node, cluster.perUser[u].key));
        QList<QByteArray> exists {"EXISTS"};
        exists << plan.limiter->store.keysFor(cluster.perUser[u].key);
        QCOMPARE(node.command(exists).toInteger(), 0LL);
    }
}

void TestCluster::aKeyWithoutAHashTagSaysHowToFixIt()
{
    // sequence's counter, KEYS[2] = KEYS[1] .. ":seq", is in another slot without a hash tag: the
    // run stops before its first call, whichever nodes serve the two slots.
    BurstPlan plan = TestBursts::replayPlan(LimiterCatalog::builtin("sequence"));
    plan.key = TestRedis::uniqueKey("no-tag");
    QVERIFY(KeySlot::of(plan.key) != KeySlot::of(plan.key + ":seq"));
    RedisConnection node;
    QVERIFY(openOnNodeOf(node, plan.key));
    const qint64 callsBefore = infoField(node, "commandstats", "cmdstat_evalsha");
    const BurstSummary summary = TestBursts::runToTheEnd(TestRedis::cluster().endpoint(), plan);
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Script);
    QVERIFY2(summary.failure.message.contains(QLatin1String("hash tag")), qPrintable(summary.failure.message));
    QVERIFY2(summary.failure.message.contains(QString::number(KeySlot::of(plan.key + ":seq"))),
             qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 0);
    QCOMPARE(infoField(node, "commandstats", "cmdstat_evalsha"), callsBefore);
    QCOMPARE(node.command({"EXISTS", plan.key}).toInteger(), 0LL);
    // With a hash tag the same limiter runs.
    plan.key = "zsetlab:{" + TestRedis::uniqueKey("tagged") + '}';
    plan.keepKey = false;
    const BurstSummary tagged = TestBursts::runToTheEnd(TestRedis::cluster().endpoint(), plan);
    QVERIFY2(!tagged.failure.isFailure(), qPrintable(tagged.failure.message));
    QCOMPARE(tagged.stored, qint64(plan.requests));
}

// Moves the slot of a key to another master the way redis-cli --cluster reshard moves a slot:
// IMPORTING on the target, MIGRATING on the source, MIGRATE of its keys (calls now get ASK from
// the source), then the slot given to the target on every node (calls now get MOVED).
struct SlotMove
{
    QByteArray slot;
    RedisConnection source;
    RedisConnection target;
    QByteArray targetId;

    bool begin(const QByteArray& key)
    {
        PrivateRedisCluster& cluster = TestRedis::cluster();
        slot = QByteArray::number(KeySlot::of(key));
        if (!openOnNodeOf(source, key))
            return false;
        for (int i = 0; i < cluster.size() && !target.isOpen(); ++i)
            if (cluster.port(i) != source.endpoint().port && !target.open(cluster.endpoint(i)))
                return false;
        targetId = nodeId(target);
        if (target.command({"CLUSTER", "SETSLOT", slot, "IMPORTING", nodeId(source)}).isError()
            || source.command({"CLUSTER", "SETSLOT", slot, "MIGRATING", targetId}).isError())
            return false;
        const RedisReply keys = source.command({"CLUSTER", "GETKEYSINSLOT", slot, "100"});
        if (keys.elements().size() != 1) // the run's ZSET, nothing else
            return false;
        const RedisReply migrated
            = source.command({"MIGRATE", "127.0.0.1", QByteArray::number(target.endpoint().port), "", "0", "5000",
                              "AUTH", cluster.password().toUtf8(), "KEYS", keys.elements()[0].bytes()});
        return migrated.text() == QLatin1String("OK");
    }
    bool finish()
    {
        PrivateRedisCluster& cluster = TestRedis::cluster();
        for (int i = 0; i < cluster.size(); ++i) {
            RedisConnection node;
            if (!node.open(cluster.endpoint(i))
                || node.command({"CLUSTER", "SETSLOT", slot, "NODE", targetId}).text() != QLatin1String("OK"))
                return false;
        }
        return true;
    }
};

// A slot on the move under a slow (sanitizer) build on a loaded machine: no call is given up.
ConnectOptions patient()
{
    ConnectOptions options;
    options.commandTimeout = std::chrono::seconds(10);
    return options;
}

BurstPlan reshardPlan(const char* pace, int requests)
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("request-id");
    plan.requests = requests;
    plan.connections = 3;
    plan.pipeline = 8;
    plan.windowMs = 600000;
    plan.keepKey = true;
    QString error;
    const bool parsed = Pacing::parse(QString::fromLatin1(pace), &plan.pacing, &error);
    Q_ASSERT(parsed);
    Q_UNUSED(parsed);
    return plan;
}

// Every request once: none lost to a redirect, none counted twice.
#define VERIFY_EACH_REQUEST_ONCE(summary, plan, move, key)                                                             \
    do {                                                                                                               \
        QVERIFY2(!(summary).failure.isFailure(), qPrintable((summary).failure.message));                               \
        QCOMPARE((summary).sent, qint64((plan).requests));                                                             \
        QCOMPARE((summary).errors, 0);                                                                                 \
        QCOMPARE((summary).stored, qint64((plan).requests));                                                           \
        QCOMPARE((summary).membersAtEnd, qint64((plan).requests));                                                     \
        QCOMPARE((move).target.command({"ZCARD", key}).toInteger(), qint64((plan).requests));                          \
    } while (false)

void TestCluster::reshardingMidBurstLosesNothing()
{
    // Calls go on all the time (about 2 s): some reach the source while the slot is half moved.
    const BurstPlan plan = reshardPlan("interval:100", 20000);
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(TestRedis::cluster().endpoint(), plan, patient()));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 1000, 30000);
    const QByteArray key = engine.key();
    SlotMove move;
    QVERIFY(openOnNodeOf(move.source, key));
    const qint64 asksBefore = infoField(move.source, "errorstats", "errorstat_ASK");
    move.source.close();
    QVERIFY(move.begin(key));
    const qint64 askingBefore = infoField(move.target, "commandstats", "cmdstat_asking");
    // Calls go on through ASK while the slot is half moved.
    const qint64 atMigrate = engine.log().finished();
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= atMigrate + 2000 || finished.count() == 1, 30000);
    QVERIFY2(finished.count() == 0, "the burst ended before the slot finished moving: make it longer");
    QVERIFY(move.finish());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);

    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    VERIFY_EACH_REQUEST_ONCE(summary, plan, move, key);
    QVERIFY2(infoField(move.source, "errorstats", "errorstat_ASK") > asksBefore, "no call was sent on by ASK");
    QVERIFY2(infoField(move.target, "commandstats", "cmdstat_asking") > askingBefore, "no call went through ASKING");
    QCOMPARE(move.target.command({"DEL", key}).toInteger(), 1LL);
}

void TestCluster::slotMovedBetweenBurstsIsFollowed()
{
    // Groups of 300 calls 3 s apart; the slot moves whole in a pause: the next calls get MOVED.
    const BurstPlan plan = reshardPlan("bursts:300@3000", 900);
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(TestRedis::cluster().endpoint(), plan, patient()));
    QElapsedTimer sinceStart;
    sinceStart.start();
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 300, 30000);
    const QByteArray key = engine.key();
    SlotMove move;
    QVERIFY(openOnNodeOf(move.source, key));
    const qint64 movedBefore = infoField(move.source, "errorstats", "errorstat_MOVED");
    move.source.close();
    QVERIFY(move.begin(key));
    QVERIFY(move.finish());
    // Done before the second group is due: its calls all reach the old node first.
    QVERIFY2(sinceStart.elapsed() < 2500, "the slot moved too late to be sure of MOVED: the machine is too slow");
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);

    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    VERIFY_EACH_REQUEST_ONCE(summary, plan, move, key);
    QVERIFY2(infoField(move.source, "errorstats", "errorstat_MOVED") > movedBefore, "no call was MOVED");
    QCOMPARE(move.target.command({"DEL", key}).toInteger(), 1LL);
}

void TestCluster::stopWhileTheSlotMovesEndsPromptly()
{
    // While the slot is half moved the lanes go back and forth between the two nodes (ASK, then
    // the slot map): Stop ends the burst there too, within its usual bound.
    const BurstPlan plan = reshardPlan("interval:100", 50000);
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(TestRedis::cluster().endpoint(), plan, patient()));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 1000, 30000);
    const QByteArray key = engine.key();
    SlotMove move;
    QVERIFY(move.begin(key));
    const qint64 atMigrate = engine.log().finished();
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= atMigrate + 1000, 30000);
    QElapsedTimer stopping;
    stopping.start();
    engine.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QVERIFY2(stopping.elapsed() < 3000, qPrintable(QStringLiteral("%1 ms to stop").arg(stopping.elapsed())));
    QVERIFY(move.finish());
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QVERIFY(summary.stopped);
    QCOMPARE(summary.errors, 0);
    QCOMPARE(summary.stored, summary.sent); // what was answered, once each
    QCOMPARE(move.target.command({"ZCARD", key}).toInteger(), summary.sent);
    QCOMPARE(move.target.command({"DEL", key}).toInteger(), 1LL);
}

void TestCluster::zsetReaderFollowsAMovedKey()
{
    // The ZSET panel's reader counts a key on its node, and again after the key's slot moved.
    const QByteArray key = "zsetlab:{reader-" + QByteArray::number(QDateTime::currentMSecsSinceEpoch()) + '}';
    RedisConnection node;
    QVERIFY(openOnNodeOf(node, key));
    QCOMPARE(node.command({"ZADD", key, "1", "a", "2", "b", "3", "c"}).toInteger(), 3LL);
    ZsetReader reader;
    reader.setEndpoint(TestRedis::cluster().endpoint(), {});
    QSignalSpy counted(&reader, &ZsetReader::countReady);
    QSignalSpy failed(&reader, &ZsetReader::failed);
    reader.setQuery({key, {}, {}, {}});
    reader.requestCount();
    QTRY_COMPARE_WITH_TIMEOUT(counted.count(), 1, 10000);
    QCOMPARE(counted.at(0).at(1).toLongLong(), 3LL);

    SlotMove move;
    QVERIFY(move.begin(key));
    QVERIFY(move.finish());
    reader.setQuery({key, {}, std::optional<double>(2.0), {}});
    reader.requestCount();
    QTRY_COMPARE_WITH_TIMEOUT(counted.count(), 2, 10000);
    QCOMPARE(counted.at(1).at(1).toLongLong(), 2LL);
    QCOMPARE(failed.count(), 0);
    QCOMPARE(move.target.command({"DEL", key}).toInteger(), 1LL);
}

void TestCluster::algorithmsCompareAlikeOnACluster()
{
    // zsetlab-cli algorithms: each algorithm's fresh key on its own master, the same decisions as
    // on one server for the same timestamps.
    ComparisonPlan plan;
    QString error;
    QVERIFY(Pacing::parse(QStringLiteral("bursts:20@1"), &plan.burst.pacing, &error));
    plan.burst.clock = ClockKind::Schedule;
    plan.burst.requests = 200;
    plan.burst.limit = 20;
    plan.burst.windowMs = 1000;
    plan.burst.pipeline = 64;
    plan.limiters = LimiterCatalog::algorithmIds();
    auto compare = [&plan](const RedisEndpoint& endpoint) {
        AlgorithmComparison comparison;
        QSignalSpy finished(&comparison, &AlgorithmComparison::finished);
        if (!comparison.start(endpoint, plan))
            qFatal("%s", qPrintable(comparison.planError()));
        if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 120000))
            qFatal("the comparison did not finish within 120 s");
        return finished.at(0).at(0).value<ComparisonResult>();
    };
    const ComparisonResult single = compare(TestRedis::endpoint());
    const ComparisonResult cluster = compare(TestRedis::cluster().endpoint());
    QVERIFY2(!cluster.failure.isFailure(), qPrintable(cluster.failure.message));
    QCOMPARE(cluster.algorithms.size(), plan.limiters.size());
    QSet<int> keySlots;
    for (int i = 0; i < cluster.algorithms.size(); ++i) {
        const AlgorithmTally& there = cluster.algorithms[i];
        const AlgorithmTally& here = single.algorithms[i];
        QCOMPARE(there.id, here.id);
        QCOMPARE(there.requests, qint64(plan.burst.requests));
        QCOMPARE(there.serverCalls, qint64(plan.burst.requests)); // counted on the key's own master
        QCOMPARE(there.admitted, here.admitted);
        QCOMPARE(there.admittedOverLimit, here.admittedOverLimit);
        QCOMPARE(there.rejectedUnderLimit, here.rejectedUnderLimit);
        keySlots.insert(KeySlot::of(there.runKey));
    }
    QVERIFY(keySlots.size() > 1);
    // Several users: each user's keys on their own master, the same decisions as on one server,
    // and every call counted by some master.
    plan.users = 7;
    const ComparisonResult usersHere = compare(TestRedis::endpoint());
    const ComparisonResult usersThere = compare(TestRedis::cluster().endpoint());
    QVERIFY2(!usersThere.failure.isFailure(), qPrintable(usersThere.failure.message));
    QCOMPARE(usersThere.algorithms.size(), plan.limiters.size());
    for (int i = 0; i < usersThere.algorithms.size(); ++i) {
        const AlgorithmTally& there = usersThere.algorithms[i];
        const AlgorithmTally& here = usersHere.algorithms[i];
        QCOMPARE(there.serverCalls, qint64(plan.burst.requests));
        QCOMPARE(there.admitted, here.admitted);
        QCOMPARE(there.admittedOverLimit, here.admittedOverLimit);
        QCOMPARE(there.rejectedUnderLimit, here.rejectedUnderLimit);
        QCOMPARE(there.keys, here.keys);
    }
}

void TestCluster::aKilledMasterFailsOnlyTheRunsItServed()
{
    // A cluster of its own: this one loses a master for good.
    PrivateRedisCluster cluster(3);
    QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
    ClusterMap map;
    QVERIFY(readSlotMap(cluster.endpoint(), &map));
    // Two keys served by two masters.
    QByteArray keys[2];
    for (int i = 0; keys[1].isEmpty() && i < 1000; ++i) {
        const QByteArray key = "zsetlab:{kill-" + QByteArray::number(i) + '}';
        if (keys[0].isEmpty())
            keys[0] = key;
        else if (map.masterOfKey(key) != map.masterOfKey(keys[0]))
            keys[1] = key;
    }
    QVERIFY(!keys[1].isEmpty());
    const ClusterMap::Node doomed = map.masters()[map.masterOfKey(keys[0])];
    int doomedIndex = -1;
    for (int i = 0; i < cluster.size(); ++i)
        if (cluster.port(i) == doomed.port)
            doomedIndex = i;
    QVERIFY(doomedIndex >= 0);
    // Start through a node that stays: the one that dies is named in no URL.
    const int seed = (doomedIndex + 1) % cluster.size();

    BurstPlan plan = reshardPlan("interval:200", 10000); // about 2 s each
    plan.keepKey = false;
    plan.reconnectForMs = 1500;
    BurstEngine engines[2];
    QSignalSpy finishedA(&engines[0], &BurstEngine::finished);
    QSignalSpy finishedB(&engines[1], &BurstEngine::finished);
    for (int e = 0; e < 2; ++e) {
        plan.key = keys[e];
        QVERIFY2(engines[e].start(cluster.endpoint(seed), plan), qPrintable(engines[e].planError()));
    }
    QTRY_VERIFY_WITH_TIMEOUT(engines[0].log().finished() >= 1000 && engines[1].log().finished() >= 1000, 30000);
    const qint64 pid = cluster.node(doomedIndex).serverPid();
    QVERIFY(pid > 0);
    QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
    QTRY_VERIFY_WITH_TIMEOUT(finishedA.count() == 1 && finishedB.count() == 1, 60000);

    const BurstSummary lost = finishedA.at(0).at(0).value<BurstSummary>();
    QCOMPARE(lost.failure.kind, BurstFailure::Kind::Connection);
    QVERIFY2(lost.failure.message.contains(QLatin1String("did not come back")), qPrintable(lost.failure.message));
    // It names the master that went, not the node the run was started through.
    QVERIFY2(lost.failure.message.contains(QStringLiteral("127.0.0.1:%1").arg(doomed.port)),
             qPrintable(lost.failure.message));
    qInfo("%s", qPrintable(lost.failure.message));
    QVERIFY(lost.sent < plan.requests);
    const BurstSummary other = finishedB.at(0).at(0).value<BurstSummary>();
    QVERIFY2(!other.failure.isFailure(), qPrintable(other.failure.message));
    QCOMPARE(other.sent, qint64(plan.requests));
    QCOMPARE(other.errors, 0);
    QCOMPARE(other.stored, qint64(plan.requests));
    // The run on the live master deleted its key there.
    RedisConnection live;
    QString error;
    QVERIFY(openForKey(live, cluster.endpoint(seed), keys[1], {}, &map, &error));
    QCOMPARE(live.command({"EXISTS", keys[1]}).toInteger(), 0LL);
}

void TestCluster::aKilledMasterFailsOnlyItsUsers()
{
    // One run, its users spread over the three masters of a cluster of its own; one master dies.
    PrivateRedisCluster cluster(3);
    QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
    BurstPlan plan = reshardPlan("interval:200", 12000); // about 2.4 s
    plan.keepKey = false;
    plan.users = 30;
    plan.reconnectForMs = 1500;
    const int seed = 0; // started through node 0; node 1 dies
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY2(engine.start(cluster.endpoint(seed), plan), qPrintable(engine.planError()));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 1500 || finished.count() == 1, 30000);
    QVERIFY2(finished.count() == 0, "the run ended before the master was killed: make it longer");
    const qint64 pid = cluster.node(1).serverPid();
    QVERIFY(pid > 0);
    QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);

    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, qint64(plan.requests)); // every request answered or failed with a reason
    const QString doomed = QStringLiteral("127.0.0.1:%1").arg(cluster.port(1));
    int doomedUsers = 0;
    for (const UserResult& user : summary.perUser) {
        QCOMPARE(user.sent, qint64(plan.requests / plan.users));
        if (user.node == doomed) {
            ++doomedUsers;
            QVERIFY2(user.errors > 0, qPrintable(QString::number(user.user)));
            QCOMPARE(user.stored + user.errors, user.sent);
        } else {
            QCOMPARE(user.errors, 0);
            QCOMPARE(user.stored, user.sent);
            QCOMPARE(user.membersAtEnd, user.sent); // read on its master when the run ended
        }
    }
    QVERIFY(doomedUsers > 0 && doomedUsers < plan.users);
    // The reason names the master that went.
    QVERIFY(!summary.errorMessages.isEmpty());
    bool named = false;
    for (const QString& message : summary.errorMessages)
        named = named || message.contains(doomed);
    QVERIFY2(named, qPrintable(summary.errorMessages.join(QLatin1Char('\n'))));
    qInfo("%s", qPrintable(summary.errorMessages.join(QLatin1Char('\n'))));
}

void TestCluster::doctorProbesOnAPrivateClusterFirst()
{
    ProbeSettings settings;
    settings.callsPerRate = 20;
    // A limiter whose keys share the hash tag of the key it is given: tried on a private cluster,
    // then on the given one, where it leaves nothing behind.
    ScriptProbe good(LimiterCatalog::builtin("sequence")->script, CallTemplate::zsetlabConvention(), settings);
    const ProbeReport report = good.run(TestRedis::cluster().endpoint());
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    QVERIFY(report.screened);
    QVERIFY(report.ranOnTarget);
    QVERIFY2(report.verdict.join(QLatin1Char(' ')).contains(QLatin1String("private Redis Cluster")),
             qPrintable(report.verdict.join(QLatin1Char('\n'))));
    QVERIFY(!report.keys.isEmpty());
    for (const QByteArray& key : report.keys) {
        RedisConnection node;
        QVERIFY(openOnNodeOf(node, key));
        QCOMPARE(node.command({"EXISTS", key}).toInteger(), 0LL);
    }

    // A script that counts in a key it was not given, in a slot of its own: it fails on the private
    // cluster as it would on the real one, which never sees it.
    const QByteArray global = "zsetlab:probe-global";
    const LimiterScript script = LimiterScript::fromSource(QStringLiteral("global.lua"),
                                                           "redis.call('INCR', '" + global
                                                               + "')\n"
                                                                 "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                                                                 "return redis.call('ZCARD', KEYS[1])\n");
    ScriptProbe bad(script, CallTemplate::zsetlabConvention(), settings);
    const ProbeReport refused = bad.run(TestRedis::cluster().endpoint());
    QCOMPARE(refused.failure, ProbeReport::Failure::Script);
    QVERIFY(!refused.ranOnTarget);
    QVERIFY2(refused.failureMessage.contains(QLatin1String("private Redis Cluster")),
             qPrintable(refused.failureMessage));
    // Whether or not one master happened to serve both slots.
    QVERIFY2(refused.failureMessage.contains(QLatin1String("a key in another slot")),
             qPrintable(refused.failureMessage));
    qInfo("%s", qPrintable(refused.failureMessage));
    RedisConnection node;
    QVERIFY(openOnNodeOf(node, global));
    QCOMPARE(node.command({"EXISTS", global}).toInteger(), 0LL);
}

void TestCluster::debuggerStepsOnTheKeysMaster()
{
    // A key that the node in the URL does not serve: the debugger follows it to its master.
    ClusterMap map;
    QVERIFY(readSlotMap(TestRedis::cluster().endpoint(), &map));
    QByteArray key;
    for (int i = 0; key.isEmpty() && i < 1000; ++i) {
        const QByteArray candidate = ZsetKeys::freshRunKey() + QByteArray::number(i);
        if (!map.serves(candidate, TestRedis::cluster().endpoint()))
            key = candidate;
    }
    QVERIFY(!key.isEmpty());
    RedisConnection node;
    QVERIFY(openOnNodeOf(node, key));
    const qint64 now = 1'710'000'000'000;
    ScriptRunner runner(LimiterCatalog::builtin("now")->script);
    QVERIFY(!runner.run(node, {key}, {QByteArray::number(now), "1000", "10", "first"}).isError());

    ScriptDebugger debugger;
    debugger.setServer(TestRedis::cluster().endpoint(), {});
    QSignalSpy stopped(&debugger, &ScriptDebugger::stopped);
    QSignalSpy finished(&debugger, &ScriptDebugger::finished);
    QSignalSpy failed(&debugger, &ScriptDebugger::failed);
    QVERIFY(debugger.start(LimiterCatalog::builtin("now")->script, key,
                           {QByteArray::number(now), "1000", "10", "second"}, ScriptDebugger::Mode::Forked));
    QTRY_VERIFY_WITH_TIMEOUT(stopped.count() == 1 || failed.count() == 1, 10000);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
    QCOMPARE(stopped.last().at(0).value<DebugStep>().zsetSize, 1); // the first call's member, on its master
    debugger.continueToEnd();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const auto reply = finished.last().at(1).value<RedisReply>();
    QCOMPARE(reply.elements().size(), size_t(3));
    QCOMPARE(reply.elements()[1].toInteger(), 0); // the second call in the millisecond overwrote
    QCOMPARE(node.command({"DEL", key}).toInteger(), 1LL);
}

void TestCluster::appSpreadsItsUsersOverTheMasters_data()
{
    QTest::addColumn<QString>("limiter");
    QTest::newRow("script") << QStringLiteral("now");
    QTest::newRow("pipeline from app code") << QStringLiteral("client-now");
}

void TestCluster::appSpreadsItsUsersOverTheMasters()
{
    QFETCH(QString, limiter);
    AppPlan plan;
    plan.limiter = limiter;
    plan.users = 12;
    plan.perMs = 2;
    plan.durationMs = 300;
    plan.windowMs = 600000; // the keys outlive the check
    plan.runKey = ZsetKeys::freshRunKey();
    plan.keepKeys = true;
    AppTraffic app;
    QSignalSpy finished(&app, &AppTraffic::finished);
    QVERIFY2(app.start(TestRedis::cluster().endpoint(), plan), qPrintable(app.planError()));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    const AppResult& result = app.result();
    QVERIFY2(!result.failure.isFailure(), qPrintable(result.failure.message));
    QSet<QString> masters;
    for (const AppKeyTally& tally : result.keys) {
        QVERIFY(tally.requests > 0);
        // What the app's replies said against what the user's key holds on its own master.
        RedisConnection node;
        QVERIFY(openOnNodeOf(node, tally.key));
        masters << node.endpoint().address();
        QCOMPARE(node.command({"ZCARD", tally.key}).toInteger(), tally.stored);
        QCOMPARE(tally.stored + tally.overwritten, tally.requests);
        QList<QByteArray> del {"DEL"};
        del << LimiterCatalog::builtin("now")->store.keysFor(tally.key);
        node.command(del);
    }
    QVERIFY2(masters.size() > 1, "the users' keys should spread over the masters");
}

void TestCluster::redisCliReshardMovesAUserWithoutLoss()
{
    // `redis-cli --cluster reshard` moves the lowest slots of the source first: user 0's key is
    // put in the lowest slot of a master, and one slot moves while 20 users fire.
    PrivateRedisCluster cluster(3);
    QVERIFY2(cluster.start(), qPrintable(cluster.errorString()));
    ClusterMap map;
    QVERIFY(readSlotMap(cluster.endpoint(), &map));
    const int from = map.masterOf(0); // the master of slot 0: its lowest slot is 0
    const int to = (from + 1) % int(map.masters().size());
    QByteArray runKey;
    for (int i = 0; runKey.isEmpty() && i < 1'000'000; ++i) {
        const QByteArray candidate = "zsetlab:{reshard-" + QByteArray::number(i) + '}';
        if (KeySlot::of(ZsetKeys::userOfRun(candidate, 0)) == 0)
            runKey = candidate;
    }
    QVERIFY(!runKey.isEmpty());
    const ClusterMap::Node source = map.masters()[from];
    const ClusterMap::Node target = map.masters()[to];

    BurstPlan plan = reshardPlan("interval:100", 30000); // about 3 s, user 0 every 2 ms
    plan.users = 20;
    plan.key = runKey;
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY2(engine.start(cluster.endpoint(), plan, patient()), qPrintable(engine.planError()));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 2000 || finished.count() == 1, 30000);
    QVERIFY2(finished.count() == 0, "the burst ended before the reshard: make it longer");
    QByteArray output;
    const bool resharded = cluster.runRedisCli(
        {QStringLiteral("--cluster"), QStringLiteral("reshard"), QStringLiteral("127.0.0.1:%1").arg(source.port),
         QStringLiteral("--cluster-from"), QString::fromLatin1(source.id), QStringLiteral("--cluster-to"),
         QString::fromLatin1(target.id), QStringLiteral("--cluster-slots"), QStringLiteral("1"),
         QStringLiteral("--cluster-yes")},
        std::chrono::seconds(30), &output);
    QVERIFY2(resharded, qPrintable(cluster.errorString() + QLatin1Char('\n') + QString::fromUtf8(output)));
    QVERIFY2(finished.count() == 0, "the burst ended during the reshard: make it longer");
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);

    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, qint64(plan.requests));
    QCOMPARE(summary.errors, 0);
    QCOMPARE(summary.stored, qint64(plan.requests)); // each request once: none lost, none twice
    const UserResult& moved = summary.perUser.at(0);
    QCOMPARE(moved.node, QStringLiteral("%1:%2").arg(target.host).arg(target.port));
    QCOMPARE(moved.stored, qint64(plan.requests / plan.users));
    QCOMPARE(moved.membersAtEnd, moved.stored); // ZCARD on its new master
    RedisConnection there;
    QVERIFY(there.open(ClusterMap::endpointOf(target, cluster.endpoint())));
    QCOMPARE(there.command({"ZCARD", moved.key}).toInteger(), moved.stored);
    RedisConnection was;
    QVERIFY(was.open(ClusterMap::endpointOf(source, cluster.endpoint())));
    QVERIFY2(infoField(was, "errorstats", "errorstat_MOVED") + infoField(was, "errorstats", "errorstat_ASK") > 0,
             "no call was redirected: the slot moved before or after the burst");
}

void TestCluster::watchSeesEveryMaster()
{
    // One key per master; the watch, started through one node, reads MONITOR on each.
    PrivateRedisCluster& cluster = TestRedis::cluster();
    ClusterMap map;
    QVERIFY(readSlotMap(cluster.endpoint(), &map));
    QVector<QByteArray> keys(map.masters().size());
    const QByteArray run = QByteArray::number(QDateTime::currentMSecsSinceEpoch());
    for (int i = 0; keys.contains(QByteArray()) && i < 1000; ++i) {
        const QByteArray key = "zsetlab:{watch-" + run + '-' + QByteArray::number(i) + '}';
        QByteArray& slot = keys[map.masterOfKey(key)];
        if (slot.isEmpty())
            slot = key;
    }
    QVERIFY(!keys.contains(QByteArray()));

    WatchSession session;
    WatchSession::Settings settings;
    settings.endpoint = cluster.endpoint();
    settings.patterns = {KeyPattern("zsetlab:{watch-" + run + "-*")};
    settings.duration = std::chrono::milliseconds(120000);
    settings.snapshotInterval = std::chrono::milliseconds(50);
    WatchSnapshot latest;
    connect(&session, &WatchSession::snapshotAvailable, this,
            [&](const WatchSnapshot& snapshot) { latest = snapshot; });
    QSignalSpy started(&session, &WatchSession::started);
    QSignalSpy finished(&session, &WatchSession::finished);
    QVERIFY(session.start(settings));
    QVERIFY(started.wait(20000));

    // The bug on two masters, a unique member on the third.
    QVector<BurstSummary> summaries;
    for (int k = 0; k < keys.size(); ++k) {
        BurstPlan plan = TestBursts::replayPlan(LimiterCatalog::builtin(k + 1 < keys.size() ? "now" : "request-id"));
        plan.key = keys[k];
        plan.keepKey = false;
        summaries.push_back(TestBursts::runToTheEnd(cluster.endpoint(), plan));
        QVERIFY2(!summaries.back().failure.isFailure(), qPrintable(summaries.back().failure.message));
    }
    auto zaddsOf = [&latest](const QByteArray& key) {
        for (const WatchedKey& watched : latest.keys)
            if (watched.key == key)
                return watched.zadds;
        return qint64(0);
    };
    QTRY_VERIFY_WITH_TIMEOUT(
        std::all_of(keys.begin(), keys.end(), [&](const QByteArray& key) { return zaddsOf(key) == 600; }), 30000);
    session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const WatchResult result = finished.at(0).at(0).value<WatchResult>();
    QCOMPARE(result.end, WatchResult::End::Stopped);
    QCOMPARE(int(result.snapshot.keys.size()), int(keys.size()));
    for (int k = 0; k < keys.size(); ++k) {
        const WatchedKey& watched
            = result.snapshot.keys[int(std::find_if(result.snapshot.keys.begin(), result.snapshot.keys.end(),
                                                    [&](const WatchedKey& w) { return w.key == keys[k]; })
                                       - result.snapshot.keys.begin())];
        QCOMPARE(watched.key, keys[k]);
        QCOMPARE(watched.requests, summaries[k].sent);
        QCOMPARE(watched.overwrites, summaries[k].overwritten);
    }
    QVERIFY(summaries.first().overwritten > 0);
    QCOMPARE(summaries.last().overwritten, 0);
}

void TestCluster::serverCommandStartsAndRemovesACluster()
{
    const QString cli = qEnvironmentVariable("ZSETLAB_CLI");
    if (cli.isEmpty())
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    for (const char* masters : {"2", "17", "three"}) {
        const CliResult refused
            = runCli({QStringLiteral("server"), QStringLiteral("--cluster"), QLatin1String(masters)});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains("from 3 to 16"), refused.err.constData());
    }
    QProcess owner;
    owner.start(cli, {QStringLiteral("server"), QStringLiteral("--cluster"), QStringLiteral("3")});
    QVERIFY(owner.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(owner.canReadLine(), 60000);
    const QString url = QString::fromUtf8(owner.readLine()).trimmed();
    RedisEndpoint endpoint;
    QString error;
    QVERIFY2(RedisEndpoint::parse(url, &endpoint, &error), qPrintable(url + QLatin1Char(' ') + error));
    QVERIFY(endpoint.isLocal());
    RedisConnection connection;
    QVERIFY2(connection.open(endpoint), qPrintable(connection.lastError().message));
    QCOMPARE(connection.server().mode, QStringLiteral("cluster"));
    QVERIFY(connection.command({"CLUSTER", "INFO"}).bytes().contains("cluster_known_nodes:3"));
    const qint64 pid = connection.server().processId;
    // The password keeps other local users out, and it is nowhere on a command line they can read.
    RedisEndpoint anonymous = endpoint;
    anonymous.password.clear();
    RedisConnection intruder;
    QVERIFY(!intruder.open(anonymous));
    QCOMPARE(intruder.lastError().kind, RedisError::Kind::PasswordRequired);
    for (const qint64 process : {pid, qint64(owner.processId())}) {
        QFile commandLine(QStringLiteral("/proc/%1/cmdline").arg(process));
        QVERIFY(commandLine.open(QIODevice::ReadOnly));
        QVERIFY2(!commandLine.readAll().contains(endpoint.password.toUtf8()), "the password is on a command line");
    }
    owner.terminate();
    QVERIFY(owner.waitForFinished(20000));
    QCOMPARE(owner.exitCode(), 0);
    QVERIFY2(!QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid)), "a node still runs after its owner ended");
    // Nothing listens now.
    RedisConnection after;
    QVERIFY(!after.open(endpoint));
}

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
