#pragma once

// BurstLanes, one worker thread of a burst (internal to BurstRun): the connections it drives
// (its lanes), the requests finished and not handed over yet (the batch) and the sockets it waits
// on (the poll set).

#include "burstlane.h"
#include "redis/redisreply.h"
#include "results/requestrecord.h"

#include <poll.h>

#include <chrono>
#include <memory>
#include <vector>

class BurstRun;

// One thread drives several connections, each with its own hiredis context that no other thread
// touches: requests are queued, flushed and read without blocking, and poll() waits for whichever
// connection answers first (the model of redis-benchmark). serve() goes round the steps below
// until every lane is done; what needs the whole run (the plan, the schedule, failing the run,
// routing by user, the records handed over) stays in BurstRun.
class BurstLanes
{
public:
    // The lanes of run's connections `connectionIndexes`, made non-blocking.
    BurstLanes(BurstRun& run, const std::vector<int>& connectionIndexes);

    // Rounds of the steps until no call is in flight and none is left to send (or Stop); then every
    // lane closed and the batch handed over.
    void serve();

private:
    using Clock = BurstClock;

    // 0. Makes lost connections again once their backoff is over, while work is left for them.
    void reconnectLost();
    // 1. Sends again, first and in their order, the calls a cluster node did not run. After Stop
    // they are not sent, and not counted, like any call not sent yet.
    void resendRefused();
    // Queues new calls on every lane with room, as long as they are due; starts at a rotating lane
    // so that paced requests, one at a time, spread over all. Sets the round's exhausted,
    // waitingForDue and nextDue.
    void queueNew();
    // 2. Writes what was queued. False when the worker is done: nothing in flight, and no lane
    // open or nothing left to send.
    bool flush();
    // 3. Waits for answers, for the next due request, or for Stop.
    void waitForAnswers();
    // 4. Reads every answer that arrived; a lane silent past the command timeout is lost.
    void readAnswers(Clock::time_point now);
    // 5. Follows a cluster's redirects once the calls sent before them are answered, and hands the
    // batch over when it is full or old enough.
    void followRedirects(Clock::time_point now);

    // queueNew() for one lane: one request queued, false when the lane takes no more this round.
    bool queueFromGroup(BurstLane& lane); // routed by user: the users this master serves, in order
    bool queueOwn(BurstLane& lane); // with clients: the client's own requests, in its order
    bool queueShared(BurstLane& lane); // the next request of the run, whichever lane sends it
    bool canQueue(const BurstLane& lane) const;
    Clock::time_point dueAt(int id) const;
    void queueCall(BurstLane& lane, int id);

    void handleReply(BurstLane& lane, const RedisReply& reply);
    // On a cluster: a MOVED, ASK or TRYAGAIN (the call did not run). True when the reply was one:
    // the call goes again where the redirect leads.
    bool followsRedirect(BurstLane& lane, const InFlightCall& call, const RedisReply& reply, Clock::time_point replied);
    // The answer to our SCRIPT LOAD, sent after a NOSCRIPT.
    void loaded(BurstLane& lane, const RedisReply& reply);
    // A request's answer, kept in the batch (an error may fail the run).
    void keepAnswer(BurstLane& lane, const InFlightCall& call, const RedisReply& reply, Clock::time_point replied);
    // The server went away or stopped answering: make the connection again if the plan allows it
    // (plan.reconnectForMs); otherwise the run fails.
    void loseLane(BurstLane& lane, const QString& why);
    void reconnect(BurstLane& lane);
    // reconnect()'s attempt: the new connection on the lane's node, or why not (the run failed and
    // the lane closed: *fatal).
    bool openAgain(BurstLane& lane, RedisConnection& fresh, const ConnectOptions& attempt, QString* why, bool* fatal);
    // Puts the connection reconnect() made in the lane's place.
    void swapIn(BurstLane& lane, std::unique_ptr<RedisConnection>& fresh);
    // Follows lane.redirect: the lane connects again through the refreshed slot map (MOVED) or to
    // the node of an ASK, then sends lane.resend.
    void reroute(BurstLane& lane);
    void closeDownLane(BurstLane& lane);
    // Queues one call (behind an ASKING on the node of an ASK).
    void sendCall(BurstLane& lane, const InFlightCall& call);
    bool hasWorkLeft(const BurstLane& lane) const; // m_claimed counts for the shared lanes

    BurstRun& m_run;
    const int m_total; // the plan's requests
    const size_t m_pipeline;
    const Clock::duration m_commandTimeout;
    const Clock::duration m_spin; // BurstRun::spinBeforeWaiting()
    const bool m_paced;
    std::vector<BurstLane> m_lanes;
    std::vector<RequestRecord> m_batch;
    Clock::time_point m_lastHandOver;
    std::vector<pollfd> m_polled;
    std::vector<BurstLane*> m_polledLanes; // the lane of each m_polled but the last (the wake-up)
    int m_claimed = -1; // a request taken from the run's, not yet due
    size_t m_nextLane = 0; // where queueNew() starts
    // This round's: no request left to queue; waiting for the next due one, at nextDue.
    bool m_exhausted = false;
    bool m_waitingForDue = false;
    Clock::time_point m_nextDue;
};
