#include "algorithmsexport.h"

#include "algorithmcomparison.h"
#include "dataexport.h"
#include "outputfile.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QJsonDocument>

namespace {
const char* const columns[] = {
    "id",
    "requests",
    "admitted",
    "admitted_over_limit",
    "rejected_under_limit",
    "truth_admitted",
    "memory_bytes_per_key",
    "memory_bytes",
    "keys",
    "server_calls",
    "server_usec_per_call",
};

// Full precision, and empty for unknown values.
QByteArray number(double value)
{
    return value < 0 ? QByteArray() : QByteArray::number(value, 'g', 12);
}
} // namespace

namespace AlgorithmsExport {

bool writeCsv(const ComparisonResult& result, QIODevice* out)
{
    QByteArray text;
    for (const char* column : columns)
        text += QByteArray(column) + ',';
    text.chop(1);
    text += "\r\n";
    for (const AlgorithmTally& tally : result.algorithms) {
        const QList<QByteArray> fields {
            DataExport::csvField(tally.id),
            QByteArray::number(tally.requests),
            QByteArray::number(tally.admitted),
            QByteArray::number(tally.admittedOverLimit),
            QByteArray::number(tally.rejectedUnderLimit),
            QByteArray::number(tally.truthAdmitted),
            number(tally.memoryBytesPerKey),
            tally.memoryBytes < 0 ? QByteArray() : QByteArray::number(tally.memoryBytes),
            QByteArray::number(tally.keys),
            QByteArray::number(tally.serverCalls),
            number(tally.serverUsecPerCall),
        };
        text += fields.join(',') + "\r\n";
    }
    return out->write(text) == text.size();
}

bool writeJson(const ComparisonResult& result, QIODevice* out)
{
    const QByteArray text = QJsonDocument(result.toJson()).toJson(QJsonDocument::Indented);
    return out->write(text) == text.size();
}

bool writeFile(const ComparisonResult& result, const QString& path, QString* error)
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
        *error = QCoreApplication::translate("AlgorithmsExport", "Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return OutputFile::write(path, file.data(), error);
}

} // namespace AlgorithmsExport
