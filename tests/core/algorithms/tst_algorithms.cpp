#include "algorithms/algorithmcomparison.h"
#include "algorithms/slidingwindowtruth.h"
#include "cliprocess.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "sourcetree.h"
#include "testredis.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

// The limiter algorithms on the same traffic, on a real server: the textbook behaviours each is
// known for, against an exact sliding log of the same timestamps.
class TestAlgorithms : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void truthIsAnExactSlidingLogOfAdmissions();
    void fixedWindowAdmitsTwiceTheLimitAcrossABoundary();
    void exactLogsKeepTheLimitInEveryWindow_data();
    void exactLogsKeepTheLimitInEveryWindow();
    void slidingLogNowGoesOverTheLimitInOneMillisecond();
    void rateLimitersKeepConstantMemoryWhileTheLogGrows();
    void usersEachHaveTheirOwnKeysAndLimit();
    void keysAreGoneAfterTheComparison();
    void commandLineJsonMatchesWhatRedisHolds();
    void theBoundaryScenarioShowsTheFixedWindowsDouble();
    void commandLineRefusesBadInput_data();
    void commandLineRefusesBadInput();

private:
    ComparisonResult compare(const ComparisonPlan& plan);
    static ComparisonPlan planOf(const QString& pace, int requests, qint64 limit, const QStringList& limiters);
    static const AlgorithmTally* tallyOf(const ComparisonResult& result, const char* id);
    RedisConnection m_redis;
};

void TestAlgorithms::initTestCase()
{
    QVERIFY(TestRedis::connect(m_redis));
    QCOMPARE(LimiterCatalog::algorithmIds(),
             QStringList({QStringLiteral("fixed-window"), QStringLiteral("sliding-log"),
                          QStringLiteral("sliding-log-now"), QStringLiteral("sliding-counter"),
                          QStringLiteral("token-bucket"), QStringLiteral("gcra"), QStringLiteral("list-log")}));
}

ComparisonPlan TestAlgorithms::planOf(const QString& pace, int requests, qint64 limit, const QStringList& limiters)
{
    ComparisonPlan plan;
    QString error;
    if (pace == QLatin1String("frozen"))
        plan.burst.clock = ClockKind::Frozen;
    else if (!Pacing::parse(pace, &plan.burst.pacing, &error))
        qWarning("%s", qPrintable(error));
    if (plan.burst.clock != ClockKind::Frozen)
        plan.burst.clock = ClockKind::Schedule;
    plan.burst.requests = requests;
    plan.burst.limit = limit;
    plan.burst.windowMs = 1000;
    plan.burst.pipeline = 64;
    plan.limiters = limiters;
    return plan;
}

ComparisonResult TestAlgorithms::compare(const ComparisonPlan& plan)
{
    AlgorithmComparison comparison;
    QSignalSpy finished(&comparison, &AlgorithmComparison::finished);
    QSignalSpy tallies(&comparison, &AlgorithmComparison::algorithmFinished);
    if (!comparison.start(TestRedis::endpoint(), plan)) {
        qWarning("%s", qPrintable(comparison.planError()));
        return {};
    }
    if (!QTest::qWaitFor([&finished] { return finished.count() == 1; }, 120000))
        return {};
    ComparisonResult result = finished.at(0).at(0).value<ComparisonResult>();
    if (tallies.count() != result.algorithms.size())
        qWarning("algorithmFinished came %d times for %d algorithms", int(tallies.count()),
                 int(result.algorithms.size()));
    return result;
}

const AlgorithmTally* TestAlgorithms::tallyOf(const ComparisonResult& result, const char* id)
{
    for (const AlgorithmTally& tally : result.algorithms) {
        if (tally.id == QLatin1String(id))
            return &tally;
    }
    return nullptr;
}

void TestAlgorithms::truthIsAnExactSlidingLogOfAdmissions()
{
    // Window 10, limit 2: t=0 and t=1 admitted, t=5 refused (two in (-5, 5]); t=10 admitted (0 has
    // left (0, 10], 1 has not); t=11 admitted (1 has left); t=12 refused.
    SlidingWindowTruth truth(10, 2);
    QVERIFY(truth.admit(0));
    QVERIFY(truth.admit(1));
    QVERIFY(!truth.admit(5));
    QVERIFY(truth.admit(10));
    QVERIFY(truth.admit(11));
    QVERIFY(!truth.admit(12));
    QCOMPARE(truth.inWindow(), 2LL);
}

void TestAlgorithms::fixedWindowAdmitsTwiceTheLimitAcrossABoundary()
{
    // 20 requests at the last millisecond of a window, 20 at the first of the next.
    const ComparisonPlan plan = planOf(QStringLiteral("bursts:20@1"), 40, 20,
                                       {QStringLiteral("fixed-window"), QStringLiteral("sliding-log")});
    QCOMPARE(plan.timestamps(999).front() % 1000, 999LL);
    QCOMPARE(plan.timestamps(999).back() % 1000, 0LL);
    const ComparisonResult result = compare(plan);
    QVERIFY2(!result.failure.isFailure(), qPrintable(result.failure.message));
    const AlgorithmTally* fixed = tallyOf(result, "fixed-window");
    QVERIFY(fixed);
    QCOMPARE(fixed->requests, 40LL);
    QCOMPARE(fixed->truthAdmitted, 20LL);
    QCOMPARE(fixed->admitted, 40LL); // 2 x limit within 2 ms
    QCOMPARE(fixed->admittedOverLimit, 20LL);
    QCOMPARE(fixed->rejectedUnderLimit, 0LL);
    const AlgorithmTally* log = tallyOf(result, "sliding-log");
    QVERIFY(log);
    QCOMPARE(log->admitted, 20LL);
    QCOMPARE(log->admittedOverLimit, 0LL);
}

void TestAlgorithms::exactLogsKeepTheLimitInEveryWindow_data()
{
    QTest::addColumn<QString>("pace");
    QTest::addColumn<int>("requests");
    QTest::addColumn<int>("limit");
    QTest::newRow("boundary bursts") << QStringLiteral("bursts:50@1") << 200 << 50;
    QTest::newRow("steady poisson, 2 per ms") << QStringLiteral("poisson:2") << 5000 << 500;
    QTest::newRow("bursts of 30 every 100 ms") << QStringLiteral("bursts:30@100") << 900 << 100;
    QTest::newRow("one every ms, limit 7") << QStringLiteral("interval:1000") << 3000 << 7;
}

void TestAlgorithms::exactLogsKeepTheLimitInEveryWindow()
{
    QFETCH(QString, pace);
    QFETCH(int, requests);
    QFETCH(int, limit);
    const ComparisonResult result
        = compare(planOf(pace, requests, limit, {QStringLiteral("sliding-log"), QStringLiteral("list-log")}));
    QVERIFY2(!result.failure.isFailure(), qPrintable(result.failure.message));
    QCOMPARE(result.algorithms.size(), 2);
    for (const AlgorithmTally& tally : result.algorithms) {
        QCOMPARE(tally.requests, qint64(requests));
        QVERIFY2(tally.admitted < requests, qPrintable(tally.id)); // the limit bit
        QCOMPARE(tally.admitted, tally.truthAdmitted);
        QCOMPARE(tally.admittedOverLimit, 0LL);
        QCOMPARE(tally.rejectedUnderLimit, 0LL);
    }
}

void TestAlgorithms::slidingLogNowGoesOverTheLimitInOneMillisecond()
{
    const ComparisonResult result = compare(
        planOf(QStringLiteral("frozen"), 100, 10, {QStringLiteral("sliding-log-now"), QStringLiteral("sliding-log")}));
    QVERIFY2(!result.failure.isFailure(), qPrintable(result.failure.message));
    const AlgorithmTally* now = tallyOf(result, "sliding-log-now");
    QVERIFY(now);
    QCOMPARE(now->admitted, 100LL); // one member for the whole millisecond: the count stays at 1
    QCOMPARE(now->admittedOverLimit, 90LL);
    QCOMPARE(tallyOf(result, "sliding-log")->admitted, 10LL);
}

void TestAlgorithms::rateLimitersKeepConstantMemoryWhileTheLogGrows()
{
    // Every request admitted (a limit above the traffic): the log holds each one in the window.
    const QStringList limiters {QStringLiteral("sliding-log"), QStringLiteral("gcra"), QStringLiteral("token-bucket")};
    ComparisonPlan light = planOf(QStringLiteral("interval:1000"), 100, 100'000, limiters);
    ComparisonPlan heavy = planOf(QStringLiteral("interval:100"), 5000, 100'000, limiters);
    light.burst.windowMs = heavy.burst.windowMs = 60'000;
    const ComparisonResult few = compare(light);
    const ComparisonResult many = compare(heavy);
    QVERIFY2(!few.failure.isFailure(), qPrintable(few.failure.message));
    QVERIFY2(!many.failure.isFailure(), qPrintable(many.failure.message));
    for (const char* id : {"gcra", "token-bucket"}) {
        QVERIFY(tallyOf(few, id) && tallyOf(many, id));
        QVERIFY2(tallyOf(few, id)->memoryBytesPerKey > 0, id);
        QCOMPARE(tallyOf(many, id)->memoryBytesPerKey, tallyOf(few, id)->memoryBytesPerKey);
        QCOMPARE(tallyOf(many, id)->keys, 1);
    }
    const AlgorithmTally* logFew = tallyOf(few, "sliding-log");
    const AlgorithmTally* logMany = tallyOf(many, "sliding-log");
    QCOMPARE(logMany->admitted, 5000LL);
    // 50 times the members: well over 20 times the bytes, and tens of bytes per member.
    QVERIFY2(logMany->memoryBytesPerKey > 20 * logFew->memoryBytesPerKey,
             qPrintable(QStringLiteral("%1 vs %2").arg(logMany->memoryBytesPerKey).arg(logFew->memoryBytesPerKey)));
    QVERIFY(logMany->memoryBytesPerKey / 5000 > 20);
    QVERIFY(logMany->memoryBytesPerKey > 100 * tallyOf(many, "gcra")->memoryBytesPerKey);
    // The server's own time per call was read from INFO commandstats.
    QCOMPARE(logMany->serverCalls, 5000LL);
    QVERIFY(logMany->serverUsecPerCall > 0);
}

void TestAlgorithms::usersEachHaveTheirOwnKeysAndLimit()
{
    // 4 users, one burst of 40 in one millisecond: 10 each, a limit of 5 each.
    ComparisonPlan plan = planOf(QStringLiteral("frozen"), 40, 5, LimiterCatalog::algorithmIds());
    plan.users = 4;
    const ComparisonResult result = compare(plan);
    QVERIFY2(!result.failure.isFailure(), qPrintable(result.failure.message));
    QCOMPARE(result.algorithms.size(), LimiterCatalog::algorithmIds().size());
    for (const AlgorithmTally& tally : result.algorithms) {
        QCOMPARE(tally.truthAdmitted, 20LL);
        const int keysPerUser = int(LimiterCatalog::builtin(tally.id)->store.keys().size());
        QVERIFY2(tally.keys == 4 * keysPerUser, qPrintable(tally.id));
        QVERIFY2(tally.memoryBytesPerKey > 0, qPrintable(tally.id));
        if (tally.id == QLatin1String("sliding-log-now")) {
            QCOMPARE(tally.admitted, 40LL);
        } else {
            QVERIFY2(tally.admitted == 20, qPrintable(tally.id));
            QCOMPARE(tally.admittedOverLimit, 0LL);
        }
    }
}

void TestAlgorithms::keysAreGoneAfterTheComparison()
{
    ComparisonPlan plan = planOf(QStringLiteral("poisson:5"), 300, 50, LimiterCatalog::algorithmIds());
    plan.users = 3;
    const ComparisonResult result = compare(plan);
    QVERIFY2(!result.failure.isFailure(), qPrintable(result.failure.message));
    for (const AlgorithmTally& tally : result.algorithms) {
        QVERIFY(ZsetKeys::isOwnKey(tally.runKey));
        RedisArgs exists {"EXISTS"};
        for (int user = 0; user < plan.users; ++user)
            exists << LimiterCatalog::builtin(tally.id)->store.keysFor(plan.userKey(tally.runKey, user));
        QVERIFY2(m_redis.command(exists).toInteger() == 0, qPrintable(tally.id));
    }
}

void TestAlgorithms::commandLineJsonMatchesWhatRedisHolds()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const CliResult cli
        = runCli({QStringLiteral("algorithms"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl(),
                  QStringLiteral("--requests"), QStringLiteral("50"), QStringLiteral("--clock"),
                  QStringLiteral("frozen"), QStringLiteral("--limit"), QStringLiteral("20"), QStringLiteral("--window"),
                  QStringLiteral("60000"), QStringLiteral("--keep"), QStringLiteral("--json")});
    QVERIFY2(cli.exitCode == 0, cli.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(cli.out).object();
    QCOMPARE(json.value(QLatin1String("schema")).toString(), QStringLiteral("zsetlab.algorithms/1"));
    QCOMPARE(json.value(QLatin1String("server_version")).toString(), m_redis.server().version);
    const QJsonObject plan = json.value(QLatin1String("plan")).toObject();
    QCOMPARE(plan.value(QLatin1String("limit")).toInt(), 20);
    QCOMPARE(plan.value(QLatin1String("requests")).toInt(), 50);
    QCOMPARE(plan.value(QLatin1String("users")).toInt(), 1);
    const QJsonArray algorithms = json.value(QLatin1String("algorithms")).toArray();
    QCOMPARE(algorithms.size(), LimiterCatalog::algorithmIds().size());
    for (const auto& value : algorithms) {
        const QJsonObject algorithm = value.toObject();
        const QString id = algorithm.value(QLatin1String("id")).toString();
        for (const char* field : {"id", "admitted", "admitted_over_limit", "rejected_under_limit",
                                  "memory_bytes_per_key", "keys", "server_usec_per_call"})
            QVERIFY2(algorithm.contains(QLatin1String(field)), field);
        const LimiterRef limiter = LimiterCatalog::builtin(id);
        const QByteArray key = algorithm.value(QLatin1String("key")).toString().toUtf8();
        QVERIFY(ZsetKeys::isOwnKey(key));
        // What Redis holds now is what the JSON says it held.
        int keys = 0;
        const qint64 bytes = limiter->store.memoryBytes(m_redis, key, &keys);
        QCOMPARE(algorithm.value(QLatin1String("keys")).toInt(), keys);
        QCOMPARE(qint64(algorithm.value(QLatin1String("memory_bytes_per_key")).toDouble()), bytes);
        QVERIFY2(algorithm.value(QLatin1String("server_usec_per_call")).toDouble() > 0, qPrintable(id));
        const qint64 admitted = algorithm.value(QLatin1String("admitted")).toInteger();
        if (id == QLatin1String("sliding-log")) {
            QCOMPARE(admitted, 20LL);
            QCOMPARE(m_redis.command({"ZCARD", key}).toInteger(), admitted);
        } else if (id == QLatin1String("sliding-log-now")) {
            QCOMPARE(admitted, 50LL);
            QCOMPARE(m_redis.command({"ZCARD", key}).toInteger(), 1LL);
        } else if (id == QLatin1String("fixed-window")) {
            QCOMPARE(admitted, 20LL);
            QCOMPARE(m_redis.command({"GET", key}).text(), QStringLiteral("50")); // refused calls count too
        } else if (id == QLatin1String("list-log")) {
            QCOMPARE(m_redis.command({"LLEN", key}).toInteger(), admitted);
        }
        QCOMPARE(algorithm.value(QLatin1String("admitted_over_limit")).toInteger(), admitted - 20);
        QVERIFY(limiter->store.deleteKeys(m_redis, key));
    }
}

void TestAlgorithms::theBoundaryScenarioShowsTheFixedWindowsDouble()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const CliResult cli
        = runCli({QStringLiteral("algorithms"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl(),
                  QStringLiteral("--scenario"),
                  sourcePath(QStringLiteral("resources/scenarios/algorithms-boundary-bursts.json")),
                  QStringLiteral("--limiters"), QStringLiteral("fixed-window,sliding-log,sliding-counter"),
                  QStringLiteral("--json")});
    QVERIFY2(cli.exitCode == 0, cli.err.constData());
    const QJsonObject json = QJsonDocument::fromJson(cli.out).object();
    QCOMPARE(json.value(QLatin1String("plan")).toObject().value(QLatin1String("pace")).toString(),
             QStringLiteral("bursts:100@1"));
    const QJsonArray algorithms = json.value(QLatin1String("algorithms")).toArray();
    QCOMPARE(algorithms.size(), 3);
    QCOMPARE(algorithms.at(0).toObject().value(QLatin1String("admitted")).toInt(), 200);
    QCOMPARE(algorithms.at(0).toObject().value(QLatin1String("admitted_over_limit")).toInt(), 100);
    QCOMPARE(algorithms.at(1).toObject().value(QLatin1String("admitted")).toInt(), 100);
    // The weighted previous window sees the first burst almost whole: nothing more gets through.
    QCOMPARE(algorithms.at(2).toObject().value(QLatin1String("admitted_over_limit")).toInt(), 0);
}

void TestAlgorithms::commandLineRefusesBadInput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("says");
    QTest::newRow("no limit") << QStringList {QStringLiteral("--limit"), QStringLiteral("0")}
                              << QStringLiteral("--limit");
    QTest::newRow("unknown limiter") << QStringList {QStringLiteral("--limiters"), QStringLiteral("fixed,gcra")}
                                     << QStringLiteral("\"fixed\" is not a limiter");
    QTest::newRow("no users") << QStringList {QStringLiteral("--users"), QStringLiteral("0")}
                              << QStringLiteral("--users");
    QTest::newRow("bad bursts") << QStringList {QStringLiteral("--pace"), QStringLiteral("bursts:10")}
                                << QStringLiteral("bursts:N@MS");
}

void TestAlgorithms::commandLineRefusesBadInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, says);
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const CliResult cli = runCli(
        QStringList {QStringLiteral("algorithms"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl()}
        + arguments);
    QCOMPARE(cli.exitCode, 2);
    QVERIFY2(QString::fromUtf8(cli.err).contains(says), cli.err.constData());
}

QTEST_GUILESS_MAIN(TestAlgorithms)
#include "tst_algorithms.moc"
