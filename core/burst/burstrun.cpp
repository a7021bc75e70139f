#include "burstrun.h"

#include "base/printabletext.h"
#include "burstlanes.h"
#include "burstreplies.h"
#include "clientprofile.h"
#include "limiters/limiterscript.h"
#include "redis/keyslot.h"
#include "redis/nodeconnections.h"
#include "results/requestlog.h"

#include <QCoreApplication>
#include <QMetaObject>
#include <QSet>
#include <QThread>

#include <csignal>
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <deque>
#include <iterator>
#include <utility>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(BurstRun)
};
} // namespace

using namespace BurstReplies;

qint64 BurstRun::wallMicros()
{
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

// A write on a connection the server dropped must fail with EPIPE rather than raise SIGPIPE,
// which would end the whole program. Blocked on this thread, the signal stays pending, harmless.
void BurstRun::blockBrokenPipeSignal()
{
    sigset_t pipe;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
}

BurstRun::BurstRun(const RedisEndpoint& endpoint, const ConnectOptions& options, const BurstPlan& plan,
                   const QByteArray& key, const QByteArray& runTag)
    : m_endpoint(endpoint)
    , m_options(options)
    , m_plan(plan)
    , m_script(plan.script())
    , m_key(key)
    , m_runTag(runTag)
    , m_wakeFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK))
{ }

BurstRun::~BurstRun()
{
    requestStop();
    if (m_coordinator.joinable())
        m_coordinator.join();
    ::close(m_wakeFd);
}

void BurstRun::start(QObject* receiver, const char* endedMethod)
{
    m_receiver = receiver;
    m_endedMethod = endedMethod;
    m_coordinator = std::thread([this] { coordinate(); });
}

void BurstRun::requestStop()
{
    m_stop = true;
    const quint64 one = 1;
    if (m_wakeFd >= 0) [[maybe_unused]]
        const auto written = ::write(m_wakeFd, &one, sizeof one);
    m_wake.notify_all();
}

void BurstRun::takeRecords(std::vector<RequestRecord>* into)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (into->empty())
        into->swap(m_records);
    else
        std::move(m_records.begin(), m_records.end(), std::back_inserter(*into)), m_records.clear();
}

BurstFailure BurstRun::failure() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_failure;
}

QString BurstRun::outage() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_outage;
}

void BurstRun::fail(BurstFailure::Kind kind, const QString& message, int line)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_failure.isFailure())
            m_failure = {kind, message, line};
    }
    requestStop();
}

void BurstRun::handOver(std::vector<RequestRecord>* batch)
{
    if (batch->empty())
        return;
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_records.empty())
        m_records.swap(*batch);
    else
        std::move(batch->begin(), batch->end(), std::back_inserter(m_records));
    batch->clear();
}

void BurstRun::coordinate()
{
    blockBrokenPipeSignal();
    RedisConnection control;
    if (connectControl(control) && prepare(control) && connectLanes(control)) {
        runWorkers();
        finish(control);
    }
    // By name: the call crosses as an event that the receiver's thread alone then owns. A functor
    // would be a slot object both threads hold, and this thread could drop the last reference
    // while the receiver still runs it.
    if (m_receiver)
        QMetaObject::invokeMethod(m_receiver, m_endedMethod, Qt::QueuedConnection);
}

bool BurstRun::connectControl(RedisConnection& control)
{
    // Connect, check the key and load the script once before any request is sent, so that a
    // bad server, key or script fails the burst cleanly with nothing written.
    QString why;
    if (!openOnKeyNode(control, m_options, &why)) {
        fail(BurstFailure::Kind::Connection, why);
        return false;
    }
    m_cluster = control.server().mode == QLatin1String("cluster");
    m_serverVersion = control.server().version;
    m_serverName = control.server().name;
    m_serverOwnVersion = control.server().nameVersion;
    return true;
}

bool BurstRun::prepare(RedisConnection& control)
{
    if (!admitMemory(control))
        return false;
    for (int u = 0; u < m_plan.users; ++u)
        m_userKeys.push_back(m_plan.userKey(m_key, u));
    if (!prepareUsers(control)) {
        releaseClaims(control);
        return false;
    }
    makeSchedule();
    if (!enterSandbox()) {
        releaseClaims(control);
        return false;
    }
    return true;
}

bool BurstRun::admitMemory(RedisConnection& control)
{
    // A built-in limiter holds at most a member (or a counter) a request; a user's script may
    // write any amount in one call.
    const qint64 estimate
        = m_plan.limiter->isBuiltin() ? EvictionCheck::estimateBytes(qint64(m_plan.requests) + m_plan.users) : -1;
    QString why;
    switch (m_memory.admit(control, m_options, estimate, &why)) {
    case MemoryWatch::Admission::Admitted:
        return true;
    case MemoryWatch::Admission::Refused:
        fail(BurstFailure::Kind::Eviction, why);
        return false;
    case MemoryWatch::Admission::Lost:
        fail(BurstFailure::Kind::Connection, why);
        return false;
    }
    return false;
}

void BurstRun::waitForWorkers(std::unique_lock<std::mutex>& lock)
{
    const auto ended = [this] { return m_workersRunning == 0 || m_stop; };
    if (!m_memory.isWatching()) {
        m_wake.wait(lock, ended);
        return;
    }
    while (!m_wake.wait_for(lock, MemoryWatch::pollEvery, ended)) {
        lock.unlock();
        const QString stop = m_memory.poll();
        lock.lock();
        if (!stop.isEmpty()) {
            m_memoryStopped = true;
            lock.unlock();
            fail(BurstFailure::Kind::Eviction, stop);
            lock.lock();
        }
    }
}

void BurstRun::makeSchedule()
{
    // Here, not on the owner's thread: a million offsets take a while. Only when used (paced
    // arrivals, the schedule clock, clients): a long burst would hold 8 bytes per request.
    std::vector<quint16> clientOf;
    if (m_plan.isPaced() || m_plan.clock == ClockKind::Schedule || !m_plan.clients.isEmpty())
        m_schedule = m_plan.scheduleMicros(&clientOf);
    if (!clientOf.empty()) {
        m_requestsOfClient.resize(size_t(m_plan.connectionCount()));
        for (size_t id = 0; id < clientOf.size(); ++id)
            m_requestsOfClient[clientOf[id]].push_back(int(id));
    }
}

bool BurstRun::connectLanes(RedisConnection& control)
{
    // Routed by user: plan.connections to every master, group by group.
    const int nodes = m_routed ? int(m_groups.size()) : 1;
    const int total = nodes * m_plan.connectionCount();
    for (int c = 0; c < total && !m_stop; ++c) {
        const RedisEndpoint& node
            = m_routed ? m_groups[size_t(c / m_plan.connectionCount())]->node : control.endpoint();
        auto connection = std::make_unique<RedisConnection>();
        if (!connection->open(laneEndpoint(node), m_options)) {
            fail(BurstFailure::Kind::Connection,
                 Text::tr("Connection %1 of %2 (%3): %4")
                     .arg(c + 1)
                     .arg(total)
                     .arg(node.address())
                     .arg(connection->lastError().message));
            leaveSandbox();
            releaseClaims(control);
            return false;
        }
        m_connections.push_back(std::move(connection));
    }
    if (m_stop) {
        leaveSandbox();
        releaseClaims(control);
        return false;
    }
    for (auto& group : m_groups)
        group->lanesOpen = m_plan.connectionCount();
    return true;
}

std::chrono::microseconds BurstRun::spinBeforeWaiting(int connections, int cores, bool localServer)
{
    return connections == 1 && cores >= 2 && localServer ? std::chrono::microseconds(50) : std::chrono::microseconds(0);
}

void BurstRun::runWorkers()
{
    m_startWallUs = wallMicros();
    m_startWallMs = m_startWallUs / 1000;
    m_startSteady = Clock::now();
    // A few threads, each polling its share of the connections: more threads than cores would
    // only add context switches (see bench/bench_engine).
    const int total = int(m_connections.size());
    const int threads = std::clamp(QThread::idealThreadCount(), 1, total);
    m_spinBeforeWaiting = spinBeforeWaiting(total, QThread::idealThreadCount(), m_endpoint.isLocal());
    m_workersRunning = threads;
    for (int t = 0; t < threads; ++t) {
        std::vector<int> share;
        for (int c = t; c < total; c += threads)
            share.push_back(c);
        m_workers.emplace_back([this, share] { work(share); });
    }

    {
        std::unique_lock<std::mutex> lock(m_mutex);
        waitForWorkers(lock);
        if (m_workersRunning > 0) {
            // Stopping: give in-flight answers a moment, then unblock workers waiting on a
            // server that does not answer (paused, gone), again while they run: a worker may
            // just have made a connection again.
            auto ended = [this] { return m_workersRunning == 0; };
            if (!m_wake.wait_for(lock, interruptAfterStop, ended)) {
                do
                    interruptConnections();
                while (!m_wake.wait_for(lock, interruptAgainEvery, ended));
            }
        }
    }
    for (auto& worker : m_workers)
        worker.join();
    m_durationMs = std::chrono::duration<double, std::milli>(Clock::now() - m_startSteady).count();
}

void BurstRun::finish(RedisConnection& control)
{
    // Before anything else is asked of the server: a script that loops keeps it BUSY.
    if (m_callTimedOut && !m_plan.limiter->isBuiltin())
        endRunawayScript(control.endpoint());

    // The count left in the window when the burst ended; reads only. After Stop the server may
    // be the reason (paused, overloaded): do not wait long for it. When the server dropped
    // connections, the control connection is likely one of them: make it again first.
    QString why;
    if (m_reconnects > 0 || m_cluster) // on a cluster the key may have moved to another node
        openOnKeyNode(control, quickOptions(), &why);
    if (m_stop)
        control.setCommandTimeout(std::chrono::milliseconds(50));
    m_connections.clear();
    finishUsers(control);
    removeSideKeys();
    leaveSandbox();
}

void BurstRun::endRunawayScript(RedisEndpoint node)
{
    // A call of the run's went unanswered past the command timeout: the script may loop, and then
    // the server answers every client BUSY until it ends. A call that came in behind another
    // client's script gets BUSY at once, so the script that runs now is the run's own.
    const QString where = node.address();
    ConnectOptions options = quickOptions();
    // The server answers other clients only after its busy-reply-threshold (5 s by default).
    options.connectTimeout = std::max(m_options.connectTimeout, runawayAnswerWait);
    options.commandTimeout = std::max(m_options.commandTimeout, runawayAnswerWait);
    // A fresh connection, with the user's own credentials (not the sandbox's): a busy server
    // answers HELLO and AUTH, not INFO, and SCRIPT KILL is not a database's.
    node.helloHandshake = true;
    node.db = 0;
    RedisConnection killer;
    if (!killer.open(node, options)) {
        m_sandboxing.scriptKill = Text::tr("a call of the script went unanswered past the command timeout, and "
                                           "zsetlab could not reach %1 to end it (%2). If the server answers BUSY, "
                                           "the script still runs: end it with redis-cli SCRIPT KILL.")
                                      .arg(where, killer.lastError().message);
        return;
    }
    RedisReply kill = killer.command({QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("KILL")});
    bool function = false;
    if (kill.errorCode() == "BUSY" && kill.bytes().contains("FUNCTION KILL")) {
        kill = killer.command({QByteArrayLiteral("FUNCTION"), QByteArrayLiteral("KILL")});
        function = true;
    }
    const QString command = function ? QStringLiteral("FUNCTION KILL") : QStringLiteral("SCRIPT KILL");
    if (!kill.isError()) {
        // The script ends at its next check for a kill, a moment after Redis answered: a PING
        // that comes in before it gets BUSY still. Ask again, within a bound.
        const auto until = Clock::now() + runawayEndWait;
        RedisReply ping = killer.command({QByteArrayLiteral("PING")});
        while (ping.errorCode() == "BUSY" && Clock::now() < until) {
            std::this_thread::sleep_for(runawayPingEvery);
            ping = killer.command({QByteArrayLiteral("PING")});
        }
        m_sandboxing.scriptKill = ping.isError()
            ? Text::tr("the script ran past the command timeout; zsetlab ended it with %1, yet %2 still answers "
                       "PING with: %3")
                  .arg(command, where, ping.text())
            : Text::tr("the script ran past the command timeout; zsetlab ended it with %1, and %2 answers again.")
                  .arg(command, where);
    } else if (kill.errorCode() == "NOTBUSY") {
        m_sandboxing.scriptKill = Text::tr("a call went unanswered past the command timeout; by the time zsetlab sent "
                                           "%1, no script was running on %2 any more.")
                                      .arg(command, where);
    } else if (kill.errorCode() == "UNKILLABLE") {
        m_sandboxing.scriptKill
            = Text::tr("the script ran past the command timeout and had already written, so Redis refused %1 "
                       "(UNKILLABLE: \"%2\"). %3 answers every client BUSY until the script ends; zsetlab does not "
                       "shut down a server it did not start: the operator can wait, or run SHUTDOWN NOSAVE (every "
                       "write since the last save is lost) and start it again.")
                  .arg(command, kill.text(), where);
    } else {
        m_sandboxing.scriptKill
            = Text::tr("the script ran past the command timeout, and %1 on %2 failed (%3). If "
                       "the server answers BUSY, the script still runs: end it with redis-cli %1.")
                  .arg(command, where, kill.text().isEmpty() ? killer.lastError().message : kill.text());
    }
}

void BurstRun::removeSideKeys()
{
    // Only a fresh key's tag is the run's alone: everything that matches it is the run's. A key
    // the user named grants nothing beside the run's keys (enterSandbox()).
    if (!m_sandbox.isMade() || !m_plan.key.isEmpty())
        return;
    // --keep: the keys stay with the run's, named; not when they grew past the memory watch.
    const bool remove = !m_plan.keepKey || m_memoryStopped;
    const QByteArray open = ScriptSandbox::escapeGlob(m_key.left(m_key.size() - 1));
    const QByteArray pattern = open + "[}:]*";
    const QString cli = QStringLiteral("redis-cli ") + m_endpoint.redisCliTarget();
    const QString listing
        = QStringLiteral("%1 --scan --pattern '%2' | xargs %1 UNLINK").arg(cli, QString::fromUtf8(pattern));
    NodeConnections nodes;
    QString why;
    if (!nodes.open(m_endpoint, quickOptions(), &why)) {
        m_sandboxing.sideKeysLeft = Text::tr("zsetlab could not look for keys the script made beside the run's (%1); "
                                             "%2 lists and deletes them.")
                                        .arg(why, listing);
        return;
    }
    // The run's own keys were deleted by finishUsers(), or left there with a TTL and named in
    // keysLeft: not the script's.
    QSet<QByteArray> own;
    for (const QByteArray& userKey : m_userKeys)
        for (const QByteArray& key : m_plan.limiter->store.keysFor(userKey))
            own.insert(key);
    const auto deadline = Clock::now() + sideKeyScanFor;
    bool finished = true;
    for (const auto& node : nodes.all()) {
        QByteArray cursor = "0";
        do {
            if (Clock::now() >= deadline) {
                finished = false;
                break;
            }
            const RedisReply page
                = node->command({"SCAN", cursor, "MATCH", pattern, "COUNT", QByteArray::number(sideKeyScanCount)});
            if (page.isError() || page.elements().size() != 2) {
                finished = false;
                break;
            }
            cursor = page.elements()[0].bytes();
            RedisArgs unlink {QByteArrayLiteral("UNLINK")};
            for (const RedisReply& key : page.elements()[1].elements()) {
                if (own.contains(key.bytes()))
                    continue;
                ++m_sandboxing.sideKeysRemovedCount;
                if (m_sandboxing.sideKeysRemoved.size() < maxSideKeysNamed)
                    m_sandboxing.sideKeysRemoved << key.bytes();
                unlink << key.bytes();
            }
            if (remove && unlink.size() > 1 && node->command(unlink).isError())
                finished = false;
        } while (cursor != "0");
    }
    if (!remove) {
        QStringList names;
        for (const QByteArray& key : m_sandboxing.sideKeysRemoved.mid(0, 3))
            names << printableText(key);
        if (m_sandboxing.sideKeysRemovedCount > 0)
            m_sandboxing.sideKeysLeft
                = Text::tr("the script made %L1 keys beside the run's (%2), kept with it (--keep); "
                           "%3 deletes them.")
                      .arg(m_sandboxing.sideKeysRemovedCount)
                      .arg(names.join(QStringLiteral(", ")), listing);
        m_sandboxing.sideKeysRemoved.clear();
        m_sandboxing.sideKeysRemovedCount = 0;
        if (finished)
            return;
    }
    if (!finished)
        m_sandboxing.sideKeysLeft = Text::tr("the script may have made keys beside the run's that zsetlab could not "
                                             "delete in time; %1 lists and deletes them.")
                                        .arg(listing);
}

bool BurstRun::enterSandbox()
{
    if (m_plan.limiter->isBuiltin())
        return true;
    // A fresh key's hash tag is this run's alone: one pattern takes every key the script makes
    // from it. A key the user named may be the beginning of keys that were there before
    // (zsetlab:NAME:config, another run's zsetlab:run:{...}): exactly the run's keys, then.
    QList<QByteArray> patterns = ScriptSandbox::patternsOfKey(m_key);
    if (!m_plan.key.isEmpty()) {
        QList<QByteArray> keys;
        for (const QByteArray& userKey : m_userKeys)
            keys << m_plan.limiter->store.keysFor(userKey);
        if (keys.size() > ScriptSandbox::maxExactKeys) {
            fail(BurstFailure::Kind::Plan,
                 Text::tr("Your script was not run: with a key you named (--key), the sandbox it runs in grants "
                          "each of the run's %L1 keys by name, and takes at most %L2. Use fewer users, or leave the "
                          "key out: a fresh key's name carries a tag of this run alone, which covers all its keys.")
                     .arg(keys.size())
                     .arg(ScriptSandbox::maxExactKeys));
            return false;
        }
        patterns = ScriptSandbox::patternsOfKeys(keys);
    }
    QString why;
    switch (m_sandbox.enter(m_endpoint, m_options, patterns, &m_sandboxing, &why)) {
    case ScriptSandbox::Outcome::Made:
        return true;
    case ScriptSandbox::Outcome::NotAllowed:
        fail(BurstFailure::Kind::Script,
             Text::tr("Your script was not run. On a server zsetlab did not start, a script of yours runs as a "
                      "temporary ACL user that may touch only the run's own keys, and %1. Connect as a user that may "
                      "run ACL SETUSER, use a private server (--private), or, if you trust the script with every key "
                      "on this server, start zsetlab-cli or zsetlab with --trust-script.")
                 .arg(why));
        return false;
    case ScriptSandbox::Outcome::Failed:
        fail(BurstFailure::Kind::Connection,
             Text::tr("zsetlab could not make the temporary ACL user your script runs as: %1").arg(why));
        return false;
    }
    return false;
}

void BurstRun::leaveSandbox()
{
    if (m_sandbox.isMade() && !m_options.ownServer && m_scriptLoaded)
        m_sandboxing.scriptCacheSha = m_script.sha1();
    m_sandbox.leave(&m_sandboxing);
    if (m_sandboxing.refusedKeys.isEmpty() && m_sandboxing.refusedCommands.isEmpty())
        return;
    QString finding;
    if (!m_sandboxing.refusedKeys.isEmpty()) {
        QStringList keys;
        for (const QByteArray& key : m_sandboxing.refusedKeys.mid(0, 5))
            keys << printableText(key);
        finding = Text::tr("The script reached for %1, outside the run's own keys. Redis refused it (the script ran "
                           "as a temporary ACL user of this run), so nothing there was changed; a limiter should "
                           "touch only the keys it is given.")
                      .arg(keys.join(QStringLiteral(", ")));
    } else {
        QStringList commands;
        for (const QByteArray& command : m_sandboxing.refusedCommands.mid(0, 5))
            commands << printableText(command).toUpper();
        finding = Text::tr("The script ran %1, which reaches beyond the run's own keys (another database, another "
                           "server, or the server's state). Redis refused it (the script ran as a temporary ACL user "
                           "of this run), so it did not run; a limiter needs only commands on the keys it is given.")
                      .arg(commands.join(QStringLiteral(", ")));
    }
    std::lock_guard<std::mutex> lock(m_mutex);
    // The script's error ("can't access at least one of the keys") says less than this.
    if (m_failure.kind == BurstFailure::Kind::None || m_failure.kind == BurstFailure::Kind::Script)
        m_failure = {BurstFailure::Kind::Script, finding, m_failure.scriptLine};
}

ConnectOptions BurstRun::quickOptions() const
{
    ConnectOptions quick;
    quick.connectTimeout = std::min(m_options.connectTimeout, reconnectAttemptTimeout);
    quick.commandTimeout = std::min(m_options.commandTimeout, reconnectAttemptTimeout);
    return quick;
}

qint64 BurstRun::nowFor(int id, int connectionIndex) const
{
    if (m_plan.replayNows)
        return (*m_plan.replayNows)[static_cast<size_t>(id)];
    const qint64 offsetMs = m_plan.clockOffsetMs(connectionIndex);
    const double driftPpm = m_plan.clockDriftPpm(connectionIndex);
    switch (m_plan.clock) {
    case ClockKind::SystemMs: {
        const qint64 wall = wallMicros();
        return (wall + clockDriftMicros(driftPpm, wall - m_startWallUs)) / 1000 + offsetMs;
    }
    case ClockKind::SystemUs: {
        const qint64 wall = wallMicros();
        return wall + clockDriftMicros(driftPpm, wall - m_startWallUs) + offsetMs * 1000;
    }
    case ClockKind::Frozen:
        return m_startWallMs + offsetMs;
    case ClockKind::Schedule: {
        const qint64 elapsed = m_schedule[static_cast<size_t>(id)];
        return m_startWallMs + (elapsed + clockDriftMicros(driftPpm, elapsed)) / 1000 + offsetMs;
    }
    }
    return 0;
}

RedisArgs BurstRun::callFor(int id, qint64 now) const
{
    CallValues values;
    values.key = keyOf(id);
    values.unitsPerMs = m_plan.nowUnitsPerMs();
    values.nowMicros = now * (1000 / values.unitsPerMs);
    values.windowMs = m_plan.windowMs;
    values.limit = m_plan.limit;
    values.seq = id + 1;
    values.uuid = RequestLog::requestId(m_runTag, static_cast<quint32>(id));
    return m_plan.limiter->evalsha(values);
}

void BurstRun::keep(RequestRecord&& record, std::vector<RequestRecord>* batch)
{
    m_recorded.fetch_add(1);
    batch->push_back(std::move(record));
}

void BurstRun::failCall(const InFlightCall& call, int planConnection, const QString& error,
                        std::vector<RequestRecord>* batch)
{
    RequestRecord record;
    record.id = static_cast<quint32>(call.id);
    record.connection = static_cast<quint16>(planConnection);
    record.now = call.now;
    record.sentMicros = std::chrono::duration_cast<std::chrono::microseconds>(call.sent - m_startSteady).count();
    record.error = error;
    keep(std::move(record), batch);
}

QString BurstRun::requestError(const RedisReply& reply, const QByteArray& key) const
{
    if (isPermissionError(reply))
        return classifyReplyError(reply, m_endpoint).message;
    if (reply.errorCode() != "OOM" && reply.bytes().contains("OOM command not allowed"))
        return Text::tr("The server is out of memory (maxmemory reached, OOM): %1").arg(reply.text());
    return ScriptRunner::describeFailure(reply, key);
}

QString BurstRun::lostMessage(const BurstLane& lane, const QString& why) const
{
    // The lane's node: on a cluster, not necessarily the one the user named.
    // Requests finished so far (answered or failed), the figure the summary's "sent" ends with:
    // requests merely taken from the queue differ by user and by lane.
    return Text::tr("Lost the connection to %1 when %2 of %3 requests had finished: %4.")
        .arg(lane.connection ? lane.connection->endpoint().address() : m_endpoint.address())
        .arg(std::min(m_recorded.load(), m_plan.requests))
        .arg(m_plan.requests)
        .arg(why);
}

bool BurstRun::loadScript(RedisConnection& connection, QString* transientWhy)
{
    const RedisReply reply
        = connection.command({QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("LOAD"), m_script.source()});
    if (!reply.isError()) {
        m_scriptLoaded = true;
        return true;
    }
    if (reply.errorCode() == "BUSY")
        m_serverAnsweredBusy = true;
    if (reply.isConnectionLost() || isServerStateError(reply)) {
        const QString why = classifyReplyError(reply, m_endpoint).message;
        if (transientWhy)
            *transientWhy = why;
        else
            fail(BurstFailure::Kind::Connection, why);
        return false;
    }
    if (isPermissionError(reply)) {
        fail(permissionFailureKind(reply), classifyReplyError(reply, m_endpoint).message);
        return false;
    }
    const ScriptError error = ScriptError::ofLoad(m_script, reply);
    fail(BurstFailure::Kind::Script, error.message, error.line);
    return false;
}

void BurstRun::interruptConnections()
{
    std::lock_guard<std::mutex> lock(m_connectionsMutex);
    for (auto& connection : m_connections)
        connection->interrupt();
}

void BurstRun::work(const std::vector<int>& connectionIndexes)
{
    blockBrokenPipeSignal();
    BurstLanes(*this, connectionIndexes).serve();
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        --m_workersRunning;
    }
    m_wake.notify_all();
}

bool BurstRun::openOnKeyNode(RedisConnection& connection, const ConnectOptions& options, QString* why, bool asLane)
{
    ClusterMap map;
    {
        std::lock_guard<std::mutex> lock(m_mapMutex);
        map = m_map;
    }
    const bool opened
        = openForKey(connection, asLane ? laneEndpoint(m_endpoint) : m_endpoint, m_key, options, &map, why);
    if (!map.isEmpty()) {
        std::lock_guard<std::mutex> lock(m_mapMutex);
        m_map = map;
    }
    if (!opened && why->isEmpty())
        *why = connection.lastError().message;
    return opened;
}
