// A soak: millions of requests through the burst engine, with the request log kept as running
// totals (BurstPlan::keepLog = false). Prints the process's RSS after each million requests beside
// the reference, the RSS after the first million: the engine's memory should stay flat after it.
// --full-log runs the same soak with a row per request, for contrast (about 42 bytes a request).
//
//   bench_soak [--requests N] [--connections C] [--pipeline P] [--redis URL] [--full-log]

#include "benchsupport.h"
#include "limiters/limitercatalog.h"
#include "redis/privateredisserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <vector>

namespace {
constexpr int million = 1'000'000;

struct Mark
{
    int requests;
    qint64 rssKb;
    qint64 elapsedMs;
};

QString mib(qint64 kb)
{
    return QString::number(double(kb) / 1024.0, 'f', 1);
}
} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("zsetlab burst engine soak: memory after each million."));
    parser.addHelpOption();
    const QCommandLineOption requestsOption(QStringLiteral("requests"), QStringLiteral("Requests in all."),
                                            QStringLiteral("N"), QStringLiteral("5000000"));
    const QCommandLineOption connectionsOption(QStringLiteral("connections"), QStringLiteral("Connections."),
                                               QStringLiteral("C"), QStringLiteral("4"));
    const QCommandLineOption pipelineOption(QStringLiteral("pipeline"), QStringLiteral("Calls in flight each."),
                                            QStringLiteral("P"), QStringLiteral("16"));
    const QCommandLineOption redisOption(QStringLiteral("redis"), QStringLiteral("Redis URL (default: private)."),
                                         QStringLiteral("URL"));
    const QCommandLineOption fullLogOption(QStringLiteral("full-log"),
                                           QStringLiteral("Keep a row per request (the default of the window)."));
    parser.addOptions({requestsOption, connectionsOption, pipelineOption, redisOption, fullLogOption});
    parser.process(app);
    QTextStream out(stdout);

    PrivateRedisServer privateServer;
    RedisEndpoint endpoint;
    if (const int code = Bench::chooseServer(parser.value(redisOption), &privateServer, &endpoint, out))
        return code;

    // Unique members in a one-second window of the wall clock: the ZSET on the server stays at about
    // one second of requests, so the server's memory is not what grows either.
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("request-id");
    plan.clock = ClockKind::SystemMs;
    plan.windowMs = 1000;
    plan.requests = std::clamp(parser.value(requestsOption).toInt(), million, BurstPlan::maxRequests);
    plan.connections = std::clamp(parser.value(connectionsOption).toInt(), 1, BurstPlan::maxConnections);
    plan.pipeline = std::clamp(parser.value(pipelineOption).toInt(), 1, BurstPlan::maxPipeline);
    plan.keepLog = parser.isSet(fullLogOption);

    BurstEngine engine;
    std::vector<Mark> marks;
    QElapsedTimer clock;
    QObject::connect(&engine, &BurstEngine::recordsAvailable, &engine, [&](int finished, int) {
        while (finished >= million * int(marks.size() + 1))
            marks.push_back({million * int(marks.size() + 1), Bench::rssKb(), clock.elapsed()});
    });
    const qint64 beforeKb = Bench::rssKb();
    clock.start();
    const BurstSummary summary = Bench::runBurst(engine, endpoint, plan);
    if (summary.failure.isFailure()) {
        out << "the soak failed: " << summary.failure.message << Qt::endl;
        return 3;
    }

    out << "zsetlab soak, Redis " << summary.serverVersion << ", " << endpoint.displayUrl() << "\n";
    out << summary.sent << " requests (request-id, system-ms, " << plan.connections << " connections, pipeline "
        << plan.pipeline
        << "), request log: " << (plan.keepLog ? QStringLiteral("a row per request") : QStringLiteral("totals only"))
        << "\n";
    out << "RSS before the run: " << mib(beforeKb) << " MiB; reference: RSS after the first million\n\n";
    out << QStringLiteral("%1 %2 %3 %4\n")
               .arg(QStringLiteral("after"), 12)
               .arg(QStringLiteral("RSS MiB"), 10)
               .arg(QStringLiteral("vs 1st million"), 16)
               .arg(QStringLiteral("requests/s"), 12);
    for (size_t i = 0; i < marks.size(); ++i) {
        const Mark& mark = marks[i];
        const qint64 previousMs = i == 0 ? 0 : marks[i - 1].elapsedMs;
        const double rate
            = mark.elapsedMs > previousMs ? double(million) * 1000.0 / double(mark.elapsedMs - previousMs) : 0.0;
        const qint64 deltaKb = mark.rssKb - marks.front().rssKb;
        out << QStringLiteral("%1 %2 %3 %4\n")
                   .arg(QLocale().toString(mark.requests), 12)
                   .arg(mib(mark.rssKb), 10)
                   .arg(i == 0
                            ? QStringLiteral("reference")
                            : (deltaKb >= 0 ? QStringLiteral("+") : QString()) + mib(deltaKb) + QStringLiteral(" MiB"),
                        16)
                   .arg(rate, 12, 'f', 0);
    }
    out << "\nrequest log at the end: " << QString::number(double(engine.log().memoryBytes()) / 1e6, 'f', 2)
        << " MB; errors " << summary.errors << ", latency p50 " << summary.latencyUsP50 << " us, p99 "
        << summary.latencyUsP99 << " us, " << QString::number(summary.throughputRps, 'f', 0) << " requests/s overall\n";
    return 0;
}
