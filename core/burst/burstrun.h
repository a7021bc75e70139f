#pragma once

#include "burstlane.h"
#include "burstplan.h"
#include "redis/clustermap.h"
#include "redis/memoryheadroom.h"
#include "redis/nodeconnections.h"
#include "redis/redisconnection.h"
#include "redis/scriptsandbox.h"
#include "results/burstsummary.h"
#include "results/requestrecord.h"
#include "usergroup.h"

#include <QObject>
#include <QPointer>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

// The threads of one burst (internal to BurstEngine): a coordinator that connects, loads the
// script and joins the workers (burstrun.cpp), and worker threads, each serving its lanes
// (BurstLanes, burstlanes.h); with several users on a cluster, requests routed one by one to
// their user's master (burstrunusers.cpp). Workers hand finished requests
// over in batches through takeRecords(); the owner polls it. A connection the server drops is
// made again by its worker, with backoff, for up to plan.reconnectForMs.
class BurstRun
{
    friend class BurstLanes; // a worker's lanes: the plan, the connections and the run's counts

public:
    using Clock = std::chrono::steady_clock;

    BurstRun(const RedisEndpoint& endpoint, const ConnectOptions& options, const BurstPlan& plan, const QByteArray& key,
             const QByteArray& runTag);
    ~BurstRun(); // stops and joins every thread

    // Starts the threads; `receiver`'s invokable method `endedMethod` is queued to its thread
    // when everything has ended.
    void start(QObject* receiver, const char* endedMethod);
    void requestStop();
    bool stopRequested() const { return m_stop.load(); }

    void takeRecords(std::vector<RequestRecord>* into);

    // Valid after the run ended (endedMethod).
    BurstFailure failure() const;
    QString serverVersion() const { return m_serverVersion; }
    QString serverName() const { return m_serverName; }
    QString serverOwnVersion() const { return m_serverOwnVersion; }
    qint64 finalCount() const { return m_finalCount; }
    qint64 membersAtEnd() const { return m_membersAtEnd; }
    double durationMs() const { return m_durationMs; }
    qint64 startWallMs() const { return m_startWallMs.load(); }
    bool allSent() const { return m_nextId.load() >= m_plan.requests; }
    // Per user (plan.users of them): the key, the node that served it (host:port; on a cluster
    // its master), and its count in the window and members when the run ended (-1 unknown).
    const std::vector<QByteArray>& userKeys() const { return m_userKeys; }
    const std::vector<QString>& userNodes() const { return m_userNodes; }
    const std::vector<qint64>& userFinalCounts() const { return m_userFinalCounts; }
    const std::vector<qint64>& userMembers() const { return m_userMembers; }

    // Any time: connections lost and not made again yet, why the latest was lost, and how many
    // were made again.
    int lanesDown() const { return m_lanesDown.load(); }
    QString outage() const;
    int reconnects() const { return m_reconnects.load(); }
    // After the run: the keys it made and could not delete, why, and the TTL they were left with.
    const std::vector<LeftKey>& keysLeft() const { return m_keysLeft; }
    // After the run: how a user's script ran (mode None for a built-in limiter).
    const ScriptSandboxing& sandboxing() const { return m_sandboxing; }
    const MemoryHeadroom& serverMemory() const { return m_memory.before(); }

    // How long a worker keeps polling its sockets before it sleeps in poll(): a run of one
    // connection to a server on this machine waits its whole round trip, and waking from poll()
    // (an idle core's wake-up, tens of µs on a VM) was most of it: spinning a little first ran
    // such a run 2.7 times as fast (bench_engine, C=1 P=1). Only with a core for it beside the
    // server's: with more connections a worker always has an answer to read, and spinning would
    // take the core the server needs; a remote server's round trip is longer than the spin.
    static std::chrono::microseconds spinBeforeWaiting(int connections, int cores, bool localServer);

private:
    static constexpr int handOverEvery = 512; // records
    static constexpr auto handOverAfter = std::chrono::milliseconds(20);
    static constexpr auto interruptAfterStop = std::chrono::milliseconds(120);
    static constexpr auto interruptAgainEvery = std::chrono::milliseconds(40);
    static constexpr auto firstReconnectDelay = std::chrono::milliseconds(50);
    static constexpr auto longestReconnectDelay = std::chrono::milliseconds(1000);
    // One attempt to connect again waits at most this long for the server: between attempts the
    // worker serves its other connections and sees Stop.
    static constexpr auto reconnectAttemptTimeout = std::chrono::milliseconds(500);
    // On a cluster: a slot whose keys are on their way between nodes answers TRYAGAIN; the call goes
    // again after this pause. A lane sent to a node by ASK goes back to the slot map this often, to
    // leave the ASKINGs once the slot has moved for good.
    static constexpr auto tryAgainPause = std::chrono::milliseconds(2);
    static constexpr auto askingRecheck = std::chrono::milliseconds(100);
    // Following a redirect may take a new connection even when the plan allows no reconnecting.
    static constexpr int rerouteForMs = 10'000;
    // Cleanup on a server that is BUSY with another client's script.
    static constexpr auto deleteWhileBusyFor = std::chrono::milliseconds(5000);
    static constexpr auto deleteRetryEvery = std::chrono::milliseconds(100);
    static constexpr qint64 minimumLeftoverTtlMs = 60'000;
    // How long a claim on a named key outlives a run that could not release it.
    static constexpr qint64 claimTtlMs = 3'600'000;
    // Routed by user: workers with nothing to send look at their inboxes this often.
    static constexpr auto inboxLookEvery = std::chrono::milliseconds(2);
    // A runaway script: how long SCRIPT KILL may wait for the server (its busy-reply-threshold).
    static constexpr auto runawayAnswerWait = std::chrono::milliseconds(10'000);
    // After SCRIPT KILL: how long the script may take to end, and how often PING asks.
    static constexpr auto runawayEndWait = std::chrono::milliseconds(2'000);
    static constexpr auto runawayPingEvery = std::chrono::milliseconds(20);
    // The keys a script made beside the run's: looked for this long, this many a SCAN, and named
    // in the report up to this many.
    static constexpr auto sideKeyScanFor = std::chrono::seconds(10);
    static constexpr int sideKeyScanCount = 1000;
    static constexpr int maxSideKeysNamed = 100;
    static qint64 wallMicros();
    static void blockBrokenPipeSignal();

    // The coordinator's thread: the steps below, then endedMethod.
    void coordinate();
    // The control connection, on the node of the run's key. False after fail().
    bool connectControl(RedisConnection& control);
    // Users, the schedule and the sandbox, before any request is sent. False after fail().
    bool prepare(RedisConnection& control);
    // A server zsetlab did not start that evicts keys when full: the run writes there only when it
    // stays well inside the headroom, or with the user's consent. False after fail().
    bool admitMemory(RedisConnection& control);
    // The coordinator's wait for the workers, reading the server's memory meanwhile when it evicts.
    void waitForWorkers(std::unique_lock<std::mutex>& lock);
    // The send times (paced, the schedule clock) and each client's requests.
    void makeSchedule();
    // Every lane's connection (to every master when routed by user). False after fail() or Stop.
    bool connectLanes(RedisConnection& control);
    // The workers started, each with its share of the connections, and joined (interrupted after Stop).
    void runWorkers();
    // After the workers: a runaway script ended, the users' counts read, the keys and the sandbox cleaned.
    void finish(RedisConnection& control);
    // Before the workers start: check every user's key (the run's own with one user) and load the
    // script on every node used; with several users on a cluster, make the groups. False after fail().
    bool prepareUsers(RedisConnection& control);
    // A user's script on a server zsetlab did not start: the ACL user it runs as (ScriptSandbox),
    // or, where none can be made, the user's consent (ConnectOptions::trustScripts). False after fail().
    bool enterSandbox();
    // After the run: the keys the sandbox was refused (a finding that fails the run), and the user gone.
    void leaveSandbox();
    // A call went unanswered past the command timeout: SCRIPT KILL (FUNCTION KILL for a function)
    // on a fresh connection, so that the server does not stay BUSY; what happened goes in
    // m_sandboxing.scriptKill.
    void endRunawayScript(RedisEndpoint node);
    // The run's own script holds the server: a call of it went unanswered, then the server answered BUSY.
    bool runawayHoldsServer() const { return m_serverAnsweredBusy && m_callTimedOut && !m_plan.limiter->isBuiltin(); }
    // A fresh key's run: the keys the script made beside the run's (KEY:req:<id>, in the run's
    // tag, which no other key has) deleted, or named with how to delete them.
    void removeSideKeys();
    // `node` as the lanes connect to it: as the sandbox's user when there is one.
    RedisEndpoint laneEndpoint(const RedisEndpoint& node) const { return m_sandbox.asUser(node); }
    // On a cluster: the connection to the master of each user's key (control for one server).
    RedisConnection* controlOfUser(int user, RedisConnection& control);
    // DEL of a user's keys, asked again while the server is BUSY (deleteWhileBusyFor in all).
    bool deleteUserKeys(RedisConnection& connection, const QByteArray& key, QString* why);
    // The TTL a key gets when it cannot be deleted and has none.
    qint64 leftoverTtlMs() const;
    // Deletes the claims this run holds on keys the user named (LimiterStore::claim).
    void releaseClaims(RedisConnection& control);
    // After the run: every user's count and members (the run's with one user), then their keys
    // deleted unless kept, on a new connection when the run's is gone.
    void finishUsers(RedisConnection& control);
    // Routed by user: takes the group's next request for the lane (moved to its user's group
    // when a MOVED sent that user elsewhere). False when the group has none left.
    bool takeFromGroup(BurstLane& lane, std::vector<RequestRecord>* batch);
    void redirectCall(BurstLane& lane, InFlightCall call, const ClusterRedirect& redirect, const RedisReply& reply,
                      std::vector<RequestRecord>* batch);
    // Puts a call in the inbox of group g; false (the call failed with the group's reason) when
    // that master was lost.
    bool deliver(int g, const InFlightCall& call, std::vector<RequestRecord>* batch);
    // A group whose lanes all failed: its requests left, and those sent to it, fail with why.
    void abandonGroup(UserGroup& group, const QString& why, std::vector<RequestRecord>* batch);
    // A lane of a group lost for good: the calls it held fail, and the group with its last lane.
    void retireLane(BurstLane& lane, const QString& why, std::vector<RequestRecord>* batch);
    void failCall(const InFlightCall& call, int planConnection, const QString& error,
                  std::vector<RequestRecord>* batch);
    void keep(RequestRecord&& record, std::vector<RequestRecord>* batch);
    // A worker thread: serves the lanes of connections connectionIndexes (BurstLanes).
    void work(const std::vector<int>& connectionIndexes);
    // Opens `connection` on the node that serves the run's key (the endpoint itself when it is
    // not a cluster), refreshing the slot map on the way. False with *why.
    bool openOnKeyNode(RedisConnection& connection, const ConnectOptions& options, QString* why, bool asLane = false);
    // For a connection made after the run or to retry: it waits for the server only briefly.
    ConnectOptions quickOptions() const;
    // SCRIPT LOAD on a connection. False after fail() with what went wrong, or, when the server
    // may just be away (lost, loading) and transientWhy is given, with *transientWhy set instead.
    bool loadScript(RedisConnection& connection, QString* transientWhy = nullptr);
    QString requestError(const RedisReply& reply, const QByteArray& key) const;
    QString lostMessage(const BurstLane& lane, const QString& why) const;
    void interruptConnections();
    void fail(BurstFailure::Kind kind, const QString& message, int line = 0);
    qint64 nowFor(int id, int connectionIndex) const;
    RedisArgs callFor(int id, qint64 now) const;
    const QByteArray& keyOf(int id) const { return m_userKeys[size_t(m_plan.userOf(id))]; }
    void handOver(std::vector<RequestRecord>* batch);

    const RedisEndpoint m_endpoint;
    std::mutex m_mapMutex; // the slot map, shared by the workers that follow redirects
    ClusterMap m_map;
    std::atomic<bool> m_cluster {false};
    const ConnectOptions m_options;
    const BurstPlan m_plan;
    const LimiterScript m_script;
    const QByteArray m_key;
    const QByteArray m_runTag;
    std::vector<qint64> m_schedule;
    std::vector<std::vector<int>> m_requestsOfClient; // with clients: the requests of each, by connection
    std::vector<QByteArray> m_userKeys;
    std::vector<QString> m_userNodes;
    std::vector<qint64> m_userFinalCounts;
    std::vector<qint64> m_userMembers;
    std::vector<int> m_claimedUsers; // users whose named key this run has claimed
    std::vector<LeftKey> m_keysLeft;
    ScriptSandbox m_sandbox; // made before the lanes connect; read only while they run
    // The server's memory, read before anything is written; polled by the coordinator during the
    // run where the server evicts. m_memoryStopped: the watch stopped the run (its keys go).
    MemoryWatch m_memory;
    bool m_memoryStopped = false;
    ScriptSandboxing m_sandboxing;
    std::atomic<bool> m_callTimedOut {false}; // a lane's call went unanswered past the command timeout
    std::atomic<bool> m_serverAnsweredBusy {false}; // a reconnect was answered BUSY (a script runs)
    std::atomic<bool> m_scriptLoaded {false}; // SCRIPT LOAD succeeded on the server
    std::optional<Clock::time_point> m_busyGiveUpAt; // cleanup: since the server first answered BUSY
    // Routed by user (a cluster and several users): the groups, by ClusterMap::masters() index,
    // each user's group (changed by MOVED), and the control connections, one per group.
    bool m_routed = false;
    std::vector<std::unique_ptr<UserGroup>> m_groups;
    std::unique_ptr<std::atomic<int>[]> m_groupOfUser;
    NodeConnections m_nodeControls;
    std::atomic<int> m_recorded {0}; // requests finished (answered or failed)
    std::atomic<int> m_groupsLost {0};
    const int m_wakeFd; // eventfd: Stop wakes workers waiting in poll()

    std::atomic<qint64> m_startWallMs {0}; // written by the coordinator, read by the owner thread's collect()
    qint64 m_startWallUs = 0;
    Clock::time_point m_startSteady;
    QString m_serverVersion;
    QString m_serverName;
    QString m_serverOwnVersion;
    qint64 m_finalCount = -1;
    qint64 m_membersAtEnd = -1;
    double m_durationMs = 0;

    std::atomic<int> m_nextId {0};
    std::atomic<bool> m_stop {false};
    std::atomic<int> m_workersRunning {0};
    std::atomic<int> m_lanesDown {0};
    std::atomic<int> m_reconnects {0};
    std::mutex m_connectionsMutex; // a worker swapping in a new connection vs Stop interrupting them
    std::vector<std::unique_ptr<RedisConnection>> m_connections;
    std::chrono::microseconds m_spinBeforeWaiting {0}; // set before the workers start
    std::vector<std::thread> m_workers;
    std::thread m_coordinator;

    mutable std::mutex m_mutex; // guards the members below
    std::condition_variable m_wake;
    std::vector<RequestRecord> m_records;
    BurstFailure m_failure;
    QString m_outage;

    QPointer<QObject> m_receiver;
    const char* m_endedMethod = nullptr;
};
