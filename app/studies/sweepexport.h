#pragma once

#include <QString>

struct SweepResult;

// The numbers of a rate sweep as a file (ResultFile): JSON is SweepResult::toJson() (what
// `zsetlab-cli sweep --json` prints), CSV has one row per rate.
namespace SweepExport {
QByteArray csv(const SweepResult& result);
// Writes CSV, or JSON when the path ends in .json; false with a message.
bool writeFile(const SweepResult& result, const QString& path, QString* error);
} // namespace SweepExport
