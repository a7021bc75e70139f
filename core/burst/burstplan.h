#pragma once

// BurstPlan: what a burst fires (limiter, key, requests, pacing, clock, window, limit, connections, users).

#include "limiters/limitercatalog.h"

#include <QByteArray>
#include <QMetaType>
#include <QString>
#include <QVector>

#include <memory>
#include <optional>
#include <vector>

// When requests are sent, relative to the start of the burst.
struct Pacing
{
    // Bursts: groups of burstSize requests in one instant, one group every intervalMicros. With
    // a group the size of the limit every millisecond, the first two groups fall at the end of a
    // window and the start of the next when the traffic starts at a window's last millisecond.
    enum class Kind { Burst, Interval, Poisson, Bursts };
    Kind kind = Kind::Burst;
    qint64 intervalMicros = 0; // Interval: one request every intervalMicros; Bursts: one group
    double perMs = 0; // Poisson: mean arrivals per millisecond
    int burstSize = 0; // Bursts: requests per group

    // "burst", "interval:MICROS", "poisson:PER_MS", "bursts:N@MS"
    static bool parse(const QString& text, Pacing* pacing, QString* error);
    QString toString() const;
};

// What `now` each request carries.
enum class ClockKind {
    SystemMs, // wall clock in ms when the request is sent (Java's System.currentTimeMillis)
    SystemUs, // wall clock in microseconds when sent
    Frozen, // one `now` for the whole burst
    Schedule, // the pacing schedule's own timestamps (start + offset), sent as fast as possible
};
QString clockName(ClockKind clock);
bool parseClock(const QString& name, ClockKind* clock);
QStringList clockNames();

// One simulated app server of a burst with several clients: its own connection, its own arrivals
// and its own clock. See clientprofile.h for the text form and the merged timeline.
struct ClientProfile
{
    std::optional<Pacing> pacing; // empty: the plan's pacing
    qint64 offsetMs = 0; // this server's clock runs ahead (+) or behind (-) by this much
    double driftPpm = 0; // and gains (+) or loses (-) this many microseconds per second of the burst
};

// Everything that defines a burst. A plain value: copied into the engine's threads.
struct BurstPlan
{
    int requests = 1000;
    int connections = 1;
    int pipeline = 1;
    Pacing pacing;
    ClockKind clock = ClockKind::SystemMs;
    QVector<qint64> clockOffsetsMs; // per connection (missing entries: 0), to simulate skewed app servers
    // Empty: one schedule shared by `connections`. Otherwise one app server per entry, each on a
    // connection of its own (`connections` and `clockOffsetsMs` are then ignored); their arrivals
    // are merged into one timeline of `requests` requests in total.
    QVector<ClientProfile> clients;
    qint64 windowMs = 1000;
    qint64 limit = 0; // 0: no limit, every request is admitted
    // The limiter fired: a catalog entry, or a user's script made into one.
    LimiterRef limiter = LimiterCatalog::builtin("now");
    QByteArray key; // empty: a fresh zsetlab:run:… key
    // The user agreed that the run may write into `key` and its companions although they exist
    // already (the limiter trims them, adds members, sets their TTL). Without it, an existing key
    // stops the run before the first call: zsetlab writes no key it did not create in this run.
    bool reuseKey = false;
    quint64 seed = 1;
    // Client keys the requests are spread over, round robin (request i is user i mod users), each
    // its own limiter, as an API gateway sees its callers. 1: the run's key alone. More: user u
    // has the key ZsetKeys::userOfRun(key, u), a hash tag of its own, so that on a cluster the
    // users spread over the masters.
    int users = 1;
    bool keepKey = false; // false: the run deletes its key when it ends
    // Replays these `now` values (one per request, sent as fast as possible) instead of the clock:
    // compare mode fires the timestamps of one run at another strategy.
    std::shared_ptr<const std::vector<qint64>> replayNows;
    // A connection the server drops (killed, restarted) is made again with backoff for up to this
    // long, and the run goes on; its unanswered requests count as errors. 0: the run fails at once.
    int reconnectForMs = 10'000;
    // Requests the server refuses one at a time (OOM under maxmemory noeviction, BUSY, LOADING...)
    // count as errors and the run goes on, unless this is set. Script faults (a Lua error,
    // WRONGTYPE, a missing ACL permission) end the run either way: every request would fail alike.
    bool stopOnErrors = false;
    // False: the log keeps running totals and a latency histogram, not one row per request, so
    // memory stays flat however long the run (for soaks; the views then have nothing to draw).
    bool keepLog = true;

    static constexpr int maxRequests = 50'000'000;
    static constexpr int maxReconnectForMs = 600'000;
    static constexpr int maxConnections = 256;
    static constexpr int maxPipeline = 1024;
    static constexpr int maxUsers = 100'000;

    // Empty when the plan can run, else a message naming the field and its allowed range.
    QString validate() const;
    const LimiterScript& script() const { return limiter->script; }
    // The `now` unit: 1000 per ms for SystemUs, 1 otherwise.
    qint64 nowUnitsPerMs() const { return clock == ClockKind::SystemUs ? 1000 : 1; }
    qint64 windowInNowUnits() const { return windowMs * nowUnitsPerMs(); }
    qint64 clockOffsetMs(int connection) const
    {
        return clients.isEmpty() ? clockOffsetsMs.value(connection, 0) : clients.value(connection).offsetMs;
    }
    double clockDriftPpm(int connection) const { return clients.value(connection).driftPpm; }
    int userOf(int request) const { return users > 1 ? request % users : 0; }
    // The key of user u of a run whose key is runKey (runKey itself with one user).
    QByteArray userKey(const QByteArray& runKey, int user) const;
    int connectionCount() const { return clients.isEmpty() ? connections : int(clients.size()); }
    bool isPaced() const { return hasPacedArrivals() && clock != ClockKind::Schedule && !replayNows; }
    bool hasPacedArrivals() const;

    // Offsets of each request from the start of the burst, in microseconds: all 0 for a burst,
    // i * interval, or seeded Poisson arrivals. Deterministic for a given plan. With clients, the
    // merged timeline of all clients, and `clientOf` (if given) receives each request's client.
    std::vector<qint64> scheduleMicros(std::vector<quint16>* clientOf = nullptr) const;
};

Q_DECLARE_METATYPE(BurstPlan)
