// The request log's two retentions: every request, or running totals only (for very long runs).
// The totals must be the same numbers, in memory that does not grow with the run.
#include "burst/burstengine.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "results/requestlog.h"
#include "testredis.h"

#include <QtTest>

#include <algorithm>
#include <random>

namespace {
constexpr qint64 startNow = 1'700'000'000'000;

// Finished requests as workers hand them over: nows near-sorted (a few ms of jitter), each
// batch in a shuffled order, some errors, latencies over four orders of magnitude.
std::vector<std::vector<RequestRecord>> batchesOf(int requests, int perMs, int jitterMs, int errorEvery, quint64 seed)
{
    std::mt19937_64 random(seed);
    std::vector<RequestRecord> records(static_cast<size_t>(requests));
    for (int i = 0; i < requests; ++i) {
        RequestRecord& record = records[static_cast<size_t>(i)];
        record.id = static_cast<quint32>(i);
        record.now = startNow + i / perMs + (jitterMs > 0 ? qint64(random() % quint64(jitterMs + 1)) : 0);
        record.count = qint64(random() % 60);
        record.added = static_cast<qint8>(random() % 4 == 0 ? 0 : 1);
        record.latencyMicros
            = static_cast<quint32>(std::exp(std::uniform_real_distribution<double>(2.0, 11.5)(random)));
        if (errorEvery > 0 && i % errorEvery == errorEvery - 1)
            record.error = QStringLiteral("OOM command not allowed when used memory > 'maxmemory'.");
    }
    std::vector<std::vector<RequestRecord>> batches;
    for (int first = 0; first < requests; first += 512) {
        std::vector<RequestRecord> batch(records.begin() + first, records.begin() + std::min(requests, first + 512));
        std::shuffle(batch.begin(), batch.end(), random);
        batches.push_back(std::move(batch));
    }
    return batches;
}

void feed(RequestLog& log, const std::vector<std::vector<RequestRecord>>& batches)
{
    for (auto& batch : batches)
        log.add(batch);
}
} // namespace

class TestRequestLog : public QObject
{
    Q_OBJECT
private slots:
    void totalsOnlyCountsTheSame_data();
    void totalsOnlyCountsTheSame();
    void totalsOnlyMemoryStaysFlat();
    void eachUserHasItsOwnTruth();
    void percentilesAreTheSortedLatencies();
    void textMembersTakeRoomOnlyWhenThereAreAny();
    void engineWithoutALogAgreesWithTheLog();
};

void TestRequestLog::totalsOnlyCountsTheSame_data()
{
    QTest::addColumn<int>("perMs");
    QTest::addColumn<int>("jitterMs");
    QTest::addColumn<qint64>("window");
    QTest::addColumn<int>("errorEvery");
    QTest::newRow("in order, 4 per ms") << 4 << 0 << qint64(10) << 0;
    QTest::newRow("3 ms of jitter, window 10 ms") << 4 << 3 << qint64(10) << 0;
    QTest::newRow("jitter as long as the window") << 8 << 20 << qint64(20) << 0;
    QTest::newRow("every 7th an error") << 2 << 2 << qint64(50) << 7;
}

void TestRequestLog::totalsOnlyCountsTheSame()
{
    QFETCH(int, perMs);
    QFETCH(int, jitterMs);
    QFETCH(qint64, window);
    QFETCH(int, errorEvery);
    constexpr int requests = 60000;
    constexpr qint64 limit = 20;
    const auto batches = batchesOf(requests, perMs, jitterMs, errorEvery, 7);
    RequestLog every;
    every.reset(requests, window, limit, "tag");
    feed(every, batches);
    RequestLog totals;
    totals.reset(requests, window, limit, "tag", RequestLog::Retention::TotalsOnly, window);
    feed(totals, batches);

    QVERIFY(!totals.keepsRequests());
    QCOMPARE(totals.size(), 0);
    QCOMPARE(totals.requests(), requests);
    QCOMPARE(totals.finished(), every.finished());
    QCOMPARE(totals.truthPrefix(), every.truthPrefix());
    QCOMPARE(totals.errors(), every.errors());
    QCOMPARE(totals.stored(), every.stored());
    QCOMPARE(totals.overwritten(), every.overwritten());
    QCOMPARE(totals.admitted(), every.admitted());
    QVERIFY(every.admittedOverLimit() > 0);
    QCOMPARE(totals.admittedOverLimit(), every.admittedOverLimit());
    QCOMPARE(totals.maxCount(), every.maxCount());
    QCOMPARE(totals.minNow(), every.minNow());
    QCOMPARE(totals.maxNow(), every.maxNow());
    QCOMPARE(totals.errorMessages(), every.errorMessages());
    // The histogram is exact below 1024 us and within 1/512 above.
    const auto exact = every.latencyPercentiles({0, 50, 90, 99, 100});
    const auto binned = totals.latencyPercentiles({0, 50, 90, 99, 100});
    for (size_t p = 0; p < exact.size(); ++p) {
        if (exact[p] < 1024)
            QCOMPARE(binned[p], exact[p]);
        else
            QVERIFY2(std::abs(double(binned[p]) - double(exact[p])) <= double(exact[p]) / 512.0,
                     qPrintable(QStringLiteral("%1 vs %2").arg(binned[p]).arg(exact[p])));
    }
}

void TestRequestLog::eachUserHasItsOwnTruth()
{
    constexpr int requests = 6000;
    constexpr int users = 7;
    constexpr qint64 window = 10;
    constexpr qint64 limit = 5;
    const auto batches = batchesOf(requests, 4, 2, 11, 3);
    RequestLog every;
    every.reset(requests, window, limit, "tag");
    every.setUsers(users);
    feed(every, batches);
    RequestLog totals;
    totals.reset(requests, window, limit, "tag", RequestLog::Retention::TotalsOnly, window);
    totals.setUsers(users);
    feed(totals, batches);
    QCOMPARE(every.truthPrefix(), requests);

    // Request i counts the successful requests j <= i of its own user with now(j) > now(i) - window.
    qint64 beyond = 0;
    for (int i = 0; i < requests; ++i) {
        if (every.isFailed(i))
            continue;
        qint64 truth = 0;
        for (int j = i % users; j <= i; j += users)
            truth += !every.isFailed(j) && every.now(j) > every.now(i) - window;
        QCOMPARE(every.userOf(i), i % users);
        QCOMPARE(every.truth(i), truth);
        beyond += every.isAdmittedOverLimit(i);
    }
    QVERIFY(beyond > 0);
    QCOMPARE(every.admittedOverLimit(), beyond);
    QCOMPARE(totals.admittedOverLimit(), beyond);
    // The users' totals add up to the log's and are the same with either retention.
    qint64 sums[4] = {};
    for (int u = 0; u < users; ++u) {
        const RequestLog::UserTotals& a = every.userTotals()[size_t(u)];
        const RequestLog::UserTotals& b = totals.userTotals()[size_t(u)];
        QCOMPARE(a.finished, qint64(requests / users + (u < requests % users)));
        QCOMPARE(b.finished, a.finished);
        QCOMPARE(b.errors, a.errors);
        QCOMPARE(b.stored, a.stored);
        QCOMPARE(b.admittedOverLimit, a.admittedOverLimit);
        sums[0] += a.errors;
        sums[1] += a.stored;
        sums[2] += a.overwritten;
        sums[3] += a.admittedOverLimit;
    }
    QCOMPARE(sums[0], every.errors());
    QCOMPARE(sums[1], every.stored());
    QCOMPARE(sums[2], every.overwritten());
    QCOMPARE(sums[3], every.admittedOverLimit());
}

// The full log's percentiles are exact: the value at that rank of the sorted latencies of the
// finished, successful requests (unfinished and failed ones left out), ties and all.
void TestRequestLog::percentilesAreTheSortedLatencies()
{
    constexpr int requests = 20000;
    auto batches = batchesOf(requests, 4, 2, 9, 11);
    batches.pop_back(); // a stopped run: the last requests never finished
    for (size_t b = 0; b < batches.size(); b += 3) {
        for (RequestRecord& record : batches[b])
            record.latencyMicros = 4000 + record.latencyMicros % 3; // many ties in one bucket
    }
    RequestLog log;
    log.reset(requests, 10, 20, "tag");
    feed(log, batches);

    std::vector<quint32> sorted;
    for (const auto& batch : batches) {
        for (const RequestRecord& record : batch) {
            if (record.error.isEmpty())
                sorted.push_back(record.latencyMicros);
        }
    }
    std::sort(sorted.begin(), sorted.end());
    QVERIFY(sorted.size() < size_t(requests));
    const std::vector<double> percents {0, 0.1, 1, 25, 33.3, 50, 66.7, 90, 99, 99.9, 100};
    const std::vector<quint32> got = log.latencyPercentiles(percents);
    QCOMPARE(got.size(), percents.size());
    for (size_t p = 0; p < percents.size(); ++p) {
        const auto rank = size_t(std::llround(percents[p] / 100.0 * double(sorted.size() - 1)));
        QCOMPARE(got[p], sorted[rank]);
    }
    QCOMPARE(log.latencyPercentile(50), sorted[size_t(std::llround(0.5 * double(sorted.size() - 1)))]);

    RequestLog empty;
    empty.reset(10, 10, 20, "tag");
    QCOMPARE(empty.latencyPercentiles({50, 99}), (std::vector<quint32> {0, 0}));
}

// A run whose members are its nows or request ids keeps no member offsets; a run that meets a
// text member half-way keeps each member as it came, before and after.
void TestRequestLog::textMembersTakeRoomOnlyWhenThereAreAny()
{
    constexpr int requests = 1000;
    const auto batches = batchesOf(requests, 4, 0, 0, 7);
    auto withKinds = [&](bool textHalfWay) {
        auto copy = batches;
        for (auto& batch : copy) {
            for (RequestRecord& record : batch) {
                const bool text = textHalfWay && record.id >= requests / 2 && record.id % 3 == 0;
                record.memberKind = text ? RequestRecord::MemberKind::Text
                    : record.id % 2 == 0 ? RequestRecord::MemberKind::Now
                                         : RequestRecord::MemberKind::RequestId;
                if (text)
                    record.member = "m-" + QByteArray::number(record.id);
            }
        }
        return copy;
    };
    RequestLog derived;
    derived.reset(requests, 10, 20, "tag");
    feed(derived, withKinds(false));
    RequestLog mixed;
    mixed.reset(requests, 10, 20, "tag");
    feed(mixed, withKinds(true));

    QCOMPARE(derived.finished(), requests);
    QCOMPARE(mixed.finished(), requests);
    // Six bytes a request (offset and length) are what the derived run does without.
    QVERIFY2(
        derived.memoryBytes() + size_t(requests) * 6 <= mixed.memoryBytes(),
        qPrintable(QStringLiteral("derived %1 bytes, mixed %2").arg(derived.memoryBytes()).arg(mixed.memoryBytes())));
    for (int i = 0; i < requests; ++i) {
        const bool text = i >= requests / 2 && i % 3 == 0;
        const QByteArray expected = text ? "m-" + QByteArray::number(i)
            : i % 2 == 0                 ? QByteArray::number(mixed.record(i).now)
                                         : RequestLog::requestId("tag", quint32(i));
        QCOMPARE(mixed.member(i), expected);
        if (!text)
            QCOMPARE(derived.member(i), expected);
    }
}

void TestRequestLog::totalsOnlyMemoryStaysFlat()
{
    constexpr int requests = 2'000'000;
    RequestLog totals;
    totals.reset(requests, 10, 0, "tag", RequestLog::Retention::TotalsOnly, 10);
    size_t afterFirstQuarter = 0;
    for (int part = 0; part < 4; ++part) {
        auto batches = batchesOf(requests / 4, 4, 2, 0, quint64(part));
        for (auto& batch : batches) {
            for (RequestRecord& record : batch) {
                record.id += static_cast<quint32>(part * (requests / 4));
                record.now += part * (requests / 4 / 4);
            }
        }
        feed(totals, batches);
        if (part == 0)
            afterFirstQuarter = totals.memoryBytes();
    }
    QCOMPARE(totals.finished(), requests);
    QCOMPARE(totals.truthPrefix(), requests);
    qInfo("totals-only log: %zu bytes after 500,000 requests, %zu after 2,000,000", afterFirstQuarter,
          totals.memoryBytes());
    QVERIFY(totals.memoryBytes() < 1'000'000);
    QVERIFY(totals.memoryBytes() <= afterFirstQuarter + afterFirstQuarter / 4);
}

void TestRequestLog::engineWithoutALogAgreesWithTheLog()
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.clock = ClockKind::Schedule;
    plan.requests = 2000;
    plan.limit = 10;
    plan.windowMs = 100;
    QString error;
    QVERIFY(Pacing::parse(QStringLiteral("interval:250"), &plan.pacing, &error));
    BurstSummary summaries[2];
    for (const bool keepLog : {true, false}) {
        plan.keepLog = keepLog;
        BurstEngine engine;
        QSignalSpy finished(&engine, &BurstEngine::finished);
        QVERIFY(engine.start(TestRedis::endpoint(), plan));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        summaries[keepLog ? 0 : 1] = finished.at(0).at(0).value<BurstSummary>();
        QCOMPARE(engine.log().size(), keepLog ? plan.requests : 0);
        QCOMPARE(engine.recordedNows()->empty(), !keepLog);
    }
    const BurstSummary& rows = summaries[0];
    const BurstSummary& totals = summaries[1];
    QVERIFY2(!totals.failure.isFailure(), qPrintable(totals.failure.message));
    QCOMPARE(totals.requests, rows.requests);
    QCOMPARE(totals.sent, rows.sent);
    QCOMPARE(totals.stored, 500); // four requests per millisecond share one member
    QCOMPARE(totals.stored, rows.stored);
    QCOMPARE(totals.overwritten, rows.overwritten);
    QCOMPARE(totals.admitted, rows.admitted);
    QCOMPARE(totals.admittedOverLimit, rows.admittedOverLimit);
    QVERIFY(totals.admittedOverLimit > 0);
    QCOMPARE(totals.maxCount, rows.maxCount);
    QCOMPARE(totals.finalCount, rows.finalCount);
    QVERIFY(totals.latencyUsP50 > 0);
}

QTEST_GUILESS_MAIN(TestRequestLog)
#include "tst_requestlog.moc"
