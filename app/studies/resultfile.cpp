#include "resultfile.h"

#include "base/outputfile.h"
#include "results/dataexport.h"

#include <QJsonDocument>

#include <cmath>

namespace ResultFile {

QByteArray csvLines(const QList<QByteArray>& header, const QList<QList<QByteArray>>& rows)
{
    QByteArray text = header.join(',') + "\r\n";
    for (const QList<QByteArray>& fields : rows)
        text += fields.join(',') + "\r\n";
    return text;
}

QByteArray number(double value)
{
    return std::isfinite(value) ? QByteArray::number(value, 'g', 12) : QByteArray();
}

QByteArray text(const QString& value)
{
    return DataExport::csvField(value);
}

bool isJsonPath(const QString& path)
{
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

bool write(const QString& path, const std::function<QJsonObject()>& json, const std::function<QByteArray()>& csv,
           QString* error)
{
    // Refused before the document is made: a long table is not built for a path that cannot take it.
    if (const QString refused = OutputFile::refusal(path); !refused.isEmpty()) {
        *error = refused;
        return false;
    }
    const QByteArray bytes = isJsonPath(path) ? QJsonDocument(json()).toJson(QJsonDocument::Indented) : csv();
    return OutputFile::write(path, bytes, error);
}

} // namespace ResultFile
