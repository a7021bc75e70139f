// Burst engine throughput against redis-benchmark, side by side in one run, and the memory of a
// 1,000,000-request log. Both clients run the same EVALSHA (lua/request-id.lua) on the same kind
// of key, alternating, against one private redis-server (or --redis URL), with --tls over that
// server's TLS port (both clients checking its certificate), or with --cluster on a private Redis
// Cluster of three masters (clusterbench.h).
//
//   bench_engine [--requests N] [--rounds R] [--redis URL | --tls | --cluster]

#include "benchsupport.h"
#include "clusterbench.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "redis/privateredisserver.h"
#include "redisbenchmark.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include <algorithm>
#include <cstdio>

namespace {
// Issue #48's targets: the engine at least 1.25 times redis-benchmark's requests/s at every
// setting, and the log of 1,000,000 requests at most 40 MB.
constexpr double targetRatio = 1.25;
constexpr double targetLogMb = 40.0;

struct Setting
{
    int connections;
    int pipeline;
};

// redis-benchmark's requests per second for the same call, or a negative value on failure.
double redisBenchmarkRps(const QString& program, const RedisEndpoint& endpoint, const LimiterScript& script,
                         const QByteArray& key, int requests, const Setting& setting)
{
    return RedisBenchmark::run(program, RedisBenchmark::targetArguments(endpoint), requests, setting.connections,
                               setting.pipeline, RedisBenchmark::requestIdCall(script.sha1(), key))
        .rps;
}

} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("zsetlab burst engine against redis-benchmark."));
    parser.addHelpOption();
    const QCommandLineOption requestsOption(QStringLiteral("requests"), QStringLiteral("Requests per run."),
                                            QStringLiteral("N"), QStringLiteral("200000"));
    const QCommandLineOption roundsOption(QStringLiteral("rounds"), QStringLiteral("Alternating rounds."),
                                          QStringLiteral("R"), QStringLiteral("3"));
    const QCommandLineOption redisOption(QStringLiteral("redis"), QStringLiteral("Redis URL (default: private)."),
                                         QStringLiteral("URL"));
    const QCommandLineOption memoryOption(QStringLiteral("memory-requests"),
                                          QStringLiteral("Requests of the memory run."), QStringLiteral("N"),
                                          QStringLiteral("1000000"));
    const QCommandLineOption clusterOption(
        QStringLiteral("cluster"),
        QStringLiteral("On a private Redis Cluster of 3 masters: one hash-tagged key, and what each master ran."));
    const QCommandLineOption tlsOption(
        QStringLiteral("tls"),
        QStringLiteral("Over TLS: the private server's TLS port, with a throw-away CA that both "
                       "clients check (redis-benchmark --tls --cacert)."));
    parser.addOptions({requestsOption, roundsOption, redisOption, memoryOption, clusterOption, tlsOption});
    parser.process(app);
    QTextStream out(stdout);

    const int requests = parser.value(requestsOption).toInt();
    const int rounds = std::max(1, parser.value(roundsOption).toInt());
    if (parser.isSet(clusterOption)) {
        if (parser.isSet(redisOption)) {
            out << "--cluster starts a cluster of its own; it takes no --redis URL" << Qt::endl;
            return 2;
        }
        return ClusterBench::run({requests, rounds}, out);
    }
    if (parser.isSet(tlsOption) && (parser.isSet(redisOption) || parser.isSet(clusterOption))) {
        out << "--tls starts a private TLS server of its own; it takes neither --redis nor --cluster" << Qt::endl;
        return 2;
    }
    PrivateTls tls;
    tls.enabled = parser.isSet(tlsOption);
    PrivateRedisServer privateServer({}, {}, tls);
    RedisEndpoint endpoint;
    if (const int code = Bench::chooseServer(parser.value(redisOption), &privateServer, &endpoint, out))
        return code;
    const QString redisBenchmark = RedisBenchmark::program();
    if (redisBenchmark.isEmpty()) {
        out << "redis-benchmark not found (Debian: apt-get install redis-tools)" << Qt::endl;
        return 3;
    }
    RedisConnection control;
    if (!control.open(endpoint)) {
        out << control.lastError().message << Qt::endl;
        return 3;
    }
    const LimiterScript script = LimiterCatalog::builtin("request-id")->script;
    control.command({"SCRIPT", "LOAD", script.source()});

    out << "zsetlab burst engine vs redis-benchmark, Redis " << control.server().version << ", "
        << endpoint.displayUrl() << "\n";
    out << "same script (lua/request-id.lua), one member per request, " << requests << " requests per run, " << rounds
        << " alternating rounds, median requests/s\n\n";
    out << QStringLiteral("%1 %2 %3 %4 %5\n")
               .arg(QStringLiteral("setting"), -16)
               .arg(QStringLiteral("redis-benchmark"), 16)
               .arg(QStringLiteral("zsetlab"), 12)
               .arg(QStringLiteral("ratio"), 8)
               .arg(QStringLiteral("target"), 14);
    out.flush();

    const Setting settings[] = {{1, 1}, {50, 1}, {50, 16}};
    bool allMet = true;
    for (const Setting& setting : settings) {
        std::vector<double> reference;
        std::vector<double> ours;
        for (int round = 0; round < rounds; ++round) {
            const QByteArray rbKey = ZsetKeys::freshRunKey();
            reference.push_back(redisBenchmarkRps(redisBenchmark, endpoint, script, rbKey, requests, setting));
            control.command({"DEL", rbKey});

            const BurstPlan plan = Bench::requestIdPlan(requests, setting.connections, setting.pipeline);
            BurstEngine engine;
            const BurstSummary summary = Bench::runBurst(engine, endpoint, plan);
            ours.push_back(summary.failure.isFailure() ? -1 : summary.throughputRps);
        }
        const double rb = Bench::median(reference);
        const double zs = Bench::median(ours);
        const double ratio = rb > 0 ? zs / rb : 0;
        allMet = allMet && ratio >= targetRatio;
        out << QStringLiteral("%1 %2 %3 %4 %5\n")
                   .arg(QStringLiteral("C=%1 P=%2").arg(setting.connections).arg(setting.pipeline), -16)
                   .arg(rb, 16, 'f', 0)
                   .arg(zs, 12, 'f', 0)
                   .arg(ratio, 8, 'f', 2)
                   .arg((ratio >= targetRatio ? QStringLiteral("met >=") : QStringLiteral("MISSED >="))
                            + QString::number(targetRatio, 'f', 2),
                        14);
        out.flush();
    }

    // Memory of a large run: the log's own columns and the peak RSS growth of the process.
    const int memoryRequests = parser.value(memoryOption).toInt();
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("request-id");
    plan.clock = ClockKind::Schedule;
    QString error;
    Pacing::parse(QStringLiteral("interval:100"), &plan.pacing, &error);
    plan.requests = memoryRequests;
    plan.connections = 4;
    plan.pipeline = 16;
    plan.windowMs = 1000;
    Bench::resetPeakRss();
    const qint64 before = Bench::rssKb();
    BurstEngine engine;
    const BurstSummary summary = Bench::runBurst(engine, endpoint, plan);
    const qint64 peak = Bench::peakRssKb();
    // The target is per 1,000,000 requests: a smaller run is scaled up to compare.
    const double logMb = double(engine.log().memoryBytes()) / 1e6;
    const double logMbPerMillion = memoryRequests > 0 ? logMb * 1e6 / memoryRequests : 0;
    out << "\nmemory, " << memoryRequests
        << " requests (request-id, 4 connections, pipeline 16): " << QString::number(logMb, 'f', 1)
        << " MB in the request log (" << QString::number(logMbPerMillion, 'f', 1)
        << " MB per 1,000,000, target <= " << QString::number(targetLogMb, 'f', 0)
        << " MB: " << (logMbPerMillion <= targetLogMb ? "met" : "MISSED") << "), peak RSS +"
        << QString::number(double(peak - before) / 1024.0, 'f', 1) << " MiB; "
        << QString::number(summary.throughputRps, 'f', 0) << " requests/s\n";
    out << (allMet ? "throughput target met at every setting\n" : "throughput target MISSED somewhere\n");
    return 0;
}
