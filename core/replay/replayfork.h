#pragma once

// ReplayFork: "what if, from this request on, ...": the rest of a recorded run fired again with
// another limiter, limit or window, with the same timestamps, on new keys.

#include "burst/burstplan.h"
#include "recording.h"

#include <optional>

class NodeConnections;

struct ForkChange
{
    LimiterRef limiter; // null: the recording's
    std::optional<qint64> limit;
    std::optional<qint64> windowMs;
};

namespace ReplayFork {
// The plan of the fork from request `from` (0-based): requests from..end, with their `now`s (sent
// as fast as possible) and their users, on a fresh key that seed() fills first. False with
// *error when the recording cannot be forked there (its limiter is not one zsetlab ships, or names
// no member while the fork is not from the first request, or the change is invalid).
bool plan(const Recording& recording, int from, const ForkChange& change, BurstPlan* plan, QString* error);
// Writes into the fork's keys each user's ZSET as it was right before request `from` (ZADD, in
// chunks, and PEXPIRE as the limiter would), so that the fork goes on from the same state. The
// fork's user k is the original's user (from + k) mod users: request from + j is the fork's j.
bool seed(NodeConnections& nodes, const Recording& recording, int from, const BurstPlan& forkPlan, QString* error);
// What seed() writes: each fork user's ZSET as it was right before request `from`.
std::vector<SeededMember> seededMembers(const Recording& recording, int from, const BurstPlan& forkPlan);
// The original's user behind the fork's user k.
int originalUser(const Recording& recording, int from, int forkUser);
} // namespace ReplayFork
