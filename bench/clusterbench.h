#pragma once

#include <QTextStream>

// bench_engine --cluster: zsetlab's burst engine beside redis-benchmark on a private Redis Cluster
// of three masters, the same script on one hash-tagged key, and what each master really ran.
namespace ClusterBench {
struct Options
{
    int requests = 200000; // per run
    int rounds = 3; // alternating rounds per setting; the figures are their medians
};

// Prints the comparison to `out`; returns the exit code (0, or 3 when nothing could be measured).
int run(const Options& options, QTextStream& out);
} // namespace ClusterBench
