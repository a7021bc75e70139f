#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVector>

#include <functional>

// The numbers of a study window as a file: CSV (RFC 4180: one header line, then one line
// per row, CRLF), or a JSON document when the path ends in .json. The document is made in memory
// and written whole through OutputFile: only over a regular file or as a new one, never half.
namespace ResultFile {
// A column of a CSV table: its name in the header line and a row's field, already encoded (see
// number() and text()).
template<typename Row>
struct CsvColumn
{
    const char* name;
    std::function<QByteArray(const Row&)> field;
};

// The header line and one line per row.
QByteArray csvLines(const QList<QByteArray>& header, const QList<QList<QByteArray>>& rows);
template<typename Row>
QByteArray csv(const QVector<CsvColumn<Row>>& columns, const QVector<Row>& rows)
{
    QList<QByteArray> header;
    for (const CsvColumn<Row>& column : columns)
        header << column.name;
    QList<QList<QByteArray>> lines(rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        QList<QByteArray>& fields = lines[i];
        fields.reserve(columns.size());
        for (const CsvColumn<Row>& column : columns)
            fields << column.field(rows.at(i));
    }
    return csvLines(header, lines);
}

// A number at full precision; empty when it is unknown (not finite).
QByteArray number(double value);
// A text field, quoted where CSV needs it.
QByteArray text(const QString& value);

bool isJsonPath(const QString& path);
// Writes json() for a path that ends in .json, else csv(); only the one asked for is made. False
// with *error when the path is refused (a folder, a missing folder, a link, a device: the message
// names the path and why) or the write failed; whatever was there stays.
bool write(const QString& path, const std::function<QJsonObject()>& json, const std::function<QByteArray()>& csv,
           QString* error);
} // namespace ResultFile
