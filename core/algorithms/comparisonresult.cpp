#include "comparisonresult.h"

#include "burst/planfields.h"

#include <QJsonArray>

#include <algorithm>

namespace {
QJsonValue numberOrNull(double value)
{
    return value < 0 ? QJsonValue() : QJsonValue(value);
}
} // namespace

QJsonObject AlgorithmTally::toJson() const
{
    QJsonObject json;
    json[QStringLiteral("id")] = id;
    json[QStringLiteral("key")] = QString::fromUtf8(runKey);
    json[QStringLiteral("requests")] = requests;
    json[QStringLiteral("admitted")] = admitted;
    json[QStringLiteral("admitted_over_limit")] = admittedOverLimit;
    json[QStringLiteral("rejected_under_limit")] = rejectedUnderLimit;
    json[QStringLiteral("truth_admitted")] = truthAdmitted;
    json[QStringLiteral("memory_bytes_per_key")] = numberOrNull(memoryBytesPerKey);
    json[QStringLiteral("memory_bytes")] = memoryBytes < 0 ? QJsonValue() : QJsonValue(memoryBytes);
    json[QStringLiteral("keys")] = keys;
    json[QStringLiteral("server_calls")] = serverCalls;
    json[QStringLiteral("server_usec_per_call")] = numberOrNull(serverUsecPerCall);
    return json;
}

QJsonObject ComparisonResult::toJson() const
{
    QJsonObject json;
    json[QStringLiteral("schema")] = QStringLiteral("zsetlab.algorithms/1");
    json[QStringLiteral("server_version")] = serverVersion;
    // The plan's own fields, without those the comparison does not use: its limiter (each
    // algorithm is one) and its connections (the calls go out on one, in order).
    QJsonObject planJson = PlanFields::toJson(plan.burst);
    planJson.remove(QStringLiteral("strategy"));
    planJson.remove(QStringLiteral("connections"));
    planJson[QStringLiteral("users")] = plan.users;
    planJson[QStringLiteral("limiters")] = QJsonArray::fromStringList(plan.limiterIds());
    json[QStringLiteral("plan")] = planJson;
    QJsonArray list;
    for (const AlgorithmTally& tally : algorithms)
        list.append(tally.toJson());
    json[QStringLiteral("algorithms")] = list;
    if (failure.isFailure())
        json[QStringLiteral("error")] = failure.message;
    json[QStringLiteral("stopped")] = stopped;
    return json;
}

QString ComparisonResult::toText() const
{
    // Machine-minded like the CLI's other tables: English, not translated.
    QStringList lines;
    lines << QStringLiteral("server %1: %2 requests, pace %3, window %4 ms, limit %5, %6 user(s)")
                 .arg(serverVersion)
                 .arg(plan.burst.requests)
                 .arg(plan.burst.pacing.toString())
                 .arg(plan.burst.windowMs)
                 .arg(plan.burst.limit)
                 .arg(plan.users);
    if (!algorithms.isEmpty())
        lines << QStringLiteral("an exact sliding log admits %1 of them").arg(algorithms.first().truthAdmitted);
    lines << QString();
    lines << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7")
                 .arg(QStringLiteral("algorithm"), -16)
                 .arg(QStringLiteral("admitted"), 9)
                 .arg(QStringLiteral("over limit"), 11)
                 .arg(QStringLiteral("under limit"), 12)
                 .arg(QStringLiteral("bytes/user"), 11)
                 .arg(QStringLiteral("keys"), 6)
                 .arg(QStringLiteral("server us/call"), 15);
    for (const AlgorithmTally& tally : algorithms) {
        lines << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7")
                     .arg(tally.id, -16)
                     .arg(tally.admitted, 9)
                     .arg(tally.admittedOverLimit, 11)
                     .arg(tally.rejectedUnderLimit, 12)
                     .arg(tally.memoryBytesPerKey < 0 ? QStringLiteral("?")
                                                      : QString::number(tally.memoryBytesPerKey, 'f', 0),
                          11)
                     .arg(tally.keys, 6)
                     .arg(tally.serverUsecPerCall < 0 ? QStringLiteral("?")
                                                      : QString::number(tally.serverUsecPerCall, 'f', 2),
                          15);
    }
    lines << QString();
    lines << QStringLiteral("  over limit: admitted where the exact sliding log refuses; under limit: refused where it "
                            "admits.");
    lines << QStringLiteral("  bytes/user: MEMORY USAGE of the algorithm's keys at the end, per user; server us/call: "
                            "INFO commandstats for EVALSHA.");
    if (stopped)
        lines << QStringLiteral("stopped before the end: the algorithm cut short is left out.");
    return lines.join(QLatin1Char('\n'));
}
