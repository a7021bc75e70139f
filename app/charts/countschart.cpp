#include "countschart.h"

#include "chartlook.h"
#include "palette.h"

#include <QAreaSeries>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace {
const QColor& truthColour = Palette::truth;
const QColor& countedColour = Palette::counted;
const QColor& limitColour = Palette::limit;
const QColor& overLimitColour = Palette::overwritten; // the gap and the band: what went wrong
} // namespace

CountsChart::CountsChart(QWidget* parent)
    : QChartView(parent)
{
    QChart* chart = this->chart(); // the view's own: a second one would leak the first
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);

    m_gapUpper = new QLineSeries(this);
    m_gapLower = new QLineSeries(this);
    m_gap = new QAreaSeries(m_gapUpper, m_gapLower);
    QColor shade = overLimitColour;
    shade.setAlpha(50);
    m_gap->setBrush(QBrush(shade, Qt::SolidPattern));
    m_gap->setPen(Qt::NoPen);
    m_truth = new QLineSeries;
    m_truth->setPen(QPen(truthColour, 2.5));
    m_counted = new QLineSeries;
    m_counted->setPen(QPen(countedColour, 2.5, Qt::SolidLine));
    m_limit = new QLineSeries;
    m_limit->setPen(QPen(limitColour, 1.5, Qt::DashLine));
    // A band on the limit line where requests went through beyond it: one area path, not a
    // marker item per point (scatter markers are graphics items, slow by the thousand).
    m_overUpper = new QLineSeries(this);
    m_overLower = new QLineSeries(this);
    m_overLimit = new QAreaSeries(m_overUpper, m_overLower);

    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*> {m_gap, m_truth, m_counted, m_limit, m_overLimit})
        chart->addSeries(series);
    m_x = new QValueAxis;
    m_x->setLabelFormat(QStringLiteral("%d"));
    m_y = new QValueAxis;
    m_y->setLabelFormat(QStringLiteral("%d"));
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
    m_y->setTitleText(tr("in the window"));
    ChartLook::fitLegend(this);
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
    QColor shade = overLimitColour;
    shade.setAlpha(dark ? 90 : 50);
    m_gap->setBrush(QBrush(shade, Qt::SolidPattern));
    m_gap->setPen(Qt::NoPen);
    const double width = std::max(2.5, font().pointSizeF() / 4);
    m_truth->setPen(QPen(truthColour, width));
    m_counted->setPen(QPen(dark ? Palette::countedOnDark : countedColour, width)); // sky blue reads on black
    m_limit->setPen(QPen(dark ? QColor(200, 200, 200) : limitColour, 1.5, Qt::DashLine));
    m_overLimit->setBrush(QBrush(overLimitColour, Qt::Dense3Pattern)); // a pattern too: not colour alone
    m_overLimit->setPen(Qt::NoPen); // flat where nothing went over: no line over the limit line
}

void CountsChart::setLive(bool live)
{
    setRenderHint(QPainter::Antialiasing, !live);
}

void CountsChart::setTitle(const QString& title)
{
    chart()->setTitle(title);
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
    m_requests = 0;
    m_limitValue = 0;
    m_columns.clear();
    m_perColumn = 1;
    m_absorbed = 0;
    m_top = 1;
    for (QXYSeries* series : std::initializer_list<QXYSeries*> {m_truth, m_counted, m_limit, m_gapUpper, m_gapLower,
                                                                m_overUpper, m_overLower})
        series->clear();
    m_x->setRange(0, 10);
    m_y->setRange(0, 10);
    m_xRangeFor = -1;
}

int CountsChart::plottedPoints() const
{
    return int(m_truth->count() + m_counted->count() + m_overUpper->count());
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
    c.overLimit = a.overLimit || b.overLimit;
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
    one.overLimit = request.admittedOverLimit;
    column = merged(column, one);
    m_top = std::max({m_top, request.truth, request.count});
}

void CountsChart::refresh()
{
    if (!m_started)
        return;
    const int n = m_absorbed;
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
    std::vector<std::pair<int, bool>> overColumns;
    truth.reserve(qsizetype(2 * m_columns.size()));
    counted.reserve(qsizetype(2 * m_columns.size()));
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
        overColumns.push_back({column.first, column.overLimit});
    }
    m_truth->replace(truth);
    m_counted->replace(counted);
    m_gapUpper->replace(upper);
    m_gapLower->replace(lower);
    // The band: limit + 3 % of the height where a column admitted beyond the limit, else flat.
    const double limit = double(m_limitValue);
    const double band = m_limitValue > 0 ? std::max(1.0, double(std::max(m_top, m_limitValue)) * 0.03) : 0.0;
    QList<QPointF> overTop, overBottom;
    for (size_t k = 0; k < overColumns.size() && m_limitValue > 0; ++k) {
        const double from = overColumns[k].first;
        const double to = k + 1 < overColumns.size() ? overColumns[k + 1].first : n;
        const double height = overColumns[k].second ? limit + band : limit;
        overTop << QPointF(from, height) << QPointF(to, height);
        overBottom << QPointF(from, limit) << QPointF(to, limit);
    }
    m_overUpper->replace(overTop);
    m_overLower->replace(overBottom);
    if (m_limitValue > 0)
        m_limit->replace({QPointF(0, limit), QPointF(std::max(n, 1), limit)});
    else
        m_limit->clear();
    // Whole-number ticks: counts are integers, and "%d" on a 1.35 step would label lines wrongly.
    // Only when they change: a new range lays the whole chart out again.
    const double xMax = std::max(m_requests, 4);
    const double yMax = double(std::max(m_top, m_limitValue)) * 1.05 + 1;
    if (xMax != m_xRangeFor) { // the burst's size: set once per burst
        m_xRangeFor = xMax;
        m_x->setRange(0, xMax);
        m_x->applyNiceNumbers();
    }
    if (yMax > m_y->max() || yMax < m_y->max() / 2) {
        m_y->setRange(0, yMax);
        m_y->applyNiceNumbers();
    }
}
