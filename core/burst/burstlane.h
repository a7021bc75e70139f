#pragma once

// BurstLane, one connection of a burst's worker thread and the calls it has in flight
// (InFlightCall): internal to BurstRun, whose workers serve their lanes (BurstLanes, burstlanes.h).

#include "redis/clustermap.h"
#include "redis/redisconnection.h"

#include <QString>

#include <chrono>
#include <deque>
#include <vector>

struct UserGroup;
using BurstClock = std::chrono::steady_clock;

struct InFlightCall
{
    int id; // -1: a SCRIPT LOAD, -2: an ASKING
    qint64 now;
    BurstClock::time_point sent;
    bool ask = false; // routed by user: sent behind an ASKING (the node of an ASK)
    quint8 redirects = 0; // routed by user: times a node sent it elsewhere
};

// One connection of a worker thread and the calls it has in flight.
struct BurstLane
{
    int index = 0;
    RedisConnection* connection = nullptr;
    std::deque<InFlightCall> inFlight;
    bool loadPending = false;
    bool unflushed = false;
    bool closed = false;
    bool down = false; // lost; made again at retryAt, until downSince + reconnectForMs
    BurstClock::time_point downSince;
    BurstClock::time_point retryAt;
    std::chrono::milliseconds backoff {0};
    QString lostWhy;
    BurstClock::time_point waitingSince; // the last sign of life while calls are in flight
    const std::vector<int>* own = nullptr; // with clients: this client's requests, in order
    size_t nextOwn = 0;
    int planConnection = 0; // the plan's connection (clock offset, the log's column)
    UserGroup* group = nullptr; // routed by user: the master this lane serves
    int held = -1; // routed by user: a request taken from the group, not yet due
    // On a cluster: calls the server did not run (MOVED, ASK, TRYAGAIN), sent again first once
    // the lane is routed again; and the redirect to follow once the calls in flight are answered.
    std::deque<InFlightCall> resend;
    ClusterRedirect redirect;
    bool rerouting = false; // down to follow a redirect, not lost: no outage to report
    bool asking = false; // on the node of an ASK: every call goes behind an ASKING
    BurstClock::time_point askingSince;
    ClusterMap::Node toNode; // where a redirect sends the lane; none: by the slot map
    BurstClock::time_point holdUntil; // after TRYAGAIN: a slot's keys are on their way between nodes
    BurstClock::time_point redirectedSince; // the first redirect since the last call answered here
};
