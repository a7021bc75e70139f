#include "dataexport.h"

#include "burstsummary.h"
#include "memberwrites.h"
#include "redis/redisconnection.h"
#include "requestlog.h"

#include <QCoreApplication>
#include <QIODevice>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(DataExport)
};

} // namespace

namespace DataExport {

namespace {
const char* const logColumns[] = {"id",       "connection",          "sent_us",    "now",    "count", "truth", "added",
                                  "admitted", "admitted_over_limit", "latency_us", "member", "error"};

QByteArray jsonText(const QString& text)
{
    // A JSON string literal, quotes included.
    const QByteArray array = QJsonDocument(QJsonArray {text}).toJson(QJsonDocument::Compact);
    return array.mid(1, array.size() - 2);
}
} // namespace

QByteArray csvField(const QString& field)
{
    QByteArray bytes = field.toUtf8();
    if (bytes.contains(',') || bytes.contains('"') || bytes.contains('\n') || bytes.contains('\r')) {
        bytes.replace('"', "\"\"");
        return '"' + bytes + '"';
    }
    return bytes;
}

bool writeRequestLogCsv(const RequestLog& log, QIODevice* out)
{
    QByteArray line;
    for (const char* column : logColumns)
        line += QByteArray(column) + ',';
    line.chop(1);
    if (out->write(line + "\r\n") < 0)
        return false;
    for (int i = 0; i < log.size(); ++i) {
        if (!log.isDone(i))
            continue;
        line = QByteArray::number(i) + ',' + QByteArray::number(log.connection(i)) + ','
            + QByteArray::number(log.sentMicros(i)) + ',' + QByteArray::number(log.now(i)) + ','
            + QByteArray::number(log.count(i)) + ',' + QByteArray::number(log.truth(i)) + ','
            + QByteArray::number(log.added(i)) + ',' + (log.isAdmitted(i) ? "1" : "0") + ','
            + (log.isAdmittedOverLimit(i) ? "1" : "0") + ',' + QByteArray::number(log.latencyMicros(i)) + ','
            + csvField(QString::fromUtf8(log.member(i))) + ',' + csvField(log.error(i)) + "\r\n";
        if (out->write(line) < 0)
            return false;
    }
    return true;
}

bool writeRequestLogJson(const RequestLog& log, QIODevice* out)
{
    // Streamed a request at a time: a million requests never sit in one QJsonDocument.
    QByteArray head = "{\"schema\":\"zsetlab.requests/1\",\"window\":" + QByteArray::number(log.windowInNowUnits())
        + ",\"limit\":" + QByteArray::number(log.limit()) + ",\"requests\":[";
    if (out->write(head) < 0)
        return false;
    bool first = true;
    for (int i = 0; i < log.size(); ++i) {
        if (!log.isDone(i))
            continue;
        QByteArray item = first ? "\n" : ",\n";
        first = false;
        item += "{\"id\":" + QByteArray::number(i) + ",\"connection\":" + QByteArray::number(log.connection(i))
            + ",\"sent_us\":" + QByteArray::number(log.sentMicros(i)) + ",\"now\":" + QByteArray::number(log.now(i))
            + ",\"count\":" + QByteArray::number(log.count(i)) + ",\"truth\":" + QByteArray::number(log.truth(i))
            + ",\"added\":" + QByteArray::number(log.added(i))
            + ",\"admitted\":" + (log.isAdmitted(i) ? "true" : "false")
            + ",\"admitted_over_limit\":" + (log.isAdmittedOverLimit(i) ? "true" : "false") + ",\"latency_us\":"
            + QByteArray::number(log.latencyMicros(i)) + ",\"member\":" + jsonText(QString::fromUtf8(log.member(i)));
        if (log.isFailed(i))
            item += ",\"error\":" + jsonText(log.error(i));
        item += '}';
        if (out->write(item) < 0)
            return false;
    }
    return out->write("\n]}\n") >= 0;
}

bool writeSummaryJson(const BurstSummary& summary, QIODevice* out)
{
    return out->write(QJsonDocument(summary.toJson()).toJson(QJsonDocument::Indented)) >= 0;
}

bool writeSummaryCsv(const BurstSummary& summary, QIODevice* out)
{
    const QJsonObject json = summary.toJson();
    QByteArray header;
    QByteArray values;
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (it.value().isObject())
            continue; // the error object: its message follows as "error"
        header += csvField(it.key()) + ',';
        values += csvField(it.value().isString() ? it.value().toString() : it.value().toVariant().toString()) + ',';
    }
    header += "error";
    values += csvField(summary.failure.message);
    return out->write(header + "\r\n" + values + "\r\n") >= 0;
}

bool writeZsetCsv(const QByteArray& key, const QVector<ZsetEntry>& members, const MemberWrites* writes, QIODevice* out)
{
    Q_UNUSED(key);
    if (out->write("rank,member,score,writes\r\n") < 0)
        return false;
    for (int i = 0; i < members.size(); ++i) {
        const ZsetEntry& entry = members[i];
        const QByteArray line = QByteArray::number(i) + ',' + csvField(QString::fromUtf8(entry.member)) + ','
            + ZsetReader::formatScore(entry.score).toLatin1() + ','
            + (writes && writes->writesOf(entry.member) >= 0 ? QByteArray::number(writes->writesOf(entry.member))
                                                             : QByteArray()) // empty: unknown
            + "\r\n";
        if (out->write(line) < 0)
            return false;
    }
    return true;
}

bool writeZsetJson(const QByteArray& key, const QVector<ZsetEntry>& members, const MemberWrites* writes, QIODevice* out)
{
    QByteArray text = "{\"schema\":\"zsetlab.zset/1\",\"key\":" + jsonText(QString::fromUtf8(key)) + ",\"members\":[";
    for (int i = 0; i < members.size(); ++i) {
        const ZsetEntry& entry = members[i];
        text += (i ? ",\n" : "\n") + QByteArray("{\"rank\":") + QByteArray::number(i)
            + ",\"member\":" + jsonText(QString::fromUtf8(entry.member))
            + ",\"score\":" + ZsetReader::formatScore(entry.score).toLatin1();
        if (writes) {
            const int count = writes->writesOf(entry.member);
            text += ",\"writes\":" + (count >= 0 ? QByteArray::number(count) : QByteArrayLiteral("null"));
        }
        text += '}';
        if (text.size() > 1 << 20) {
            if (out->write(text) < 0)
                return false;
            text.clear();
        }
    }
    text += "\n]}\n";
    return out->write(text) >= 0;
}

bool readZset(RedisConnection& connection, const QByteArray& key, QVector<ZsetEntry>* members, QString* error)
{
    members->clear();
    constexpr int chunk = 10000;
    for (qint64 start = 0;; start += chunk) {
        const RedisReply reply = connection.command(
            {"ZRANGE", key, QByteArray::number(start), QByteArray::number(start + chunk - 1), "WITHSCORES"});
        if (reply.isError()) {
            *error = reply.errorCode() == "WRONGTYPE"
                ? Text::tr("The key %1 is not a sorted set.").arg(QString::fromUtf8(key))
                : reply.text();
            return false;
        }
        const auto& items = reply.elements();
        for (size_t i = 0; i + 1 < items.size(); i += 2)
            members->push_back({items[i].bytes(), items[i + 1].bytes()});
        if (items.size() < 2 * size_t(chunk))
            return true;
    }
}

bool parseCsv(const QByteArray& text, QList<QStringList>* rows)
{
    rows->clear();
    QStringList row;
    QByteArray field;
    bool quoted = false;
    bool fieldStarted = false;
    for (int i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                field += c;
            }
            continue;
        }
        if (c == '"') {
            if (fieldStarted && !field.isEmpty())
                return false; // a quote in the middle of an unquoted field
            quoted = true;
            fieldStarted = true;
        } else if (c == ',') {
            row << QString::fromUtf8(field);
            field.clear();
            fieldStarted = false;
        } else if (c == '\r' || c == '\n') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            row << QString::fromUtf8(field);
            rows->append(row);
            row.clear();
            field.clear();
            fieldStarted = false;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted)
        return false;
    if (fieldStarted || !row.isEmpty()) {
        row << QString::fromUtf8(field);
        rows->append(row);
    }
    return true;
}

} // namespace DataExport
