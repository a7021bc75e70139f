#include "timelinebuckets.h"

#include "requestlog.h"

#include <algorithm>
#include <cmath>

void TimelineBuckets::reset(qint64 origin, qint64 unitsPerMs)
{
    m_origin = origin;
    m_unitsPerMs = std::max<qint64>(1, unitsPerMs);
    m_buckets.clear();
    m_maxRequests = 0;
}

qint64 TimelineBuckets::millisecondOf(qint64 now) const
{
    const qint64 delta = now - m_origin;
    // Floor division: a clock offset can put requests before the origin.
    return delta >= 0 ? delta / m_unitsPerMs : -((-delta + m_unitsPerMs - 1) / m_unitsPerMs);
}

void TimelineBuckets::add(const RequestLog& log, const std::vector<quint32>& ids)
{
    for (const quint32 id : ids) {
        const int i = static_cast<int>(id);
        if (i >= log.size() || !log.isDone(i))
            continue;
        MillisecondBucket& bucket = m_buckets[millisecondOf(log.now(i))];
        ++bucket.requests;
        if (log.isFailed(i)) {
            ++bucket.failed;
        } else {
            switch (log.added(i)) {
            case 1:
                ++bucket.stored;
                if (bucket.storedRequest < 0 || i < bucket.storedRequest)
                    bucket.storedRequest = i;
                break;
            case 0:
                ++bucket.overwritten;
                break;
            default:
                ++bucket.unknown;
                break;
            }
        }
        bucket.firstRequest = bucket.firstRequest < 0 ? i : std::min(bucket.firstRequest, i);
        bucket.lastRequest = std::max(bucket.lastRequest, i);
        m_maxRequests = std::max(m_maxRequests, bucket.requests);
    }
}

void TimelineBuckets::addAll(const RequestLog& log)
{
    std::vector<quint32> ids;
    ids.reserve(static_cast<size_t>(log.finished()));
    for (int i = 0; i < log.size(); ++i) {
        if (log.isDone(i))
            ids.push_back(static_cast<quint32>(i));
    }
    add(log, ids);
}

const MillisecondBucket* TimelineBuckets::bucketAt(qint64 ms) const
{
    const auto found = m_buckets.find(ms);
    return found == m_buckets.end() ? nullptr : &found->second;
}

std::vector<TimelineBuckets::Column> TimelineBuckets::columns(double fromMs, double toMs, int count) const
{
    std::vector<Column> result(static_cast<size_t>(std::max(count, 0)));
    if (count <= 0 || toMs <= fromMs)
        return result;
    const double width = (toMs - fromMs) / count;
    auto it = m_buckets.lower_bound(static_cast<qint64>(std::floor(fromMs)));
    for (; it != m_buckets.end() && double(it->first) < toMs; ++it) {
        const auto index = static_cast<int>((double(it->first) - fromMs) / width);
        if (index < 0 || index >= count)
            continue;
        Column& column = result[static_cast<size_t>(index)];
        column.requests += it->second.requests;
        column.stored += it->second.stored;
        column.overwritten += it->second.overwritten;
        column.failed += it->second.failed;
        column.busiestMs = std::max(column.busiestMs, it->second.requests);
    }
    return result;
}
