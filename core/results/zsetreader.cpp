#include "zsetreader.h"

#include "dataexport.h"
#include "redis/clustermap.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <algorithm>
#include <cmath>
#include <mutex>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ZsetReader)
};

QByteArray scoreBound(double value, bool exclusive = false)
{
    QByteArray text = QByteArray::number(value, 'g', 17);
    return exclusive ? '(' + text : text;
}

// ZSCAN MATCH pattern for "contains text": escape the glob characters the user typed.
QByteArray containsPattern(const QString& text)
{
    QByteArray pattern = "*";
    for (const char c : text.toUtf8()) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            pattern += '\\';
        pattern += c;
    }
    return pattern + '*';
}
} // namespace

// The reader's state on the task thread: its connection and the cached result of a member filter.
struct ZsetReader::Worker
{
    // Set from the owner's thread (setEndpoint), read here: a job would be dropped by setQuery().
    std::mutex endpointMutex;
    RedisEndpoint nextEndpoint;
    ConnectOptions nextOptions;
    bool endpointChanged = false;

    RedisEndpoint endpoint;
    ConnectOptions options;
    RedisConnection connection;
    ClusterMap map; // empty unless the server is a cluster node
    // For score ranges: the rank of the first member in range and how many are in range.
    quint64 rangeGeneration = 0;
    qint64 rangeOffset = 0;
    qint64 rangeCount = 0;
    // For member filters: the matches, sorted by score then member.
    quint64 filteredGeneration = 0;
    std::vector<ZsetEntry> filtered;
    bool truncated = false;

    // Connected to the node that serves `key`: on a cluster, through the slot map, read again
    // whenever the connection is made.
    bool ensureConnected(const QByteArray& key, QString* error)
    {
        {
            std::lock_guard<std::mutex> lock(endpointMutex);
            if (endpointChanged) {
                endpointChanged = false;
                endpoint = nextEndpoint;
                options = nextOptions;
                connection.close();
                rangeGeneration = 0;
                filteredGeneration = 0;
            }
        }
        if (connection.isOpen() && (map.isEmpty() || map.serves(key, connection.endpoint())))
            return true;
        map = {};
        if (openForKey(connection, endpoint, key, options, &map, error))
            return true;
        if (error->isEmpty())
            *error = connection.lastError().message;
        return false;
    }

    bool prepare(const ZsetQuery& query, quint64 generation, QString* error)
    {
        if (!ensureConnected(query.key, error))
            return false;
        if (!query.memberContains.isEmpty()) {
            if (filteredGeneration == generation)
                return true;
            return scanFiltered(query, generation, error);
        }
        if (rangeGeneration == generation)
            return true;
        const QByteArray min = query.minScore ? scoreBound(*query.minScore) : QByteArrayLiteral("-inf");
        const QByteArray max = query.maxScore ? scoreBound(*query.maxScore) : QByteArrayLiteral("+inf");
        RedisReply count = connection.command({"ZCOUNT", query.key, min, max});
        if (ClusterRedirect::of(count).isRedirect()) {
            // The key's slot moved since the map was read (a resharding): read it again, once.
            connection.close();
            if (!ensureConnected(query.key, error))
                return false;
            count = connection.command({"ZCOUNT", query.key, min, max});
        }
        RedisReply before = query.minScore
            ? connection.command({"ZCOUNT", query.key, "-inf", scoreBound(*query.minScore, true)})
            : RedisReply::integer(0);
        if (count.isError() || before.isError()) {
            *error = (count.isError() ? count : before).text();
            if (count.errorCode() == "WRONGTYPE" || before.errorCode() == "WRONGTYPE")
                *error = Text::tr("The key %1 is not a sorted set.").arg(QString::fromUtf8(query.key));
            return false;
        }
        rangeGeneration = generation;
        rangeCount = count.toInteger();
        rangeOffset = before.toInteger();
        return true;
    }

    bool scanFiltered(const ZsetQuery& query, quint64 generation, QString* error)
    {
        filtered.clear();
        truncated = false;
        const QByteArray pattern = containsPattern(query.memberContains);
        QByteArray cursor = "0";
        do {
            const RedisReply reply
                = connection.command({"ZSCAN", query.key, cursor, "MATCH", pattern, "COUNT", "1000"});
            if (reply.isError() || reply.elements().size() != 2) {
                *error = reply.text();
                return false;
            }
            cursor = reply.elements()[0].bytes();
            const auto& items = reply.elements()[1].elements();
            for (size_t i = 0; i + 1 < items.size(); i += 2) {
                const double score = items[i + 1].bytes().toDouble();
                if ((query.minScore && score < *query.minScore) || (query.maxScore && score > *query.maxScore))
                    continue;
                if (static_cast<int>(filtered.size()) >= maxFilteredRows) {
                    truncated = true;
                    break;
                }
                filtered.push_back({items[i].bytes(), items[i + 1].bytes()});
            }
        } while (cursor != "0" && !truncated);
        std::sort(filtered.begin(), filtered.end(), [](const ZsetEntry& a, const ZsetEntry& b) {
            const double sa = a.score.toDouble();
            const double sb = b.score.toDouble();
            return sa != sb ? sa < sb : a.member < b.member;
        });
        filteredGeneration = generation;
        return true;
    }
};

ZsetReader::ZsetReader(QObject* parent)
    : QObject(parent)
    , m_worker(std::make_shared<Worker>())
{
    qRegisterMetaType<ZsetEntry>();
    qRegisterMetaType<QVector<ZsetEntry>>();
}

ZsetReader::~ZsetReader() = default;

void ZsetReader::setEndpoint(const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    std::lock_guard<std::mutex> lock(m_worker->endpointMutex);
    m_worker->nextEndpoint = endpoint;
    m_worker->nextOptions = options;
    m_worker->endpointChanged = true;
}

quint64 ZsetReader::setQuery(const ZsetQuery& query)
{
    m_query = query;
    m_thread.dropPending(); // answers to the old query are moot
    return ++m_generation;
}

void ZsetReader::requestCount()
{
    auto worker = m_worker;
    const ZsetQuery query = m_query;
    const quint64 generation = m_generation;
    m_thread.post([this, worker, query, generation] {
        QString error;
        worker->rangeGeneration = 0; // a count is a refresh: read the range again
        worker->filteredGeneration = 0;
        if (!worker->prepare(query, generation, &error)) {
            QMetaObject::invokeMethod(
                this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
            return;
        }
        const qint64 rows = query.memberContains.isEmpty() ? worker->rangeCount : qint64(worker->filtered.size());
        const bool truncated = !query.memberContains.isEmpty() && worker->truncated;
        QMetaObject::invokeMethod(
            this, [this, generation, rows, truncated] { emit countReady(generation, rows, truncated); },
            Qt::QueuedConnection);
    });
}

void ZsetReader::requestPage(qint64 firstRow, int rows)
{
    auto worker = m_worker;
    const ZsetQuery query = m_query;
    const quint64 generation = m_generation;
    m_thread.post([this, worker, query, generation, firstRow, rows] {
        QString error;
        if (!worker->prepare(query, generation, &error)) {
            QMetaObject::invokeMethod(
                this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
            return;
        }
        QVector<ZsetEntry> entries;
        if (!query.memberContains.isEmpty()) {
            const auto end = std::min<qint64>(firstRow + rows, qint64(worker->filtered.size()));
            for (qint64 row = firstRow; row < end; ++row) {
                ZsetEntry entry = worker->filtered[size_t(row)];
                // A filtered view skips members: its row is not the member's rank in the ZSET.
                const RedisReply rank = worker->connection.command({"ZRANK", query.key, entry.member});
                entry.rank = rank.type() == RedisReply::Type::Integer ? rank.toInteger() : -1;
                entries.push_back(entry);
            }
        } else {
            const qint64 last = std::min<qint64>(firstRow + rows, worker->rangeCount) - 1;
            if (last >= firstRow) {
                const RedisReply reply = worker->connection.command(
                    {"ZRANGE", query.key, QByteArray::number(worker->rangeOffset + firstRow),
                     QByteArray::number(worker->rangeOffset + last), "WITHSCORES"});
                if (reply.isError() || reply.type() != RedisReply::Type::Array) {
                    // Said, not shown as rows that never fill.
                    const QString error = Text::tr("Reading %1's members failed: %2")
                                              .arg(QString::fromUtf8(query.key), reply.toDisplayString());
                    QMetaObject::invokeMethod(
                        this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
                    return;
                }
                const auto& items = reply.elements();
                for (size_t i = 0; i + 1 < items.size(); i += 2)
                    entries.push_back(
                        {items[i].bytes(), items[i + 1].bytes(), worker->rangeOffset + firstRow + qint64(i / 2)});
            }
        }
        QMetaObject::invokeMethod(
            this, [this, generation, firstRow, entries] { emit pageReady(generation, firstRow, entries); },
            Qt::QueuedConnection);
    });
}

void ZsetReader::requestRowOf(const QByteArray& member)
{
    auto worker = m_worker;
    const ZsetQuery query = m_query;
    const quint64 generation = m_generation;
    m_thread.post([this, worker, query, generation, member] {
        QString error;
        if (!worker->prepare(query, generation, &error))
            return;
        qint64 row = -1;
        if (!query.memberContains.isEmpty()) {
            for (size_t i = 0; i < worker->filtered.size(); ++i) {
                if (worker->filtered[i].member == member) {
                    row = qint64(i);
                    break;
                }
            }
        } else {
            const RedisReply rank = worker->connection.command({"ZRANK", query.key, member});
            if (rank.type() == RedisReply::Type::Integer) {
                row = rank.toInteger() - worker->rangeOffset;
                if (row < 0 || row >= worker->rangeCount)
                    row = -1;
            }
        }
        QMetaObject::invokeMethod(
            this, [this, generation, member, row] { emit rowReady(generation, member, row); }, Qt::QueuedConnection);
    });
}

QString ZsetReader::formatScore(const QByteArray& score)
{
    if (!score.contains('e') && !score.contains('E') && !score.contains('.'))
        return QString::fromLatin1(score);
    bool ok = false;
    const double value = score.toDouble(&ok);
    if (ok && std::isfinite(value) && std::floor(value) == value && std::abs(value) < 9.2e18)
        return QString::number(static_cast<qint64>(value));
    return ok ? QString::number(value, 'f', 6) : QString::fromLatin1(score);
}

void ZsetReader::requestKeySize(const QByteArray& key)
{
    auto worker = m_worker;
    m_thread.post([this, worker, key] {
        QString error;
        if (!worker->ensureConnected(key, &error))
            return;
        const RedisReply card = worker->connection.command({"ZCARD", key});
        if (card.type() != RedisReply::Type::Integer)
            return;
        QMetaObject::invokeMethod(
            this, [this, key, members = card.toInteger()] { emit keySizeReady(key, members); }, Qt::QueuedConnection);
    });
}

void ZsetReader::requestSnapshot()
{
    auto worker = m_worker;
    const QByteArray key = m_query.key;
    m_thread.post([this, worker, key] {
        QString error;
        QVector<ZsetEntry> members;
        if (!worker->ensureConnected(key, &error) || !DataExport::readZset(worker->connection, key, &members, &error)) {
            QMetaObject::invokeMethod(
                this, [this, error] { emit failed(error); }, Qt::QueuedConnection);
            return;
        }
        QMetaObject::invokeMethod(
            this, [this, key, members] { emit snapshotReady(key, members); }, Qt::QueuedConnection);
    });
}
