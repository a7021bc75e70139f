#include "requestlog.h"
#include "timelinebuckets.h"

#include <QtTest>

namespace {
// A log built by hand: (now, added) per request; added -1 = failed.
RequestLog logOf(const std::vector<std::pair<qint64, int>>& requests)
{
    RequestLog log;
    log.reset(int(requests.size()), 1000, 0, "t");
    std::vector<RequestRecord> batch;
    for (size_t i = 0; i < requests.size(); ++i) {
        RequestRecord record;
        record.id = quint32(i);
        record.now = requests[i].first;
        record.count = 1;
        if (requests[i].second < 0)
            record.error = QStringLiteral("boom");
        else
            record.added = qint8(requests[i].second);
        record.memberKind = RequestRecord::MemberKind::Now;
        batch.push_back(record);
    }
    log.add(batch);
    return log;
}

std::vector<quint32> allIds(const RequestLog& log)
{
    std::vector<quint32> ids;
    for (int i = 0; i < log.size(); ++i)
        ids.push_back(quint32(i));
    return ids;
}
} // namespace

class TestTimelineBuckets : public QObject
{
    Q_OBJECT
private slots:
    void countsPerMillisecond();
    void tellsSurvivorsFromOverwrites();
    void bucketsMicrosecondClocksByMillisecond();
    void putsEarlyClocksBeforeTheOrigin();
    void addsIncrementallyInAnyOrder();
    void sumsColumnsForZoomedOutViews_data();
    void sumsColumnsForZoomedOutViews();
};

void TestTimelineBuckets::countsPerMillisecond()
{
    const RequestLog log = logOf({{1000, 1}, {1000, 0}, {1000, 0}, {1001, 1}, {1003, 1}, {1003, 0}});
    TimelineBuckets buckets;
    buckets.reset(1000, 1);
    buckets.add(log, allIds(log));
    QCOMPARE(buckets.buckets().size(), size_t(3));
    QCOMPARE(buckets.bucketAt(0)->requests, 3);
    QCOMPARE(buckets.bucketAt(1)->requests, 1);
    QVERIFY(!buckets.bucketAt(2));
    QCOMPARE(buckets.bucketAt(3)->requests, 2);
    QCOMPARE(buckets.maxRequestsPerMs(), 3);
    QCOMPARE(buckets.firstMs(), 0);
    QCOMPARE(buckets.lastMs(), 3);
}

void TestTimelineBuckets::tellsSurvivorsFromOverwrites()
{
    const RequestLog log = logOf({{5, 1}, {5, 0}, {5, -1}, {5, 0}});
    TimelineBuckets buckets;
    buckets.reset(0, 1);
    buckets.add(log, allIds(log));
    const MillisecondBucket* bucket = buckets.bucketAt(5);
    QVERIFY(bucket);
    QCOMPARE(bucket->stored, 1);
    QCOMPARE(bucket->overwritten, 2);
    QCOMPARE(bucket->failed, 1);
    QCOMPARE(bucket->storedRequest, 0);
    QCOMPARE(bucket->firstRequest, 0);
    QCOMPARE(bucket->lastRequest, 3);
}

void TestTimelineBuckets::bucketsMicrosecondClocksByMillisecond()
{
    const RequestLog log = logOf({{2000000, 1}, {2000999, 1}, {2001000, 1}});
    TimelineBuckets buckets;
    buckets.reset(2000000, 1000);
    buckets.add(log, allIds(log));
    QCOMPARE(buckets.bucketAt(0)->stored, 2);
    QCOMPARE(buckets.bucketAt(1)->stored, 1);
}

void TestTimelineBuckets::putsEarlyClocksBeforeTheOrigin()
{
    // A client whose clock is behind: its requests land at negative milliseconds.
    const RequestLog log = logOf({{999, 1}, {960, 1}, {1000, 1}});
    TimelineBuckets buckets;
    buckets.reset(1000, 1);
    buckets.add(log, allIds(log));
    QVERIFY(buckets.bucketAt(-1));
    QVERIFY(buckets.bucketAt(-40));
    QCOMPARE(buckets.firstMs(), -40);
    QCOMPARE(buckets.millisecondOf(999), -1);
}

void TestTimelineBuckets::addsIncrementallyInAnyOrder()
{
    const RequestLog log = logOf({{0, 1}, {0, 0}, {1, 1}, {1, 0}, {1, 0}});
    TimelineBuckets whole;
    whole.reset(0, 1);
    whole.add(log, allIds(log));
    TimelineBuckets parts;
    parts.reset(0, 1);
    parts.add(log, {4, 1});
    parts.add(log, {0, 3, 2});
    for (qint64 ms : {0, 1}) {
        QCOMPARE(parts.bucketAt(ms)->requests, whole.bucketAt(ms)->requests);
        QCOMPARE(parts.bucketAt(ms)->stored, whole.bucketAt(ms)->stored);
        QCOMPARE(parts.bucketAt(ms)->overwritten, whole.bucketAt(ms)->overwritten);
        QCOMPARE(parts.bucketAt(ms)->storedRequest, whole.bucketAt(ms)->storedRequest);
    }
}

void TestTimelineBuckets::sumsColumnsForZoomedOutViews_data()
{
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    QTest::addColumn<int>("columns");
    QTest::addColumn<QList<int>>("requests");
    QTest::addColumn<QList<int>>("overwritten");
    QTest::newRow("two ms per column") << 0.0 << 8.0 << 4 << QList<int> {3, 2, 0, 1} << QList<int> {2, 1, 0, 0};
    QTest::newRow("one column") << 0.0 << 8.0 << 1 << QList<int> {6} << QList<int> {3};
    QTest::newRow("window past the data") << 4.0 << 12.0 << 2 << QList<int> {1, 0} << QList<int> {0, 0};
}

void TestTimelineBuckets::sumsColumnsForZoomedOutViews()
{
    QFETCH(double, from);
    QFETCH(double, to);
    QFETCH(int, columns);
    QFETCH(QList<int>, requests);
    QFETCH(QList<int>, overwritten);
    // ms 0: stored + overwritten, ms 1: overwritten, ms 2: stored, ms 3: overwritten, ms 6: stored.
    const RequestLog log = logOf({{0, 1}, {0, 0}, {1, 0}, {2, 1}, {3, 0}, {6, 1}});
    TimelineBuckets buckets;
    buckets.reset(0, 1);
    buckets.add(log, allIds(log));
    const auto result = buckets.columns(from, to, columns);
    QCOMPARE(int(result.size()), columns);
    for (int i = 0; i < columns; ++i) {
        QCOMPARE(result[size_t(i)].requests, requests.at(i));
        QCOMPARE(result[size_t(i)].overwritten, overwritten.at(i));
        QCOMPARE(result[size_t(i)].stored + result[size_t(i)].overwritten, result[size_t(i)].requests);
    }
}

QTEST_GUILESS_MAIN(TestTimelineBuckets)
#include "tst_timelinebuckets.moc"
