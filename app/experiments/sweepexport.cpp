#include "sweepexport.h"

#include "dataexport.h"
#include "outputfile.h"
#include "sweeppoint.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QJsonDocument>

#include <cmath>

namespace {
const char* const columns[] = {
    "rate_per_ms",
    "pace",
    "strategy",
    "clock",
    "requests",
    "sent",
    "errors",
    "stored",
    "overwritten",
    "stored_percent",
    "theory_percent",
    "difference_points",
    "limit",
    "admitted_over_limit",
    "over_limit_percent",
    "timeline_rate_per_ms",
};

// Full precision, and empty for unknown values (a custom script has no theory).
QByteArray number(double value)
{
    return std::isfinite(value) ? QByteArray::number(value, 'g', 12) : QByteArray();
}
} // namespace

namespace SweepExport {

bool writeCsv(const SweepResult& result, QIODevice* out)
{
    QByteArray text;
    for (const char* column : columns)
        text += QByteArray(column) + ',';
    text.chop(1);
    text += "\r\n";
    for (const SweepPoint& point : result.points) {
        const QList<QByteArray> fields {
            number(point.ratePerMs),
            DataExport::csvField(sweepPacingName(point.pacing)),
            DataExport::csvField(point.strategy),
            DataExport::csvField(point.clock),
            QByteArray::number(point.requests),
            QByteArray::number(point.sent),
            QByteArray::number(point.errors),
            QByteArray::number(point.stored),
            QByteArray::number(point.overwritten),
            number(100.0 * point.storedFraction()),
            number(100.0 * point.theoryFraction),
            number(point.differencePoints()),
            QByteArray::number(point.limit),
            QByteArray::number(point.admittedOverLimit),
            point.limit > 0 ? number(100.0 * point.admittedOverLimitFraction()) : QByteArray(),
            number(point.timelineRatePerMs),
        };
        text += fields.join(',') + "\r\n";
    }
    return out->write(text) == text.size();
}

bool writeJson(const SweepResult& result, QIODevice* out)
{
    const QByteArray text = QJsonDocument(result.toJson()).toJson(QJsonDocument::Indented);
    return out->write(text) == text.size();
}

bool writeFile(const SweepResult& result, const QString& path, QString* error)
{
    // Made in memory, then written whole, only over a regular file or as a new one (OutputFile).
    if (const QString refused = OutputFile::refusal(path); !refused.isEmpty()) {
        *error = refused;
        return false;
    }
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    const bool json = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
    if (!(json ? writeJson(result, &file) : writeCsv(result, &file))) {
        *error = QCoreApplication::translate("SweepExport", "Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return OutputFile::write(path, file.data(), error);
}

} // namespace SweepExport
