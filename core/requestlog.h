#pragma once

#include "requestrecord.h"

#include <QByteArray>
#include <QStringList>

#include <unordered_map>
#include <vector>

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

    // Prepares an empty log for `requests` requests. windowInNowUnits and limit define the truth
    // and the verdicts; runTag rebuilds request ids (see requestId()).
    void reset(int requests, qint64 windowInNowUnits, qint64 limit, const QByteArray& runTag);
    // Stores finished requests (any order) and advances the truth over the finished prefix.
    void add(std::vector<RequestRecord>& batch);

    int size() const { return static_cast<int>(m_now.size()); }
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
    QByteArray member(int i) const;
    RequestRecord::MemberKind memberKind(int i) const { return RequestRecord::MemberKind(m_memberKind[i]); }
    QString error(int i) const;
    QByteArray requestId(int i) const;
    static QByteArray requestId(const QByteArray& runTag, quint32 id);

    // Running totals.
    qint64 errors() const { return m_errors; }
    qint64 stored() const { return m_stored; }
    qint64 overwritten() const { return m_overwritten; }
    qint64 admitted() const { return m_admitted; }
    qint64 admittedOverLimit() const { return m_admittedOverLimit; }
    qint64 maxCount() const { return m_maxCount; }
    qint64 minNow() const { return m_minNow; }
    qint64 maxNow() const { return m_maxNow; }
    // Latency percentile (0..100) over finished, successful requests, in microseconds.
    quint32 latencyPercentile(double percent) const;
    std::vector<quint32> latencyPercentiles(const std::vector<double>& percents) const;

    // Bytes held by the log, for the memory benchmark.
    size_t memoryBytes() const;

private:
    void advanceTruth();

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

    // Truth: the nows of the finished prefix, sorted (near-sorted input keeps inserts cheap).
    std::vector<qint64> m_sortedNows;
    int m_truthPrefix = 0;
    int m_finished = 0;
    qint64 m_errors = 0;
    qint64 m_stored = 0;
    qint64 m_overwritten = 0;
    qint64 m_admitted = 0;
    qint64 m_admittedOverLimit = 0;
    qint64 m_maxCount = 0;
    qint64 m_minNow = 0;
    qint64 m_maxNow = 0;
};
