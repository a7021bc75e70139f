#pragma once

// AppTraffic: an app server's traffic (its own limiter script) for a watch to look at.

#include "redis/redisconnection.h"
#include "results/burstsummary.h"

#include <QByteArray>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QVector>

#include <atomic>
#include <thread>

// An app server's traffic, for a watch to look at: `perMs` requests per millisecond for
// `durationMs` on the real clock, request i from user i mod `users`, each user with a limiter key
// of its own. The limiter is a catalog entry (a script, called by EVALSHA) or a client-side one
// (ClientLimiter: four commands pipelined from application code).
struct AppPlan
{
    QString limiter = QStringLiteral("now"); // a catalog id, or client-now / client-unique
    int users = 1;
    double perMs = 1;
    qint64 durationMs = 1000;
    qint64 windowMs = 1000;
    qint64 limit = 0; // 0: none (the algorithms need one)
    QByteArray runKey; // empty: a fresh zsetlab:app:... key
    bool keepKeys = false;

    static constexpr int maxUsers = 10'000;
    static constexpr qint64 maxRequests = 10'000'000;
    static constexpr qint64 maxDurationMs = 3'600'000;

    // Empty when the plan can run, else what to change.
    QString validate() const;
    qint64 requests() const;
    // The key of one user: the run key itself for one user, else RUNKEY:u<n> (as `algorithms` names them).
    QByteArray userKey(int user) const;
};

// What one user's key saw, from the limiter's own replies: ZADD answered 1 (stored) or 0
// (overwritten: the member was there already), or nothing was added (refused, or a store
// that is not a sorted set).
struct AppKeyTally
{
    QByteArray key;
    qint64 requests = 0;
    qint64 stored = 0;
    qint64 overwritten = 0;
    qint64 notAdded = 0;
};

struct AppResult
{
    QString serverVersion;
    AppPlan plan;
    qint64 elapsedMs = 0;
    QVector<AppKeyTally> keys;
    BurstFailure failure;
    bool stopped = false;
    bool late = false; // the server could not take the rate: the traffic ended before every request

    qint64 requests() const;
    qint64 overwritten() const;
};

// Plays an AppPlan on one connection of its own thread. start() returns at once; finished()
// comes once, also after stop() or a failure, with what was answered. Nothing is written before
// every key of every user is known to be free; the keys are deleted at the end unless keepKeys.
class AppTraffic : public QObject
{
    Q_OBJECT
public:
    explicit AppTraffic(QObject* parent = nullptr);
    ~AppTraffic() override; // stops and joins

    bool start(const RedisEndpoint& endpoint, const AppPlan& plan, const ConnectOptions& options = {});
    void stop();
    QString planError() const { return m_planError; }
    const AppResult& result() const { return m_result; }

signals:
    void finished(const AppResult& result);

private:
    class Run; // one app's traffic, step by step (apptraffic.cpp)
    void work(RedisEndpoint endpoint, ConnectOptions options, AppPlan plan);

    AppResult m_result;
    QString m_planError;
    bool m_running = false;
    std::atomic<bool> m_stop {false};
    std::thread m_thread;
};

Q_DECLARE_METATYPE(AppResult)
