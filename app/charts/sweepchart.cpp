#include "sweepchart.h"

#include "chartlook.h"

#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace {
// Okabe-Ito colours; line styles and marker shapes carry the same meanings in grey.
const QColor poissonColour(0, 114, 178); // blue
const QColor evenColour(0, 158, 115); // bluish green
const QColor uniqueColour(120, 120, 120);
const QColor storedColour(213, 94, 0); // vermillion
const QColor overLimitColour(204, 121, 167); // reddish purple
constexpr int theorySamples = 240; // per sweep range: smooth at any window width
constexpr double defaultFromRate = 0.05;
constexpr double defaultToRate = 50;
} // namespace

SweepChart::SweepChart(QWidget* parent)
    : QChartView(parent)
{
    QChart* chart = this->chart(); // the view's own: a second one would leak the first
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries); // circles, diamonds, dashes: not colour alone
    chart->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);

    m_poisson = new QLineSeries;
    m_even = new QLineSeries;
    m_unique = new QLineSeries;
    m_stored = new QScatterSeries;
    m_stored->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_overLimit = new QScatterSeries;
    m_overLimit->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    for (QAbstractSeries* series :
         std::initializer_list<QAbstractSeries*> {m_poisson, m_even, m_unique, m_stored, m_overLimit})
        chart->addSeries(series);

    m_x = new QLogValueAxis;
    m_x->setBase(10);
    m_x->setLabelFormat(QStringLiteral("%.6g")); // the forms Qt Charts localizes
    m_x->setMinorTickCount(8); // 2 .. 9 between the decades, to read rates off the axis
    m_y = new QValueAxis;
    m_y->setLabelFormat(QStringLiteral("%.0d"));
    // A little room above 100 % so markers on the line are not cut in half; ticks stay on 0..100.
    m_y->setRange(0, 104);
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_y->setTickInterval(20);
    m_y->setMinorTickCount(1);
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    for (QAbstractSeries* series : chart->series()) {
        series->attachAxis(m_x);
        series->attachAxis(m_y);
    }
    m_x->setRange(defaultFromRate, defaultToRate);
    sampleTheory(defaultFromRate, defaultToRate);
    clear();
    applyLook();
    retranslate();
}

void SweepChart::retranslate()
{
    setToolTip(tr("Stored share against arrival rate. Lines: what member = now allows in theory; circles: "
                  "what Redis stored; diamonds: requests admitted beyond the limit."));
    // Short names: the legend is one row under the chart; the formulas are in the title.
    m_poisson->setName(tr("Poisson theory"));
    m_even->setName(tr("even theory"));
    m_unique->setName(tr("unique: 100 %"));
    m_stored->setName(tr("measured"));
    m_overLimit->setName(tr("beyond the limit"));
    chart()->setTitle(tr("Stored with member = now — theory: (1 − e^−L) / L Poisson, 1/L even"));
    m_x->setTitleText(tr("arrival rate L, requests per ms (log scale)"));
    m_y->setTitleText(tr("stored, % of requests sent"));
    ChartLook::fitLegend(this);
}

void SweepChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event); // resizes the chart
    ChartLook::fitLegend(this);
}

void SweepChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange)
        applyLook();
    else if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void SweepChart::applyLook()
{
    const bool dark = ChartLook::apply(this, {m_x, m_y});

    // The theory of the sweep's own pacing is drawn strong, the other thin.
    const double strong = std::max(2.5, font().pointSizeF() / 4);
    const bool poisson = m_pacing == SweepPacing::Poisson;
    m_poisson->setPen(QPen(dark ? QColor(86, 180, 233) : poissonColour, poisson ? strong : 1.5, Qt::SolidLine));
    m_even->setPen(QPen(evenColour, poisson ? 1.5 : strong, Qt::DashLine));
    m_unique->setPen(QPen(dark ? QColor(190, 190, 190) : uniqueColour, 1.5, Qt::DotLine));
    const double marker = std::max(11.0, font().pointSizeF() * 1.2);
    m_stored->setColor(storedColour);
    m_stored->setBorderColor(dark ? QColor(255, 255, 255) : QColor(0, 0, 0));
    m_stored->setMarkerSize(marker);
    m_overLimit->setColor(overLimitColour);
    m_overLimit->setBorderColor(dark ? QColor(255, 255, 255) : QColor(0, 0, 0));
    // Smaller and drawn last: where both shares are equal the circle still shows around it.
    m_overLimit->setMarkerSize(marker * 0.75);
    // Without a limit nothing is admitted beyond it: no series and no legend entry.
    m_overLimit->setVisible(m_withLimit);
    for (QLegendMarker* legend : chart()->legend()->markers(m_overLimit))
        legend->setVisible(m_withLimit);
    ChartLook::fitLegend(this);
}

void SweepChart::sampleTheory(double fromRate, double toRate)
{
    // Log-spaced samples: the curve bends over decades, so equal steps in log(L) keep it smooth.
    QList<QPointF> poisson, even;
    poisson.reserve(theorySamples + 1);
    even.reserve(theorySamples + 2);
    const double logFrom = std::log10(fromRate);
    const double logTo = std::log10(toRate);
    for (int i = 0; i <= theorySamples; ++i) {
        const double rate = std::pow(10.0, logFrom + (logTo - logFrom) * i / theorySamples);
        poisson << QPointF(rate, 100.0 * theoryStoredFraction(SweepPacing::Poisson, rate));
        even << QPointF(rate, 100.0 * theoryStoredFraction(SweepPacing::Even, rate));
    }
    // The even curve has a corner at one arrival per ms: sample it exactly.
    if (fromRate < 1 && toRate > 1) {
        even << QPointF(1, 100);
        std::sort(even.begin(), even.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    }
    m_poisson->replace(poisson);
    m_even->replace(even);
    m_unique->replace({QPointF(fromRate, 100), QPointF(toRate, 100)});
}

void SweepChart::setPlan(const SweepPlan& plan)
{
    m_pacing = plan.pacing;
    double from = defaultFromRate;
    double to = defaultToRate;
    if (!plan.ratesPerMs.isEmpty()) {
        const auto [low, high] = std::minmax_element(plan.ratesPerMs.cbegin(), plan.ratesPerMs.cend());
        // Whole decades around the rates, so the axis labels are round numbers.
        from = std::pow(10.0, std::floor(std::log10(*low / 1.5)));
        to = std::pow(10.0, std::ceil(std::log10(*high * 1.5)));
    }
    // A hair wider than the decades: the axis puts its labels at whole powers of ten inside the
    // range, and log10(0.1) computed as -0.9999… would drop the first one.
    m_x->setRange(from * 0.98, to * 1.02);
    sampleTheory(from * 0.98, to * 1.02);
    m_withLimit = plan.burst.limit > 0;
    clear();
    applyLook();
}

void SweepChart::clear()
{
    m_stored->clear();
    m_overLimit->clear();
}

void SweepChart::addPoint(const SweepPoint& point)
{
    m_stored->append(point.ratePerMs, 100.0 * point.storedFraction());
    if (point.limit > 0)
        m_overLimit->append(point.ratePerMs, 100.0 * point.admittedOverLimitFraction());
}
