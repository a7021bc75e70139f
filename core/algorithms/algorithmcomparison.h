#pragma once

#include "burstplan.h"
#include "burstsummary.h"
#include "redisconnection.h"

#include <QJsonObject>
#include <QMetaType>
#include <QObject>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <thread>
#include <vector>

// What the algorithms are compared on: the traffic of a burst plan, fired at each limiter in turn.
//
// The traffic is one list of timestamps, made once and replayed at every algorithm as compare
// mode replays them: the pacing's own arrival times in ms (`--clock frozen`: every request in one
// millisecond), starting at the last millisecond of a fixed window (now mod window = window - 1),
// so that traffic which opens with a burst straddles a window boundary. Request i belongs to user
// i mod users (round robin); each user has its own keys and its own limit. The calls go out on one
// connection (on a cluster, one per master: each user's on its key's master), `pipeline` at a
// time, so the server sees each user's calls in order.
struct ComparisonPlan
{
    BurstPlan burst; // requests, pace, clock, window, limit, seed, pipeline; not its limiter or key
    QStringList limiters; // catalog ids, in order; empty: every algorithm of the catalog
    int users = 1;
    bool keepKeys = false; // leave each algorithm's keys in Redis (to inspect them)

    static constexpr int maxUsers = 100'000;

    // Empty when the plan can run, else what to change.
    QString validate() const;
    QStringList limiterIds() const;
    // The timestamps every algorithm gets, in ms, the first one at startMs.
    std::vector<qint64> timestamps(qint64 startMs) const;
    // The last millisecond of the window that holds wallMs.
    static qint64 alignedStart(qint64 wallMs, qint64 windowMs);
    int userOf(int request) const { return request % users; }
    // The key of one user under an algorithm's run key (the run key itself when there is one user).
    QByteArray userKey(const QByteArray& runKey, int user) const;
};

// One algorithm on the traffic. "By the truth" is the decision of SlidingWindowTruth on the same
// timestamps, user by user: over the limit = admitted here and refused by the truth; under the
// limit = refused here and admitted by the truth. (Once an algorithm has decided one request
// otherwise, the two logs differ and later requests may differ both ways.)
struct AlgorithmTally
{
    QString id;
    QByteArray runKey;
    qint64 requests = 0; // answered
    qint64 admitted = 0;
    qint64 admittedOverLimit = 0;
    qint64 rejectedUnderLimit = 0;
    qint64 truthAdmitted = 0;
    qint64 memoryBytes = -1; // MEMORY USAGE of every key of every user at the end; -1 unknown
    int keys = 0; // the keys that held data at the end
    double memoryBytesPerKey = -1; // memoryBytes / users: what one user's key(s) hold
    qint64 serverCalls = 0; // EVALSHA calls the server counted during the run
    double serverUsecPerCall = -1; // INFO commandstats: usec / calls over the run; -1 unknown
    QString error;

    QJsonObject toJson() const;
};

struct ComparisonResult
{
    QString serverVersion;
    ComparisonPlan plan;
    QVector<AlgorithmTally> algorithms;
    BurstFailure failure;
    bool stopped = false;

    // {"schema": "zsetlab.algorithms/1", "server_version", "plan", "algorithms": [...]}
    QJsonObject toJson() const;
    // A table, one row per algorithm.
    QString toText() const;
};

// Fires the same timestamps at each chosen algorithm on a real server and measures each (see
// ComparisonPlan and AlgorithmTally). Asynchronous: start() returns at once, the work runs on a
// thread of its own with one connection, algorithmFinished() follows each algorithm and
// finished() comes once at the end (also after stop() or a failure, with what was measured).
// Lives in, and is used from, one thread with an event loop.
class AlgorithmComparison : public QObject
{
    Q_OBJECT
public:
    explicit AlgorithmComparison(QObject* parent = nullptr);
    ~AlgorithmComparison() override; // stops and joins

    // False, with planError(), when the plan is invalid or a comparison is running.
    bool start(const RedisEndpoint& endpoint, const ComparisonPlan& plan, const ConnectOptions& options = {});
    // Ends after the calls in flight; the algorithm cut short is left out.
    void stop();
    bool isRunning() const { return m_running; }
    QString planError() const { return m_planError; }
    // Final after finished().
    const ComparisonResult& result() const { return m_result; }

signals:
    void algorithmStarted(int index, const QString& id);
    void progress(int index, int answered, int total);
    void algorithmFinished(const AlgorithmTally& tally);
    void finished(const ComparisonResult& result);

private:
    void work(RedisEndpoint endpoint, ConnectOptions options, ComparisonPlan plan);

    ComparisonResult m_result;
    QString m_planError;
    bool m_running = false;
    std::atomic<bool> m_stop {false};
    std::thread m_thread;
};

Q_DECLARE_METATYPE(AlgorithmTally)
Q_DECLARE_METATYPE(ComparisonResult)
