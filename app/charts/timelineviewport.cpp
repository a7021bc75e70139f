#include "timelineviewport.h"

#include <algorithm>

TimelineViewport::TimelineViewport(QObject* parent)
    : QObject(parent)
{ }

void TimelineViewport::setRange(const TimelineRange& range)
{
    m_following = false;
    if (range == m_range)
        return;
    m_range = range;
    emit changed();
}

void TimelineViewport::setExtent(const QObject* view, qint64 firstMs, qint64 lastMs)
{
    m_extents.insert(view, {firstMs, lastMs});
    if (m_following)
        fitAll();
}

void TimelineViewport::removeExtent(const QObject* view)
{
    if (m_extents.remove(view) && m_extents.isEmpty()) {
        m_following = true;
        m_range = TimelineRange();
        emit changed();
    }
}

void TimelineViewport::fitAll()
{
    m_following = true;
    if (m_extents.isEmpty())
        return;
    qint64 first = m_extents.cbegin()->firstMs;
    qint64 last = m_extents.cbegin()->lastMs;
    for (const Extent& extent : m_extents) {
        first = std::min(first, extent.firstMs);
        last = std::max(last, extent.lastMs);
    }
    const TimelineRange fitted = TimelineRange::fit(first, last);
    if (fitted == m_range)
        return;
    m_range = fitted;
    emit changed();
}
