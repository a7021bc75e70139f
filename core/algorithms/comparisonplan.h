#pragma once

#include "burst/burstplan.h"

#include <QStringList>

#include <vector>

// What the algorithms are compared on: the traffic of a burst plan, fired at each limiter in turn.
//
// The traffic is one list of timestamps, made once and replayed at every algorithm as compare
// mode replays them: the pacing's own arrival times in ms (`--clock frozen`: every request in one
// millisecond), starting at the last millisecond of a fixed window (now mod window = window - 1),
// so that traffic which opens with a burst straddles a window boundary. Request i belongs to user
// i mod users (round robin); each user has its own keys and its own limit. The calls go out on one
// connection (on a cluster, one per master: each user's on its key's master), `pipeline` at a
// time, so the server sees each user's calls in order.
struct ComparisonPlan
{
    BurstPlan burst; // requests, pace, clock, window, limit, seed, pipeline; not its limiter or key
    QStringList limiters; // catalog ids, in order; empty: every algorithm of the catalog
    int users = 1;
    bool keepKeys = false; // leave each algorithm's keys in Redis (to inspect them)

    static constexpr int maxUsers = 100'000;

    // Empty when the plan can run, else what to change.
    QString validate() const;
    QStringList limiterIds() const;
    // The timestamps every algorithm gets, in ms, the first one at startMs.
    std::vector<qint64> timestamps(qint64 startMs) const;
    // The last millisecond of the window that holds wallMs.
    static qint64 alignedStart(qint64 wallMs, qint64 windowMs);
    int userOf(int request) const { return request % users; }
    // The key of one user under an algorithm's run key (the run key itself when there is one user).
    QByteArray userKey(const QByteArray& runKey, int user) const;
};
