#include "burst/burstengine.h"
#include "burst/clientprofile.h"
#include "burst/clienttally.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "testredis.h"

#include <QtTest>

namespace {
BurstPlan planOf(const char* clients, ClockKind clock, int requests)
{
    BurstPlan plan;
    plan.clock = clock;
    plan.requests = requests;
    plan.windowMs = 60000;
    QString error;
    const bool parsed = parseClientProfiles(QString::fromLatin1(clients), &plan.clients, &error);
    Q_ASSERT_X(parsed, "planOf", qPrintable(error));
    Q_UNUSED(parsed);
    return plan;
}

qint64 sum(const QVector<ClientTally>& tallies, qint64 ClientTally::*field)
{
    qint64 total = 0;
    for (const ClientTally& tally : tallies)
        total += tally.*field;
    return total;
}
} // namespace

#define RUN_BURST(engine, plan, summary)                                                                               \
    do {                                                                                                               \
        QSignalSpy finishedSpy(&(engine), &BurstEngine::finished);                                                     \
        QVERIFY2((engine).start(TestRedis::endpoint(), plan), qPrintable((engine).planError()));                       \
        QTRY_COMPARE_WITH_TIMEOUT(finishedSpy.count(), 1, 120000);                                                     \
        (summary) = finishedSpy.at(0).at(0).value<BurstSummary>();                                                     \
    } while (false)

class TestClientProfile : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void parsesClientLists_data();
    void parsesClientLists();
    void refusesBadClients_data();
    void refusesBadClients();
    void oneClientReplaysThePlainSchedule();
    void mergesEachClientsOwnArrivals();
    void burstClientsShareTheRequests();
    void clientsCollideWhenTheirClocksAgree_data();
    void clientsCollideWhenTheirClocksAgree();
    void offsetAndDriftMoveAClientsNows();
    void pacedClientsKeepTheirOwnConnection();

private:
    RedisConnection m_redis;
};

void TestClientProfile::initTestCase()
{
    QVERIFY(TestRedis::connect(m_redis));
}

void TestClientProfile::parsesClientLists_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("normalised");
    QTest::newRow("three servers, one 40 ms ahead")
        << "rate=2;rate=2;rate=2,offset=40" << 3 << "rate=2;rate=2;rate=2,offset=40";
    QTest::newRow("a full pacing and a drift")
        << " pace=interval:500 , drift=-250 ; offset=-3" << 2 << "pace=interval:500,drift=-250;offset=-3";
    QTest::newRow("pace=poisson is a rate") << "pace=poisson:0.5" << 1 << "rate=0.5";
    QTest::newRow("a client with the plan's pacing") << "offset=0" << 1 << "offset=0";
}

void TestClientProfile::parsesClientLists()
{
    QFETCH(QString, text);
    QFETCH(int, count);
    QFETCH(QString, normalised);
    QVector<ClientProfile> clients;
    QString error;
    QVERIFY2(parseClientProfiles(text, &clients, &error), qPrintable(error));
    QCOMPARE(clients.size(), count);
    QCOMPARE(clientProfilesToString(clients), normalised);
    QVERIFY(validateClientProfiles(clients).isEmpty());
    QVector<ClientProfile> again;
    QVERIFY(parseClientProfiles(normalised, &again, &error));
    QCOMPARE(clientProfilesToString(again), normalised);
}

void TestClientProfile::refusesBadClients_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("nothing") << ""
                             << "client 1 is empty";
    QTest::newRow("an empty second client") << "rate=1;;rate=2"
                                            << "client 2 is empty";
    QTest::newRow("unknown field") << "speed=3"
                                   << "unknown field";
    QTest::newRow("rate not a number") << "rate=fast"
                                       << "rate=R";
    QTest::newRow("rate zero") << "rate=0"
                               << "rate=R";
    QTest::newRow("rate and pace") << "rate=1,pace=burst"
                                   << "once";
    QTest::newRow("bad pace") << "pace=steady"
                              << "pace:";
    QTest::newRow("offset not whole") << "offset=4.5"
                                      << "offset=MS";
    QTest::newRow("offset beyond a day") << "offset=90000000"
                                         << "offset=MS";
    QTest::newRow("drift too large") << "drift=200000"
                                     << "drift=PPM";
    QTest::newRow("no value") << "offset"
                              << "needs a value";
}

void TestClientProfile::refusesBadClients()
{
    QFETCH(QString, text);
    QFETCH(QString, messagePart);
    QVector<ClientProfile> clients;
    QString error;
    QVERIFY(!parseClientProfiles(text, &clients, &error));
    QVERIFY2(error.startsWith(QLatin1String("clients: ")), qPrintable(error));
    QVERIFY2(error.contains(messagePart), qPrintable(error));
}

void TestClientProfile::oneClientReplaysThePlainSchedule()
{
    BurstPlan plain;
    plain.requests = 2000;
    plain.seed = 11;
    QVERIFY(Pacing::parse(QStringLiteral("poisson:3"), &plain.pacing, nullptr));
    BurstPlan single = plain;
    single.clients = {ClientProfile()};
    std::vector<quint16> clientOf;
    QCOMPARE(single.scheduleMicros(&clientOf), plain.scheduleMicros());
    QCOMPARE(clientOf, std::vector<quint16>(2000, 0));
    QCOMPARE(single.connectionCount(), 1);
}

void TestClientProfile::mergesEachClientsOwnArrivals()
{
    BurstPlan plan = planOf("rate=2;rate=2;rate=4,offset=40", ClockKind::Schedule, 8000);
    QCOMPARE(plan.connectionCount(), 3);
    std::vector<quint16> clientOf;
    const std::vector<qint64> merged = plan.scheduleMicros(&clientOf);
    QCOMPARE(merged.size(), size_t(8000));
    QCOMPARE(clientOf.size(), merged.size());
    QVERIFY(std::is_sorted(merged.begin(), merged.end()));
    // Each client's requests are exactly its own schedule, as if it ran alone.
    for (int c = 0; c < 3; ++c) {
        std::vector<qint64> own;
        for (size_t i = 0; i < merged.size(); ++i) {
            if (clientOf[i] == c)
                own.push_back(merged[i]);
        }
        BurstPlan alone;
        alone.requests = int(own.size());
        alone.pacing = *plan.clients[c].pacing;
        alone.seed = plan.seed + quint64(c);
        QCOMPARE(own, alone.scheduleMicros());
    }
    // Equal rates, different arrivals; the client at 4 per ms sends about half of the total.
    const auto share = [&](int c) { return double(std::count(clientOf.begin(), clientOf.end(), c)) / 8000.0; };
    QVERIFY2(std::abs(share(2) - 0.5) < 0.03, qPrintable(QString::number(share(2))));
    QVERIFY2(std::abs(share(0) - share(1)) < 0.03, qPrintable(QString::number(share(0) - share(1))));
}

void TestClientProfile::burstClientsShareTheRequests()
{
    BurstPlan plan = planOf("pace=burst;pace=burst;pace=burst", ClockKind::Frozen, 9);
    std::vector<quint16> clientOf;
    QCOMPARE(plan.scheduleMicros(&clientOf), std::vector<qint64>(9, 0));
    QCOMPARE(clientOf, (std::vector<quint16> {0, 1, 2, 0, 1, 2, 0, 1, 2}));
    QVERIFY(!plan.hasPacedArrivals());
}

void TestClientProfile::clientsCollideWhenTheirClocksAgree_data()
{
    QTest::addColumn<QString>("clients");
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<qint64>("acrossClients");
    // Two servers at 0.1 per ms (one request every 10 ms each), 200 requests in all.
    QTest::newRow("same clock: each millisecond is written by both")
        << "pace=interval:10000;pace=interval:10000" << QStringLiteral("now") << qint64(100);
    QTest::newRow("5 ms apart: never the same millisecond")
        << "pace=interval:10000;pace=interval:10000,offset=5" << QStringLiteral("now") << qint64(0);
    QTest::newRow("same clock, unique members: no collision")
        << "pace=interval:10000;pace=interval:10000" << QStringLiteral("request-id") << qint64(0);
}

void TestClientProfile::clientsCollideWhenTheirClocksAgree()
{
    QFETCH(QString, clients);
    QFETCH(QString, strategy);
    QFETCH(qint64, acrossClients);
    BurstPlan plan = planOf(clients.toLatin1().constData(), ClockKind::Schedule, 200);
    plan.limiter = LimiterCatalog::builtin(strategy);
    BurstEngine engine;
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 200);
    QCOMPARE(summary.overwritten, acrossClients);
    QCOMPARE(summary.stored, 200 - acrossClients);

    const QVector<ClientTally> tallies = ClientTally::fromLog(engine.log(), plan);
    QCOMPARE(tallies.size(), 2);
    QCOMPARE(tallies[0].sent, 100);
    QCOMPARE(tallies[1].sent, 100);
    // Whichever server's request reached Redis first created the member: every overwrite is one
    // server overwriting the other's.
    QCOMPARE(sum(tallies, &ClientTally::overwroteOtherClient), acrossClients);
    QCOMPARE(sum(tallies, &ClientTally::overwritten), acrossClients);
    QCOMPARE(tallies[1].toJson().value(QLatin1String("client")).toInt(), 2);
    QVERIFY(!engine.key().isEmpty());
    QCOMPARE(m_redis.command({"EXISTS", engine.key()}).toInteger(), 0LL); // keepKey is false
}

void TestClientProfile::offsetAndDriftMoveAClientsNows()
{
    // Server 2 runs 40 ms ahead and gains 10 % (100 us per ms).
    BurstPlan plan = planOf("pace=interval:1000;pace=interval:1000,offset=40,drift=100000", ClockKind::Schedule, 400);
    BurstEngine engine;
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    const RequestLog& log = engine.log();
    const qint64 start = log.now(0);
    for (int i = 0; i < log.size(); ++i) {
        const qint64 elapsedMs = i / 2; // one request per ms per server, in turns
        QCOMPARE(log.connection(i), i % 2);
        const qint64 expected = log.connection(i) == 0 ? start + elapsedMs : start + (elapsedMs * 11) / 10 + 40;
        QCOMPARE(log.now(i), expected);
    }
}

void TestClientProfile::pacedClientsKeepTheirOwnConnection()
{
    // Real pacing on the wall clock: each server sends on its own connection when its requests
    // are due, whatever the other server does.
    BurstPlan plan = planOf("rate=2;pace=interval:1000,offset=5;rate=1,offset=-5", ClockKind::SystemMs, 600);
    plan.limiter = LimiterCatalog::builtin("sequence");
    std::vector<quint16> clientOf;
    plan.scheduleMicros(&clientOf);
    BurstEngine engine;
    BurstSummary summary;
    RUN_BURST(engine, plan, summary);
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 600);
    QCOMPARE(summary.stored, 600);
    const RequestLog& log = engine.log();
    for (int i = 0; i < log.size(); ++i)
        QCOMPARE(log.connection(i), int(clientOf[size_t(i)]));
    ZsetKeys::deleteRunKeys(m_redis, engine.key());
}

QTEST_GUILESS_MAIN(TestClientProfile)
#include "tst_clientprofile.moc"
