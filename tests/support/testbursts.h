#pragma once

#include "burstengine.h"
#include "limitercatalog.h"

// Runs the tests compare between two servers (a cluster and one server, TLS and a socket).
namespace TestBursts {
// A plan that gives the same numbers wherever it runs: 600 requests on one lane (the calls reach
// the limiter in their order), the same `now`s from a window's start, groups of 40 every 3 ms (in
// the limiter's own clock unit: its key's TTL is computed from it), limit 60.
BurstPlan replayPlan(const LimiterRef& limiter);
// Runs plan to its end (at most 120 s) and returns its summary; *key is the run's key.
BurstSummary runToTheEnd(const RedisEndpoint& endpoint, const BurstPlan& plan, QByteArray* key = nullptr);
} // namespace TestBursts
