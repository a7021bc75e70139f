#pragma once

#include <QtGlobal>

#include <map>
#include <vector>

class RequestLog;

// The requests of one millisecond of `now`, as the timeline stacks them.
struct MillisecondBucket
{
    int requests = 0;
    int stored = 0; // ZADD created the member (added = 1): the entry that survives
    int overwritten = 0; // ZADD only updated an existing member (added = 0)
    int failed = 0;
    int unknown = 0; // succeeded, but the script did not say whether it added
    int firstRequest = -1; // smallest request id in the bucket
    int lastRequest = -1;
    int storedRequest = -1; // a request whose member survived (the first one seen)
};

// Aggregates a RequestLog per millisecond of `now` (x = ms since the burst's origin), updated
// incrementally as batches arrive, and per pixel column for drawing at any zoom: a view never
// draws one item per request.
class TimelineBuckets
{
public:
    // origin: the `now` shown as 0 ms; unitsPerMs: 1 for ms clocks, 1000 for system-us.
    void reset(qint64 origin, qint64 unitsPerMs);
    void add(const RequestLog& log, const std::vector<quint32>& ids);
    void addAll(const RequestLog& log);

    qint64 millisecondOf(qint64 now) const;
    const std::map<qint64, MillisecondBucket>& buckets() const { return m_buckets; }
    const MillisecondBucket* bucketAt(qint64 ms) const;
    bool isEmpty() const { return m_buckets.empty(); }
    qint64 firstMs() const { return m_buckets.empty() ? 0 : m_buckets.begin()->first; }
    qint64 lastMs() const { return m_buckets.empty() ? 0 : m_buckets.rbegin()->first; }
    int maxRequestsPerMs() const { return m_maxRequests; }

    // One column of a zoomed-out view: the buckets in [fromMs, toMs) summed.
    struct Column
    {
        int requests = 0;
        int stored = 0;
        int overwritten = 0;
        int failed = 0;
        int busiestMs = 0; // the most requests any single ms in the column had
    };
    // Splits [fromMs, toMs) into `columns` equal columns.
    std::vector<Column> columns(double fromMs, double toMs, int columns) const;

private:
    qint64 m_origin = 0;
    qint64 m_unitsPerMs = 1;
    std::map<qint64, MillisecondBucket> m_buckets;
    int m_maxRequests = 0;
};
