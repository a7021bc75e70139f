#pragma once

#include "burst/burstengine.h"
#include "redis/privateredisserver.h"

#include <QTextStream>

#include <QString>

#include <vector>

// Shared by the benchmarks: memory readings and running a burst to its end.
namespace Bench {
// Peak resident set size of this process in kB (VmHWM), and a reset of that peak.
qint64 peakRssKb();
qint64 rssKb();
void resetPeakRss();
// The server a benchmark measures: the --redis URL when given, else `privateServer` started.
// Returns 0, or the exit code after printing the reason to `out`.
int chooseServer(const QString& url, PrivateRedisServer* privateServer, RedisEndpoint* endpoint, QTextStream& out);
// The engine benchmarks' call: request-id (one member per call, so every call is stored), a frozen
// clock and a window longer than the run, over `connections` connections `pipeline` deep.
BurstPlan requestIdPlan(int requests, int connections, int pipeline);
// Runs a burst on the calling thread's event loop and returns its summary.
BurstSummary runBurst(BurstEngine& engine, const RedisEndpoint& endpoint, const BurstPlan& plan);
// The middle value (the upper one of an even count), 0 for none: rounds' figures without their outliers.
double median(std::vector<double> values);
} // namespace Bench
