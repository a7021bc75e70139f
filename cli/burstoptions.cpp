#include "burstoptions.h"

#include <QCommandLineParser>

#include <limits>

BurstOptions::BurstOptions(const QString& defaultRequests, const QString& defaultClock, const QString& clockHelp)
    : strategy(QStringLiteral("strategy"),
               QStringLiteral("Member strategy: now (the bug), random, request-id or sequence. Default: now."),
               QStringLiteral("NAME"), QStringLiteral("now"))
    , requests(QStringLiteral("requests"), QStringLiteral("Number of requests (default %1).").arg(defaultRequests),
               QStringLiteral("N"), defaultRequests)
    , clock(QStringLiteral("clock"), clockHelp, QStringLiteral("CLOCK"), defaultClock)
    , window(QStringLiteral("window"), QStringLiteral("Window in ms (default 1000)."), QStringLiteral("MS"),
             QStringLiteral("1000"))
    , limit(QStringLiteral("limit"),
            QStringLiteral("Admit a request when the count is at most L (default 0 = no limit)."), QStringLiteral("L"),
            QStringLiteral("0"))
    , seed(QStringLiteral("seed"), QStringLiteral("Seed of the Poisson arrivals (default 1)."), QStringLiteral("S"),
           QStringLiteral("1"))
    , pipeline(QStringLiteral("pipeline"), QStringLiteral("Calls in flight per connection (default 1)."),
               QStringLiteral("P"), QStringLiteral("1"))
    , json(QStringLiteral("json"), QStringLiteral("Print the result as one JSON object."))
{ }

void BurstOptions::addTo(QCommandLineParser& parser) const
{
    parser.addOptions({strategy, requests, clock, window, limit, seed, pipeline, json});
}

bool readIntegerOption(const QCommandLineParser& parser, const QCommandLineOption& option, qint64 min, qint64 max,
                       qint64* value, QString* error)
{
    bool ok = false;
    const QString text = parser.value(option);
    *value = text.toLongLong(&ok);
    if (!ok || *value < min || *value > max) {
        *error = QStringLiteral("--%1 must be a whole number from %2 to %3, not \"%4\".")
                     .arg(option.names().constFirst())
                     .arg(min)
                     .arg(max)
                     .arg(text);
        return false;
    }
    return true;
}

bool BurstOptions::read(const QCommandLineParser& parser, BurstPlan* plan, QString* error) const
{
    if (!parseStrategy(parser.value(strategy), &plan->strategy) || plan->strategy == MemberStrategy::Custom) {
        *error = QStringLiteral("--strategy must be one of %1, not \"%2\".")
                     .arg(builtinStrategyNames().join(QStringLiteral(", ")), parser.value(strategy));
        return false;
    }
    qint64 value = 0;
    if (!readIntegerOption(parser, requests, 1, BurstPlan::maxRequests, &value, error))
        return false;
    plan->requests = static_cast<int>(value);
    if (!readIntegerOption(parser, pipeline, 1, BurstPlan::maxPipeline, &value, error))
        return false;
    plan->pipeline = static_cast<int>(value);
    if (!readIntegerOption(parser, window, 1, 365LL * 24 * 3600 * 1000, &plan->windowMs, error))
        return false;
    if (!readIntegerOption(parser, limit, 0, 1'000'000'000, &plan->limit, error))
        return false;
    if (!readIntegerOption(parser, seed, 0, std::numeric_limits<qint64>::max(), &value, error))
        return false;
    plan->seed = static_cast<quint64>(value);
    if (!parseClock(parser.value(clock), &plan->clock)) {
        *error = QStringLiteral("--clock must be one of %1, not \"%2\".")
                     .arg(clockNames().join(QStringLiteral(", ")), parser.value(clock));
        return false;
    }
    return true;
}
