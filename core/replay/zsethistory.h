#pragma once

// ZsetHistory: which members each user's ZSET held after every request of a recorded run.

#include <QByteArray>

#include <limits>
#include <memory>
#include <vector>

class RequestLog;

// The ZSET of a sliding-log limiter after any request, rebuilt from the log alone. The flow is
// the one of the catalog's ZSET limiters: every answered request first removes the members whose
// score is at most now - window (ZREMRANGEBYSCORE key 0 now-window), then a request whose reply
// carries ZADD's answer wrote its member with score now (a new member, or a score moved). Each
// user's requests work on that user's key alone.
//
// Built once in one pass (O(n log n)); then the size of a ZSET after request i is O(1) and its
// members cost O(blocks + members): a write is alive from the request that made it until the
// request that trimmed or replaced it (`endOf`), and blocks of writes keep the latest end they
// hold, so a seek skips the blocks that are gone. 12 bytes per request.
class ZsetHistory
{
public:
    static constexpr int blockSize = 1024;
    static constexpr qint32 alive = std::numeric_limits<qint32>::max();

    // From the finished prefix of the log (its truthPrefix(): requests after a gap are left out).
    void build(const RequestLog& log);
    // From the ends MONITOR showed (a watched key, one user): ends[i] is the request before which
    // request i's write left the set, `alive` if it did not, i if request i wrote nothing.
    void buildFromEnds(const RequestLog& log, const std::vector<qint32>& ends);
    void clear();
    int requests() const { return int(m_size.size()); }

    // How many members the ZSET of request i's user held right after request i.
    qint32 sizeAfter(int i) const { return m_size[size_t(i)]; }
    // Whether request i wrote its member into the ZSET.
    bool wrote(int i) const { return m_end[size_t(i)] != i; }
    // How many requests of its user wrote request i's member up to request i, itself included
    // (1: a new member; 3: the second overwrite); 0 when it wrote none.
    qint32 writesOfMemberThrough(int i) const { return m_writeNumber[size_t(i)]; }
    // The request that removed request i's write (trimmed or written again), or `alive`.
    qint32 endOf(int i) const { return m_end[size_t(i)]; }
    // The requests whose writes make up the ZSET of `user` right after request i, in request
    // order (callers sort by score as ZRANGE does).
    std::vector<int> writesAliveAfter(const RequestLog& log, int i, int user) const;
    size_t memoryBytes() const;

private:
    friend class ZsetHistoryBuilder;
    void summarizeBlocks(); // each block's largest end, once the ends are known

    std::vector<qint32> m_end; // per request: the request that ended its write (itself: none)
    std::vector<qint32> m_size; // per request: its user's ZSET size after it
    std::vector<qint32> m_writeNumber; // per request: writes of its member so far
    std::vector<qint32> m_blockLastEnd; // per block: the largest end of its writes
};

// A ZsetHistory built as a run's log grows: each advance() takes the requests the log has settled
// (its truthPrefix()) since the last, so that the one pass costs nothing at the run's end, where a
// million requests held the window for a sixth of a second. finish() gives the same history as
// ZsetHistory::build() on the whole log, and starts over.
class ZsetHistoryBuilder
{
public:
    ZsetHistoryBuilder();
    ~ZsetHistoryBuilder();
    ZsetHistoryBuilder(ZsetHistoryBuilder&&) noexcept;
    ZsetHistoryBuilder& operator=(ZsetHistoryBuilder&&) noexcept;

    void reset();
    void advance(const RequestLog& log);
    int built() const { return m_history.requests(); }
    ZsetHistory finish(const RequestLog& log);

private:
    struct Users;
    ZsetHistory m_history;
    std::unique_ptr<Users> m_users;
};
