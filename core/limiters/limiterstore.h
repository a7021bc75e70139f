#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QVector>

class RedisConnection;

// Where a limiter keeps its state in Redis, and what zsetlab does with it around a run: check the
// keys before the first call (so a key of another type fails the run with nothing written), read
// the count left in the window when the run ends, and delete the keys. A run key is the store's
// first key; companions (a counter beside a ZSET) are named by a suffix of it.
// Each kind says what "the count left in the window" means for it: members of a log, a counter,
// a field of a hash, or nothing (a time, from which the count cannot be read without the clock).
class LimiterStore
{
public:
    enum class Kind {
        SortedSet, // one member per request, scored by its time (the sliding log)
        Counter, // a string holding the requests of the current window (INCR)
        Hash, // a few numbers in one hash (two window counters, a token bucket)
        List, // the times of the newest requests, newest first (LPUSH + LTRIM)
        ArrivalTime, // a string holding a time (GCRA's theoretical arrival time)
    };
    struct Key
    {
        QByteArray suffix; // appended to the run key; "" = the run key itself
        QByteArray type; // what TYPE answers once the limiter wrote it; "" = any
    };

    // A ZSET at the run key, and the given companions.
    static LimiterStore sortedSet(QVector<Key> companions = {});
    // A counter (a string) at the run key, and the given companions.
    static LimiterStore counter(QVector<Key> companions = {});
    // A hash at the run key; countField names the field that holds a count ("" = none).
    static LimiterStore hash(const QByteArray& countField = {});
    static LimiterStore list();
    static LimiterStore arrivalTime();

    Kind kind() const { return m_kind; }
    const QVector<Key>& keys() const { return m_keys; }
    QList<QByteArray> keysFor(const QByteArray& runKey) const;
    // Empty when the run may write every key of the store: each is free, or (mayReuse: the user
    // said so) holds what this limiter writes there. Else what is wrong, naming the key, and what
    // to do. Reads only: TYPE of each key, no listing. On a cluster, also refuses keys in two slots.
    QString checkKeys(RedisConnection& connection, const QByteArray& runKey, bool mayReuse = false) const;
    // The requests the store holds in the window that ends at its newest entry; -1 unknown.
    qint64 countInWindow(RedisConnection& connection, const QByteArray& runKey, qint64 windowInNowUnits) const;
    // The requests the store holds at all (ZCARD, LLEN); -1 unknown or not a collection.
    qint64 size(RedisConnection& connection, const QByteArray& runKey) const;
    // Bytes the store's keys take in the server (MEMORY USAGE, every nested value counted), and
    // in *keys how many of them exist; -1 when the server cannot tell.
    qint64 memoryBytes(RedisConnection& connection, const QByteArray& runKey, int* keys = nullptr) const;
    // DEL of every key; refuses (false) keys outside zsetlab's prefix. False with *why (the
    // server's error) when the server refused; *busy when it refused because a script runs.
    bool deleteKeys(RedisConnection& connection, const QByteArray& runKey, QString* why = nullptr,
                    bool* busy = nullptr) const;
    // The last safety net when the keys cannot be deleted: each that exists without a TTL gets
    // one of ttlMs. The longest TTL left among them in ms (-1: a key stays without one, -2: none
    // is left).
    qint64 expireKeys(RedisConnection& connection, const QByteArray& runKey, qint64 ttlMs) const;

    // A key the user named is claimed by one run at a time: a marker written with SET NX before
    // the keys are checked, so that two runs started together can never both find the key free
    // and write into it. The marker sits in the run key's slot (its hash tag, or the run key as
    // one) under zsetlab's prefix, holds the run's tag, and expires after ttlMs as a last safety
    // net (a run that is killed cannot release it).
    static QByteArray claimKeyOf(const QByteArray& runKey);
    // True when this run holds the claim now; false with *why (another run holds it, naming the
    // marker and when it expires, or the server refused the SET).
    static bool claim(RedisConnection& connection, const QByteArray& runKey, const QByteArray& owner, qint64 ttlMs,
                      QString* why);
    // Deletes the marker if it is still this run's (compared and deleted in one script).
    static bool release(RedisConnection& connection, const QByteArray& runKey, const QByteArray& owner);
    // claim() of every key the run writes (keysFor()): a run whose companion is another run's key
    // (--key rl and --key rl:seq) meets that run's claim. All or none: the claims taken before a
    // refusal are released.
    bool claimKeys(RedisConnection& connection, const QByteArray& runKey, const QByteArray& owner, qint64 ttlMs,
                   QString* why) const;
    void releaseKeys(RedisConnection& connection, const QByteArray& runKey, const QByteArray& owner) const;

private:
    static LimiterStore make(Kind kind, const QByteArray& type, QVector<Key> companions = {});

    Kind m_kind = Kind::SortedSet;
    QVector<Key> m_keys;
    QByteArray m_countField; // Hash: the field holding the count
};
