#include "countschart.h"

#include "chartlook.h"
#include "widgets/palette.h"

#include <QAreaSeries>
#include <QGraphicsLineItem>
#include <QGraphicsScene>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <QFontMetricsF>
#include <QScopedValueRollback>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {
const QColor& truthColour = Palette::truth;
const QColor& countedColour = Palette::counted;
const QColor& limitColour = Palette::limit;
const QColor& gapColour = Palette::overwritten; // what the limiter missed
const QColor& overLimitColour = Palette::beyondLimit; // as the figure "beyond the limit"
constexpr int maxMarks = 300; // scatter marks are graphics items: past this, neighbours merge
} // namespace

CountsChart::CountsChart(QWidget* parent)
    : QChartView(parent)
{
    QChart* chart = this->chart(); // the view's own: a second one would leak the first
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);
    connect(chart, &QChart::plotAreaChanged, this, &CountsChart::placeAxisTitle);
    connect(chart, &QChart::plotAreaChanged, this, &CountsChart::fitAxes);

    m_gapUpper = new QLineSeries(this);
    m_gapLower = new QLineSeries(this);
    m_gap = new QAreaSeries(m_gapUpper, m_gapLower);
    QColor shade = gapColour;
    shade.setAlpha(50);
    m_gap->setBrush(QBrush(shade, Qt::SolidPattern));
    m_gap->setPen(Qt::NoPen);
    m_truth = new QLineSeries;
    m_truth->setPen(QPen(truthColour, 2.5));
    m_counted = new QLineSeries;
    m_counted->setPen(QPen(countedColour, 2.5, Qt::SolidLine));
    m_limit = new QLineSeries;
    m_limit->setPen(QPen(limitColour, 1.5, Qt::DashLine));
    // A mark on the limit line for each request admitted beyond it.
    m_overLimit = new QScatterSeries;
    m_overLimit->setMarkerShape(QScatterSeries::MarkerShapeTriangle);

    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*> {m_gap, m_truth, m_counted, m_limit, m_overLimit})
        chart->addSeries(series);
    // The replay's cursor is an item of its own, not a series: a series repaints the whole plot
    // when it changes, a line item only the strips it leaves and enters.
    m_cursor = new QGraphicsLineItem(chart);
    m_cursor->setPen(QPen(Palette::attention, 2));
    m_cursor->setZValue(chart->zValue() + 100); // above the series
    m_cursor->hide();
    connect(chart, &QChart::plotAreaChanged, this, &CountsChart::placeCursor);
    m_x = new QValueAxis;
    m_x->setLabelFormat(QStringLiteral("%.0d")); // the form Qt Charts localizes (grouped digits)
    m_y = new QValueAxis;
    m_y->setLabelFormat(QStringLiteral("%.0d"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    }
    clear();
    applyLook();
    retranslate();
}

void CountsChart::retranslate()
{
    setToolTip(tr("Green: how many requests really were in the window. Blue: what the script counted. The shaded "
                  "gap is what the limiter missed; marks on the limit line are requests admitted beyond the limit."));
    m_gap->setName(tr("missed"));
    m_truth->setName(tr("truth"));
    m_counted->setName(tr("counted"));
    m_limit->setName(tr("limit"));
    m_overLimit->setName(tr("> limit"));
    m_x->setTitleText(tr("request"));
    placeAxisTitle();
    ChartLook::localize(this);
    ChartLook::fitLegend(this);
    // Wide enough for the legend in one row (labels longer in Vietnamese, larger when zoomed).
    // An explicit minimum: Qt Charts sets one of its own, which a size hint would not beat.
    setMinimumWidth(minimumChartWidth());
}

void CountsChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event); // resizes the chart
    ChartLook::fitLegend(this);
}

void CountsChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        applyLook();
    else if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void CountsChart::applyLook()
{
    const bool dark = ChartLook::apply(this, {m_x, m_y});
    QColor shade = gapColour;
    shade.setAlpha(dark ? 90 : 50);
    m_gap->setBrush(QBrush(shade, Qt::SolidPattern));
    m_gap->setPen(Qt::NoPen);
    const double width = std::max(2.5, font().pointSizeF() / 4);
    m_truth->setPen(QPen(truthColour, width));
    m_counted->setPen(QPen(dark ? Palette::countedOnDark : countedColour, width)); // sky blue reads on black
    m_limit->setPen(QPen(dark ? QColor(200, 200, 200) : limitColour, 1.5, Qt::DashLine));
    m_overLimit->setColor(overLimitColour);
    m_overLimit->setBorderColor(dark ? Qt::white : Qt::black); // a shape with an outline: not colour alone
    m_overLimit->setMarkerSize(std::max(9.0, QFontMetricsF(font()).height() * 0.7));
    setMinimumWidth(minimumChartWidth()); // as in retranslate()
    // High enough for a plot of a few lines between the legend, the axis labels and titles, with
    // the y axis's title above the plot (a low chart, longer titles in Vietnamese): with 11 lines
    // Qt Charts had no height left for the x axis's labels and cut them to "...".
    setMinimumHeight(std::max(185, int(std::ceil(QFontMetricsF(font()).height() * 12.5)) + 16));
}

int CountsChart::minimumChartWidth() const
{
    // Without its legend (the other side of a comparison has it), the axes and a few ticks.
    if (!chart()->legend()->isVisible())
        return QFontMetrics(font()).averageCharWidth() * 24;
    return ChartLook::minimumWidth(const_cast<CountsChart*>(this));
}

void CountsChart::setLegendShown(bool shown)
{
    chart()->legend()->setVisible(shown);
    setMinimumWidth(minimumChartWidth());
}

void CountsChart::setLive(bool live)
{
    setRenderHint(QPainter::Antialiasing, !live);
    // An ended run's chart changes only where the replay's cursor goes: its parts are drawn once
    // into pixmaps of their own, and a move of the cursor copies strips of them back. A live
    // chart changes whole at every refresh, where a cache would only add a copy.
    // A picture drawn off the screen (an animation's frames) is grabbed, never painted: its cached
    // items lost their text from the second grab on, so it draws them every time.
    const bool cached = !live && !window()->testAttribute(Qt::WA_DontShowOnScreen);
    for (QGraphicsItem* item : scene()->items()) {
        if (item != m_cursor)
            item->setCacheMode(cached ? QGraphicsItem::DeviceCoordinateCache : QGraphicsItem::NoCache);
    }
}

void CountsChart::placeAxisTitle()
{
    const QString title = tr("in the window");
    const double needed = QFontMetricsF(m_y->titleFont()).horizontalAdvance(title) + 4;
    // The room along the axis, as if the title were there: the title above takes a line of it.
    const bool above = !chart()->title().isEmpty();
    const double room = chart()->plotArea().height() + (above ? QFontMetricsF(chart()->titleFont()).height() + 4 : 0.0);
    const bool fits = needed <= room;
    m_y->setTitleText(title);
    m_y->setTitleVisible(fits);
    chart()->setTitle(fits ? QString() : title);
}

void CountsChart::start(int requests, qint64 limit)
{
    m_started = true;
    m_requests = requests;
    m_limitValue = limit;
    m_columns.clear();
    m_perColumn = 1;
    m_absorbed = 0;
    m_top = 1;
    m_xRangeFor = -1;
    refresh();
}

void CountsChart::clear()
{
    m_started = false;
    m_cursorAt = -1;
    m_cursor->hide();
    m_requests = 0;
    m_limitValue = 0;
    m_columns.clear();
    m_perColumn = 1;
    m_absorbed = 0;
    m_top = 1;
    for (QXYSeries* series :
         std::initializer_list<QXYSeries*> {m_truth, m_counted, m_limit, m_gapUpper, m_gapLower, m_overLimit})
        series->clear();
    m_xRangeFor = 10;
    m_yRangeFor = 10;
    fitAxes();
}

int CountsChart::plottedPoints() const
{
    return int(m_truth->count() + m_counted->count() + m_overLimit->count());
}

QList<QPointF> CountsChart::beyondLimitMarks() const
{
    return m_overLimit->points();
}

void CountsChart::fitAxes()
{
    // A new range lays the chart out again, which reports a new plot area: not once more from
    // inside (the labels' widths could swing the steps back and forth).
    if (m_fittingAxes)
        return;
    const QScopedValueRollback<bool> fitting(m_fittingAxes, true);
    // At most five steps, fewer on a small plot: Qt Charts cuts a label short ("…") when the
    // labels are closer than their own height (y) or width (x).
    const QRectF plot = chart()->plotArea();
    const QFontMetricsF metrics(m_y->labelsFont());
    const int ySteps = std::clamp(int(plot.height() / (metrics.height() * 1.8)), 1, 5);
    const QString widest = locale().toString(qint64(std::ceil(m_xRangeFor)));
    const int xSteps = std::clamp(int(plot.width() / (metrics.horizontalAdvance(widest) + metrics.height() * 2)), 1, 5);
    fitAxis(m_x, m_xRangeFor, xSteps);
    fitAxis(m_y, m_yRangeFor, ySteps);
    placeCursor(); // the new range moves the request's place
}

void CountsChart::fitAxis(QValueAxis* axis, double max, int steps)
{
    // Whole-number steps, so that "%d" never labels a line 2 that sits at 2.5.
    const double raw = std::max(1.0, max / steps);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * magnitude;
    for (const double factor : {1.0, 2.0, 5.0}) {
        if (raw <= factor * magnitude) {
            step = factor * magnitude;
            break;
        }
    }
    const double top = std::max(step, std::ceil(max / step) * step);
    const int ticks = int(std::llround(top / step)) + 1;
    if (axis->tickCount() == ticks && axis->max() == top && axis->min() == 0)
        return; // a new range lays the chart out again
    axis->setRange(0, top);
    axis->setTickCount(ticks);
}

void CountsChart::setReplayCursor(int request)
{
    m_cursorAt = request;
    placeCursor();
}

void CountsChart::placeCursor()
{
    if (m_cursorAt < 0) {
        m_cursor->hide();
        return;
    }
    // From the bottom of the plot to its top, at the request's place on the x axis.
    const QPointF bottom = chart()->mapToPosition(QPointF(m_cursorAt, m_y->min()), m_truth);
    const QPointF top = chart()->mapToPosition(QPointF(m_cursorAt, m_y->max()), m_truth);
    const QRectF plot = chart()->plotArea();
    m_cursor->setVisible(bottom.x() >= plot.left() - 0.5 && bottom.x() <= plot.right() + 0.5);
    m_cursor->setLine(QLineF(bottom, top));
}

QLineF CountsChart::replayCursorLine() const
{
    return m_cursor->isVisible() ? m_cursor->line() : QLineF();
}

CountsChart::Column CountsChart::merged(const Column& a, const Column& b)
{
    if (a.truthMin < 0)
        return b;
    if (b.truthMin < 0)
        return a;
    Column c = a;
    if (b.truthMin < c.truthMin) {
        c.truthMin = b.truthMin;
        c.truthMinAt = b.truthMinAt;
    }
    if (b.truthMax > c.truthMax) {
        c.truthMax = b.truthMax;
        c.truthMaxAt = b.truthMaxAt;
    }
    if (b.countMin < c.countMin) {
        c.countMin = b.countMin;
        c.countMinAt = b.countMinAt;
    }
    if (b.countMax > c.countMax) {
        c.countMax = b.countMax;
        c.countMaxAt = b.countMaxAt;
    }
    c.overLimitAt = a.overLimitAt >= 0 ? a.overLimitAt : b.overLimitAt;
    return c;
}

void CountsChart::addCounted(const std::vector<CountedRequest>& counted)
{
    for (const CountedRequest& request : counted)
        absorb(request);
}

void CountsChart::absorb(const CountedRequest& request)
{
    const int i = int(request.id);
    m_absorbed = std::max(m_absorbed, i + 1);
    const size_t index = size_t(i / m_perColumn);
    if (index >= m_columns.size()) {
        const size_t from = m_columns.size();
        m_columns.resize(index + 1);
        for (size_t k = from; k <= index; ++k)
            m_columns[k].first = int(k) * m_perColumn;
    }
    if (request.failed)
        return;
    Column& column = m_columns[index];
    Column one;
    one.first = column.first;
    one.truthMin = one.truthMax = request.truth;
    one.countMin = one.countMax = request.count;
    one.truthMinAt = one.truthMaxAt = one.countMinAt = one.countMaxAt = i;
    one.overLimitAt = request.admittedOverLimit ? i : -1;
    column = merged(column, one);
    m_top = std::max({m_top, request.truth, request.count});
}

void CountsChart::refresh()
{
    if (!m_started)
        return;
    // About one column per 2 pixels (each gives up to two points per line): replacing series
    // points is what costs, so no more points than the eye can tell apart.
    const size_t target = size_t(std::max(100, width() / 2));
    while (m_columns.size() > target) {
        std::vector<Column> halved((m_columns.size() + 1) / 2);
        for (size_t k = 0; k < halved.size(); ++k) {
            halved[k]
                = 2 * k + 1 < m_columns.size() ? merged(m_columns[2 * k], m_columns[2 * k + 1]) : m_columns[2 * k];
            halved[k].first = m_columns[2 * k].first;
        }
        m_columns.swap(halved);
        m_perColumn *= 2;
    }
    QList<QPointF> truth, counted, upper, lower;
    std::vector<int> overAt; // requests admitted beyond the limit, one per column
    truth.reserve(2 * qsizetype(m_columns.size()));
    counted.reserve(2 * qsizetype(m_columns.size()));
    auto addPair = [](QList<QPointF>& list, int aAt, qint64 a, int bAt, qint64 b) {
        if (aAt == bAt) {
            list.append(QPointF(aAt, a));
        } else if (aAt < bAt) {
            list.append(QPointF(aAt, a));
            list.append(QPointF(bAt, b));
        } else {
            list.append(QPointF(bAt, b));
            list.append(QPointF(aAt, a));
        }
    };
    for (const Column& column : m_columns) {
        if (column.truthMin < 0)
            continue;
        addPair(truth, column.truthMinAt, column.truthMin, column.truthMaxAt, column.truthMax);
        addPair(counted, column.countMinAt, column.countMin, column.countMaxAt, column.countMax);
        upper.append(QPointF(column.first, column.truthMax));
        lower.append(QPointF(column.first, std::min(column.countMin, column.truthMax)));
        if (column.overLimitAt >= 0)
            overAt.push_back(column.overLimitAt);
    }
    m_truth->replace(truth);
    m_counted->replace(counted);
    m_gapUpper->replace(upper);
    m_gapLower->replace(lower);
    // A mark on the limit line at each request admitted beyond it, at most maxMarks of them, and
    // never closer than a mark and a fifth: dense marks would merge into one dark band. The figure
    // "beyond the limit" keeps the exact count.
    const double limit = double(m_limitValue);
    QList<QPointF> marks;
    const size_t every = std::max<size_t>(1, (overAt.size() + maxMarks - 1) / maxMarks);
    const double requestsShown = std::max({m_requests - 1, m_absorbed - 1, 4});
    const double plotWidth = chart()->plotArea().width(); // 0 before the first layout: no thinning yet
    // Few requests on a narrow plot: smaller marks, one per request, before any is left out.
    const double fullSize = std::max(9.0, QFontMetricsF(font()).height() * 0.7);
    const double markSize = plotWidth > 0 ? std::clamp(plotWidth / requestsShown / 1.25, 6.0, fullSize) : fullSize;
    if (std::abs(m_overLimit->markerSize() - markSize) > 0.25)
        m_overLimit->setMarkerSize(markSize);
    const double spacing = plotWidth > 0 ? markSize * 1.2 * requestsShown / plotWidth : 0.0;
    double lastMark = -std::numeric_limits<double>::infinity();
    for (size_t k = 0; k < overAt.size() && m_limitValue > 0; k += every)
        if (overAt[k] - lastMark >= spacing) {
            marks << QPointF(overAt[k], limit);
            lastMark = overAt[k];
        }
    if (marks != m_overLimit->points())
        m_overLimit->replace(marks);
    if (m_limitValue > 0)
        m_limit->replace({QPointF(0, limit), QPointF(std::max(m_requests - 1, 1), limit)});
    else
        m_limit->clear();
    // Whole-number ticks, fitted to the data: a new range lays the whole chart out again, so
    // only when it changes.
    // A watch does not know its requests ahead: the axis follows what came.
    const double xMax = std::max({m_requests - 1, m_absorbed - 1, 4});
    const double yMax = double(std::max({m_top, m_limitValue, qint64(1)})) * 1.1;
    if (xMax != m_xRangeFor || yMax != m_yRangeFor) { // the burst's size: set once per burst
        m_xRangeFor = xMax;
        m_yRangeFor = yMax;
        fitAxes();
    }
}
