#pragma once

#include <QString>

class QIODevice;
struct ComparisonResult;

// The numbers of an algorithms comparison as documents: JSON is ComparisonResult::toJson() (what
// `zsetlab-cli algorithms --json` prints), CSV has one header line and one row per algorithm, the
// table's columns and the counts behind them (RFC 4180).
namespace AlgorithmsExport {
bool writeCsv(const ComparisonResult& result, QIODevice* out);
bool writeJson(const ComparisonResult& result, QIODevice* out);
// Writes CSV, or JSON when the path ends in .json; false with a message.
bool writeFile(const ComparisonResult& result, const QString& path, QString* error);
} // namespace AlgorithmsExport
