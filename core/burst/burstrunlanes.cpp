#include "burstrun.h"

#include "burstreplies.h"
#include "clientprofile.h"
#include "keyslot.h"
#include "limiterscript.h"
#include "requestlog.h"

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

void BurstRun::handleReply(BurstLane& lane, const RedisReply& reply, std::vector<RequestRecord>* batch)
{
    const InFlightCall call = lane.inFlight.front();
    lane.inFlight.pop_front();
    const auto replied = Clock::now();
    lane.waitingSince = replied;

    if (call.id == -2) // the ASKING before a call on the node of an ASK
        return;
    if (m_routed) {
        if (const ClusterRedirect redirect = ClusterRedirect::of(reply); redirect.isRedirect()) {
            redirectCall(lane, call, redirect, reply, batch);
            return;
        }
        if (reply.errorCode() == "TRYAGAIN" && call.id >= 0) { // keys split between two nodes for a moment
            lane.resend.push_back(call);
            lane.holdUntil = replied + tryAgainPause;
            return;
        }
    } else if (m_cluster) {
        ClusterRedirect redirect = ClusterRedirect::of(reply);
        if (redirect.isRedirect() || reply.errorCode() == "TRYAGAIN") {
            // "MOVED 3999 :6381" (no endpoint to announce): the host this lane reached.
            if (redirect.isRedirect() && (redirect.node.host.isEmpty() || redirect.node.host == QLatin1String("?")))
                redirect.node.host = lane.connection->endpoint().host;
            // A slot left half moved (an aborted reshard) would redirect for ever: a bounded wait.
            if (lane.redirectedSince == Clock::time_point())
                lane.redirectedSince = replied;
            else if (replied - lane.redirectedSince > std::chrono::milliseconds(rerouteForMs)) {
                fail(BurstFailure::Kind::Connection,
                     Text::tr("The cluster kept sending the calls of slot %1 elsewhere for %2 s (the last answer: "
                              "%3). A resharding may have stopped half way: redis-cli --cluster fix repairs it.")
                         .arg(KeySlot::of(m_key))
                         .arg(rerouteForMs / 1000)
                         .arg(reply.text()));
                return;
            }
            // The call did not run: its slot is served by another node (MOVED), is moving there
            // (ASK), or its keys are split between the two for a moment (TRYAGAIN). It goes again
            // once the lane follows the redirect, so it is neither lost nor counted twice.
            if (call.id >= 0)
                lane.resend.push_back(call);
            if (redirect.isRedirect())
                lane.redirect = redirect;
            else
                lane.holdUntil = replied + tryAgainPause;
            return;
        }
    }
    if (call.id < 0) { // our SCRIPT LOAD, sent after a NOSCRIPT
        lane.loadPending = false;
        if (isPermissionError(reply)) {
            fail(permissionFailureKind(reply), classifyReplyError(reply, m_endpoint).message);
        } else if (reply.isError() && !isServerStateError(reply)) { // a busy server: the next NOSCRIPT loads again
            const ScriptError error = ScriptError::fromReply(reply.text());
            fail(BurstFailure::Kind::Script, error.toString(), error.line);
        }
        return;
    }
    if (ScriptRunner::isNoScript(reply)) {
        // The server forgot the script (SCRIPT FLUSH, restart): load it again and resend this call
        // behind the load, in the same pipeline.
        if (!lane.loadPending) {
            lane.connection->append({QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("LOAD"), m_script.source()});
            lane.inFlight.push_back({-1, 0, replied});
            lane.loadPending = true;
        }
        sendCall(lane, call);
        return;
    }
    lane.redirectedSince = {}; // answered where it was sent
    RequestRecord record;
    record.id = static_cast<quint32>(call.id);
    record.connection = static_cast<quint16>(lane.planConnection);
    record.now = call.now;
    record.sentMicros = std::chrono::duration_cast<std::chrono::microseconds>(call.sent - m_startSteady).count();
    record.latencyMicros
        = static_cast<quint32>(std::chrono::duration_cast<std::chrono::microseconds>(replied - call.sent).count());
    if (reply.isServerError()) {
        record.error = requestError(reply, keyOf(call.id));
        if (isPermissionError(reply))
            fail(permissionFailureKind(reply), record.error);
        else if (isScriptFault(reply))
            fail(BurstFailure::Kind::Script, record.error, ScriptError::fromReply(reply.text()).line);
        else if (m_plan.stopOnErrors)
            fail(BurstFailure::Kind::Script,
                 Text::tr("Stopped at the first failed request (stop on error): %1").arg(record.error));
    } else {
        m_plan.limiter->readReply(reply, RequestLog::requestId(m_runTag, record.id), &record);
    }
    keep(std::move(record), batch);
}

void BurstRun::loseLane(BurstLane& lane, const QString& why, std::vector<RequestRecord>* batch)
{
    if (m_stop) { // our own interrupt after Stop: unanswered calls are simply not counted
        lane.closed = true;
        return;
    }
    // The calls on their way may or may not have run: errors, so that the log stays whole.
    const QString error = Text::tr("No reply from %1: %2 (the request may or may not have run).")
                              .arg(lane.connection ? lane.connection->endpoint().address() : m_endpoint.address(), why);
    for (const InFlightCall& call : lane.inFlight) {
        if (call.id >= 0)
            failCall(call, lane.planConnection, error, batch);
    }
    lane.inFlight.clear();
    lane.loadPending = false;
    lane.unflushed = false;
    lane.redirect = {}; // the calls to send again stay in lane.resend: they did not run
    lane.asking = false;
    handOver(batch);
    if (m_plan.reconnectForMs <= 0) {
        lane.closed = true;
        if (lane.group) // the other masters' users go on
            retireLane(lane, lostMessage(lane, why), batch);
        else
            fail(BurstFailure::Kind::Connection, lostMessage(lane, why));
        return;
    }
    lane.down = true;
    lane.lostWhy = why;
    lane.downSince = Clock::now();
    lane.backoff = firstReconnectDelay;
    lane.retryAt = lane.downSince + lane.backoff;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_outage = lostMessage(lane, why)
            + Text::tr(" Connecting again for up to %1 s.").arg(double(m_plan.reconnectForMs) / 1000.0);
    }
    ++m_lanesDown;
}

void BurstRun::closeDownLane(BurstLane& lane)
{
    if (lane.down) {
        lane.down = false;
        if (!lane.rerouting)
            --m_lanesDown;
        lane.rerouting = false;
    }
    lane.closed = true;
}

void BurstRun::sendCall(BurstLane& lane, const InFlightCall& call)
{
    if (lane.inFlight.empty())
        lane.waitingSince = Clock::now();
    if (lane.asking || call.ask) {
        lane.connection->append({QByteArrayLiteral("ASKING")});
        lane.inFlight.push_back({-2, 0, call.sent});
    }
    lane.connection->append(callFor(call.id, call.now));
    lane.inFlight.push_back(call);
    lane.unflushed = true;
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

void BurstRun::reroute(BurstLane& lane)
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
    lane.backoff = firstReconnectDelay;
    lane.retryAt = lane.downSince;
    lane.lostWhy = redirect.slot >= 0 ? Text::tr("the cluster moved slot %1 to %2:%3")
                                            .arg(redirect.slot)
                                            .arg(redirect.node.host)
                                            .arg(redirect.node.port)
                                      : Text::tr("the cluster's slot map changed");
}

bool BurstRun::hasWorkLeft(const BurstLane& lane, int claimed) const
{
    if (!lane.resend.empty() || lane.held >= 0)
        return true;
    if (lane.group) // a call may yet be redirected to this lane's master
        return m_recorded.load() < m_plan.requests;
    if (lane.own)
        return lane.nextOwn < lane.own->size();
    return (claimed >= 0 && claimed < m_plan.requests) || m_nextId.load() < m_plan.requests;
}

void BurstRun::reconnect(BurstLane& lane, std::vector<RequestRecord>* batch)
{
    using std::chrono::milliseconds;
    const auto budget
        = milliseconds(lane.rerouting ? std::max(m_plan.reconnectForMs, rerouteForMs) : m_plan.reconnectForMs);
    const auto left = std::chrono::duration_cast<milliseconds>(lane.downSince + budget - Clock::now());
    auto bounded = [left](milliseconds configured) {
        return std::max(milliseconds(10), std::min({configured, reconnectAttemptTimeout, left}));
    };
    ConnectOptions attempt;
    attempt.connectTimeout = bounded(m_options.connectTimeout);
    attempt.commandTimeout = bounded(m_options.commandTimeout);

    // A new context on this thread; the lost one is closed once swapped out.
    auto fresh = std::make_unique<RedisConnection>();
    QString why;
    bool opened = false;
    if (lane.group) { // routed by user: the lane serves one master
        opened = fresh->open(laneEndpoint(lane.group->node), attempt);
        if (!opened)
            why = fresh->lastError().message;
    } else if (lane.rerouting && lane.toNode.port > 0) { // the node a MOVED or an ASK named
        const RedisEndpoint node = ClusterMap::endpointOf(lane.toNode, m_endpoint);
        if (m_endpoint.isLocal() && !node.isLocal()) {
            closeDownLane(lane);
            fail(BurstFailure::Kind::Connection,
                 Text::tr("The cluster sent the key to %1, which is not on this machine: zsetlab does not fire at "
                          "a server elsewhere without consent.")
                     .arg(node.address()));
            return;
        }
        opened = fresh->open(laneEndpoint(node), attempt);
        if (!opened)
            why = fresh->lastError().message;
    } else {
        opened = openOnKeyNode(*fresh, attempt, &why, true);
    }
    if (!opened && fresh->lastError().isError()) {
        const RedisError& error = fresh->lastError();
        const bool refused = error.kind == RedisError::Kind::PasswordRequired
            || error.kind == RedisError::Kind::WrongPassword || error.kind == RedisError::Kind::NoPermission
            || error.kind == RedisError::Kind::BadDatabase || error.kind == RedisError::Kind::TooOld;
        if (refused) { // the server is back but will not have us: waiting does not help
            closeDownLane(lane);
            fail(BurstFailure::Kind::Connection,
                 lostMessage(lane, lane.lostWhy) + Text::tr(" Connecting again was refused: %1").arg(error.message));
            return;
        }
        why = error.message;
    } else if (!opened) {
        // the slot map has no master for the key (a node is down): try again
    } else if (!loadScript(*fresh, &why)) {
        if (why.isEmpty()) { // loadScript() failed the run
            closeDownLane(lane);
            return;
        }
    } else if (!fresh->setNonBlocking()) {
        why = Text::tr("cannot drive the new connection without blocking");
    } else {
        {
            std::lock_guard<std::mutex> lock(m_connectionsMutex);
            m_connections[static_cast<size_t>(lane.index)].swap(fresh);
        }
        lane.connection = m_connections[static_cast<size_t>(lane.index)].get();
        lane.down = false;
        if (!lane.rerouting) {
            ++m_reconnects;
            --m_lanesDown;
        }
        lane.rerouting = false;
        lane.toNode = {};
        lane.askingSince = Clock::now();
        return;
    }
    if (Clock::now() - lane.downSince >= budget) {
        const QString message = lostMessage(lane, lane.lostWhy)
            + Text::tr(" It did not come back within %1 s; the last try said: %2")
                  .arg(double(budget.count()) / 1000.0)
                  .arg(why);
        closeDownLane(lane);
        if (lane.group)
            retireLane(lane, message, batch);
        else
            fail(BurstFailure::Kind::Connection, message);
        return;
    }
    lane.backoff = std::min(lane.backoff * 2, longestReconnectDelay);
    lane.retryAt = Clock::now() + lane.backoff;
}

void BurstRun::work(const std::vector<int>& connectionIndexes)
{
    // One thread drives several connections, each with its own hiredis context that no other
    // thread touches: requests are queued, flushed and read without blocking, and poll() waits
    // for whichever connection answers first (the model of redis-benchmark).
    blockBrokenPipeSignal();
    const int total = m_plan.requests;
    const auto pipeline = static_cast<size_t>(m_plan.pipeline);
    const auto commandTimeout = std::chrono::duration_cast<Clock::duration>(m_options.commandTimeout);
    std::vector<BurstLane> lanes;
    for (const int index : connectionIndexes) {
        BurstLane lane;
        lane.index = index;
        lane.connection = m_connections[static_cast<size_t>(index)].get();
        lane.closed = !lane.connection->setNonBlocking();
        lane.planConnection = index % m_plan.connectionCount();
        if (m_routed)
            lane.group = m_groups[size_t(index / m_plan.connectionCount())].get();
        if (!m_requestsOfClient.empty())
            lane.own = &m_requestsOfClient[size_t(index)];
        lanes.push_back(std::move(lane));
    }
    std::vector<RequestRecord> batch;
    for (BurstLane& lane : lanes) {
        if (lane.closed && lane.group) // its master's other lanes take its share; with none, its users fail
            retireLane(lane,
                       Text::tr("cannot drive the connection to %1 without blocking")
                           .arg(lane.connection->endpoint().address()),
                       &batch);
    }
    batch.reserve(handOverEvery);
    auto lastHandOver = Clock::now();
    std::vector<pollfd> polled;
    std::vector<BurstLane*> polledLanes;
    int claimed = -1;
    size_t nextLane = 0;
    const bool paced = m_plan.isPaced();
    auto dueAt = [this](int id) { return m_startSteady + std::chrono::microseconds(m_schedule[size_t(id)]); };
    auto queueCall = [this](BurstLane& lane, int id) {
        sendCall(lane, {id, nowFor(id, lane.planConnection), Clock::now()});
    };

    while (true) {
        // 0. Make lost connections again once their backoff is over, while work is left for them.
        for (BurstLane& lane : lanes) {
            if (!lane.down)
                continue;
            if (m_stop || !hasWorkLeft(lane, claimed))
                closeDownLane(lane);
            else if (Clock::now() >= lane.retryAt)
                reconnect(lane, &batch);
        }

        // 1. Send again, first and in their order, the calls a cluster node did not run. After
        // Stop they are not sent, and not counted, like any call not sent yet.
        for (BurstLane& lane : lanes) {
            if (m_stop) {
                lane.resend.clear();
                lane.redirect = {};
                continue;
            }
            if (lane.asking && !lane.down && !lane.redirect.isRedirect()
                && Clock::now() - lane.askingSince >= askingRecheck)
                lane.redirect.kind = ClusterRedirect::Kind::Moved; // back to the slot map: has the slot moved for good?
            if (lane.redirect.isRedirect() && lane.inFlight.empty() && !lane.down && !lane.closed)
                reroute(lane);
            if (lane.group && lane.group->inboxSize.load() > 0 && !lane.down && !lane.closed) {
                // Calls other masters sent here (MOVED, ASK): first, as the ones to send again.
                std::lock_guard<std::mutex> lock(lane.group->mutex);
                while (!lane.group->inbox.empty() && lane.resend.size() < pipeline) {
                    lane.resend.push_back(lane.group->inbox.front());
                    lane.group->inbox.pop_front();
                    --lane.group->inboxSize;
                }
            }
            while (!m_stop && !lane.closed && !lane.down && lane.inFlight.size() < pipeline
                   && !lane.redirect.isRedirect() && !lane.resend.empty() && Clock::now() >= lane.holdUntil) {
                const InFlightCall call = lane.resend.front();
                lane.resend.pop_front();
                sendCall(lane, call);
            }
        }
        // Queue new calls on every connection with room, as long as they are due.
        // Start at a rotating lane so that paced requests, one at a time, spread over all.
        bool exhausted = false;
        bool waitingForDue = false;
        auto nextDue = Clock::time_point::max();
        const size_t start = nextLane;
        for (size_t l = 0; l < lanes.size(); ++l) {
            BurstLane& lane = lanes[(start + l) % lanes.size()];
            while (!m_stop && !lane.closed && !lane.down && lane.inFlight.size() < pipeline
                   && !lane.redirect.isRedirect()) {
                if (!lane.resend.empty())
                    break; // sent first, above
                if (lane.group) {
                    // Routed by user: the requests of the users this master serves, in order.
                    if (!takeFromGroup(lane, &batch))
                        break;
                    if (paced && Clock::now() < dueAt(lane.held)) {
                        nextDue = std::min(nextDue, dueAt(lane.held));
                        break;
                    }
                    const int id = std::exchange(lane.held, -1);
                    m_nextId.fetch_add(1);
                    queueCall(lane, id);
                    continue;
                }
                if (lane.own) {
                    // A client's requests go out on its own connection, in its own order; the
                    // other clients do not wait for it.
                    if (lane.nextOwn >= lane.own->size())
                        break;
                    const int id = (*lane.own)[lane.nextOwn];
                    if (paced && Clock::now() < dueAt(id)) {
                        nextDue = std::min(nextDue, dueAt(id));
                        break;
                    }
                    ++lane.nextOwn;
                    m_nextId.fetch_add(1);
                    queueCall(lane, id);
                    continue;
                }
                if (claimed < 0)
                    claimed = std::min(m_nextId.fetch_add(1), total);
                if (claimed >= total) {
                    exhausted = true;
                    break;
                }
                if (paced && Clock::now() < dueAt(claimed)) {
                    waitingForDue = true;
                    nextDue = dueAt(claimed);
                    break;
                }
                queueCall(lane, claimed);
                claimed = -1;
                nextLane = (start + l + 1) % lanes.size();
            }
            if (exhausted || waitingForDue)
                break;
        }
        if (!m_requestsOfClient.empty()) {
            waitingForDue = nextDue != Clock::time_point::max();
            exhausted = std::all_of(lanes.begin(), lanes.end(), [](const BurstLane& lane) {
                return lane.closed || (lane.nextOwn >= lane.own->size() && lane.resend.empty());
            });
        } else if (m_routed) {
            // Another master may still redirect a call here: done when every request is.
            waitingForDue = nextDue != Clock::time_point::max();
            exhausted = m_recorded.load() >= total;
        }

        // 2. Write what was queued.
        bool anyInFlight = false;
        bool anyOpen = false;
        for (BurstLane& lane : lanes) {
            if (lane.closed)
                continue;
            anyOpen = true; // a lost connection too: it may come back
            anyInFlight = anyInFlight || !lane.resend.empty() || lane.redirect.isRedirect();
            if (lane.down)
                continue;
            if (lane.unflushed) {
                bool allWritten = false;
                if (!lane.connection->flush(&allWritten)) {
                    loseLane(lane, lane.connection->failureText(), &batch);
                    continue;
                }
                lane.unflushed = !allWritten;
            }
            anyInFlight = anyInFlight || !lane.inFlight.empty();
        }
        if (!anyInFlight && (!anyOpen || exhausted || m_stop))
            break;

        // 3. Wait for answers, for the next due request, or for Stop.
        polled.clear();
        polledLanes.clear();
        auto deadline = Clock::time_point::max();
        for (BurstLane& lane : lanes) {
            if (lane.down) // lost in this round or before: wake up for its next try
                deadline = std::min(deadline, lane.retryAt);
            if (!lane.closed && !lane.down && !lane.resend.empty() && lane.inFlight.empty())
                deadline = std::min(deadline, lane.holdUntil); // TRYAGAIN's pause
            if (lane.closed || lane.down || lane.inFlight.empty())
                continue;
            polled.push_back({lane.connection->socket(), short(POLLIN | (lane.unflushed ? POLLOUT : 0)), 0});
            polledLanes.push_back(&lane);
            deadline = std::min(deadline, lane.waitingSince + commandTimeout);
        }
        if (waitingForDue) {
            handOver(&batch);
            lastHandOver = Clock::now();
            deadline = std::min(deadline, nextDue);
        }
        if (m_routed) // calls redirected by another thread's lanes arrive without waking this one
            deadline = std::min(deadline, Clock::now() + inboxLookEvery);
        if (!m_stop)
            polled.push_back({m_wakeFd, POLLIN, 0});
        const auto wait = std::max(Clock::duration::zero(), deadline - Clock::now());
        const auto waitNs = std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count();
        timespec timeout {static_cast<time_t>(waitNs / 1'000'000'000), static_cast<long>(waitNs % 1'000'000'000)};
        ::ppoll(polled.data(), polled.size(), deadline == Clock::time_point::max() ? nullptr : &timeout, nullptr);

        // 4. Read every answer that arrived.
        const auto now = Clock::now();
        for (size_t i = 0; i < polledLanes.size(); ++i) {
            BurstLane& lane = *polledLanes[i];
            if (polled[i].revents & (POLLIN | POLLHUP | POLLERR)) {
                if (!lane.connection->readAvailable()) {
                    loseLane(lane, lane.connection->failureText(), &batch);
                    continue;
                }
                RedisReply reply;
                while (!lane.inFlight.empty() && lane.connection->nextReply(&reply))
                    handleReply(lane, reply, &batch);
                // A reply the reader refused (past its bounds, or malformed) ends the connection:
                // waiting for more would wait for the command timeout.
                if (!lane.closed && !lane.down && !lane.connection->isOpen()) {
                    loseLane(lane, lane.connection->failureText(), &batch);
                    continue;
                }
            }
            // A server that stopped answering (paused, swapping, a long script) gets the same retry
            // window as one that dropped the connection: the lane connects again on a new socket.
            if (!lane.closed && !lane.inFlight.empty() && now - lane.waitingSince >= commandTimeout) {
                m_callTimedOut = true;
                loseLane(lane,
                         Text::tr("no reply within %1 ms (the command timeout)").arg(m_options.commandTimeout.count()),
                         &batch);
            }
        }
        // 5. Follow a cluster's redirects once the calls sent before them are answered.
        for (BurstLane& lane : lanes)
            if (lane.redirect.isRedirect() && lane.inFlight.empty() && !lane.down && !lane.closed)
                reroute(lane);
        if (batch.size() >= handOverEvery || now - lastHandOver >= handOverAfter) {
            handOver(&batch);
            lastHandOver = now;
        }
    }
    for (BurstLane& lane : lanes)
        closeDownLane(lane);
    handOver(&batch);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        --m_workersRunning;
    }
    m_wake.notify_all();
}
