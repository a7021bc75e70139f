#include "timelinescale.h"

#include <algorithm>
#include <cmath>

TimelineRange TimelineRange::fit(qint64 firstMs, qint64 lastMs)
{
    const double from = double(firstMs);
    const double span = std::max(double(lastMs) + 1 - from, 10.0);
    return {from - span * 0.02, from + span * 1.02};
}

std::optional<TimelineRange> TimelineRange::zoomed(double anchorMs, double factor) const
{
    const TimelineRange range {anchorMs - (anchorMs - fromMs) * factor, anchorMs + (toMs - anchorMs) * factor};
    if (!(range.span() >= 2) || range.span() > 1e9)
        return std::nullopt;
    return range;
}

TimelineScale::TimelineScale(const TimelineRange& range, double left, double width)
    : m_range(range.span() > 0 ? range : TimelineRange {range.fromMs, range.fromMs + 2})
    , m_left(left)
    , m_width(std::max(width, 1.0))
{ }

qint64 TimelineScale::millisecondAt(double x) const
{
    return qint64(std::floor(msAt(x)));
}

double TimelineScale::niceStep(double raw)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
    for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
        if (raw <= factor * magnitude * (1 + 1e-9))
            return factor * magnitude;
    }
    return 10 * magnitude;
}

qint64 TimelineScale::millisecondsPerColumn() const
{
    return std::max<qint64>(1, qint64(std::llround(niceStep(minColumnPixels / pixelsPerMs()))));
}

double TimelineScale::firstColumnMs() const
{
    const double perColumn = double(millisecondsPerColumn());
    return std::floor(m_range.fromMs / perColumn) * perColumn;
}

int TimelineScale::columnCount() const
{
    return std::max(1, int(std::ceil((m_range.toMs - firstColumnMs()) / double(millisecondsPerColumn()))));
}

double TimelineScale::gridStepMs() const
{
    return pixelsPerMs() >= 6 ? 1.0 : labelStepMs();
}

double TimelineScale::labelStepMs() const
{
    return std::max(1.0, niceStep(70.0 / pixelsPerMs()));
}
