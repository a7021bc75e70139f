#pragma once

#include <QString>

class QIODevice;
struct SweepResult;

// The numbers of a rate sweep as documents: JSON is SweepResult::toJson() (what `zsetlab-cli
// sweep --json` prints), CSV has one header line and one row per rate (RFC 4180).
namespace SweepExport {
bool writeCsv(const SweepResult& result, QIODevice* out);
bool writeJson(const SweepResult& result, QIODevice* out);
// Writes CSV, or JSON when the path ends in .json; false with a message.
bool writeFile(const SweepResult& result, const QString& path, QString* error);
} // namespace SweepExport
