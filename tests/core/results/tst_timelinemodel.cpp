#include "results/timelinemodel.h"
#include "results/timelinescale.h"

#include <QtTest>

namespace {
struct Request
{
    qint64 now;
    int added; // 1 stored, 0 overwritten, -1 reply did not say, -2 failed
    int connection = 0;
};

// A batch as the engine hands it over: request i is the i-th of `requests`, started at startMs.
RequestBatch batchOf(const std::vector<Request>& requests, qint64 startMs = 0, qint64 unitsPerMs = 1,
                     const std::vector<quint32>& order = {})
{
    auto records = std::make_shared<std::vector<RequestRecord>>();
    for (size_t k = 0; k < (order.empty() ? requests.size() : order.size()); ++k) {
        const size_t i = order.empty() ? k : order[k];
        RequestRecord record;
        record.id = quint32(i);
        record.now = requests[i].now;
        record.count = qint64(i) + 1;
        record.connection = quint16(requests[i].connection);
        record.memberKind = RequestRecord::MemberKind::Now;
        if (requests[i].added == -2)
            record.error = QStringLiteral("boom");
        else
            record.added = qint8(requests[i].added);
        records->push_back(record);
    }
    RequestBatch batch;
    batch.runTag = "t";
    batch.startWallMs = startMs;
    batch.nowUnitsPerMs = unitsPerMs;
    batch.finished = records;
    return batch;
}
} // namespace

// The timeline's model and its time-to-x mapping, without a window or a server.
class TestTimelineModel : public QObject
{
    Q_OBJECT
private slots:
    void countsPerMillisecond();
    void tellsSurvivorsOverwritesUnknownsAndFailures();
    void bucketsMicrosecondClocksByMillisecond();
    void measuresFromTheRunsStartOrAGivenOrigin();
    void takesTheOriginFromTheFirstBatchWithRequests();
    void putsEarlyClocksBeforeTheOrigin();
    void addsIncrementallyInAnyOrder();
    void putsEachConnectionInItsLane();
    void keepsTheFirstRequestsForTooltips();
    void sumsColumnsForZoomedOutViews_data();
    void sumsColumnsForZoomedOutViews();
    void sumsColumnsAsItsBucketsDo();
    void mapsTimeToXAndBack_data();
    void mapsTimeToXAndBack();
    void choosesColumnsOfOneTwoOrFiveSteps_data();
    void choosesColumnsOfOneTwoOrFiveSteps();
    void fitsZoomsAndPans();
};

void TestTimelineModel::countsPerMillisecond()
{
    TimelineModel model;
    model.reset(1, 1000);
    model.add(batchOf({{1000, 1}, {1000, 0}, {1000, 0}, {1001, 1}, {1003, 1}, {1003, 0}}));
    QCOMPARE(model.lane(0).size(), size_t(3));
    QCOMPARE(model.bucketAt(0, 0)->requests, 3);
    QCOMPARE(model.bucketAt(0, 1)->requests, 1);
    QVERIFY(!model.bucketAt(0, 2));
    QCOMPARE(model.bucketAt(0, 3)->requests, 2);
    QCOMPARE(model.maxRequestsPerMs(), 3);
    QCOMPARE(model.firstMs(), 0);
    QCOMPARE(model.lastMs(), 3);
    QCOMPARE(model.requests(), 6);
}

void TestTimelineModel::tellsSurvivorsOverwritesUnknownsAndFailures()
{
    // The same treatment in every lane: a reply without `added` is unknown, not a failure.
    TimelineModel model;
    model.reset(1, 0);
    model.add(batchOf({{5, 1}, {5, 0}, {5, -2}, {5, 0}, {5, -1}}));
    const MillisecondBucket* bucket = model.bucketAt(0, 5);
    QVERIFY(bucket);
    QCOMPARE(bucket->stored, 1);
    QCOMPARE(bucket->overwritten, 2);
    QCOMPARE(bucket->failed, 1);
    QCOMPARE(bucket->unknown, 1);
    QCOMPARE(bucket->keptRequest, 0);
    QCOMPARE(model.keptMember(0, 5), QByteArray("5"));
    QCOMPARE(bucket->firstRequest, 0);
    QCOMPARE(bucket->lastRequest, 4);
    // The lane's totals, kept as requests arrive, are those of its buckets; a reset clears them.
    model.add(batchOf({{9, 1}, {9, -2}}));
    const RequestCounts& total = model.laneTotal(0);
    QCOMPARE(total.requests, 7);
    QCOMPARE(total.stored, 2);
    QCOMPARE(total.overwritten, 2);
    QCOMPARE(total.failed, 2);
    QCOMPARE(total.unknown, 1);
    model.reset(2, 0);
    QCOMPARE(model.laneTotal(0).requests, 0);
    QCOMPARE(model.laneTotal(1).requests, 0);
}

void TestTimelineModel::bucketsMicrosecondClocksByMillisecond()
{
    TimelineModel model;
    model.reset(1, 2000);
    model.add(batchOf({{2000000, 1}, {2000999, 1}, {2001000, 1}}, 0, 1000));
    QCOMPARE(model.unitsPerMs(), 1000);
    QCOMPARE(model.bucketAt(0, 0)->stored, 2);
    QCOMPARE(model.bucketAt(0, 1)->stored, 1);
    QCOMPARE(model.keptMember(0, 0), QByteArray("2000000")); // the member is now, in microseconds
    QCOMPARE(model.keptMember(0, 1), QByteArray("2001000"));
}

void TestTimelineModel::measuresFromTheRunsStartOrAGivenOrigin()
{
    TimelineModel ownStart;
    ownStart.reset();
    ownStart.add(batchOf({{5010, 1}}, 5000));
    QCOMPARE(ownStart.originMs(), 5000);
    QCOMPARE(ownStart.firstMs(), 10);
    // Compare mode's right side replays the left side's timestamps: drawn from the left's start.
    TimelineModel given;
    given.reset(1, 4990);
    given.add(batchOf({{5010, 1}}, 5000));
    QCOMPARE(given.firstMs(), 20);
}

// A watch hands over its first snapshot before the key's first write (no requests, start 0): the
// axis then counted the server's clock since 1970 and its labels ran into each other (issue #43).
void TestTimelineModel::takesTheOriginFromTheFirstBatchWithRequests()
{
    TimelineModel watched;
    watched.reset();
    watched.add(batchOf({}, 0));
    QCOMPARE(watched.originMs(), -1);
    watched.add(batchOf({{1'796'402'245'822, 1}, {1'796'402'245'900, 1}}, 1'796'402'245'822));
    QCOMPARE(watched.originMs(), 1'796'402'245'822);
    QCOMPARE(watched.firstMs(), 0);
    QCOMPARE(watched.lastMs(), 78);
}

void TestTimelineModel::putsEarlyClocksBeforeTheOrigin()
{
    // A client whose clock is behind: its requests land at negative milliseconds.
    TimelineModel model;
    model.reset(1, 1000);
    model.add(batchOf({{999, 1}, {960, 1}, {1000, 1}}));
    QVERIFY(model.bucketAt(0, -1));
    QVERIFY(model.bucketAt(0, -40));
    QCOMPARE(model.firstMs(), -40);
    QCOMPARE(model.millisecondOf(999), -1);
}

void TestTimelineModel::addsIncrementallyInAnyOrder()
{
    const std::vector<Request> requests {{0, 1}, {0, 0}, {1, 1}, {1, 0}, {1, 0}};
    TimelineModel whole;
    whole.reset(1, 0);
    whole.add(batchOf(requests));
    TimelineModel parts;
    parts.reset(1, 0);
    parts.add(batchOf(requests, 0, 1, {4, 1}));
    parts.add(batchOf(requests, 0, 1, {0, 3, 2}));
    for (qint64 ms : {0, 1}) {
        QCOMPARE(parts.bucketAt(0, ms)->requests, whole.bucketAt(0, ms)->requests);
        QCOMPARE(parts.bucketAt(0, ms)->stored, whole.bucketAt(0, ms)->stored);
        QCOMPARE(parts.bucketAt(0, ms)->overwritten, whole.bucketAt(0, ms)->overwritten);
        QCOMPARE(parts.bucketAt(0, ms)->keptRequest, whole.bucketAt(0, ms)->keptRequest);
    }
    QCOMPARE(parts.laneTotal(0).requests, 5);
    QCOMPARE(parts.laneTotal(0).overwritten, whole.laneTotal(0).overwritten);
}

void TestTimelineModel::putsEachConnectionInItsLane()
{
    TimelineModel model;
    model.reset(3, 0);
    model.add(batchOf({{0, 1, 0}, {0, 0, 1}, {40, 1, 2}, {41, 0, 2}}));
    QCOMPARE(model.laneCount(), 3);
    QCOMPARE(model.laneTotal(0).stored, 1);
    QCOMPARE(model.laneTotal(1).overwritten, 1); // a collision across servers
    QCOMPARE(model.laneTotal(2).requests, 2);
    QCOMPARE(model.lane(2).begin()->first, 40);
    // One column over 50 ms holds each lane's requests.
    QCOMPARE(model.columns(2, 0, 50, 1).at(0).requests, 2);
    QCOMPARE(model.columns(0, 0, 50, 1).at(0).requests, 1);
    // One lane: every connection in it.
    TimelineModel single;
    single.reset(1, 0);
    single.add(batchOf({{0, 1, 0}, {0, 0, 1}, {40, 1, 2}}));
    QCOMPARE(single.laneTotal(0).requests, 3);
}

void TestTimelineModel::keepsTheFirstRequestsForTooltips()
{
    TimelineModel model;
    model.reset(1, 0);
    model.add(batchOf({{7, 1}, {7, 0}, {8, 1}}, 0, 1, {2, 1, 0}));
    const auto samples = model.samplesAt(0, 7);
    QCOMPARE(samples.size(), size_t(2));
    QCOMPARE(samples[0].id, 0u);
    QCOMPARE(samples[1].added, qint8(0));
    QCOMPARE(samples[1].count, 2);
    QVERIFY(model.samplesComplete());
    std::vector<Request> many(TimelineModel::maxSamples + 10, Request {3, 0});
    model.add(batchOf(many));
    QVERIFY(!model.samplesComplete()); // memory stays bounded however long the run
}

void TestTimelineModel::sumsColumnsForZoomedOutViews_data()
{
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    QTest::addColumn<int>("columns");
    QTest::addColumn<QList<int>>("requests");
    QTest::addColumn<QList<int>>("overwritten");
    QTest::newRow("two ms per column") << 0.0 << 8.0 << 4 << QList<int> {3, 2, 0, 1} << QList<int> {2, 1, 0, 0};
    QTest::newRow("one column") << 0.0 << 8.0 << 1 << QList<int> {6} << QList<int> {3};
    QTest::newRow("window past the data") << 4.0 << 12.0 << 2 << QList<int> {1, 0} << QList<int> {0, 0};
    QTest::newRow("window before the data") << -4.0 << 4.0 << 2 << QList<int> {0, 5} << QList<int> {0, 3};
}

void TestTimelineModel::sumsColumnsForZoomedOutViews()
{
    QFETCH(double, from);
    QFETCH(double, to);
    QFETCH(int, columns);
    QFETCH(QList<int>, requests);
    QFETCH(QList<int>, overwritten);
    // ms 0: stored + overwritten, ms 1: overwritten, ms 2: stored, ms 3: overwritten, ms 6: stored.
    TimelineModel model;
    model.reset(1, 0);
    model.add(batchOf({{0, 1}, {0, 0}, {1, 0}, {2, 1}, {3, 0}, {6, 1}}));
    const auto result = model.columns(0, from, to, columns);
    QCOMPARE(int(result.size()), columns);
    for (int i = 0; i < columns; ++i) {
        QCOMPARE(result[size_t(i)].requests, requests.at(i));
        QCOMPARE(result[size_t(i)].overwritten, overwritten.at(i));
        QCOMPARE(result[size_t(i)].stored + result[size_t(i)].overwritten, result[size_t(i)].requests);
    }
}

void TestTimelineModel::mapsTimeToXAndBack_data()
{
    QTest::addColumn<double>("from");
    QTest::addColumn<double>("to");
    QTest::addColumn<double>("ms");
    QTest::addColumn<double>("x");
    QTest::addColumn<bool>("stacks");
    // A plot 500 px wide starting at x = 50.
    QTest::newRow("20 ms: 25 px per ms, stacks") << 0.0 << 20.0 << 7.5 << 237.5 << true;
    QTest::newRow("negative start") << -10.0 << 10.0 << 0.0 << 300.0 << true;
    QTest::newRow("1000 ms: columns") << 0.0 << 1000.0 << 500.0 << 300.0 << false;
    QTest::newRow("exactly 10 px per ms") << 0.0 << 50.0 << 50.0 << 550.0 << true;
}

void TestTimelineModel::mapsTimeToXAndBack()
{
    QFETCH(double, from);
    QFETCH(double, to);
    QFETCH(double, ms);
    QFETCH(double, x);
    QFETCH(bool, stacks);
    const TimelineScale scale({from, to}, 50, 500);
    QCOMPARE(scale.xOf(ms), x);
    QCOMPARE(scale.msAt(x), ms);
    QCOMPARE(scale.millisecondAt(x + 0.01), qint64(std::floor(ms)));
    QCOMPARE(scale.drawsStacks(), stacks);
    // Dragging the plot by its own width moves the range by its span, backwards.
    QCOMPARE(scale.dragMs(500), -(to - from));
}

void TestTimelineModel::choosesColumnsOfOneTwoOrFiveSteps_data()
{
    QTest::addColumn<double>("span");
    QTest::addColumn<qint64>("perColumn");
    // 600 px: a column at least 3 px wide, of 1, 2 or 5 times a power of ten ms.
    QTest::newRow("200 ms: 1 ms") << 200.0 << qint64(1);
    QTest::newRow("201 ms: 2 ms") << 201.0 << qint64(2);
    QTest::newRow("1000 ms: 5 ms") << 1000.0 << qint64(5);
    QTest::newRow("24800 ms: 200 ms, not 124") << 24800.0 << qint64(200);
    QTest::newRow("60000 ms: 500 ms") << 60000.0 << qint64(500);
}

void TestTimelineModel::choosesColumnsOfOneTwoOrFiveSteps()
{
    QFETCH(double, span);
    QFETCH(qint64, perColumn);
    const TimelineScale scale({0, span}, 0, 600);
    QCOMPARE(scale.millisecondsPerColumn(), perColumn);
    QVERIFY(scale.xOf(double(perColumn)) - scale.xOf(0) >= TimelineScale::minColumnPixels - 1e-9);
    QCOMPARE(std::fmod(scale.firstColumnMs(), double(perColumn)), 0.0);
    QVERIFY(scale.firstColumnMs() + scale.columnCount() * double(perColumn) >= span);
    // Tick labels on a 1-2-5 step too, about 70 px apart.
    const double label = scale.labelStepMs();
    QVERIFY(scale.xOf(label) - scale.xOf(0) >= 70 - 1e-9);
}

void TestTimelineModel::fitsZoomsAndPans()
{
    const TimelineRange fitted = TimelineRange::fit(10, 109); // 100 ms of data
    QCOMPARE(fitted.fromMs, 8.0);
    QCOMPARE(fitted.toMs, 112.0);
    QCOMPARE(TimelineRange::fit(5, 5).span(), 10.4); // at least 10 ms, with its margins
    const auto in = fitted.zoomed(60, 0.5);
    QVERIFY(in);
    QCOMPARE(in->fromMs, 34.0); // the anchor stays where it was
    QCOMPARE(in->toMs, 86.0);
    QVERIFY(!(TimelineRange {0, 3}.zoomed(1, 0.5))); // narrower than 2 ms
    QVERIFY(!(TimelineRange {0, 9e8}.zoomed(1, 2))); // wider than 10^9 ms
    QCOMPARE(fitted.shifted(-8).fromMs, 0.0);
}

// Columns are summed from a second copy of the counts, in runs of milliseconds: they are what the
// buckets themselves add up to, at any range and width, across runs and before the origin.
void TestTimelineModel::sumsColumnsAsItsBucketsDo()
{
    std::vector<Request> requests;
    requests.reserve(3000);
    quint32 seed = 7;
    auto next = [&seed](int below) {
        seed = seed * 1664525u + 1013904223u;
        return int((seed >> 8) % quint32(below));
    };
    for (int i = 0; i < 3000; ++i) // bursts and gaps, a few before the origin (a clock offset)
        requests.push_back(
            {qint64(next(5) == 0 ? next(40) - 20 : next(900) + (next(3) == 0 ? 5000 : 0)), next(4) - 2, next(2)});
    TimelineModel model;
    model.reset(2, 0);
    model.add(batchOf(requests));
    const double ranges[][2] = {{-20, 6000}, {-7.5, 64}, {63, 129}, {0, 1}, {130.25, 900}, {4990, 5100}, {-100, -21}};
    for (const auto& range : ranges) {
        for (int count : {1, 3, 64, 1000}) {
            for (int lane = 0; lane < 2; ++lane) {
                std::vector<TimelineModel::Column> expected(static_cast<size_t>(count), TimelineModel::Column {});
                const double width = (range[1] - range[0]) / count;
                for (const auto& [ms, bucket] : model.lane(lane)) {
                    if (double(ms) < std::floor(range[0]) || double(ms) >= range[1])
                        continue;
                    const int index = int(std::floor((double(ms) - range[0]) / width));
                    if (index < 0 || index >= count)
                        continue;
                    TimelineModel::Column& column = expected[size_t(index)];
                    column += bucket;
                    column.busiestMs = std::max(column.busiestMs, bucket.requests);
                }
                const std::vector<TimelineModel::Column> got = model.columns(lane, range[0], range[1], count);
                QCOMPARE(got.size(), expected.size());
                for (size_t i = 0; i < got.size(); ++i) {
                    const QByteArray at = QByteArray::number(range[0]) + ".." + QByteArray::number(range[1]) + " /"
                        + QByteArray::number(count) + " lane " + QByteArray::number(lane) + " column "
                        + QByteArray::number(qulonglong(i));
                    QVERIFY2(got[i].requests == expected[i].requests && got[i].stored == expected[i].stored
                                 && got[i].overwritten == expected[i].overwritten && got[i].failed == expected[i].failed
                                 && got[i].unknown == expected[i].unknown && got[i].busiestMs == expected[i].busiestMs,
                             at.constData());
                }
            }
        }
    }
}

QTEST_GUILESS_MAIN(TestTimelineModel)
#include "tst_timelinemodel.moc"
