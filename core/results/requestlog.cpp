#include "requestlog.h"

#include <QtAlgorithms>

#include <algorithm>
#include <cmath>
#include <limits>

void RequestLog::reset(int requests, qint64 windowInNowUnits, qint64 limit, const QByteArray& runTag,
                       Retention retention, qint64 disorderAllowance)
{
    *this = RequestLog();
    m_retention = retention;
    m_requests = std::max(requests, 0);
    m_disorderAllowance = std::max<qint64>(disorderAllowance, 0);
    m_window = windowInNowUnits;
    m_limit = limit;
    m_runTag = runTag;
    m_minNow = std::numeric_limits<qint64>::max();
    m_maxNow = std::numeric_limits<qint64>::min();
    setUsers(1);
    if (retention == Retention::TotalsOnly)
        return;
    const auto n = static_cast<size_t>(m_requests);
    m_now.assign(n, 0);
    m_sentMicros.assign(n, 0);
    m_latency.assign(n, 0);
    m_count.assign(n, -1);
    m_truth.assign(n, 0);
    m_connection.assign(n, 0);
    m_flags.assign(n, 0);
    m_memberKind.assign(n, quint8(RequestRecord::MemberKind::Unknown));
    // m_memberOffset and m_memberLength are filled at the first text member: a run whose members
    // are its nows or its request ids (the built-in limiters) never needs them.
}

void RequestLog::setUsers(int users)
{
    m_users = std::max(users, 1);
    m_sortedNows.assign(size_t(m_users), {});
    m_userTotals.assign(size_t(m_users), {});
}

QByteArray RequestLog::requestId(const QByteArray& runTag, quint32 id)
{
    return runTag + ':' + QByteArray::number(id);
}

QByteArray RequestLog::requestId(int i) const
{
    return requestId(m_runTag, static_cast<quint32>(i));
}

void RequestLog::add(const std::vector<RequestRecord>& batch)
{
    if (keepsRequests())
        addRows(batch);
    else
        addTotals(batch);
    advanceTruth();
}

quint8 RequestLog::count(const RequestRecord& record)
{
    quint8 flags = Done;
    UserTotals& user = m_userTotals[size_t(userOf(int(record.id)))];
    ++user.finished;
    if (!record.error.isEmpty()) {
        flags |= Failed;
        ++m_errors;
        ++user.errors;
        int index = m_errorTexts.indexOf(record.error);
        if (index < 0 && m_errorTexts.size() < UINT16_MAX) {
            index = static_cast<int>(m_errorTexts.size());
            m_errorTexts << record.error;
        }
        if (keepsRequests())
            m_errorOf[record.id] = static_cast<quint16>(std::max(index, 0));
        return flags;
    }
    if (record.added >= 0) {
        flags |= AddedKnown;
        if (record.added > 0) {
            flags |= Added;
            ++m_stored;
            ++user.stored;
        } else {
            ++m_overwritten;
            ++user.overwritten;
        }
    } else {
        ++m_addedUnknown; // a reply of just a count: whether ZADD added is not said
    }
    const bool admitted
        = record.verdict >= 0 ? record.verdict == 1 : (m_limit == 0 || (record.count >= 0 && record.count <= m_limit));
    if (admitted) {
        flags |= Admitted;
        ++m_admitted;
        ++user.admitted;
    }
    m_maxCount = std::max(m_maxCount, record.count);
    user.maxCount = std::max(user.maxCount, record.count);
    m_minNow = std::min(m_minNow, record.now);
    m_maxNow = std::max(m_maxNow, record.now);
    m_latencies.add(record.latencyMicros); // the full log's exact percentiles start from it too
    return flags;
}

void RequestLog::addRows(const std::vector<RequestRecord>& batch)
{
    for (const RequestRecord& record : batch) {
        const size_t i = record.id;
        if (i >= m_now.size() || (m_flags[i] & Done))
            continue;
        m_now[i] = record.now;
        m_sentMicros[i] = static_cast<quint32>(std::clamp<qint64>(record.sentMicros, 0, UINT32_MAX));
        m_latency[i] = record.latencyMicros;
        m_connection[i] = record.connection;
        m_count[i] = static_cast<qint32>(std::clamp<qint64>(record.count, -1, INT32_MAX));
        m_memberKind[i] = quint8(record.memberKind);
        if (record.memberKind == RequestRecord::MemberKind::Text) {
            if (m_memberOffset.empty()) {
                m_memberOffset.assign(m_now.size(), 0);
                m_memberLength.assign(m_now.size(), 0);
            }
            m_memberOffset[i] = static_cast<quint32>(m_members.size());
            m_memberLength[i] = static_cast<quint16>(std::min<int>(record.member.size(), UINT16_MAX));
            m_members.append(record.member.constData(), m_memberLength[i]);
        }
        m_flags[i] = count(record);
        ++m_finished;
    }
}

void RequestLog::addTotals(const std::vector<RequestRecord>& batch)
{
    for (const RequestRecord& record : batch) {
        if (record.id >= static_cast<quint32>(m_requests) || record.id < static_cast<quint32>(m_truthPrefix))
            continue;
        const size_t offset = record.id - static_cast<quint32>(m_truthPrefix);
        if (offset >= m_pending.size())
            m_pending.resize(offset + 1);
        Pending& pending = m_pending[offset];
        if (pending.flags & Done)
            continue;
        pending.now = record.now;
        pending.flags = count(record);
        ++m_finished;
    }
}

void RequestLog::advanceTruth()
{
    // truth(i) = successful requests j <= i with now(j) > now(i) - window: what a limiter with
    // unique members would count (ZREMRANGEBYSCORE removes scores <= now - window).
    if (keepsRequests()) {
        const size_t n = m_now.size();
        while (static_cast<size_t>(m_truthPrefix) < n && (m_flags[m_truthPrefix] & Done)) {
            const int i = m_truthPrefix++;
            if (m_flags[i] & Failed)
                continue;
            m_truth[i] = static_cast<qint32>(truthOf(m_now[i], m_flags[i], userOf(i)));
            m_flags[i] |= TruthKnown;
        }
        return;
    }
    while (!m_pending.empty() && (m_pending.front().flags & Done)) {
        const Pending pending = m_pending.front();
        m_pending.pop_front();
        const int i = m_truthPrefix++;
        if (!(pending.flags & Failed)) {
            truthOf(pending.now, pending.flags, userOf(i));
            // Forget the nows that no request within the allowance can count any more.
            trim(&m_sortedNows[size_t(userOf(i))], m_newestTruthNow - m_window - m_disorderAllowance);
        }
    }
}

void RequestLog::trim(std::vector<qint64>* sortedNows, qint64 horizon)
{
    // In chunks of at least half the list, so that erasing from the front stays cheap.
    constexpr size_t trimAtLeast = 4096;
    if (sortedNows->size() < trimAtLeast || sortedNows->front() > horizon)
        return;
    const auto end = std::upper_bound(sortedNows->begin(), sortedNows->end(), horizon);
    if (static_cast<size_t>(end - sortedNows->begin()) >= sortedNows->size() / 2)
        sortedNows->erase(sortedNows->begin(), end);
}

qint64 RequestLog::truthOf(qint64 now, quint8 flags, int user)
{
    std::vector<qint64>& nows = m_sortedNows[size_t(user)];
    nows.insert(std::upper_bound(nows.begin(), nows.end(), now), now);
    m_newestTruthNow = std::max(m_newestTruthNow, now);
    const auto firstInWindow = std::upper_bound(nows.begin(), nows.end(), now - m_window);
    const qint64 truth = nows.end() - firstInWindow;
    if ((flags & Admitted) && m_limit > 0 && truth > m_limit) {
        ++m_admittedOverLimit;
        ++m_userTotals[size_t(user)].admittedOverLimit;
    }
    return truth;
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

RequestRecord RequestLog::record(int i) const
{
    RequestRecord record;
    record.id = quint32(i);
    record.connection = quint16(connection(i));
    record.added = qint8(added(i));
    record.memberKind = memberKind(i);
    record.now = now(i);
    record.sentMicros = sentMicros(i);
    record.latencyMicros = latencyMicros(i);
    record.count = count(i);
    record.verdict = qint8(isFailed(i) ? -1 : (isAdmitted(i) ? 1 : 0));
    if (record.memberKind == RequestRecord::MemberKind::Text)
        record.member = member(i);
    record.error = error(i);
    return record;
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
    if (!keepsRequests()) {
        std::vector<quint32> result;
        result.reserve(percents.size());
        for (const double percent : percents)
            result.push_back(m_latencies.percentile(percent));
        return result;
    }
    // Exact, without sorting a million values: the histogram says which bucket each rank falls
    // in, and the rank is selected among the few values of that bucket.
    const quint64 total = m_latencies.count();
    std::vector<quint32> result(percents.size(), 0);
    if (total == 0)
        return result;
    struct Wanted
    {
        int bucket = 0;
        quint64 rankInBucket = 0;
        std::vector<quint32> values;
    };
    std::vector<Wanted> wanted(percents.size());
    for (size_t p = 0; p < percents.size(); ++p) {
        auto rank = static_cast<quint64>(std::llround(std::clamp(percents[p] / 100.0, 0.0, 1.0) * double(total - 1)));
        int bucket = 0;
        while (rank >= m_latencies.inBucket(bucket))
            rank -= m_latencies.inBucket(bucket++);
        wanted[p].bucket = bucket;
        wanted[p].rankInBucket = rank;
        wanted[p].values.reserve(size_t(m_latencies.inBucket(bucket)));
    }
    for (size_t i = 0; i < m_flags.size(); ++i) {
        if (!(m_flags[i] & Done) || (m_flags[i] & Failed))
            continue;
        const int bucket = LatencyHistogram::bucketOf(m_latency[i]);
        for (Wanted& w : wanted) {
            if (w.bucket == bucket)
                w.values.push_back(m_latency[i]);
        }
    }
    for (size_t p = 0; p < wanted.size(); ++p) {
        std::vector<quint32>& values = wanted[p].values;
        const auto nth = values.begin() + static_cast<std::ptrdiff_t>(wanted[p].rankInBucket);
        std::nth_element(values.begin(), nth, values.end());
        result[p] = *nth;
    }
    return result;
}

size_t RequestLog::memoryBytes() const
{
    size_t sortedNowsBytes = m_sortedNows.capacity() * sizeof(std::vector<qint64>);
    for (const auto& nows : m_sortedNows)
        sortedNowsBytes += nows.capacity() * sizeof(qint64);
    return m_now.capacity() * sizeof(qint64) + m_sentMicros.capacity() * sizeof(quint32)
        + m_latency.capacity() * sizeof(quint32) + m_count.capacity() * sizeof(qint32)
        + m_truth.capacity() * sizeof(qint32) + m_connection.capacity() * sizeof(quint16) + m_flags.capacity()
        + m_memberKind.capacity() + m_memberOffset.capacity() * sizeof(quint32)
        + m_memberLength.capacity() * sizeof(quint16) + static_cast<size_t>(m_members.capacity()) + sortedNowsBytes
        + m_userTotals.capacity() * sizeof(UserTotals) + m_errorOf.size() * 32 + m_pending.size() * sizeof(Pending)
        + m_latencies.memoryBytes();
}

namespace {
constexpr quint32 exactBelow = 1024;
constexpr int bucketsPerPower = 512; // 9 bits below the leading one: within 1 / 512
constexpr int powers = 32 - 10; // 2^10 .. 2^31
constexpr int latencyBuckets = int(exactBelow) + powers * bucketsPerPower;
} // namespace

int LatencyHistogram::bucketCount()
{
    return latencyBuckets;
}

int LatencyHistogram::bucketOf(quint32 micros)
{
    if (micros < exactBelow)
        return static_cast<int>(micros);
    const int power = 31 - qCountLeadingZeroBits(micros); // 10 .. 31
    const int shift = power - 9;
    return int(exactBelow) + (power - 10) * bucketsPerPower + int((micros >> shift) - bucketsPerPower);
}

quint32 LatencyHistogram::valueOf(int bucket)
{
    if (bucket < int(exactBelow))
        return static_cast<quint32>(bucket);
    const int power = 10 + (bucket - int(exactBelow)) / bucketsPerPower;
    const int inPower = bucketsPerPower + (bucket - int(exactBelow)) % bucketsPerPower;
    const auto mantissa = quint64(inPower);
    const int shift = power - 9;
    return static_cast<quint32>((mantissa << shift) + (quint64(1) << shift) / 2); // the bucket's middle
}

void LatencyHistogram::add(quint32 micros)
{
    if (m_buckets.empty())
        m_buckets.assign(latencyBuckets, 0);
    ++m_buckets[static_cast<size_t>(bucketOf(micros))];
    ++m_count;
}

quint32 LatencyHistogram::percentile(double percent) const
{
    if (m_count == 0)
        return 0;
    const auto rank = static_cast<quint64>(std::llround(std::clamp(percent / 100.0, 0.0, 1.0) * double(m_count - 1)));
    quint64 below = 0;
    for (size_t bucket = 0; bucket < m_buckets.size(); ++bucket) {
        below += m_buckets[bucket];
        if (below > rank)
            return valueOf(static_cast<int>(bucket));
    }
    return valueOf(latencyBuckets - 1);
}

void RequestLog::setTruth(int i, qint64 truth)
{
    if (i < 0 || i >= m_truthPrefix || size_t(i) >= m_truth.size())
        return;
    if (truth < 0) {
        m_flags[size_t(i)] &= quint8(~TruthKnown);
        return;
    }
    m_truth[size_t(i)] = qint32(std::min<qint64>(truth, INT32_MAX));
    m_flags[size_t(i)] |= TruthKnown;
}
