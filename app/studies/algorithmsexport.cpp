#include "algorithmsexport.h"

#include "algorithms/algorithmcomparison.h"
#include "resultfile.h"

namespace {
using Column = ResultFile::CsvColumn<AlgorithmTally>;

Column count(const char* name, qint64 AlgorithmTally::*field)
{
    return {name, [field](const AlgorithmTally& tally) { return QByteArray::number(tally.*field); }};
}

Column whole(const char* name, int AlgorithmTally::*field)
{
    return {name, [field](const AlgorithmTally& tally) { return QByteArray::number(tally.*field); }};
}

// Empty for unknown values (negative in the tally).
QByteArray measure(double value)
{
    return value < 0 ? QByteArray() : ResultFile::number(value);
}
} // namespace

namespace AlgorithmsExport {

QByteArray csv(const ComparisonResult& result)
{
    static const QVector<Column> columns {
        {"id", [](const AlgorithmTally& tally) { return ResultFile::text(tally.id); }},
        count("requests", &AlgorithmTally::requests),
        count("admitted", &AlgorithmTally::admitted),
        count("admitted_over_limit", &AlgorithmTally::admittedOverLimit),
        count("rejected_under_limit", &AlgorithmTally::rejectedUnderLimit),
        count("truth_admitted", &AlgorithmTally::truthAdmitted),
        {"memory_bytes_per_key", [](const AlgorithmTally& tally) { return measure(tally.memoryBytesPerKey); }},
        {"memory_bytes",
         [](const AlgorithmTally& tally) {
             return tally.memoryBytes < 0 ? QByteArray() : QByteArray::number(tally.memoryBytes);
         }},
        whole("keys", &AlgorithmTally::keys),
        count("server_calls", &AlgorithmTally::serverCalls),
        {"server_usec_per_call", [](const AlgorithmTally& tally) { return measure(tally.serverUsecPerCall); }},
    };
    return ResultFile::csv(columns, result.algorithms);
}

bool writeFile(const ComparisonResult& result, const QString& path, QString* error)
{
    return ResultFile::write(
        path, [&result] { return result.toJson(); }, [&result] { return csv(result); }, error);
}

} // namespace AlgorithmsExport
