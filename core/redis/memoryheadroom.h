#pragma once

// MemoryHeadroom: how full a server is and what it does when it is full, read before zsetlab
// writes to a server it did not start. A server with maxmemory and an evicting policy deletes
// keys to make room (any key under allkeys-*, keys with a TTL under volatile-*), so a run that
// grows there can push other people's keys out: zsetlab asks before it may.

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <chrono>
#include <memory>

class RedisConnection;
struct ConnectOptions;

struct MemoryHeadroom
{
    bool known = false;
    QString unknownWhy; // !known: why (INFO memory refused, a field missing)
    bool connectionLost = false; // !known because the server did not answer (not a refusal)
    qint64 maxMemory = 0; // 0: no limit
    QString policy; // maxmemory_policy: "noeviction", "allkeys-lru", "volatile-ttl", ...
    qint64 usedMemory = 0;

    // INFO memory on `connection`, which must not be busy with anything else.
    static MemoryHeadroom read(RedisConnection& connection);
    static MemoryHeadroom parse(const QByteArray& infoMemory);

    // Redis may delete keys to make room: a limit, and a policy other than noeviction.
    bool evicts() const;
    qint64 headroom() const;
    // "maxmemory 30 MB, allkeys-lru: 12.5 MB used, 17.5 MB left"
    QString describe() const;
    QJsonObject toJson() const;
    // Read at all (a server zsetlab started is not).
    bool wasRead() const { return known || !unknownWhy.isEmpty(); }
};

// Whether a run may write to a server zsetlab did not start, as far as eviction goes.
namespace EvictionCheck {
// A run stops once the server's used memory has grown by this share of the headroom it had
// before the run (its own keys are then deleted).
constexpr double shareOfHeadroom = 0.5;
// What a built-in limiter's run may hold at most, for `entries` ZSET members or counters: an
// upper bound of Redis's cost of a member (skiplist node, dict entry, the member's text).
qint64 estimateBytes(qint64 entries);
// Empty when the run may go on `where`: the server cannot evict, or it can but the run's
// `estimate` (bytes; -1 for a user's script, which may write any amount in one call) stays under
// the share of the headroom, or what it does is unknown (INFO refused) and the run is a built-in
// limiter's. Else why not, and that --allow-eviction (or the window's question) consents.
QString refusal(const MemoryHeadroom& memory, qint64 estimate, const QString& where);
// The used memory at which a run that started at `before` is stopped; -1: no watch is needed.
qint64 stopAt(const MemoryHeadroom& before);
// Why a run was stopped at `now`.
QString stopped(const MemoryHeadroom& before, const MemoryHeadroom& now, const QString& where);
} // namespace EvictionCheck

// A run's guard against eviction on a server zsetlab did not start: admit() reads the headroom
// before anything is written, and, where the server evicts, poll() reads it again during the run
// on a connection of its own and says when the run must stop.
class MemoryWatch
{
public:
    enum class Admission {
        Admitted,
        Refused, // the server evicts (or may), and the user did not consent: *why says so
        Lost, // the server did not answer INFO memory (a timeout, a dropped connection): *why
    };
    // On `control` (already open): may the run write there (EvictionCheck::refusal;
    // options.allowEviction consents)? Nothing is read on a server zsetlab started.
    Admission admit(RedisConnection& control, const ConnectOptions& options, qint64 estimate, QString* why);
    bool isWatching() const { return m_stopAt >= 0; }
    // Empty while the run may go on; else why it must stop. A server that cannot be read any
    // more ends the watch (the run's own connections tell whether the server is gone).
    QString poll();
    // poll(), at most once every pollEvery (for a loop that runs calls one by one).
    QString pollIfDue();
    const MemoryHeadroom& before() const { return m_before; }
    static constexpr auto pollEvery = std::chrono::milliseconds(50);

private:
    std::unique_ptr<RedisConnection> m_connection;
    MemoryHeadroom m_before;
    qint64 m_stopAt = -1;
    QString m_where;
    std::chrono::steady_clock::time_point m_lastPoll;
};
