#include "countschart.h"

#include "requestlog.h"

#include <QAreaSeries>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>

namespace {
const QColor truthColour(0, 158, 115); // bluish green
const QColor countedColour(0, 114, 178); // blue
const QColor limitColour(90, 90, 90);
const QColor overLimitColour(213, 94, 0); // vermillion
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
    m_overLimit = new QScatterSeries;
    m_overLimit->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    m_overLimit->setMarkerSize(7);
    m_overLimit->setColor(overLimitColour);
    m_overLimit->setBorderColor(overLimitColour);

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
    const bool dark = palette().color(QPalette::Window).lightness() < palette().color(QPalette::WindowText).lightness();
    const QChart::ChartTheme theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart()->theme() != theme)
        chart()->setTheme(theme); // resets series colours: set them again below
    chart()->setBackgroundBrush(palette().color(QPalette::Base));
    chart()->setPlotAreaBackgroundVisible(false);
    const QColor text = palette().color(QPalette::Text);
    QFont labels = font();
    QFont titles = font();
    titles.setBold(true);
    QColor grid = text;
    grid.setAlphaF(0.25);
    for (QValueAxis* axis : {m_x, m_y}) {
        axis->setGridLineColor(grid);
        axis->setLabelsFont(labels);
        axis->setTitleFont(titles);
        axis->setLabelsColor(text);
        axis->setTitleBrush(text);
    }
    chart()->setTitleFont(titles);
    chart()->setTitleBrush(text);
    chart()->legend()->setFont(labels);
    chart()->legend()->setLabelColor(text);
    QColor shade = overLimitColour;
    shade.setAlpha(dark ? 90 : 50);
    m_gap->setBrush(QBrush(shade, Qt::SolidPattern));
    m_gap->setPen(Qt::NoPen);
    const double width = std::max(2.5, font().pointSizeF() / 4);
    m_truth->setPen(QPen(truthColour, width));
    m_counted->setPen(QPen(dark ? QColor(86, 180, 233) : countedColour, width)); // sky blue reads on black
    m_limit->setPen(QPen(dark ? QColor(200, 200, 200) : limitColour, 1.5, Qt::DashLine));
    m_overLimit->setColor(overLimitColour);
    m_overLimit->setBorderColor(overLimitColour);
    m_overLimit->setMarkerSize(std::max(7.0, font().pointSizeF() * 0.7));
}

void CountsChart::setTitle(const QString& title)
{
    chart()->setTitle(title);
}

void CountsChart::setLog(const RequestLog* log)
{
    m_log = log;
    refresh();
}

void CountsChart::clear()
{
    m_log = nullptr;
    for (QXYSeries* series :
         std::initializer_list<QXYSeries*> {m_truth, m_counted, m_limit, m_gapUpper, m_gapLower, m_overLimit})
        series->clear();
    m_x->setRange(0, 10);
    m_y->setRange(0, 10);
}

int CountsChart::plottedPoints() const
{
    return int(m_truth->count() + m_counted->count() + m_overLimit->count());
}

void CountsChart::refresh()
{
    if (!m_log)
        return;
    const RequestLog& log = *m_log;
    const int n = log.truthPrefix();
    // Decimate per pixel column: for each column keep the first point, the minimum and the
    // maximum, so spikes survive and the point count stays about 3 x width.
    const int columns = std::max(100, width());
    const int perColumn = std::max(1, (n + columns - 1) / columns);
    QList<QPointF> truth, counted, upper, lower, over;
    truth.reserve(3 * columns);
    counted.reserve(3 * columns);
    qint64 top = std::max<qint64>(log.limit(), 1);
    for (int start = 0; start < n; start += perColumn) {
        const int end = std::min(n, start + perColumn);
        qint64 tMin = -1, tMax = -1, cMin = -1, cMax = -1;
        int tMinAt = start, tMaxAt = start, cMinAt = start, cMaxAt = start;
        bool overLimit = false;
        for (int i = start; i < end; ++i) {
            if (log.isFailed(i))
                continue;
            const qint64 t = log.truth(i);
            const qint64 c = log.count(i);
            if (tMin < 0 || t < tMin) {
                tMin = t;
                tMinAt = i;
            }
            if (t > tMax) {
                tMax = t;
                tMaxAt = i;
            }
            if (cMin < 0 || c < cMin) {
                cMin = c;
                cMinAt = i;
            }
            if (c > cMax) {
                cMax = c;
                cMaxAt = i;
            }
            overLimit = overLimit || log.isAdmittedOverLimit(i);
        }
        if (tMin < 0)
            continue;
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
        addPair(truth, tMinAt, tMin, tMaxAt, tMax);
        addPair(counted, cMinAt, cMin, cMaxAt, cMax);
        upper.append(QPointF(start, tMax));
        lower.append(QPointF(start, std::min(cMin, tMax)));
        if (overLimit)
            over.append(QPointF(start, double(log.limit())));
        top = std::max({top, tMax, cMax});
    }
    m_truth->replace(truth);
    m_counted->replace(counted);
    m_gapUpper->replace(upper);
    m_gapLower->replace(lower);
    m_overLimit->replace(over);
    if (log.limit() > 0)
        m_limit->replace({QPointF(0, double(log.limit())), QPointF(std::max(n, 1), double(log.limit()))});
    else
        m_limit->clear();
    // Whole-number ticks: counts are integers, and "%d" on a 1.35 step would label lines wrongly.
    m_x->setRange(0, std::max(log.size(), 4));
    m_x->applyNiceNumbers();
    m_y->setRange(0, double(top) * 1.05 + 1);
    m_y->applyNiceNumbers();
}
