#pragma once

// TimelineModel: a run's requests as lanes x millisecond buckets, the one model every timeline draws.

#include "requestbatch.h"

#include <QByteArray>
#include <QtGlobal>

#include <array>
#include <map>
#include <vector>

// Requests by what their ZADD did: what a millisecond, a column and a lane add up.
struct RequestCounts
{
    int requests = 0;
    int stored = 0; // ZADD created the member (added = 1): the entry that survives
    int overwritten = 0; // ZADD only updated an existing member (added = 0)
    int failed = 0;
    int unknown = 0; // succeeded, but the reply did not say whether ZADD added

    void count(const RequestRecord& record);
    RequestCounts& operator+=(const RequestCounts& other);
};

// The requests of one millisecond of `now` in one lane, as a timeline stacks them.
struct MillisecondBucket : RequestCounts
{
    int firstRequest = -1; // smallest request id in the bucket
    int lastRequest = -1;
    int keptRequest = -1; // the smallest request whose member survived (see keptMember())
    // Its `now` within the millisecond (in the clock's unit) and how its member is made: a
    // million buckets cost 40 bytes each, the rare members that are text are kept apart.
    qint32 keptWithin = 0;
    RequestRecord::MemberKind keptKind = RequestRecord::MemberKind::Unknown;
};

// A timeline in lanes (one for a burst, one per app server for simulated servers) of buckets of
// one millisecond of `now`, measured from an origin in ms and aware of the clock's unit. Fed by
// the engine's batches, updated incrementally; summed into columns for drawing at any zoom, so a
// view never draws one item per request.
class TimelineModel
{
public:
    // One request as a tooltip lists it: the first requests of a run are kept (bounded).
    struct Sample
    {
        quint32 id = 0;
        int lane = 0;
        qint64 ms = 0;
        qint64 count = -1;
        qint8 added = -1;
        bool failed = false;
    };
    static constexpr size_t maxSamples = 4096;

    // One column of a zoomed-out view: the buckets in it summed.
    struct Column : RequestCounts
    {
        int busiestMs = 0; // the most requests any single ms in the column had
    };

    // Forgets every request. lanes: 1, or one per connection (a request goes to the lane of its
    // connection). originMs: the wall-clock ms drawn as 0; -1: the first batch's run start.
    void reset(int lanes = 1, qint64 originMs = -1);
    void add(const RequestBatch& batch);

    int laneCount() const { return int(m_lanes.size()); }
    const std::map<qint64, MillisecondBucket>& lane(int index) const { return m_lanes.at(size_t(index)); }
    const MillisecondBucket* bucketAt(int lane, qint64 ms) const;
    // Kept as requests arrive: a legend asks on every paint, a live run has a bucket per ms.
    const RequestCounts& laneTotal(int lane) const { return m_totals.at(size_t(lane)); }
    bool isEmpty() const { return m_requests == 0; }
    int requests() const { return m_requests; }
    qint64 originMs() const { return m_originMs; }
    qint64 unitsPerMs() const { return m_unitsPerMs; }
    // The ms (since the origin) of a `now` in the clock's unit; floor division, as a clock offset
    // can put a request before the origin.
    qint64 millisecondOf(qint64 now) const;
    qint64 firstMs() const { return m_firstMs; }
    qint64 lastMs() const { return m_lastMs; }
    int maxRequestsPerMs() const { return m_maxRequests; }

    // [fromMs, toMs) split into `count` equal columns of one lane.
    std::vector<Column> columns(int lane, double fromMs, double toMs, int count) const;
    // The kept requests of one millisecond of a lane (empty when the run had too many to keep).
    std::vector<Sample> samplesAt(int lane, qint64 ms) const;
    bool samplesComplete() const { return m_samplesComplete; }
    // The ZSET member of the kept request of a lane's millisecond (empty when none was kept).
    QByteArray keptMember(int lane, qint64 ms) const;

private:
    // The counts a column sums, kept again in runs of `chunkMs` milliseconds side by side: summing
    // columns walks memory in order instead of a tree node per millisecond (a live burst of a
    // minute has 60,000 of them, summed on every paint). 20 bytes per ms of a chunk in use.
    static constexpr qint64 chunkMs = 64;
    using Chunk = std::array<RequestCounts, chunkMs>;
    static qint64 chunkOf(qint64 ms) { return ms >= 0 ? ms / chunkMs : -((-ms + chunkMs - 1) / chunkMs); }

    std::vector<std::map<qint64, MillisecondBucket>> m_lanes;
    std::vector<std::map<qint64, Chunk>> m_chunks; // per lane: chunk -> its milliseconds' counts
    std::vector<RequestCounts> m_totals; // per lane
    std::vector<Sample> m_samples;
    QByteArray m_runTag;
    std::map<std::pair<int, qint64>, QByteArray> m_keptText; // (lane, ms) -> member, for text members
    bool m_samplesComplete = true;
    qint64 m_originMs = -1;
    qint64 m_unitsPerMs = 1;
    int m_requests = 0;
    qint64 m_firstMs = 0;
    qint64 m_lastMs = 0;
    int m_maxRequests = 0;
};
