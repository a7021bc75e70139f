#include "algorithmschart.h"

#include "chartlook.h"
#include "widgets/palette.h"

#include <QFontMetricsF>
#include <QLegend>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {
// A colour and a shape per algorithm, in the order they are drawn.
const QColor colours[] = {Palette::vermillion, Palette::blue,          Palette::bluishGreen, Palette::orange,
                          Palette::skyBlue,    Palette::reddishPurple, Palette::grey,        Palette::yellow};
const QScatterSeries::MarkerShape shapes[] = {QScatterSeries::MarkerShapeCircle,
                                              QScatterSeries::MarkerShapeRectangle,
                                              QScatterSeries::MarkerShapeRotatedRectangle,
                                              QScatterSeries::MarkerShapeTriangle,
                                              QScatterSeries::MarkerShapeStar,
                                              QScatterSeries::MarkerShapePentagon};
constexpr double defaultFromBytes = 10;
constexpr double defaultToBytes = 100'000;
} // namespace

AlgorithmsChart::AlgorithmsChart(QWidget* parent)
    : QChartView(parent)
{
    QChart* chart = this->chart();
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->hide(); // each point carries its id
    chart->setMargins(QMargins(4, 4, 4, 4));
    setRenderHint(QPainter::Antialiasing);

    m_x = new QLogValueAxis;
    m_x->setBase(10);
    m_x->setLabelFormat(QStringLiteral("%.6g"));
    m_x->setMinorTickCount(8);
    m_y = new QValueAxis;
    m_y->setLabelFormat(QStringLiteral("%.3g"));
    chart->addAxis(m_x, Qt::AlignBottom);
    chart->addAxis(m_y, Qt::AlignLeft);
    fitAxes();
    applyLook();
    retranslate();
}

std::optional<QPointF> AlgorithmsChart::pointOf(const AlgorithmTally& tally)
{
    if (tally.memoryBytesPerKey <= 0 || tally.requests <= 0)
        return std::nullopt;
    const double wrong = double(tally.admittedOverLimit + tally.rejectedUnderLimit);
    return QPointF(tally.memoryBytesPerKey, 100.0 * wrong / double(tally.requests));
}

void AlgorithmsChart::clear()
{
    for (QScatterSeries* series : std::as_const(m_points)) {
        chart()->removeSeries(series);
        delete series;
    }
    m_points.clear();
    m_tallies.clear();
    fitAxes();
}

void AlgorithmsChart::setTallies(const QVector<AlgorithmTally>& tallies)
{
    clear();
    for (const AlgorithmTally& tally : tallies)
        addTally(tally);
}

void AlgorithmsChart::addTally(const AlgorithmTally& tally)
{
    const std::optional<QPointF> point = pointOf(tally);
    if (!point)
        return;
    m_tallies << tally;
    auto* series = new QScatterSeries;
    series->setName(tally.id);
    series->append(*point);
    series->setPointLabelsClipping(false);
    chart()->addSeries(series);
    series->attachAxis(m_x);
    series->attachAxis(m_y);
    m_points << series;
    fitAxes();
    label();
    applyLook();
}

void AlgorithmsChart::label()
{
    // Labels that would touch on screen merge into one that names every point of the group, so
    // no label covers another: each group's label sits over its leftmost point, as wide as its
    // text. The label is text alone (a format without @xPoint or @yPoint shows itself).
    const QFontMetricsF metrics(labelFont());
    struct Group
    {
        QList<int> members;
        QPointF at; // the leftmost point, in pixels
        QString text;
    };
    QList<Group> groups;
    for (int i = 0; i < m_points.size(); ++i)
        groups.push_back({{i}, chart()->mapToPosition(m_points.at(i)->at(0), m_points.at(i)), m_points.at(i)->name()});
    const auto touch = [&metrics](const Group& a, const Group& b) {
        const double half = (metrics.horizontalAdvance(a.text) + metrics.horizontalAdvance(b.text)) / 2 + 2;
        return std::abs(a.at.x() - b.at.x()) < half && std::abs(a.at.y() - b.at.y()) < metrics.height() * 1.5;
    };
    for (bool merged = true; merged;) {
        merged = false;
        for (int a = 0; a < groups.size() && !merged; ++a) {
            for (int b = a + 1; b < groups.size() && !merged; ++b) {
                if (!touch(groups.at(a), groups.at(b)))
                    continue;
                Group& into = groups[a];
                into.members += groups.at(b).members;
                std::sort(into.members.begin(), into.members.end(),
                          [this](int x, int y) { return m_points.at(x)->at(0).x() < m_points.at(y)->at(0).x(); });
                into.at = chart()->mapToPosition(m_points.at(into.members.first())->at(0),
                                                 m_points.at(into.members.first()));
                QStringList names;
                for (const int member : std::as_const(into.members))
                    names << m_points.at(member)->name();
                into.text = names.join(QStringLiteral(", "));
                groups.removeAt(b);
                merged = true;
            }
        }
    }
    for (const Group& group : std::as_const(groups)) {
        for (const int member : group.members) {
            const bool shown = member == group.members.first();
            m_points.at(member)->setPointLabelsVisible(shown);
            m_points.at(member)->setPointLabelsFormat(shown ? group.text : QString());
        }
    }
}

QFont AlgorithmsChart::labelFont() const
{
    // A little smaller than the axes' numbers: ids side by side stay apart on a narrow chart.
    QFont label = font();
    label.setPointSizeF(font().pointSizeF() * 0.9);
    return label;
}

void AlgorithmsChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event); // lays the chart out: the points' pixels change
    label();
}

QString AlgorithmsChart::labelOf(const QString& id) const
{
    for (QScatterSeries* series : m_points) {
        if (series->pointLabelsVisible() && series->pointLabelsFormat().split(QStringLiteral(", ")).contains(id))
            return series->pointLabelsFormat();
    }
    return {};
}

void AlgorithmsChart::fitAxes()
{
    double from = defaultFromBytes;
    double to = defaultToBytes;
    double top = 0;
    if (!m_tallies.isEmpty()) {
        from = std::numeric_limits<double>::max();
        to = 0;
        for (const AlgorithmTally& tally : std::as_const(m_tallies)) {
            const QPointF point = *pointOf(tally);
            from = std::min(from, point.x());
            to = std::max(to, point.x());
            top = std::max(top, point.y());
        }
        // Whole decades around the points, so the axis labels are round numbers.
        from = std::pow(10.0, std::floor(std::log10(from / 1.5)));
        to = std::pow(10.0, std::ceil(std::log10(to * 1.5)));
    }
    // A hair wider than the decades, so the labels at both ends are kept (see SweepChart).
    m_x->setRange(from * 0.98, to * 1.02);
    // Room above the highest point for its label; a round top.
    const double wanted = std::max(1.0, top * 1.25);
    const double step = std::pow(10.0, std::floor(std::log10(wanted)));
    const double rounded = std::ceil(wanted / step) * step;
    // A little below 0, so that a point on 0 (no wrong decision) shows whole above the axis.
    m_y->setRange(-rounded * 0.03, rounded);
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_y->setTickInterval(rounded / step > 5 ? step : step / 2);
}

void AlgorithmsChart::applyLook()
{
    const bool dark = ChartLook::apply(this, {m_x, m_y});
    const QColor text = palette().color(QPalette::Text);
    const double marker = std::max(13.0, font().pointSizeF() * 1.4);
    int index = 0;
    for (QScatterSeries* series : std::as_const(m_points)) {
        series->setColor(colours[index % int(std::size(colours))]);
        series->setMarkerShape(shapes[index % int(std::size(shapes))]);
        series->setBorderColor(dark ? QColor(255, 255, 255) : QColor(0, 0, 0));
        series->setMarkerSize(marker);
        series->setPointLabelsColor(text);
        series->setPointLabelsFont(labelFont());
        ++index;
    }
}

void AlgorithmsChart::retranslate()
{
    setToolTip(tr("One point per algorithm: right costs more memory per user, up makes more wrong decisions "
                  "than the exact sliding log."));
    chart()->setTitle(tr("Accuracy against memory"));
    m_x->setTitleText(tr("memory per user, bytes (log scale)"));
    m_y->setTitleText(tr("wrong decisions, % of requests"));
    ChartLook::localize(this);
}

void AlgorithmsChart::changeEvent(QEvent* event)
{
    QChartView::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        applyLook();
        label();
    } else if (event->type() == QEvent::LanguageChange)
        retranslate();
}
