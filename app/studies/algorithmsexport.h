#pragma once

#include <QString>

struct ComparisonResult;

// The numbers of an algorithms comparison as a file (ResultFile): JSON is ComparisonResult::toJson()
// (what `zsetlab-cli algorithms --json` prints), CSV has one row per algorithm, the table's columns
// and the counts behind them.
namespace AlgorithmsExport {
QByteArray csv(const ComparisonResult& result);
// Writes CSV, or JSON when the path ends in .json; false with a message.
bool writeFile(const ComparisonResult& result, const QString& path, QString* error);
} // namespace AlgorithmsExport
