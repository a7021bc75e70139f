#pragma once

// UserGroup: with several users on a cluster, the lanes and requests of the users one master
// serves (internal to BurstRun, which routes them in burstrunusers.cpp).

#include "burstlane.h"
#include "redis/redisendpoint.h"

#include <QString>

#include <atomic>
#include <deque>
#include <mutex>
#include <vector>

// A cluster and several users: the requests are routed one by one, each to the master of its
// user's key. One group of lanes (plan.connections) per master; a request redirected by
// MOVED or ASK moves to the inbox of the group of the node named. A master that is lost for
// good (after plan.reconnectForMs) fails only its own users' requests, with the reason.
struct UserGroup
{
    RedisEndpoint node;
    std::vector<int> ids; // the requests of the users this master serves, in order
    std::atomic<size_t> next {0};
    std::atomic<int> lanesOpen {0};
    std::atomic<int> inboxSize {0};
    std::mutex mutex; // guards the members below
    std::deque<InFlightCall> inbox;
    bool dead = false;
    QString deadWhy;
};
