// Memory per key of each limiter algorithm when a 1 s window is full of traffic: 1, 10 and 100
// requests per ms, one user, a limit as high as the traffic (every request admitted, so the window
// holds as many as it ever may). Prints MEMORY USAGE per key side by side, and for the sliding log
// the bytes per member beside the reference: about 56 bytes per member measured by lablup/backend.ai
// (issue #14210, PR #14211), who left the sliding log for that reason. Also EVALSHA's server time
// per call (INFO commandstats). Bounded: 111,000 calls per algorithm at most.
//
//   bench_algorithms [--redis URL] [--rates 1,10,100]

#include "algorithms/algorithmcomparison.h"
#include "benchsupport.h"
#include "limiters/limitercatalog.h"
#include "redis/privateredisserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <map>

namespace {
constexpr qint64 windowMs = 1000;
constexpr double referenceBytesPerMember = 56; // lablup/backend.ai #14210
constexpr int maxRatePerMs = 1000; // bounds the work: 1,000,000 calls per algorithm

ComparisonResult compare(const RedisEndpoint& endpoint, const ComparisonPlan& plan)
{
    AlgorithmComparison comparison;
    ComparisonResult result;
    QObject::connect(&comparison, &AlgorithmComparison::finished, &comparison, [&result](const ComparisonResult& r) {
        result = r;
        QCoreApplication::quit();
    });
    if (!comparison.start(endpoint, plan)) {
        result.failure = {BurstFailure::Kind::Plan, comparison.planError(), 0};
        return result;
    }
    QCoreApplication::exec();
    return result;
}
} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Memory per key of each limiter algorithm, window full."));
    parser.addHelpOption();
    const QCommandLineOption redisOption(QStringLiteral("redis"), QStringLiteral("Redis URL (default: private)."),
                                         QStringLiteral("URL"));
    const QCommandLineOption ratesOption(QStringLiteral("rates"), QStringLiteral("Requests per ms, comma-separated."),
                                         QStringLiteral("LIST"), QStringLiteral("1,10,100"));
    parser.addOptions({redisOption, ratesOption});
    parser.process(app);
    QTextStream out(stdout);

    QVector<int> rates;
    for (const QString& text : parser.value(ratesOption).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const int rate = text.toInt();
        if (rate < 1 || rate > maxRatePerMs) {
            out << "--rates: whole numbers from 1 to " << maxRatePerMs << ", not \"" << text << "\"\n";
            return 2;
        }
        rates << rate;
    }
    PrivateRedisServer privateServer;
    RedisEndpoint endpoint;
    if (const int code = Bench::chooseServer(parser.value(redisOption), &privateServer, &endpoint, out))
        return code;

    // bytes[id][rate], usec[id][rate]
    std::map<QString, std::map<int, double>> bytes;
    std::map<QString, std::map<int, double>> usec;
    QString version;
    for (const int rate : rates) {
        ComparisonPlan plan;
        plan.burst.requests = rate * int(windowMs);
        plan.burst.pacing.kind = Pacing::Kind::Interval;
        plan.burst.pacing.intervalMicros = 1000 / rate > 0 ? 1000 / rate : 1;
        plan.burst.clock = ClockKind::Schedule;
        plan.burst.windowMs = windowMs;
        plan.burst.limit = plan.burst.requests;
        plan.burst.pipeline = 64;
        QElapsedTimer timer;
        timer.start();
        const ComparisonResult result = compare(endpoint, plan);
        if (result.failure.isFailure()) {
            out << "failed at " << rate << " per ms: " << result.failure.message << '\n';
            return 1;
        }
        version = result.serverVersion;
        for (const AlgorithmTally& tally : result.algorithms) {
            bytes[tally.id][rate] = tally.memoryBytesPerKey;
            usec[tally.id][rate] = tally.serverUsecPerCall;
        }
        out << "measured " << plan.burst.requests << " requests per algorithm at " << rate << " per ms in "
            << timer.elapsed() << " ms\n";
        out.flush();
    }

    out << "\nRedis " << version << ", window " << windowMs << " ms full (limit = requests), MEMORY USAGE per key "
        << "(bytes; fixed-window: its two keys)\n";
    QString header = QStringLiteral("  %1").arg(QStringLiteral("algorithm"), -16);
    for (const int rate : rates)
        header += QStringLiteral(" %1").arg(QStringLiteral("%1/ms").arg(rate), 12);
    out << header << QStringLiteral("   server us/call at %1/ms\n").arg(rates.last());
    for (const QString& id : LimiterCatalog::algorithmIds()) {
        QString row = QStringLiteral("  %1").arg(id, -16);
        for (const int rate : rates)
            row += QStringLiteral(" %1").arg(bytes[id][rate], 12, 'f', 0);
        row += QStringLiteral("   %1").arg(usec[id][rates.last()], 8, 'f', 2);
        out << row << '\n';
    }
    out << "\nsliding-log, bytes per member (one per admitted request in the window):\n";
    for (const int rate : rates) {
        const double members = double(rate) * double(windowMs);
        out << QStringLiteral("  %1/ms: %2 members, %3 bytes each\n")
                   .arg(rate, 4)
                   .arg(qint64(members), 7)
                   .arg(bytes[QStringLiteral("sliding-log")][rate] / members, 6, 'f', 1);
    }
    out << QStringLiteral("  reference (lablup/backend.ai #14210): about %1 bytes per member\n")
               .arg(referenceBytesPerMember, 0, 'f', 0);
    return 0;
}
