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
class LimiterStore
{
public:
    enum class Kind {
        SortedSet, // one member per request, scored by its time (the sliding log)
    };
    struct Key
    {
        QByteArray suffix; // appended to the run key; "" = the run key itself
        QByteArray type; // what TYPE answers once the limiter wrote it; "" = any
    };

    // A ZSET at the run key, and the given companions.
    static LimiterStore sortedSet(QVector<Key> companions = {});

    Kind kind() const { return m_kind; }
    const QVector<Key>& keys() const { return m_keys; }
    QList<QByteArray> keysFor(const QByteArray& runKey) const;
    // Empty when the run may write every key of the store: each is free, or (mayReuse: the user
    // said so) holds what this limiter writes there. Else what is wrong, naming the key, and what
    // to do. Reads only: TYPE of each key, no listing.
    QString checkKeys(RedisConnection& connection, const QByteArray& runKey, bool mayReuse = false) const;
    // The requests the store holds in the window that ends at its newest entry; -1 unknown.
    qint64 countInWindow(RedisConnection& connection, const QByteArray& runKey, qint64 windowInNowUnits) const;
    // The requests the store holds at all (ZCARD); -1 unknown.
    qint64 size(RedisConnection& connection, const QByteArray& runKey) const;
    // DEL of every key; refuses (false) keys outside zsetlab's prefix.
    bool deleteKeys(RedisConnection& connection, const QByteArray& runKey) const;

private:
    Kind m_kind = Kind::SortedSet;
    QVector<Key> m_keys;
};
