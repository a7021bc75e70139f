#pragma once

// The parts of KnownLimiters::table(), one file each (internal to knownlimiters.cpp).

#include "knownlimiters.h"

namespace KnownLimiters {
// Java and Go gateways and clients, Node middlewares: Redisson, ShenYu's sliding window, Spring
// Cloud Gateway, go-redis/redis_rate, go-zero, Upstash, Tyk, rate-limiter-flexible,
// rate-limit-redis, async-ratelimiter (knownlimitertable.cpp).
const QVector<KnownLimiter>& gatewayAndClientLimiters();
// Web frameworks, job queues and more gateways: Laravel, limits, fastapi-limiter, Apache APISIX,
// RedisRateLimiting for ASP.NET Core, ShenYu's concurrency limiter, sidekiq-throttled
// (knownlimitertableframeworks.cpp).
const QVector<KnownLimiter>& frameworkLimiters();
} // namespace KnownLimiters
