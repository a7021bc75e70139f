#pragma once

#include "redis/redisendpoint.h"

#include <QString>
#include <QStringList>

#include <chrono>

// redis-benchmark, the reference the engine benchmarks print beside zsetlab's figures.
namespace RedisBenchmark {
// What one run printed.
struct Result
{
    double rps = -1; // its requests per second; -1 when it printed none (failed, timed out)
    int exitCode = -1;
    QString firstError; // the first line of its stderr that says "Error", or empty
};

// redis-benchmark on PATH, or empty.
QString program();
// The server to aim at: -s path, or -h host -p port; -a password when the endpoint has one; --tls
// and its CA, client certificate, SNI and --insecure for a rediss:// endpoint.
QStringList targetArguments(const RedisEndpoint& endpoint);
// The call of lua/request-id.lua as the engine benchmarks make it: EVALSHA sha1 1 key, a frozen now,
// a 60 s window, no limit, and `member` as the request id ("__rand_int__": a number of its own per
// call, as zsetlab's engine gives each request its own id, so that the ZSET grows alike).
QStringList requestIdCall(const QByteArray& sha1, const QByteArray& key,
                          const QString& member = QStringLiteral("__rand_int__"));
// Runs `program` with `target`, -n requests -c connections -P pipeline, -r 1000000000 (so that
// __rand_int__ gives each call its own number) and --csv, then `command`, and reads the rps from
// its CSV. Killed after `timeout`.
Result run(const QString& program, const QStringList& target, int requests, int connections, int pipeline,
           const QStringList& command, std::chrono::milliseconds timeout = std::chrono::minutes(10));
} // namespace RedisBenchmark
