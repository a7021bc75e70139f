#include "timelinemodel.h"

#include <algorithm>
#include <cmath>

void RequestCounts::count(const RequestRecord& record)
{
    ++requests;
    if (!record.error.isEmpty())
        ++failed;
    else if (record.added == 1)
        ++stored;
    else if (record.added == 0)
        ++overwritten;
    else
        ++unknown;
}

RequestCounts& RequestCounts::operator+=(const RequestCounts& other)
{
    requests += other.requests;
    stored += other.stored;
    overwritten += other.overwritten;
    failed += other.failed;
    unknown += other.unknown;
    return *this;
}

void TimelineModel::reset(int lanes, qint64 originMs)
{
    m_lanes.assign(size_t(std::max(lanes, 1)), {});
    m_totals.assign(m_lanes.size(), {});
    m_chunks.assign(m_lanes.size(), {});
    m_samples.clear();
    m_keptText.clear();
    m_samplesComplete = true;
    m_originMs = originMs;
    m_unitsPerMs = 1;
    m_requests = 0;
    m_firstMs = 0;
    m_lastMs = 0;
    m_maxRequests = 0;
}

qint64 TimelineModel::millisecondOf(qint64 now) const
{
    const qint64 delta = now - m_originMs * m_unitsPerMs;
    return delta >= 0 ? delta / m_unitsPerMs : -((-delta + m_unitsPerMs - 1) / m_unitsPerMs);
}

void TimelineModel::add(const RequestBatch& batch)
{
    if (!batch.finished)
        return;
    // The first batch with requests sets the origin: a watch's first snapshot may come before the
    // key's first write, and a start of 0 would draw the server's clock since 1970.
    if (m_requests == 0 && !batch.finished->empty()) {
        m_unitsPerMs = std::max<qint64>(1, batch.nowUnitsPerMs);
        if (m_originMs < 0)
            m_originMs = batch.startWallMs;
        m_runTag = batch.runTag;
    }
    for (const RequestRecord& record : *batch.finished) {
        const int laneIndex = m_lanes.size() > 1 ? std::min<int>(record.connection, laneCount() - 1) : 0;
        const qint64 ms = millisecondOf(record.now);
        const int id = int(record.id);
        MillisecondBucket& bucket = m_lanes[size_t(laneIndex)][ms];
        const qint64 chunk = chunkOf(ms);
        bucket.count(record);
        m_totals[size_t(laneIndex)].count(record);
        m_chunks[size_t(laneIndex)][chunk][size_t(ms - chunk * chunkMs)].count(record);
        if (record.error.isEmpty() && record.added == 1 && (bucket.keptRequest < 0 || id < bucket.keptRequest)) {
            // Most members derive from now or the request id: kept as such, not as text.
            bucket.keptRequest = id;
            bucket.keptWithin = qint32(record.now - (m_originMs + ms) * m_unitsPerMs);
            bucket.keptKind = record.memberKind;
            if (record.memberKind == RequestRecord::MemberKind::Text)
                m_keptText[{laneIndex, ms}] = record.member;
        }
        bucket.firstRequest = bucket.firstRequest < 0 ? id : std::min(bucket.firstRequest, id);
        bucket.lastRequest = std::max(bucket.lastRequest, id);
        m_maxRequests = std::max(m_maxRequests, bucket.requests);
        m_firstMs = m_requests == 0 ? ms : std::min(m_firstMs, ms);
        m_lastMs = m_requests == 0 ? ms : std::max(m_lastMs, ms);
        ++m_requests;
        if (m_samples.size() < maxSamples)
            m_samples.push_back({record.id, laneIndex, ms, record.count, record.added, !record.error.isEmpty()});
        else
            m_samplesComplete = false;
    }
}

QByteArray TimelineModel::keptMember(int lane, qint64 ms) const
{
    const MillisecondBucket* bucket = bucketAt(lane, ms);
    if (!bucket || bucket->keptRequest < 0)
        return {};
    RequestRecord record;
    record.id = quint32(bucket->keptRequest);
    record.now = (m_originMs + ms) * m_unitsPerMs + bucket->keptWithin;
    record.memberKind = bucket->keptKind;
    const auto text = m_keptText.find({lane, ms});
    record.member = text == m_keptText.end() ? QByteArray() : text->second;
    RequestBatch batch;
    batch.runTag = m_runTag;
    return batch.memberOf(record);
}

const MillisecondBucket* TimelineModel::bucketAt(int lane, qint64 ms) const
{
    if (lane < 0 || lane >= laneCount())
        return nullptr;
    const auto& buckets = m_lanes[size_t(lane)];
    const auto found = buckets.find(ms);
    return found == buckets.end() ? nullptr : &found->second;
}

std::vector<TimelineModel::Column> TimelineModel::columns(int lane, double fromMs, double toMs, int count) const
{
    std::vector<Column> result(static_cast<size_t>(std::max(count, 0)));
    if (count <= 0 || toMs <= fromMs || lane < 0 || lane >= laneCount())
        return result;
    const double width = (toMs - fromMs) / count;
    const qint64 first = static_cast<qint64>(std::floor(fromMs));
    const auto& chunks = m_chunks[size_t(lane)];
    for (auto it = chunks.lower_bound(chunkOf(first)); it != chunks.end(); ++it) {
        const qint64 base = it->first * chunkMs;
        if (double(base) >= toMs)
            break;
        for (qint64 k = std::max<qint64>(0, first - base); k < chunkMs; ++k) {
            const RequestCounts& counts = it->second[size_t(k)];
            if (counts.requests == 0)
                continue;
            const qint64 ms = base + k;
            if (double(ms) >= toMs)
                break;
            const auto index = static_cast<int>(std::floor((double(ms) - fromMs) / width));
            if (index < 0 || index >= count)
                continue;
            Column& column = result[static_cast<size_t>(index)];
            column += counts;
            column.busiestMs = std::max(column.busiestMs, counts.requests);
        }
    }
    return result;
}

std::vector<TimelineModel::Sample> TimelineModel::samplesAt(int lane, qint64 ms) const
{
    std::vector<Sample> found;
    for (const Sample& sample : m_samples) {
        if (sample.lane == lane && sample.ms == ms)
            found.push_back(sample);
    }
    std::sort(found.begin(), found.end(), [](const Sample& a, const Sample& b) { return a.id < b.id; });
    return found;
}
