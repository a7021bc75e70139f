// The timeline as a class on a projector reads it (issue #43): "tallest N requests" written
// where no column runs through it, and a stack too tall for the plot never drawn lower than a
// smaller one beside it. Drawn from batches as the engine hands them over; no server needed.
#include "charts/timelineview.h"
#include "results/timelinescale.h"
#include "widgets/palette.h"

#include <QImage>
#include <QPainter>
#include <QPicture>
#include <QtTest>

namespace {
// `counts[ms]` requests in millisecond ms, the first of each stored and the rest overwritten.
RequestBatch burst(const std::vector<int>& counts, qint64 startMs = 1'700'000'000'000)
{
    auto records = std::make_shared<std::vector<RequestRecord>>();
    quint32 id = 0;
    for (size_t ms = 0; ms < counts.size(); ++ms)
        for (int i = 0; i < counts[ms]; ++i) {
            RequestRecord record;
            record.id = id++;
            record.now = startMs + qint64(ms);
            record.count = 1;
            record.added = i == 0 ? 1 : 0;
            record.memberKind = RequestRecord::MemberKind::Now;
            records->push_back(record);
        }
    RequestBatch batch;
    batch.runTag = "t";
    batch.startWallMs = startMs;
    batch.requests = int(id);
    batch.finished = records;
    return batch;
}

bool isMark(QRgb pixel)
{
    const QColor colour(pixel);
    auto near = [&colour](const QColor& mark) {
        return std::abs(colour.red() - mark.red()) + std::abs(colour.green() - mark.green())
            + std::abs(colour.blue() - mark.blue())
            < 40;
    };
    return near(Palette::stored) || near(Palette::overwritten);
}
} // namespace

class TestTimelineView : public QObject
{
    Q_OBJECT
private slots:
    void noColumnCrossesTheTallestLabel_data();
    void noColumnCrossesTheTallestLabel();
    void aCappedStackIsNeverLowerThanASmallerOne();
    void aReplayStepRepaintsOnlyWhereTheCursorWent_data();
    void aReplayStepRepaintsOnlyWhereTheCursorWent();
    void theScreenDimsAfterTheCursorAsAPrintDoes();
};

void TestTimelineView::noColumnCrossesTheTallestLabel_data()
{
    QTest::addColumn<int>("milliseconds");
    QTest::addColumn<int>("perMs");
    QTest::addColumn<QSize>("size");
    QTest::newRow("100k burst, one busy ms") << 200 << 500 << QSize(900, 320);
    QTest::newRow("compare half at 720p") << 120 << 40 << QSize(420, 260);
    QTest::newRow("a watch's spread") << 2000 << 3 << QSize(700, 240);
}

void TestTimelineView::noColumnCrossesTheTallestLabel()
{
    QFETCH(int, milliseconds);
    QFETCH(int, perMs);
    QFETCH(QSize, size);
    std::vector<int> counts(size_t(milliseconds), 1);
    counts[size_t(milliseconds / 3)] = perMs * 2; // the tallest column
    for (size_t i = 0; i < counts.size(); i += 2)
        counts[i] = perMs;
    TimelineView view;
    view.resize(size);
    view.reset();
    view.addBatch(burst(counts));
    view.fitAll();
    QVERIFY(!view.scale().drawsStacks());
    const QRect label = view.tallestLabelRect().toAlignedRect();
    QVERIFY(!label.isEmpty());
    const QImage picture = view.grab().toImage();
    int marks = 0;
    int text = 0;
    const QColor ink = view.palette().color(QPalette::Text);
    for (int y = label.top(); y <= label.bottom(); ++y)
        for (int x = label.left(); x <= label.right(); ++x) {
            const QRgb pixel = picture.pixel(x, y);
            marks += isMark(pixel) ? 1 : 0;
            text += QColor(pixel).lightness() < ink.lightness() + 60 ? 1 : 0;
        }
    QCOMPARE(marks, 0);
    QVERIFY2(text > 10, "the label is not written");
    // The tallest column reaches up to the line under the label.
    int top = picture.height();
    const QRectF area = view.plotArea();
    for (int y = int(area.top()); y < int(area.bottom()); ++y)
        for (int x = int(area.left()); x < int(area.right()) && top == picture.height(); ++x)
            if (isMark(picture.pixel(x, y)))
                top = y;
    QVERIFY2(top >= label.bottom() && top <= label.bottom() + 12,
             qPrintable(QStringLiteral("tallest column at y %1, label ends at %2").arg(top).arg(label.bottom())));
}

void TestTimelineView::aCappedStackIsNeverLowerThanASmallerOne()
{
    // Zoomed in to stacks of marks: stacks of 1 to 60 requests, too many to fit the tallest.
    std::vector<int> counts;
    for (int requests = 1; requests <= 60; requests += 3)
        counts.push_back(requests);
    TimelineView view;
    view.resize(900, 300);
    view.reset();
    view.addBatch(burst(counts));
    view.setVisibleRange(-0.5, double(counts.size()) - 0.5);
    QVERIFY(view.scale().drawsStacks());
    const QImage picture = view.grab().toImage();
    const TimelineScale scale = view.scale();
    const QRectF area = view.plotArea();
    int previousTop = picture.height();
    bool capped = false;
    for (size_t ms = 0; ms < counts.size(); ++ms) {
        const int centre = int(scale.xOf(double(ms) + 0.5));
        int top = picture.height();
        for (int y = int(area.top()); y < int(area.bottom()) && top == picture.height(); ++y)
            for (int x = centre - 2; x <= centre + 2; ++x)
                if (isMark(picture.pixel(x, y)))
                    top = std::min(top, y);
        QVERIFY2(top <= previousTop + 1,
                 qPrintable(QStringLiteral("the stack of %1 requests ends at y %2, below the one of %3 at %4")
                                .arg(counts[ms])
                                .arg(top)
                                .arg(counts[ms > 0 ? ms - 1 : 0])
                                .arg(previousTop)));
        capped = capped || (ms > 0 && top == previousTop);
        previousTop = top;
    }
    QVERIFY2(capped, "no stack reached the cap: the test drew too few requests");
}

namespace {
// The regions a widget is asked to paint, as the window's backing store asks.
class PaintRecorder : public QObject
{
    Q_OBJECT
public:
    QList<QRegion> regions;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            regions.append(static_cast<QPaintEvent*>(event)->region());
        return QObject::eventFilter(watched, event);
    }
};
} // namespace

void TestTimelineView::aReplayStepRepaintsOnlyWhereTheCursorWent_data()
{
    QTest::addColumn<int>("milliseconds");
    QTest::addColumn<bool>("stacks");
    QTest::newRow("columns, 1920 px") << 3000 << false;
    QTest::newRow("stacks with rings") << 40 << true;
}

// A replay step repaints the columns between the cursor's old and new places (and the caption's
// band), not the whole view; what is on screen after the steps is what the whole view drawn
// afresh shows. The screen is kept as the backing store keeps it: each paint's region over the
// picture before.
void TestTimelineView::aReplayStepRepaintsOnlyWhereTheCursorWent()
{
    QFETCH(int, milliseconds);
    QFETCH(bool, stacks);
    std::vector<int> counts(static_cast<size_t>(milliseconds));
    for (size_t ms = 0; ms < counts.size(); ++ms)
        counts[ms] = 1 + int(ms * 7 % 5);
    const RequestBatch batch = burst(counts);
    TimelineView view;
    view.resize(1920, 400);
    view.reset();
    view.addBatch(batch);
    view.setVisibleRange(-0.5, double(milliseconds) - 0.5);
    QCOMPARE(view.scale().drawsStacks(), stacks);
    view.setReplayCursor(batch.finished->front().now, 0);
    view.setReplayCaption(QStringLiteral("request 1 of %1").arg(batch.requests));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    PaintRecorder recorder;
    view.installEventFilter(&recorder);
    QImage screen = view.grab().toImage();

    // Steps forward one request at a time, a jump forward, and one back.
    const std::vector<size_t> steps {1, 2, 3, 4, 5, 6, 7, 8, 9, size_t(batch.requests) / 2, 12};
    for (size_t index : steps) {
        const RequestRecord& request = batch.finished->at(index);
        int rank = 0;
        for (size_t before = 0; before < index; ++before)
            rank += batch.finished->at(before).now == request.now ? 1 : 0;
        recorder.regions.clear();
        view.setReplayCursor(request.now, rank);
        view.setReplayCaption(QStringLiteral("request %1 of %2").arg(index + 1).arg(batch.requests));
        QVERIFY(QTest::qWaitFor([&recorder] { return !recorder.regions.isEmpty(); }));
        for (const QRegion& region : std::as_const(recorder.regions)) {
            QPainter painter(&screen);
            view.render(&painter, region.boundingRect().topLeft(), region);
        }
        QRegion painted;
        for (const QRegion& region : std::as_const(recorder.regions))
            painted += region;
        if (index < 10) {
            QVERIFY2(painted.boundingRect().width() < view.width() / 4,
                     qPrintable(QStringLiteral("a step to request %1 repainted %2 px of %3")
                                    .arg(index + 1)
                                    .arg(painted.boundingRect().width())
                                    .arg(view.width())));
        }
        QCOMPARE(screen, view.grab().toImage());
    }
}

// The screen copies its dimming from a dimmed picture of the view; a print (or an SVG) blends it
// over the marks. Both show the same: what comes after the cursor dimmed, what came before not.
void TestTimelineView::theScreenDimsAfterTheCursorAsAPrintDoes()
{
    std::vector<int> counts(200);
    for (size_t ms = 0; ms < counts.size(); ++ms)
        counts[ms] = 1 + int(ms % 4);
    const RequestBatch batch = burst(counts);
    TimelineView view;
    view.resize(1200, 360);
    view.reset();
    view.addBatch(batch);
    view.fitAll();
    const QImage plain = view.grab().toImage();
    const RequestRecord& request = batch.finished->at(size_t(batch.requests) / 3);
    view.setReplayCursor(request.now, 0);
    const QImage screen = view.grab().toImage();
    QPicture print;
    view.render(&print);
    QImage printed(screen.size(), screen.format());
    printed.fill(Qt::transparent);
    {
        QPainter painter(&printed);
        painter.drawPicture(0, 0, print);
    }
    const TimelineScale scale = view.scale();
    const QRectF area = view.plotArea();
    const int cursorRight = int(std::lround(scale.xOf(double(request.now - batch.startWallMs + 1))));
    int differing = 0;
    int dimmedMarks = 0;
    int undimmedBefore = 0;
    for (int y = int(area.top()) + 1; y < int(area.bottom()) - 1; ++y) {
        for (int x = int(area.left()) + 1; x < int(area.right()) - 1; ++x) {
            const QColor a = screen.pixelColor(x, y);
            const QColor b = printed.pixelColor(x, y);
            const int delta
                = std::abs(a.red() - b.red()) + std::abs(a.green() - b.green()) + std::abs(a.blue() - b.blue());
            if (delta > 6 && std::abs(x - cursorRight) > 1)
                ++differing;
            if (x > cursorRight + 2 && isMark(plain.pixel(x, y)) && screen.pixel(x, y) != plain.pixel(x, y))
                ++dimmedMarks;
            if (x < cursorRight - 40 && screen.pixel(x, y) == plain.pixel(x, y))
                ++undimmedBefore;
        }
    }
    QCOMPARE(differing, 0);
    QVERIFY2(dimmedMarks > 100, qPrintable(QString::number(dimmedMarks)));
    QVERIFY2(undimmedBefore > 1000, qPrintable(QString::number(undimmedBefore)));
}

QTEST_MAIN(TestTimelineView)
#include "tst_timelineview.moc"
