#include "burstlanes.h"

#include "burstreplies.h"
#include "burstrun.h"
#include "clientprofile.h"
#include "limiters/limiterscript.h"
#include "redis/keyslot.h"
#include "results/requestlog.h"

#include <QCoreApplication>
#include <QMetaObject>
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

void BurstLanes::handleReply(BurstLane& lane, const RedisReply& reply)
{
    const InFlightCall call = lane.inFlight.front();
    lane.inFlight.pop_front();
    const auto replied = Clock::now();
    lane.waitingSince = replied;

    if (call.id == -2) // the ASKING before a call on the node of an ASK
        return;
    if (followsRedirect(lane, call, reply, replied))
        return;
    if (call.id < 0) { // our SCRIPT LOAD, sent after a NOSCRIPT
        loaded(lane, reply);
        return;
    }
    if (ScriptRunner::isNoScript(reply)) {
        // The server forgot the script (SCRIPT FLUSH, restart): load it again and resend this call
        // behind the load, in the same pipeline.
        if (!lane.loadPending) {
            lane.connection->append({QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("LOAD"), m_run.m_script.source()});
            lane.inFlight.push_back({-1, 0, replied});
            lane.loadPending = true;
        }
        sendCall(lane, call);
        return;
    }
    keepAnswer(lane, call, reply, replied);
}

bool BurstLanes::followsRedirect(BurstLane& lane, const InFlightCall& call, const RedisReply& reply,
                                 Clock::time_point replied)
{
    if (m_run.m_routed) {
        if (const ClusterRedirect redirect = ClusterRedirect::of(reply); redirect.isRedirect()) {
            m_run.redirectCall(lane, call, redirect, reply, &m_batch);
            return true;
        }
        if (reply.errorCode() == "TRYAGAIN" && call.id >= 0) { // keys split between two nodes for a moment
            lane.resend.push_back(call);
            lane.holdUntil = replied + BurstRun::tryAgainPause;
            return true;
        }
        return false;
    }
    if (!m_run.m_cluster)
        return false;
    ClusterRedirect redirect = ClusterRedirect::of(reply);
    if (!redirect.isRedirect() && reply.errorCode() != "TRYAGAIN")
        return false;
    // "MOVED 3999 :6381" (no endpoint to announce): the host this lane reached.
    if (redirect.isRedirect() && (redirect.node.host.isEmpty() || redirect.node.host == QLatin1String("?")))
        redirect.node.host = lane.connection->endpoint().host;
    // A slot left half moved (an aborted reshard) would redirect for ever: a bounded wait.
    if (lane.redirectedSince == Clock::time_point())
        lane.redirectedSince = replied;
    else if (replied - lane.redirectedSince > std::chrono::milliseconds(BurstRun::rerouteForMs)) {
        m_run.fail(BurstFailure::Kind::Connection,
                   Text::tr("The cluster kept sending the calls of slot %1 elsewhere for %2 s (the last answer: "
                            "%3). A resharding may have stopped half way: redis-cli --cluster fix repairs it.")
                       .arg(KeySlot::of(m_run.m_key))
                       .arg(BurstRun::rerouteForMs / 1000)
                       .arg(reply.text()));
        return true;
    }
    // The call did not run: its slot is served by another node (MOVED), is moving there
    // (ASK), or its keys are split between the two for a moment (TRYAGAIN). It goes again
    // once the lane follows the redirect, so it is neither lost nor counted twice.
    if (call.id >= 0)
        lane.resend.push_back(call);
    if (redirect.isRedirect())
        lane.redirect = redirect;
    else
        lane.holdUntil = replied + BurstRun::tryAgainPause;
    return true;
}

void BurstLanes::loaded(BurstLane& lane, const RedisReply& reply)
{
    lane.loadPending = false;
    if (isPermissionError(reply)) {
        m_run.fail(permissionFailureKind(reply), classifyReplyError(reply, m_run.m_endpoint).message);
    } else if (reply.isError() && !isServerStateError(reply)) { // a busy server: the next NOSCRIPT loads again
        const ScriptError error = ScriptError::fromReply(reply.text());
        m_run.fail(BurstFailure::Kind::Script, error.toString(), error.line);
    }
}

void BurstLanes::keepAnswer(BurstLane& lane, const InFlightCall& call, const RedisReply& reply,
                            Clock::time_point replied)
{
    lane.redirectedSince = {}; // answered where it was sent
    RequestRecord record;
    record.id = static_cast<quint32>(call.id);
    record.connection = static_cast<quint16>(lane.planConnection);
    record.now = call.now;
    record.sentMicros = std::chrono::duration_cast<std::chrono::microseconds>(call.sent - m_run.m_startSteady).count();
    record.latencyMicros
        = static_cast<quint32>(std::chrono::duration_cast<std::chrono::microseconds>(replied - call.sent).count());
    if (reply.isServerError()) {
        record.error = m_run.requestError(reply, m_run.keyOf(call.id));
        if (isPermissionError(reply))
            m_run.fail(permissionFailureKind(reply), record.error);
        else if (isScriptFault(reply))
            m_run.fail(BurstFailure::Kind::Script, record.error, ScriptError::fromReply(reply.text()).line);
        else if (m_run.m_plan.stopOnErrors)
            m_run.fail(BurstFailure::Kind::Script,
                       Text::tr("Stopped at the first failed request (stop on error): %1").arg(record.error));
    } else {
        m_run.m_plan.limiter->readReply(reply, RequestLog::requestId(m_run.m_runTag, record.id), &record);
    }
    m_run.keep(std::move(record), &m_batch);
}

void BurstLanes::loseLane(BurstLane& lane, const QString& why)
{
    if (m_run.m_stop) { // our own interrupt after Stop: unanswered calls are simply not counted
        lane.closed = true;
        return;
    }
    // The calls on their way may or may not have run: errors, so that the log stays whole.
    const QString error
        = Text::tr("No reply from %1: %2 (the request may or may not have run).")
              .arg(lane.connection ? lane.connection->endpoint().address() : m_run.m_endpoint.address(), why);
    for (const InFlightCall& call : lane.inFlight) {
        if (call.id >= 0)
            m_run.failCall(call, lane.planConnection, error, &m_batch);
    }
    lane.inFlight.clear();
    lane.loadPending = false;
    lane.unflushed = false;
    lane.redirect = {}; // the calls to send again stay in lane.resend: they did not run
    lane.asking = false;
    m_run.handOver(&m_batch);
    if (m_run.m_plan.reconnectForMs <= 0) {
        lane.closed = true;
        if (lane.group) // the other masters' users go on
            m_run.retireLane(lane, m_run.lostMessage(lane, why), &m_batch);
        else
            m_run.fail(BurstFailure::Kind::Connection, m_run.lostMessage(lane, why));
        return;
    }
    lane.down = true;
    lane.lostWhy = why;
    lane.downSince = Clock::now();
    lane.backoff = BurstRun::firstReconnectDelay;
    lane.retryAt = lane.downSince + lane.backoff;
    {
        std::lock_guard<std::mutex> lock(m_run.m_mutex);
        m_run.m_outage = m_run.lostMessage(lane, why)
            + Text::tr(" Connecting again for up to %1 s.").arg(double(m_run.m_plan.reconnectForMs) / 1000.0);
    }
    ++m_run.m_lanesDown;
}

void BurstLanes::closeDownLane(BurstLane& lane)
{
    if (lane.down) {
        lane.down = false;
        if (!lane.rerouting)
            --m_run.m_lanesDown;
        lane.rerouting = false;
    }
    lane.closed = true;
}

void BurstLanes::sendCall(BurstLane& lane, const InFlightCall& call)
{
    if (lane.inFlight.empty())
        lane.waitingSince = Clock::now();
    if (lane.asking || call.ask) {
        lane.connection->append({QByteArrayLiteral("ASKING")});
        lane.inFlight.push_back({-2, 0, call.sent});
    }
    lane.connection->append(m_run.callFor(call.id, call.now));
    lane.inFlight.push_back(call);
    lane.unflushed = true;
}

void BurstLanes::reroute(BurstLane& lane)
{
    // Like a lost connection made again at once, with nothing lost: no call is in flight, and
    // the ones the old node refused wait in lane.resend.
    const ClusterRedirect redirect = lane.redirect;
    lane.redirect = {};
    lane.asking = redirect.kind == ClusterRedirect::Kind::Ask;
    lane.toNode = redirect.node; // none (port 0) when the lane goes back to the slot map
    lane.down = true;
    lane.rerouting = true;
    lane.downSince = Clock::now();
    lane.backoff = BurstRun::firstReconnectDelay;
    lane.retryAt = lane.downSince;
    lane.lostWhy = redirect.slot >= 0 ? Text::tr("the cluster moved slot %1 to %2:%3")
                                            .arg(redirect.slot)
                                            .arg(redirect.node.host)
                                            .arg(redirect.node.port)
                                      : Text::tr("the cluster's slot map changed");
}

bool BurstLanes::hasWorkLeft(const BurstLane& lane) const
{
    if (!lane.resend.empty() || lane.held >= 0)
        return true;
    if (lane.group) // a call may yet be redirected to this lane's master
        return m_run.m_recorded.load() < m_run.m_plan.requests;
    if (lane.own)
        return lane.nextOwn < lane.own->size();
    return (m_claimed >= 0 && m_claimed < m_run.m_plan.requests) || m_run.m_nextId.load() < m_run.m_plan.requests;
}

void BurstLanes::reconnect(BurstLane& lane)
{
    using std::chrono::milliseconds;
    const auto budget = milliseconds(lane.rerouting ? std::max(m_run.m_plan.reconnectForMs, BurstRun::rerouteForMs)
                                                    : m_run.m_plan.reconnectForMs);
    const auto left = std::chrono::duration_cast<milliseconds>(lane.downSince + budget - Clock::now());
    auto bounded = [left](milliseconds configured) {
        return std::max(milliseconds(10), std::min({configured, BurstRun::reconnectAttemptTimeout, left}));
    };
    ConnectOptions attempt;
    attempt.connectTimeout = bounded(m_run.m_options.connectTimeout);
    attempt.commandTimeout = bounded(m_run.m_options.commandTimeout);

    // A new context on this thread; the lost one is closed once swapped out.
    auto fresh = std::make_unique<RedisConnection>();
    QString why;
    bool fatal = false;
    if (openAgain(lane, *fresh, attempt, &why, &fatal)) {
        swapIn(lane, fresh);
        return;
    }
    if (fatal)
        return;
    // A server that answers BUSY runs a script past its busy-reply-threshold: after a call of the
    // run's own script went unanswered, that script. It is ended now (BurstRun::finish()), not
    // after the reconnect window: every client of the server waits until then.
    if (m_run.runawayHoldsServer()) {
        closeDownLane(lane);
        m_run.fail(BurstFailure::Kind::Connection,
                   m_run.lostMessage(lane, lane.lostWhy)
                       + Text::tr(" The server answers BUSY: the run's script is still running."));
        return;
    }
    if (Clock::now() - lane.downSince >= budget) {
        const QString message = m_run.lostMessage(lane, lane.lostWhy)
            + Text::tr(" It did not come back within %1 s; the last try said: %2")
                  .arg(double(budget.count()) / 1000.0)
                  .arg(why);
        closeDownLane(lane);
        if (lane.group)
            m_run.retireLane(lane, message, &m_batch);
        else
            m_run.fail(BurstFailure::Kind::Connection, message);
        return;
    }
    lane.backoff = std::min(lane.backoff * 2, BurstRun::longestReconnectDelay);
    lane.retryAt = Clock::now() + lane.backoff;
}

bool BurstLanes::openAgain(BurstLane& lane, RedisConnection& fresh, const ConnectOptions& attempt, QString* why,
                           bool* fatal)
{
    bool opened = false;
    if (lane.group) { // routed by user: the lane serves one master
        opened = fresh.open(m_run.laneEndpoint(lane.group->node), attempt);
        if (!opened)
            *why = fresh.lastError().message;
    } else if (lane.rerouting && lane.toNode.port > 0) { // the node a MOVED or an ASK named
        const RedisEndpoint node = ClusterMap::endpointOf(lane.toNode, m_run.m_endpoint);
        if (m_run.m_endpoint.isLocal() && !node.isLocal()) {
            closeDownLane(lane);
            m_run.fail(
                BurstFailure::Kind::Connection,
                Text::tr("The cluster sent the key to %1, which is not on this machine: zsetlab does not fire at "
                         "a server elsewhere without consent.")
                    .arg(node.address()));
            *fatal = true;
            return false;
        }
        opened = fresh.open(m_run.laneEndpoint(node), attempt);
        if (!opened)
            *why = fresh.lastError().message;
    } else {
        opened = m_run.openOnKeyNode(fresh, attempt, why, true);
    }
    if (!opened && fresh.lastError().isError()) {
        const RedisError& error = fresh.lastError();
        const bool refused = error.kind == RedisError::Kind::PasswordRequired
            || error.kind == RedisError::Kind::WrongPassword || error.kind == RedisError::Kind::NoPermission
            || error.kind == RedisError::Kind::BadDatabase || error.kind == RedisError::Kind::TooOld;
        if (error.kind == RedisError::Kind::Server && error.message.startsWith(QLatin1String("BUSY")))
            m_run.m_serverAnsweredBusy = true;
        if (refused) { // the server is back but will not have us: waiting does not help
            closeDownLane(lane);
            m_run.fail(BurstFailure::Kind::Connection,
                       m_run.lostMessage(lane, lane.lostWhy)
                           + Text::tr(" Connecting again was refused: %1").arg(error.message));
            *fatal = true;
            return false;
        }
        *why = error.message;
        return false;
    }
    if (!opened) // the slot map has no master for the key (a node is down): try again
        return false;
    if (!m_run.loadScript(fresh, why)) {
        if (why->isEmpty()) { // loadScript() failed the run
            closeDownLane(lane);
            *fatal = true;
        }
        return false;
    }
    if (!fresh.setNonBlocking()) {
        *why = Text::tr("cannot drive the new connection without blocking");
        return false;
    }
    return true;
}

void BurstLanes::swapIn(BurstLane& lane, std::unique_ptr<RedisConnection>& fresh)
{
    {
        std::lock_guard<std::mutex> lock(m_run.m_connectionsMutex);
        m_run.m_connections[static_cast<size_t>(lane.index)].swap(fresh);
    }
    lane.connection = m_run.m_connections[static_cast<size_t>(lane.index)].get();
    lane.down = false;
    if (!lane.rerouting) {
        ++m_run.m_reconnects;
        --m_run.m_lanesDown;
    }
    lane.rerouting = false;
    lane.toNode = {};
    lane.askingSince = Clock::now();
}

BurstLanes::BurstLanes(BurstRun& run, const std::vector<int>& connectionIndexes)
    : m_run(run)
    , m_total(run.m_plan.requests)
    , m_pipeline(static_cast<size_t>(run.m_plan.pipeline))
    , m_commandTimeout(std::chrono::duration_cast<Clock::duration>(run.m_options.commandTimeout))
    , m_spin(std::chrono::duration_cast<Clock::duration>(run.m_spinBeforeWaiting))
    , m_paced(run.m_plan.isPaced())
{
    for (const int index : connectionIndexes) {
        BurstLane lane;
        lane.index = index;
        lane.connection = m_run.m_connections[static_cast<size_t>(index)].get();
        lane.closed = !lane.connection->setNonBlocking();
        lane.planConnection = index % m_run.m_plan.connectionCount();
        if (m_run.m_routed)
            lane.group = m_run.m_groups[size_t(index / m_run.m_plan.connectionCount())].get();
        if (!m_run.m_requestsOfClient.empty())
            lane.own = &m_run.m_requestsOfClient[size_t(index)];
        m_lanes.push_back(std::move(lane));
    }
    for (BurstLane& lane : m_lanes) {
        if (lane.closed && lane.group) // its master's other lanes take its share; with none, its users fail
            m_run.retireLane(lane,
                             Text::tr("cannot drive the connection to %1 without blocking")
                                 .arg(lane.connection->endpoint().address()),
                             &m_batch);
    }
    m_batch.reserve(BurstRun::handOverEvery);
    m_lastHandOver = Clock::now();
}

void BurstLanes::serve()
{
    while (true) {
        reconnectLost();
        resendRefused();
        queueNew();
        if (!flush())
            break;
        waitForAnswers();
        const auto now = Clock::now();
        readAnswers(now);
        followRedirects(now);
    }
    for (BurstLane& lane : m_lanes)
        closeDownLane(lane);
    m_run.handOver(&m_batch);
}

void BurstLanes::reconnectLost()
{
    for (BurstLane& lane : m_lanes) {
        if (!lane.down)
            continue;
        if (m_run.m_stop || !hasWorkLeft(lane))
            closeDownLane(lane);
        else if (Clock::now() >= lane.retryAt)
            reconnect(lane);
    }
}

void BurstLanes::resendRefused()
{
    for (BurstLane& lane : m_lanes) {
        if (m_run.m_stop) {
            lane.resend.clear();
            lane.redirect = {};
            continue;
        }
        if (lane.asking && !lane.down && !lane.redirect.isRedirect()
            && Clock::now() - lane.askingSince >= BurstRun::askingRecheck)
            lane.redirect.kind = ClusterRedirect::Kind::Moved; // back to the slot map: has the slot moved for good?
        if (lane.redirect.isRedirect() && lane.inFlight.empty() && !lane.down && !lane.closed)
            reroute(lane);
        if (lane.group && lane.group->inboxSize.load() > 0 && !lane.down && !lane.closed) {
            // Calls other masters sent here (MOVED, ASK): first, as the ones to send again.
            std::lock_guard<std::mutex> lock(lane.group->mutex);
            while (!lane.group->inbox.empty() && lane.resend.size() < m_pipeline) {
                lane.resend.push_back(lane.group->inbox.front());
                lane.group->inbox.pop_front();
                --lane.group->inboxSize;
            }
        }
        while (canQueue(lane) && !lane.resend.empty() && Clock::now() >= lane.holdUntil) {
            const InFlightCall call = lane.resend.front();
            lane.resend.pop_front();
            sendCall(lane, call);
        }
    }
}

bool BurstLanes::canQueue(const BurstLane& lane) const
{
    return !m_run.m_stop && !lane.closed && !lane.down && lane.inFlight.size() < m_pipeline
        && !lane.redirect.isRedirect();
}

BurstLanes::Clock::time_point BurstLanes::dueAt(int id) const
{
    return m_run.m_startSteady + std::chrono::microseconds(m_run.m_schedule[size_t(id)]);
}

void BurstLanes::queueCall(BurstLane& lane, int id)
{
    sendCall(lane, {id, m_run.nowFor(id, lane.planConnection), Clock::now()});
}

void BurstLanes::queueNew()
{
    m_exhausted = false;
    m_waitingForDue = false;
    m_nextDue = Clock::time_point::max();
    const size_t start = m_nextLane;
    for (size_t l = 0; l < m_lanes.size(); ++l) {
        BurstLane& lane = m_lanes[(start + l) % m_lanes.size()];
        while (canQueue(lane)) {
            if (!lane.resend.empty())
                break; // sent first, by resendRefused()
            if (lane.group) {
                if (!queueFromGroup(lane))
                    break;
            } else if (lane.own) {
                if (!queueOwn(lane))
                    break;
            } else {
                if (!queueShared(lane))
                    break;
                m_nextLane = (start + l + 1) % m_lanes.size();
            }
        }
        if (m_exhausted || m_waitingForDue)
            break;
    }
    if (!m_run.m_requestsOfClient.empty()) {
        m_waitingForDue = m_nextDue != Clock::time_point::max();
        m_exhausted = std::all_of(m_lanes.begin(), m_lanes.end(), [](const BurstLane& lane) {
            return lane.closed || (lane.nextOwn >= lane.own->size() && lane.resend.empty());
        });
    } else if (m_run.m_routed) {
        // Another master may still redirect a call here: done when every request is.
        m_waitingForDue = m_nextDue != Clock::time_point::max();
        m_exhausted = m_run.m_recorded.load() >= m_total;
    }
}

bool BurstLanes::queueFromGroup(BurstLane& lane)
{
    if (!m_run.takeFromGroup(lane, &m_batch))
        return false;
    if (m_paced && Clock::now() < dueAt(lane.held)) {
        m_nextDue = std::min(m_nextDue, dueAt(lane.held));
        return false;
    }
    const int id = std::exchange(lane.held, -1);
    m_run.m_nextId.fetch_add(1);
    queueCall(lane, id);
    return true;
}

bool BurstLanes::queueOwn(BurstLane& lane)
{
    // A client's requests go out on its own connection, in its own order; the other clients do
    // not wait for it.
    if (lane.nextOwn >= lane.own->size())
        return false;
    const int id = (*lane.own)[lane.nextOwn];
    if (m_paced && Clock::now() < dueAt(id)) {
        m_nextDue = std::min(m_nextDue, dueAt(id));
        return false;
    }
    ++lane.nextOwn;
    m_run.m_nextId.fetch_add(1);
    queueCall(lane, id);
    return true;
}

bool BurstLanes::queueShared(BurstLane& lane)
{
    if (m_claimed < 0)
        m_claimed = std::min(m_run.m_nextId.fetch_add(1), m_total);
    if (m_claimed >= m_total) {
        m_exhausted = true;
        return false;
    }
    if (m_paced && Clock::now() < dueAt(m_claimed)) {
        m_waitingForDue = true;
        m_nextDue = dueAt(m_claimed);
        return false;
    }
    queueCall(lane, m_claimed);
    m_claimed = -1;
    return true;
}

bool BurstLanes::flush()
{
    bool anyInFlight = false;
    bool anyOpen = false;
    for (BurstLane& lane : m_lanes) {
        if (lane.closed)
            continue;
        anyOpen = true; // a lost connection too: it may come back
        anyInFlight = anyInFlight || !lane.resend.empty() || lane.redirect.isRedirect();
        if (lane.down)
            continue;
        if (lane.unflushed) {
            bool allWritten = false;
            if (!lane.connection->flush(&allWritten)) {
                loseLane(lane, lane.connection->failureText());
                continue;
            }
            lane.unflushed = !allWritten;
        }
        anyInFlight = anyInFlight || !lane.inFlight.empty();
    }
    return anyInFlight || (anyOpen && !m_exhausted && !m_run.m_stop);
}

void BurstLanes::waitForAnswers()
{
    m_polled.clear();
    m_polledLanes.clear();
    auto deadline = Clock::time_point::max();
    for (BurstLane& lane : m_lanes) {
        if (lane.down) // lost in this round or before: wake up for its next try
            deadline = std::min(deadline, lane.retryAt);
        if (!lane.closed && !lane.down && !lane.resend.empty() && lane.inFlight.empty())
            deadline = std::min(deadline, lane.holdUntil); // TRYAGAIN's pause
        if (lane.closed || lane.down || lane.inFlight.empty())
            continue;
        m_polled.push_back({lane.connection->socket(), short(POLLIN | (lane.unflushed ? POLLOUT : 0)), 0});
        m_polledLanes.push_back(&lane);
        deadline = std::min(deadline, lane.waitingSince + m_commandTimeout);
    }
    if (m_waitingForDue) {
        m_run.handOver(&m_batch);
        m_lastHandOver = Clock::now();
        deadline = std::min(deadline, m_nextDue);
    }
    if (m_run.m_routed) // calls redirected by another thread's lanes arrive without waking this one
        deadline = std::min(deadline, Clock::now() + BurstRun::inboxLookEvery);
    if (!m_run.m_stop)
        m_polled.push_back({m_run.m_wakeFd, POLLIN, 0});
    if (m_spin > Clock::duration::zero() && !m_polledLanes.empty()) {
        // An answer on its way, and a core for this thread: look again before sleeping.
        const auto spinUntil = std::min(deadline, Clock::now() + m_spin);
        timespec now {0, 0};
        while (Clock::now() < spinUntil)
            if (::ppoll(m_polled.data(), m_polled.size(), &now, nullptr) > 0)
                return;
    }
    const auto wait = std::max(Clock::duration::zero(), deadline - Clock::now());
    const auto waitNs = std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count();
    timespec timeout {static_cast<time_t>(waitNs / 1'000'000'000), static_cast<long>(waitNs % 1'000'000'000)};
    ::ppoll(m_polled.data(), m_polled.size(), deadline == Clock::time_point::max() ? nullptr : &timeout, nullptr);
}

void BurstLanes::readAnswers(Clock::time_point now)
{
    for (size_t i = 0; i < m_polledLanes.size(); ++i) {
        BurstLane& lane = *m_polledLanes[i];
        if (m_polled[i].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (!lane.connection->readAvailable()) {
                loseLane(lane, lane.connection->failureText());
                continue;
            }
            RedisReply reply;
            while (!lane.inFlight.empty() && lane.connection->nextReply(&reply))
                handleReply(lane, reply);
            // A reply the reader refused (past its bounds, or malformed) ends the connection:
            // waiting for more would wait for the command timeout.
            if (!lane.closed && !lane.down && !lane.connection->isOpen()) {
                loseLane(lane, lane.connection->failureText());
                continue;
            }
        }
        // A server that stopped answering (paused, swapping, a long script) gets the same retry
        // window as one that dropped the connection: the lane connects again on a new socket.
        if (!lane.closed && !lane.inFlight.empty() && now - lane.waitingSince >= m_commandTimeout) {
            m_run.m_callTimedOut = true;
            loseLane(
                lane,
                Text::tr("no reply within %1 ms (the command timeout)").arg(m_run.m_options.commandTimeout.count()));
        }
    }
}

void BurstLanes::followRedirects(Clock::time_point now)
{
    for (BurstLane& lane : m_lanes)
        if (lane.redirect.isRedirect() && lane.inFlight.empty() && !lane.down && !lane.closed)
            reroute(lane);
    if (m_batch.size() >= BurstRun::handOverEvery || now - m_lastHandOver >= BurstRun::handOverAfter) {
        m_run.handOver(&m_batch);
        m_lastHandOver = now;
    }
}
