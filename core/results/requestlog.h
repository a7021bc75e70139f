#pragma once

// RequestLog: every request of a burst in columns, with its latencies and the true count in the window.

#include "requestrecord.h"

#include <QByteArray>
#include <QStringList>

#include <algorithm>
#include <deque>
#include <limits>
#include <unordered_map>
#include <vector>

// Latencies in a fixed number of buckets: exact below 1024 us, then 512 buckets per power of two
// (within 0.2 %). Memory does not grow with the number of requests.
class LatencyHistogram
{
public:
    void add(quint32 micros);
    quint64 count() const { return m_count; }
    // The same rank as RequestLog's exact percentiles: round(percent / 100 * (count - 1)).
    quint32 percentile(double percent) const;
    size_t memoryBytes() const { return m_buckets.capacity() * sizeof(quint64); }

    // The bucket a latency falls in, of bucketCount(): in the order of the latencies.
    static int bucketOf(quint32 micros);
    static int bucketCount();
    quint64 inBucket(int bucket) const { return m_buckets.empty() ? 0 : m_buckets[size_t(bucket)]; }

private:
    static quint32 valueOf(int bucket);
    std::vector<quint64> m_buckets;
    quint64 m_count = 0;
};

// The log of one burst: per request what was sent and what the limiter answered, beside the ground
// truth (how many requests really were in the window). Columns, not objects, so that a million
// requests fit in a few tens of MB. Owned and used by one thread (the engine's owner).
class RequestLog
{
public:
    enum Flag : quint8 {
        Done = 1,
        Failed = 2,
        AddedKnown = 4,
        Added = 8,
        Admitted = 16,
        TruthKnown = 32,
    };

    // EveryRequest keeps a row per request; TotalsOnly keeps the running totals, the truth's
    // counts and a latency histogram, in memory that does not grow with the run: size() is then
    // 0 and the per-request accessors must not be called.
    enum class Retention { EveryRequest, TotalsOnly };

    // Prepares an empty log for `requests` requests. windowInNowUnits and limit define the truth
    // and the verdicts; runTag rebuilds request ids (see requestId()). With TotalsOnly, the truth
    // forgets nows older than the newest minus the window minus disorderAllowance: exact as long
    // as no request's now lags the newest one by more than that.
    void reset(int requests, qint64 windowInNowUnits, qint64 limit, const QByteArray& runTag,
               Retention retention = Retention::EveryRequest, qint64 disorderAllowance = 0);
    // Right after reset(): request i belongs to user i mod users, each its own limiter. The truth
    // of a request then counts its own user's requests only, and totals are kept per user too.
    void setUsers(int users);
    int users() const { return m_users; }
    int userOf(int i) const { return m_users > 1 ? i % m_users : 0; }
    // Stores finished requests (any order) and advances the truth over the finished prefix.
    void add(const std::vector<RequestRecord>& batch);

    // Rows kept: the planned requests, or 0 with TotalsOnly.
    int size() const { return static_cast<int>(m_now.size()); }
    int requests() const { return m_requests; }
    bool keepsRequests() const { return m_retention == Retention::EveryRequest; }
    int finished() const { return m_finished; }
    // Requests 0 .. truthPrefix()-1 are all finished and have their truth computed.
    int truthPrefix() const { return m_truthPrefix; }
    qint64 windowInNowUnits() const { return m_window; }
    qint64 limit() const { return m_limit; }

    bool isDone(int i) const { return m_flags[i] & Done; }
    bool isFailed(int i) const { return m_flags[i] & Failed; }
    // 1 new member, 0 overwritten an existing one, -1 unknown (failed or not reported).
    int added(int i) const { return (m_flags[i] & AddedKnown) ? ((m_flags[i] & Added) ? 1 : 0) : -1; }
    bool isAdmitted(int i) const { return m_flags[i] & Admitted; }
    bool isAdmittedOverLimit(int i) const { return isAdmitted(i) && m_limit > 0 && truth(i) > m_limit; }
    qint64 now(int i) const { return m_now[i]; }
    qint64 sentMicros(int i) const { return m_sentMicros[i]; }
    quint32 latencyMicros(int i) const { return m_latency[i]; }
    int connection(int i) const { return m_connection[i]; }
    qint64 count(int i) const { return m_count[i]; }
    // The true number of successful requests in the window at request i (-1 until known).
    qint64 truth(int i) const { return (m_flags[i] & TruthKnown) ? m_truth[i] : -1; }
    // Request i as the views draw its count: the truth 0 while it is not known.
    CountedRequest counted(int i) const
    {
        return {quint32(i), count(i), std::max<qint64>(truth(i), 0), isFailed(i), isAdmittedOverLimit(i)};
    }
    // A truth known from elsewhere (a watched key's, which MONITOR gave): -1 unknown. For a
    // request of the finished prefix.
    void setTruth(int i, qint64 truth);
    QByteArray member(int i) const;
    RequestRecord::MemberKind memberKind(int i) const { return RequestRecord::MemberKind(m_memberKind[i]); }
    QString error(int i) const;
    // Request i as the worker reported it (its verdict from the flags): to hand rows on again.
    RequestRecord record(int i) const;
    QByteArray requestId(int i) const;
    const QByteArray& runTag() const { return m_runTag; }
    static QByteArray requestId(const QByteArray& runTag, quint32 id);

    // Running totals.
    qint64 errors() const { return m_errors; }
    qint64 stored() const { return m_stored; }
    qint64 overwritten() const { return m_overwritten; }
    // Successful requests whose reply did not say whether ZADD added (a bare count).
    qint64 addedUnknown() const { return m_addedUnknown; }
    qint64 admitted() const { return m_admitted; }
    qint64 admittedOverLimit() const { return m_admittedOverLimit; }
    qint64 maxCount() const { return m_maxCount; }
    qint64 minNow() const { return m_minNow; }
    qint64 maxNow() const { return m_maxNow; }
    // The distinct error messages, in the order they first came.
    const QStringList& errorMessages() const { return m_errorTexts; }
    // Latency percentile (0..100) over finished, successful requests, in microseconds.
    quint32 latencyPercentile(double percent) const;
    std::vector<quint32> latencyPercentiles(const std::vector<double>& percents) const;

    // The totals of one user (all of them with one user).
    struct UserTotals
    {
        qint64 finished = 0;
        qint64 errors = 0;
        qint64 stored = 0;
        qint64 overwritten = 0;
        qint64 admitted = 0;
        qint64 admittedOverLimit = 0;
        qint64 maxCount = 0;
    };
    const std::vector<UserTotals>& userTotals() const { return m_userTotals; }

    // Bytes held by the log, for the memory benchmark.
    size_t memoryBytes() const;

private:
    // What TotalsOnly keeps of a finished request until the truth's prefix reaches it.
    struct Pending
    {
        qint64 now = 0;
        quint8 flags = 0;
    };

    quint8 count(const RequestRecord& record);
    static void trim(std::vector<qint64>* sortedNows, qint64 horizon);
    void addRows(const std::vector<RequestRecord>& batch);
    void addTotals(const std::vector<RequestRecord>& batch);
    void advanceTruth();
    qint64 truthOf(qint64 now, quint8 flags, int user);

    Retention m_retention = Retention::EveryRequest;
    int m_requests = 0;
    qint64 m_disorderAllowance = 0;
    qint64 m_window = 0;
    qint64 m_limit = 0;
    QByteArray m_runTag;

    std::vector<qint64> m_now;
    std::vector<quint32> m_sentMicros; // up to 71 minutes after the start
    std::vector<quint32> m_latency;
    std::vector<qint32> m_count;
    std::vector<qint32> m_truth;
    std::vector<quint16> m_connection;
    std::vector<quint8> m_flags;
    std::vector<quint8> m_memberKind;
    std::vector<quint32> m_memberOffset;
    std::vector<quint16> m_memberLength;
    QByteArray m_members; // the members that are not derived from now or the request id
    std::unordered_map<quint32, quint16> m_errorOf; // sparse: request -> index in m_errorTexts
    QStringList m_errorTexts;

    // Truth: the nows of the finished prefix, sorted (near-sorted input keeps inserts cheap), one
    // list per user.
    int m_users = 1;
    std::vector<std::vector<qint64>> m_sortedNows;
    std::vector<UserTotals> m_userTotals;
    // TotalsOnly: finished requests from the truth's prefix on (index = id - m_truthPrefix),
    // and the latencies.
    std::deque<Pending> m_pending;
    LatencyHistogram m_latencies;
    qint64 m_newestTruthNow = std::numeric_limits<qint64>::min();
    int m_truthPrefix = 0;
    int m_finished = 0;
    qint64 m_errors = 0;
    qint64 m_stored = 0;
    qint64 m_overwritten = 0;
    qint64 m_addedUnknown = 0;
    qint64 m_admitted = 0;
    qint64 m_admittedOverLimit = 0;
    qint64 m_maxCount = 0;
    qint64 m_minNow = 0;
    qint64 m_maxNow = 0;
};
