#include "sweepexport.h"

#include "burst/sweeppoint.h"
#include "resultfile.h"

namespace {
using Column = ResultFile::CsvColumn<SweepPoint>;

Column count(const char* name, qint64 SweepPoint::*field)
{
    return {name, [field](const SweepPoint& point) { return QByteArray::number(point.*field); }};
}

// Full precision, and empty for unknown values (a custom script has no theory).
Column measure(const char* name, double (*value)(const SweepPoint&))
{
    return {name, [value](const SweepPoint& point) { return ResultFile::number(value(point)); }};
}
} // namespace

namespace SweepExport {

QByteArray csv(const SweepResult& result)
{
    static const QVector<Column> columns {
        measure("rate_per_ms", [](const SweepPoint& point) { return point.ratePerMs; }),
        {"pace", [](const SweepPoint& point) { return ResultFile::text(sweepPacingName(point.pacing)); }},
        {"strategy", [](const SweepPoint& point) { return ResultFile::text(point.limiter); }},
        {"clock", [](const SweepPoint& point) { return ResultFile::text(point.clock); }},
        count("requests", &SweepPoint::requests),
        count("sent", &SweepPoint::sent),
        count("errors", &SweepPoint::errors),
        count("stored", &SweepPoint::stored),
        count("overwritten", &SweepPoint::overwritten),
        measure("stored_percent", [](const SweepPoint& point) { return 100.0 * point.storedFraction(); }),
        measure("theory_percent", [](const SweepPoint& point) { return 100.0 * point.theoryFraction; }),
        measure("difference_points", [](const SweepPoint& point) { return point.differencePoints(); }),
        count("limit", &SweepPoint::limit),
        count("admitted_over_limit", &SweepPoint::admittedOverLimit),
        {"over_limit_percent",
         [](const SweepPoint& point) {
             return point.limit > 0 ? ResultFile::number(100.0 * point.admittedOverLimitFraction()) : QByteArray();
         }},
        measure("timeline_rate_per_ms", [](const SweepPoint& point) { return point.timelineRatePerMs; }),
    };
    return ResultFile::csv(columns, result.points);
}

bool writeFile(const SweepResult& result, const QString& path, QString* error)
{
    return ResultFile::write(
        path, [&result] { return result.toJson(); }, [&result] { return csv(result); }, error);
}

} // namespace SweepExport
