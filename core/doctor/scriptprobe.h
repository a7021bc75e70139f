#pragma once

// ScriptProbe: runs a user's script on a private server and reads what Redis did (ProbeSettings,
// ProbeReport).

#include "limiters/calltemplate.h"
#include "limiters/limiterscript.h"
#include "limiters/replydecision.h"
#include "limiters/replyreading.h"
#include "redis/memoryheadroom.h"
#include "redis/redisconnection.h"
#include "results/burstsummary.h"
#include "scriptkeywatch.h"

#include <QJsonObject>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <chrono>
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
    int overlapCalls = 5; // half a window apart, with limit 2: each call's previous one is still in
    // A call that has not returned by then is a runaway: the probe ends it (SCRIPT KILL).
    std::chrono::milliseconds scriptTimeout {1000};
    // How the replies read; Unknown: learned from the calls (the first ones under a limit are
    // admissions).
    ReplyStyle replyStyle = ReplyStyle::Unknown;
    int replyElement = 0; // with replyStyle: the element of an array reply it is read from (0-based)
    // Scripts that take no time in their call run these in real time: a window this short, which
    // the probe waits out on the server's clock (a call in whole seconds makes it 1 s).
    qint64 realTimeWindowMs = 200;
    // A Redis Functions library: the function FCALL calls (empty: the first it registers).
    QByteArray function;
    // Commands run before each scenario's first call, on its keys only: what an app sets up once
    // ("HSET {key}:config limit {limit}"). Written as call templates; see SetupCommand.
    QStringList setup;
    // A member whose random part takes this many values (the doctor's reading, member-random-few):
    // the probe adds calls at one now, enough for the birthday bound to expect a few repeats
    // (at most maxDraws). 0: no such calls.
    double randomMemberValues = 0;
    int maxDraws = 5000;

    static constexpr qint64 noLimit = 1'000'000;
};

// One batch of calls on fresh keys, and what Redis showed afterwards.
struct ProbeScenario
{
    // Window, Refill and Expiry run in real time, for scripts that take no time in their call:
    // a burst, a wait on the server's clock past the window, a burst again (Window); a burst and
    // one call half a window later (Refill); one call, then a window later, are its keys gone?
    // (Expiry).
    enum class Kind { Spread, SameNow, Rate, Slide, Overlap, Draws, Window, Refill, Expiry };
    Kind kind = Kind::SameNow;
    // "spread", "same-now", "same-now-limit" (or "back-to-back..." when the script reads the
    // server's clock), "rate-2", "rate-2-limit", "slide", "overlap", "draws", "window", "refill",
    // "expiry"
    QString name;
    QByteArray key; // the fresh key of its calls: KEYS[1] is this key, or starts with it
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

    int expiredKeys = 0; // keys deleted between calls because their TTL ran out in the simulated time

    // Real time (Window, Refill, Expiry): the window of these calls, the calls of the first
    // burst, and the server's clock waited out before the rest (ms, measured with TIME).
    qint64 windowMs = 0; // 0: the settings' window
    int burstCalls = 0;
    double waitedMs = 0;
    int admittedAfterWait = -1; // of the calls after the wait; -1: the replies do not say
    int keysLeft = -1; // Expiry: the keys still there a window after the call; -1: not checked
    qint64 leftTtlMs = -2; // Expiry: the longest TTL among them (-1: one has none)

    int expectedStored = -1; // what a correct limiter stores (scenarios without a limit)
    int expectedAdmitted = -1; // what a correct limiter admits (scenarios with a limit)
    double expectedRepeats = -1; // Draws: the calls the birthday bound expects to draw a value again
    bool problem = false;
};

struct ProbeReport
{
    enum class Failure {
        None,
        Connection,
        Script,
        Cancelled,
        Runaway, // a call did not finish within the script timeout (failureMessage says what was done)
        // The server evicts keys when full: not probed without consent, or the probe grew past
        // half of the server's headroom and was stopped (MemoryWatch).
        Eviction,
    };
    Failure failure = Failure::None;
    QString failureMessage; // what happened and what to do
    int failureLine = 0; // the script's line, for Lua errors

    QString serverVersion;
    // A Redis Functions library: the function the probe called, with FCALL, on the private server
    // only (loading a library changes the functions every client of a server sees).
    QByteArray function;
    QStringList setup; // the setup commands run before each scenario
    bool clockControlled = true; // false: the script reads the server clock (no {now} in the call)
    // How the script tells time: "argument" (the call's {now}), "TIME" (the server's clock),
    // "PTTL" (its keys' TTL), "none" (a counter whose window is its key's expiry).
    QString clock = QStringLiteral("argument");
    ReplyStyle replyStyle = ReplyStyle::Unknown;
    int replyElement = 0; // the element of an array reply the style is read from (0-based)
    // When the replies say it in one element's kind rather than in a style (learned): which.
    ReplyDecision decision;
    bool replyStyleGiven = false; // from ProbeSettings (--reply), not learned
    QString replyStyleWhy; // when Unknown
    QVector<ProbeScenario> scenarios;
    QStringList verdict; // sentences with the numbers; the last one sums up
    bool countsRight = false; // every scenario stored and admitted what a correct limiter would
    bool ttlProblem = false; // the key expires far too late, too early, or never
    bool ttlTooShort = false; // it expires before the window ends: requests still in it are forgotten
    // False when a scenario's replies did not say which calls were admitted: no verdict on
    // admissions was given for it (the verdict says what --reply to pass).
    bool admissionsRead = true;
    QList<QByteArray> keys; // every key the calls named; all deleted again

    // Before a server zsetlab did not start sees the script, a private redis-server of zsetlab's
    // own runs it while MONITOR watches which keys it touches.
    bool screened = false;
    QString screenVersion; // the private server's Redis version
    bool ranOnTarget = true; // false: the report is the private run's; the given server saw nothing
    QVector<KeyTouch> foreign; // keys (or server-wide commands) outside the probe's own keys
    QString foreignNote; // why the private run was not followed by the real one, beyond foreign keys
    // On the given server: how the script ran there (a temporary ACL user, or trusted), and the
    // keys Redis refused it (also in foreign, as touches of command "REFUSED").
    ScriptSandboxing sandbox;

    bool hasProblem() const { return failure != Failure::None || !countsRight || ttlProblem || !foreign.isEmpty(); }
    // The probe measured a wrong count: a scenario stored or admitted what a correct limiter would
    // not, or the key forgets requests that are still in the window.
    bool countsWrong() const { return failure == Failure::None && (!countsRight || ttlTooShort); }
    // It counted right, but its expiry lingers or is missing, it touched keys beyond its own, or
    // its replies did not say which calls were admitted.
    bool hasWarnings() const
    {
        return failure == Failure::None && !countsWrong()
            && (ttlProblem || !foreign.isEmpty() || !foreignNote.isEmpty() || !admissionsRead);
    }
    const ProbeScenario* scenario(const QString& name) const;
    QJsonObject toJson() const;
};

// A command the probe runs before a scenario's first call: a call template whose first word is
// the command ("HSET {key}:config rate 10 interval {window}"). It must name keys under {key}, the
// scenario's fresh key, and only those: on zsetlab's private server the server's own COMMAND
// GETKEYS checks that before it runs; on another server the probe's ACL user allows no other key.
class SetupCommand
{
public:
    // False with a message saying what to fix.
    static bool parse(const QString& text, SetupCommand* command, QString* error);
    const QString& text() const { return m_text; }
    RedisArgs expand(const CallValues& values) const { return m_call.expandArgs(values); }
    const CallTemplate& call() const { return m_call; }

private:
    QString m_text;
    CallTemplate m_call;
};

class RunawayGuard;

// Runs a user's limiter script on a real Redis, on fresh zsetlab: keys, the way a rate limiter
// is used: calls spread in time, calls sharing one `now`, calls at a few rates, with and without
// a limit, and calls more than a window apart. It reads the sorted sets the script wrote and
// its replies, and says with numbers whether it counted right. Blocking, on its own connection:
// call run() from a worker thread in a GUI; cancel() may come from any thread.
//
// It never changes a key it did not create on a server it did not start: it first runs the same
// calls on a private redis-server of its own while MONITOR shows every key the script touches,
// and runs on the given server only when the script touched no key but the probe's own. A call
// that runs longer than the script timeout is ended with SCRIPT KILL (FUNCTION KILL). A Redis
// Functions library is loaded (FUNCTION LOAD) and called (FCALL) on the private server only.
class ScriptProbe
{
public:
    ScriptProbe(LimiterScript script, CallTemplate call, ProbeSettings settings = {});

    ProbeReport run(const RedisEndpoint& endpoint, const ConnectOptions& options = {});
    void cancel();

    // The server's clock (TIME) in microseconds; -1 when it did not answer.
    static qint64 serverClockMicros(RedisConnection& connection);

private:
    QByteArray m_runKey; // of the current runOn(): each scenario's key is RUNKEY:<scenario>
    enum class Stage { Private, Given };
    // `guardAs`: the user the runaway guard connects as (SCRIPT KILL), when the calls run as
    // a sandbox's user that may not.
    ProbeReport runOn(const RedisEndpoint& endpoint, const ConnectOptions& options, Stage stage,
                      const QByteArray& runKey, const RedisEndpoint* guardAs = nullptr);
    // A report with the call's clock and nothing else.
    ProbeReport blankReport() const;
    // run()'s steps. The given server answers (and whether it is a cluster); false with the
    // report's failure set.
    bool checkGiven(const RedisEndpoint& endpoint, const ConnectOptions& options, bool* isCluster, ProbeReport* report);
    // The trial on a private server (or cluster) started for it and gone again.
    ProbeReport runTrial(const RedisEndpoint& endpoint, const ConnectOptions& options, bool givenIsCluster);
    // True when the trial is the answer (a library, or a script that reached beyond its keys): the
    // given server sees nothing; its verdict says why.
    bool staysPrivate(const RedisEndpoint& endpoint, ProbeReport* trial) const;
    // runOn()'s steps. The connection on the run key's node, the runaway guard and the key watch
    // (MONITOR) on it; false with the report's failure set.
    bool connectRun(RedisConnection& connection, const RedisEndpoint& endpoint, const ConnectOptions& options,
                    const RedisEndpoint* guardAs, RunawayGuard& guard, ScriptKeyWatch* watch, RedisEndpoint* guardNode,
                    ProbeReport* report);
    // Every scenario of the plan until one fails; the replies of each.
    QVector<QVector<ReplyReading>> runScenarios(RedisConnection& connection, ScriptRunner& runner, RunawayGuard& guard,
                                                ScriptKeyWatch* watch, ProbeReport* report);
    // The keys the watch saw, sorted into the probe's and foreign ones (slots checked on a cluster).
    void readWatch(ScriptKeyWatch& watch, RedisConnection& connection, const RedisEndpoint& guardNode,
                   ProbeReport* report);
    // Cancelled or cut off mid-scenario: what the calls may have written, deleted on a fresh connection.
    static void deleteAfterCut(const RedisEndpoint& node, const ConnectOptions& options, const QList<QByteArray>& keys);
    void judge(const QVector<QVector<ReplyReading>>& readings, ProbeReport* report) const;
    // The private server's stage: the calls run as a sandbox user with the commands a given
    // server's would have (what MONITOR does not show, @admin commands, is refused there too; no
    // MIGRATE to another server), on every key (MONITOR tells which it touched), and what the
    // sandbox refused becomes the trial's finding.
    ProbeReport runOnPrivate(const RedisEndpoint& endpoint, const ConnectOptions& given, const QByteArray& runKey);
    // The given server's stage: in a sandbox (or trusted), and what the sandbox refused.
    ProbeReport runOnGiven(const RedisEndpoint& endpoint, const ConnectOptions& options, const ProbeReport& trial);
    bool runScenario(RedisConnection& connection, ScriptRunner& runner, RunawayGuard& guard, ScriptKeyWatch* watch,
                     ProbeScenario* scenario, QVector<ReplyReading>* readings, ProbeReport* report);
    // runScenario()'s steps: the values every call of the scenario shares (its key, window and
    // limit), and at its end its sorted sets read, every key it named deleted and listed.
    CallValues scenarioValues(ProbeScenario* scenario) const;
    void endScenario(RedisConnection& connection, const QList<QByteArray>& named, ProbeScenario* scenario,
                     ProbeReport* report) const;
    // One call of a scenario, for what its reply says.
    struct ProbeCall
    {
        int index = 0;
        RedisArgs keys;
        RedisArgs args;
    };
    // Every key a call names (its KEYS, their companions and the suffixes the script adds, keys in
    // ARGV): the ones to read and delete after the scenario.
    void nameCallKeys(const RedisArgs& keys, const CallValues& values, QList<QByteArray>* named) const;
    // What one call's reply says: a reading, an error-reply refusal, or the failure that ends the
    // probe (false, with the report's failure set).
    bool takeReply(const RedisReply& reply, RedisConnection& connection, const RunawayGuard& guard,
                   const ProbeCall& call, ProbeScenario* scenario, QVector<ReplyReading>* readings,
                   ProbeReport* report) const;
    // The sorted sets among the keys: their entries, a few members and the first one's TTL.
    static void readStored(RedisConnection& connection, const QList<QByteArray>& named, ProbeScenario* scenario);
    // The scenarios to run, in order, for the call's clock.
    QVector<ProbeScenario> plan(bool clockControlled) const;
    // Real time: before call `index` of a Window or Refill scenario, waits until the server's clock
    // passes the moment it is due; after an Expiry scenario's call, a window on, reads its keys.
    // False with the report's failure set when the server did not answer.
    bool waitBeforeCall(RedisConnection& connection, ProbeScenario* scenario, int index, qint64 startMicros,
                        ProbeReport* report);
    void checkExpiry(RedisConnection& connection, const QList<QByteArray>& keys, qint64 lastCallMicros,
                     ProbeScenario* scenario, ProbeReport* report);
    // The window of the real-time scenarios: ProbeSettings::realTimeWindowMs, or a whole second
    // when the call carries the window in seconds only; 0 when it carries no window.
    qint64 realTimeWindowMs() const;
    void expireAsTimePasses(RedisConnection& connection, const QList<QByteArray>& keys, qint64 gapMicros,
                            ProbeScenario* scenario);
    // The setup commands on the scenario's keys; false with the report's failure set.
    bool runSetup(RedisConnection& connection, const CallValues& values, const ProbeScenario& scenario,
                  QList<QByteArray>* keys, ProbeReport* report);
    // On a cluster: a key touched in another slot than the probe's keys fails the report.
    void checkSlots(ProbeReport* report) const;
    void sortTouches(const ScriptKeyWatch& watch, const RedisEndpoint& endpoint, ProbeReport* report);

    LimiterScript m_script;
    CallTemplate m_call;
    ProbeSettings m_settings;
    QList<QByteArray> m_keySuffixes; // what the script appends to KEYS[1] (read, then learned)
    bool m_scriptReadsLimit = true;
    QString m_clock; // ScriptExamination::clockName()
    bool m_library = false;
    QVector<SetupCommand> m_setup;
    QString m_setupError; // a setup command that does not parse
    bool m_checkSetupKeys = true; // on the private server: COMMAND GETKEYS before each setup command
    qint64 m_baseMicros = 0;
    qint64 m_seq = 0;
    std::atomic<bool> m_cancelled {false};
    // On a server zsetlab did not start that evicts keys: read between calls (runOnGiven()).
    MemoryWatch* m_memory = nullptr;
    std::mutex m_connectionMutex; // guards m_connection: cancel() must not reach a connection that is gone
    RedisConnection* m_connection = nullptr;
};
