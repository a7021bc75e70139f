#pragma once

#include "zsetreader.h"

#include <QByteArray>
#include <QStringList>
#include <QVector>

#include <functional>

class MemberWrites;
class QIODevice;
class RedisConnection;
class RequestLog;
struct BurstSummary;

// Data a writer puts in a document: the request log, the ZSET snapshot and the summary, as CSV
// (RFC 4180, one header line) and as JSON (with a "schema" field). The summary's JSON is the object
// `zsetlab-cli run --json` prints.
namespace DataExport {
bool writeRequestLogCsv(const RequestLog& log, QIODevice* out);
bool writeRequestLogJson(const RequestLog& log, QIODevice* out);
bool writeSummaryCsv(const BurstSummary& summary, QIODevice* out);
bool writeSummaryJson(const BurstSummary& summary, QIODevice* out);
bool writeZsetCsv(const QByteArray& key, const QVector<ZsetEntry>& members, const MemberWrites* writes, QIODevice* out);
bool writeZsetJson(const QByteArray& key, const QVector<ZsetEntry>& members, const MemberWrites* writes,
                   QIODevice* out);

// Reads a whole ZSET in chunks (ZRANGE … WITHSCORES), for a snapshot.
bool readZset(RedisConnection& connection, const QByteArray& key, QVector<ZsetEntry>* members, QString* error);

// CSV reading, for checks and round trips: rows of fields; false on malformed quoting.
bool parseCsv(const QByteArray& text, QList<QStringList>* rows);
QByteArray csvField(const QString& field);
} // namespace DataExport
