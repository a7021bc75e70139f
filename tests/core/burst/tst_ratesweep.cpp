#include "burst/ratesweep.h"
#include "limiters/limitercatalog.h"
#include "testredis.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QtTest>

#include <cmath>

namespace {
SweepPlan sweepOf(const QString& strategy, SweepPacing pacing, int requests)
{
    SweepPlan plan;
    plan.pacing = pacing;
    plan.burst.limiter = LimiterCatalog::builtin(strategy);
    plan.burst.requests = requests;
    plan.burst.seed = 7;
    return plan;
}
} // namespace

// Runs a sweep to its end on the test server.
#define RUN_SWEEP(sweep, plan)                                                                                         \
    do {                                                                                                               \
        QSignalSpy finishedSpy(&(sweep), &RateSweep::finished);                                                        \
        QVERIFY2((sweep).start(TestRedis::endpoint(), plan), qPrintable((sweep).planError()));                         \
        QTRY_COMPARE_WITH_TIMEOUT(finishedSpy.count(), 1, 120000);                                                     \
    } while (false)

class TestRateSweep : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void theoryFollowsTheCollisionArithmetic_data();
    void theoryFollowsTheCollisionArithmetic();
    void parsesRates_data();
    void parsesRates();
    void refusesPlansWithoutATheory_data();
    void refusesPlansWithoutATheory();
    void scheduleClockMatchesTheTheory_data();
    void scheduleClockMatchesTheTheory();
    void countsAdmissionsBeyondTheLimit_data();
    void countsAdmissionsBeyondTheLimit();
    void deletesTheKeyOfEveryPoint();
    void stopLeavesOutThePointCutShort();

private:
    RedisConnection m_redis;
};

void TestRateSweep::initTestCase()
{
    QVERIFY(TestRedis::connect(m_redis));
}

void TestRateSweep::theoryFollowsTheCollisionArithmetic_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<SweepPacing>("pacing");
    QTest::addColumn<double>("rate");
    QTest::addColumn<double>("percent");
    // The figures of FACTS.md, "Collision arithmetic".
    const QString now = QStringLiteral("now");
    QTest::newRow("poisson 0.1 per ms") << now << SweepPacing::Poisson << 0.1 << 95.2;
    QTest::newRow("poisson 0.5 per ms") << now << SweepPacing::Poisson << 0.5 << 78.7;
    QTest::newRow("poisson 1 per ms") << now << SweepPacing::Poisson << 1.0 << 63.2;
    QTest::newRow("poisson 2 per ms") << now << SweepPacing::Poisson << 2.0 << 43.2;
    QTest::newRow("poisson 5 per ms") << now << SweepPacing::Poisson << 5.0 << 19.9;
    QTest::newRow("poisson 10 per ms") << now << SweepPacing::Poisson << 10.0 << 10.0;
    QTest::newRow("poisson 30 per ms") << now << SweepPacing::Poisson << 30.0 << 3.3;
    QTest::newRow("even every 10 ms: one per millisecond") << now << SweepPacing::Even << 0.1 << 100.0;
    QTest::newRow("even every ms") << now << SweepPacing::Even << 1.0 << 100.0;
    QTest::newRow("even every 0.25 ms: d") << now << SweepPacing::Even << 4.0 << 25.0;
    QTest::newRow("request-id is unique at any rate")
        << QStringLiteral("request-id") << SweepPacing::Poisson << 30.0 << 100.0;
    QTest::newRow("sequence is unique at any rate") << QStringLiteral("sequence") << SweepPacing::Even << 30.0 << 100.0;
}

void TestRateSweep::theoryFollowsTheCollisionArithmetic()
{
    QFETCH(QString, strategy);
    QFETCH(SweepPacing, pacing);
    QFETCH(double, rate);
    QFETCH(double, percent);
    const double theory = 100.0 * theoryStoredFraction(*LimiterCatalog::builtin(strategy), pacing, rate);
    QVERIFY2(std::abs(theory - percent) < 0.05, qPrintable(QString::number(theory)));
    const LimiterRef custom = LimiterCatalog::custom(LimiterScript::fromSource(QStringLiteral("mine.lua"), "return 1"));
    QVERIFY(std::isnan(theoryStoredFraction(*custom, pacing, rate)));
}

void TestRateSweep::parsesRates_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("count");
    QTest::newRow("commas") << "0.1,1,10" << 3;
    QTest::newRow("spaces and commas") << " 0.5, 2  30 " << 3;
    QTest::newRow("one rate") << "4" << 1;
    QTest::newRow("not a number") << "fast" << -1;
    QTest::newRow("zero") << "0,1" << -1;
    QTest::newRow("too fast") << "5000" << -1;
    QTest::newRow("nothing") << " , " << -1;
}

void TestRateSweep::parsesRates()
{
    QFETCH(QString, text);
    QFETCH(int, count);
    QVector<double> rates;
    QString error;
    QCOMPARE(SweepPlan::parseRates(text, &rates, &error), count > 0);
    if (count > 0)
        QCOMPARE(rates.size(), count);
    else
        QVERIFY2(error.startsWith(QLatin1String("rates:")), qPrintable(error));
}

void TestRateSweep::refusesPlansWithoutATheory_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("messageStart");
    QTest::newRow("no rates") << "no rates"
                              << "rates:";
    QTest::newRow("rate zero") << "rate zero"
                               << "rates:";
    QTest::newRow("frozen clock") << "frozen"
                                  << "clock:";
    QTest::newRow("microsecond clock") << "system-us"
                                       << "clock:";
    QTest::newRow("a shared key") << "key"
                                  << "key:";
    QTest::newRow("clients") << "clients"
                             << "a sweep";
    QTest::newRow("no requests") << "requests"
                                 << "requests";
}

void TestRateSweep::refusesPlansWithoutATheory()
{
    QFETCH(QString, change);
    QFETCH(QString, messageStart);
    SweepPlan plan;
    QVERIFY(plan.validate().isEmpty());
    if (change == QLatin1String("no rates"))
        plan.ratesPerMs.clear();
    else if (change == QLatin1String("rate zero"))
        plan.ratesPerMs = {1, 0};
    else if (change == QLatin1String("frozen"))
        plan.burst.clock = ClockKind::Frozen;
    else if (change == QLatin1String("system-us"))
        plan.burst.clock = ClockKind::SystemUs;
    else if (change == QLatin1String("key"))
        plan.burst.key = "zsetlab:sweep";
    else if (change == QLatin1String("clients"))
        plan.burst.clients = {ClientProfile(), ClientProfile()};
    else
        plan.burst.requests = 0;
    const QString error = plan.validate();
    QVERIFY2(error.startsWith(messageStart), qPrintable(error));
    RateSweep sweep;
    QVERIFY(!sweep.start(TestRedis::endpoint(), plan));
    QCOMPARE(sweep.planError(), error);
    QVERIFY(!sweep.isRunning());
}

void TestRateSweep::scheduleClockMatchesTheTheory_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<SweepPacing>("pacing");
    QTest::newRow("now, poisson arrivals: (1 - e^-L) / L") << QStringLiteral("now") << SweepPacing::Poisson;
    QTest::newRow("now, even arrivals: d") << QStringLiteral("now") << SweepPacing::Even;
    QTest::newRow("request-id, poisson arrivals: 100 %") << QStringLiteral("request-id") << SweepPacing::Poisson;
    QTest::newRow("sequence, even arrivals: 100 %") << QStringLiteral("sequence") << SweepPacing::Even;
}

void TestRateSweep::scheduleClockMatchesTheTheory()
{
    QFETCH(QString, strategy);
    QFETCH(SweepPacing, pacing);
    const SweepPlan plan = sweepOf(strategy, pacing, 5000);
    QCOMPARE(plan.ratesPerMs.front(), 0.1);
    QCOMPARE(plan.ratesPerMs.back(), 30.0);
    RateSweep sweep;
    QSignalSpy started(&sweep, &RateSweep::pointStarted);
    QSignalSpy measured(&sweep, &RateSweep::pointFinished);
    QSignalSpy failed(&sweep, &RateSweep::failed);
    RUN_SWEEP(sweep, plan);
    QCOMPARE(failed.count(), 0);
    QVERIFY(!sweep.isRunning());
    QCOMPARE(started.count(), plan.ratesPerMs.size());
    QCOMPARE(measured.count(), plan.ratesPerMs.size());
    QCOMPARE(sweep.points().size(), plan.ratesPerMs.size());
    for (int i = 0; i < sweep.points().size(); ++i) {
        const SweepPoint& point = sweep.points()[i];
        QCOMPARE(measured.at(i).at(0).value<SweepPoint>().stored, point.stored);
        QCOMPARE(point.index, i);
        QCOMPARE(point.ratePerMs, plan.ratesPerMs[i]);
        QCOMPARE(point.sent, 5000);
        QCOMPARE(point.errors, 0);
        QCOMPARE(point.stored + point.overwritten, point.sent);
        const QString figures = QStringLiteral("rate %1: stored %2 %, theory %3 %")
                                    .arg(point.ratePerMs)
                                    .arg(100 * point.storedFraction())
                                    .arg(100 * point.theoryFraction);
        QVERIFY2(std::abs(point.differencePoints()) <= 2.0, qPrintable(figures));
        // The schedule clock puts the arrivals on the timeline at the rate asked for.
        QVERIFY2(std::abs(point.timelineRatePerMs / point.ratePerMs - 1) < 0.1,
                 qPrintable(QString::number(point.timelineRatePerMs)));
        const QJsonObject json = point.toJson();
        for (const char* key :
             {"rate_per_ms", "sent", "stored", "stored_fraction", "theory_fraction", "admitted_over_limit"})
            QVERIFY2(json.value(QLatin1String(key)).isDouble(), key);
    }
    const QJsonObject json = sweep.result().toJson();
    QCOMPARE(json.value(QLatin1String("points")).toArray().size(), plan.ratesPerMs.size());
    QCOMPARE(json.value(QLatin1String("server_version")).toString(), m_redis.server().version);
}

void TestRateSweep::countsAdmissionsBeyondTheLimit_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<bool>("beyond");
    QTest::newRow("now lets requests through beyond the limit") << QStringLiteral("now") << true;
    QTest::newRow("request-id holds the limit") << QStringLiteral("request-id") << false;
}

void TestRateSweep::countsAdmissionsBeyondTheLimit()
{
    QFETCH(QString, strategy);
    QFETCH(bool, beyond);
    SweepPlan plan = sweepOf(strategy, SweepPacing::Poisson, 2000);
    plan.ratesPerMs = {0.1, 10};
    plan.burst.windowMs = 40;
    plan.burst.limit = 50;
    RateSweep sweep;
    RUN_SWEEP(sweep, plan);
    QCOMPARE(sweep.points().size(), 2);
    // At 0.1 per ms about 4 requests share a 40 ms window: never over 50.
    QCOMPARE(sweep.points()[0].admittedOverLimit, 0);
    // At 10 per ms about 400 do, yet `now` keeps at most 40 members (one per millisecond): the
    // limiter counts 40 or fewer and admits nearly all of them.
    const SweepPoint& dense = sweep.points()[1];
    QCOMPARE(dense.admittedOverLimit > 0, beyond);
    if (beyond)
        QVERIFY2(dense.admittedOverLimitFraction() > 0.9,
                 qPrintable(QString::number(dense.admittedOverLimitFraction())));
    QVERIFY(sweep.result().toText().contains(QLatin1String("over limit %")));
}

void TestRateSweep::deletesTheKeyOfEveryPoint()
{
    SweepPlan plan = sweepOf(QStringLiteral("sequence"), SweepPacing::Even, 200);
    plan.ratesPerMs = {1, 5, 20};
    RateSweep sweep;
    QList<QByteArray> keys;
    connect(&sweep, &RateSweep::pointStarted, this, [&] { keys << sweep.engine().key(); });
    RUN_SWEEP(sweep, plan);
    QCOMPARE(keys.size(), 3);
    QCOMPARE(QSet<QByteArray>(keys.begin(), keys.end()).size(), 3);
    for (const QByteArray& key : keys) {
        QVERIFY(key.startsWith("zsetlab:"));
        QCOMPARE(m_redis.command({"EXISTS", key, key + ":seq"}).toInteger(), 0LL);
    }
}

void TestRateSweep::stopLeavesOutThePointCutShort()
{
    // Real pacing at 0.5 per ms: the second point would take 20 s.
    SweepPlan plan = sweepOf(QStringLiteral("now"), SweepPacing::Poisson, 10000);
    plan.burst.clock = ClockKind::SystemMs;
    plan.ratesPerMs = {30, 0.5, 1};
    RateSweep sweep;
    QSignalSpy measured(&sweep, &RateSweep::pointFinished);
    QSignalSpy finished(&sweep, &RateSweep::finished);
    QVERIFY(sweep.start(TestRedis::endpoint(), plan));
    QTRY_COMPARE_WITH_TIMEOUT(measured.count(), 1, 30000);
    QTRY_VERIFY_WITH_TIMEOUT(sweep.engine().log().finished() >= 50, 20000);
    QElapsedTimer clock;
    clock.start();
    sweep.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY(!sweep.isRunning());
    QVERIFY(sweep.result().stopped);
    QVERIFY(!sweep.result().failure.isFailure());
    QCOMPARE(sweep.points().size(), 1);
    QCOMPARE(sweep.points()[0].ratePerMs, 30.0);
    QCOMPARE(measured.count(), 1);
}

QTEST_GUILESS_MAIN(TestRateSweep)
#include "tst_ratesweep.moc"
