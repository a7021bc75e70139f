#pragma once

#include "calltemplate.h"
#include "limiterscript.h"
#include "redisconnection.h"
#include "replyreading.h"

#include <QJsonObject>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <mutex>

// What the probe fires. Without a limit, {limit} carries noLimit so that no call is refused.
struct ProbeSettings
{
    qint64 windowMs = 60000;
    qint64 limit = 5;
    int spreadCalls = 10; // 1 s apart: a correct limiter stores each; their replies teach the reply style
    int sameNowCalls = 20;
    QVector<double> ratesPerMs {0.5, 2, 10, 50};
    int callsPerRate = 100;
    int slideCalls = 5; // each after the previous one left the window, with limit 1

    static constexpr qint64 noLimit = 1'000'000;
};

// One batch of calls on fresh keys, and what Redis showed afterwards.
struct ProbeScenario
{
    enum class Kind { Spread, SameNow, Rate, Slide };
    Kind kind = Kind::SameNow;
    // "spread", "same-now", "same-now-limit" (or "back-to-back..." when the script reads the
    // server's clock), "rate-2", "rate-2-limit", "slide"
    QString name;
    int calls = 0;
    double perMs = 0; // Rate
    qint64 spacingMicros = 0; // between the `now` of two calls (0 for same-now)
    qint64 limit = 0; // 0: none
    double elapsedMs = 0; // wall time the calls took

    int stored = -1; // entries in the sorted sets the script wrote; -1: it wrote none
    QStringList members; // a few of them
    qint64 ttlMs = -2; // PTTL of the first sorted set: -1 no expiry, -2 no key
    QStringList replies; // the first few replies, as shown
    int admitted = -1; // -1: the replies do not say
    int unclear = 0;
    QString replyNote;

    int expectedStored = -1; // what a correct limiter stores (scenarios without a limit)
    int expectedAdmitted = -1; // what a correct limiter admits (scenarios with a limit)
    bool problem = false;
};

struct ProbeReport
{
    enum class Failure { None, Connection, Script, Cancelled };
    Failure failure = Failure::None;
    QString failureMessage; // what happened and what to do
    int failureLine = 0; // the script's line, for Lua errors

    QString serverVersion;
    bool clockControlled = true; // false: the script reads the server clock (no {now} in the call)
    ReplyStyle replyStyle = ReplyStyle::Unknown;
    QString replyStyleWhy; // when Unknown
    QVector<ProbeScenario> scenarios;
    QStringList verdict; // sentences with the numbers; the last one sums up
    bool countsRight = false; // every scenario stored and admitted what a correct limiter would
    bool ttlProblem = false; // the key expires far too late, too early, or never
    QList<QByteArray> keys; // every key the calls named; all deleted again

    bool hasProblem() const { return failure != Failure::None || !countsRight || ttlProblem; }
    const ProbeScenario* scenario(const QString& name) const;
    QJsonObject toJson() const;
};

// Runs a user's limiter script on a real Redis, on fresh zsetlab: keys, the way a rate limiter
// is used: calls spread in time, calls sharing one `now`, calls at a few rates, with and without
// a limit, and calls more than a window apart. It reads the sorted sets the script wrote and
// its replies, and says with numbers whether it counted right. Blocking, on its own connection:
// call run() from a worker thread in a GUI; cancel() may come from any thread.
class ScriptProbe
{
public:
    ScriptProbe(LimiterScript script, CallTemplate call, ProbeSettings settings = {});

    ProbeReport run(const RedisEndpoint& endpoint, const ConnectOptions& options = {});
    void cancel();

private:
    bool runScenario(RedisConnection& connection, ScriptRunner& runner, ProbeScenario* scenario,
                     QVector<ReplyReading>* readings, ProbeReport* report);
    void judge(ProbeReport* report, const QVector<QVector<ReplyReading>>& readings) const;

    LimiterScript m_script;
    CallTemplate m_call;
    ProbeSettings m_settings;
    QList<QByteArray> m_keySuffixes;
    bool m_scriptReadsLimit = true;
    qint64 m_baseMicros = 0;
    qint64 m_seq = 0;
    std::atomic<bool> m_cancelled {false};
    std::mutex m_connectionMutex; // guards m_connection: cancel() must not reach a connection that is gone
    RedisConnection* m_connection = nullptr;
};
