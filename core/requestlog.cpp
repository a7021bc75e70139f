#include "requestlog.h"

#include <algorithm>
#include <limits>

void RequestLog::reset(int requests, qint64 windowInNowUnits, qint64 limit, const QByteArray& runTag)
{
    *this = RequestLog();
    m_window = windowInNowUnits;
    m_limit = limit;
    m_runTag = runTag;
    const auto n = static_cast<size_t>(requests);
    m_now.assign(n, 0);
    m_sentMicros.assign(n, 0);
    m_latency.assign(n, 0);
    m_count.assign(n, -1);
    m_truth.assign(n, 0);
    m_connection.assign(n, 0);
    m_flags.assign(n, 0);
    m_memberKind.assign(n, quint8(RequestRecord::MemberKind::Unknown));
    m_memberOffset.assign(n, 0);
    m_memberLength.assign(n, 0);
    m_minNow = std::numeric_limits<qint64>::max();
    m_maxNow = std::numeric_limits<qint64>::min();
}

QByteArray RequestLog::requestId(const QByteArray& runTag, quint32 id)
{
    return runTag + ':' + QByteArray::number(id);
}

QByteArray RequestLog::requestId(int i) const
{
    return requestId(m_runTag, static_cast<quint32>(i));
}

void RequestLog::add(std::vector<RequestRecord>& batch)
{
    for (RequestRecord& record : batch) {
        const size_t i = record.id;
        if (i >= m_now.size() || (m_flags[i] & Done))
            continue;
        quint8 flags = Done;
        m_now[i] = record.now;
        m_sentMicros[i] = static_cast<quint32>(std::clamp<qint64>(record.sentMicros, 0, UINT32_MAX));
        m_latency[i] = record.latencyMicros;
        m_connection[i] = record.connection;
        m_count[i] = static_cast<qint32>(std::clamp<qint64>(record.count, -1, INT32_MAX));
        m_memberKind[i] = quint8(record.memberKind);
        if (record.memberKind == RequestRecord::MemberKind::Text) {
            m_memberOffset[i] = static_cast<quint32>(m_members.size());
            m_memberLength[i] = static_cast<quint16>(std::min<int>(record.member.size(), UINT16_MAX));
            m_members.append(record.member.constData(), m_memberLength[i]);
        }
        if (!record.error.isEmpty()) {
            flags |= Failed;
            ++m_errors;
            int index = m_errorTexts.indexOf(record.error);
            if (index < 0 && m_errorTexts.size() < UINT16_MAX) {
                index = static_cast<int>(m_errorTexts.size());
                m_errorTexts << record.error;
            }
            m_errorOf[record.id] = static_cast<quint16>(std::max(index, 0));
        } else {
            if (record.added >= 0) {
                flags |= AddedKnown;
                if (record.added > 0) {
                    flags |= Added;
                    ++m_stored;
                } else {
                    ++m_overwritten;
                }
            }
            const bool admitted = record.verdict >= 0 ? record.verdict == 1
                                                      : (m_limit == 0 || (record.count >= 0 && record.count <= m_limit));
            if (admitted) {
                flags |= Admitted;
                ++m_admitted;
            }
            m_maxCount = std::max(m_maxCount, record.count);
            m_minNow = std::min(m_minNow, record.now);
            m_maxNow = std::max(m_maxNow, record.now);
        }
        m_flags[i] = flags;
        ++m_finished;
    }
    batch.clear();
    advanceTruth();
}

void RequestLog::advanceTruth()
{
    // truth(i) = successful requests j <= i with now(j) > now(i) - window: what a limiter with
    // unique members would count (ZREMRANGEBYSCORE removes scores <= now - window).
    const size_t n = m_now.size();
    while (static_cast<size_t>(m_truthPrefix) < n && (m_flags[m_truthPrefix] & Done)) {
        const int i = m_truthPrefix++;
        if (m_flags[i] & Failed)
            continue;
        const qint64 now = m_now[i];
        m_sortedNows.insert(std::upper_bound(m_sortedNows.begin(), m_sortedNows.end(), now), now);
        const auto firstInWindow = std::upper_bound(m_sortedNows.begin(), m_sortedNows.end(), now - m_window);
        m_truth[i] = static_cast<qint32>(m_sortedNows.end() - firstInWindow);
        m_flags[i] |= TruthKnown;
        if ((m_flags[i] & Admitted) && m_limit > 0 && m_truth[i] > m_limit)
            ++m_admittedOverLimit;
    }
}

QByteArray RequestLog::member(int i) const
{
    switch (RequestRecord::MemberKind(m_memberKind[i])) {
    case RequestRecord::MemberKind::Text:
        return m_members.mid(m_memberOffset[i], m_memberLength[i]);
    case RequestRecord::MemberKind::Now:
        return QByteArray::number(m_now[i]);
    case RequestRecord::MemberKind::RequestId:
        return requestId(i);
    case RequestRecord::MemberKind::Unknown:
        break;
    }
    return {};
}

QString RequestLog::error(int i) const
{
    const auto found = m_errorOf.find(static_cast<quint32>(i));
    return found == m_errorOf.end() ? QString() : m_errorTexts.value(found->second);
}

quint32 RequestLog::latencyPercentile(double percent) const
{
    return latencyPercentiles({percent}).front();
}

std::vector<quint32> RequestLog::latencyPercentiles(const std::vector<double>& percents) const
{
    std::vector<quint32> latencies;
    latencies.reserve(static_cast<size_t>(m_finished));
    for (size_t i = 0; i < m_flags.size(); ++i) {
        if ((m_flags[i] & Done) && !(m_flags[i] & Failed))
            latencies.push_back(m_latency[i]);
    }
    std::vector<quint32> result;
    for (const double percent : percents) {
        if (latencies.empty()) {
            result.push_back(0);
            continue;
        }
        const auto rank
            = static_cast<size_t>(std::clamp(percent / 100.0, 0.0, 1.0) * double(latencies.size() - 1) + 0.5);
        std::nth_element(latencies.begin(), latencies.begin() + static_cast<std::ptrdiff_t>(rank), latencies.end());
        result.push_back(latencies[rank]);
    }
    return result;
}

size_t RequestLog::memoryBytes() const
{
    return m_now.capacity() * sizeof(qint64) + m_sentMicros.capacity() * sizeof(quint32)
        + m_latency.capacity() * sizeof(quint32) + m_count.capacity() * sizeof(qint32)
        + m_truth.capacity() * sizeof(qint32) + m_connection.capacity() * sizeof(quint16) + m_flags.capacity()
        + m_memberKind.capacity() + m_memberOffset.capacity() * sizeof(quint32)
        + m_memberLength.capacity() * sizeof(quint16) + static_cast<size_t>(m_members.capacity())
        + m_sortedNows.capacity() * sizeof(qint64) + m_errorOf.size() * 32;
}
