#pragma once

// ZsetReader: reads a ZSET's members and scores off the caller's thread, in pages.

#include "base/taskthread.h"
#include "redis/redisconnection.h"

#include <QMetaType>
#include <QObject>
#include <QVector>

#include <atomic>
#include <memory>
#include <optional>

// One member of a ZSET with its score as Redis wrote it.
struct ZsetEntry
{
    QByteArray member;
    QByteArray score;
    qint64 rank = -1; // its ZRANK in the whole ZSET (not in a filtered view); -1 unknown
};

// Which part of a ZSET to show: all of it, a score range, members containing some text.
struct ZsetQuery
{
    QByteArray key;
    QString memberContains; // empty: every member
    std::optional<double> minScore;
    std::optional<double> maxScore;
};

// Reads a ZSET page by page on its own thread, for a lazy table: a million members open at once
// because only the rows on screen are fetched. Results come back as signals tagged with the
// generation of the query they answer; a new query makes older answers moot.
class ZsetReader : public QObject
{
    Q_OBJECT
public:
    explicit ZsetReader(QObject* parent = nullptr);
    ~ZsetReader() override;

    void setEndpoint(const RedisEndpoint& endpoint, const ConnectOptions& options);
    // Starts a new generation; returns it.
    quint64 setQuery(const ZsetQuery& query);
    quint64 generation() const { return m_generation; }
    const ZsetQuery& query() const { return m_query; }

    void requestCount();
    void requestPage(qint64 firstRow, int rows);
    void requestRowOf(const QByteArray& member);
    // The whole key, unfiltered (for an export): snapshotReady, or failed.
    void requestSnapshot();
    // How many members another key holds now (ZCARD; 0 when it is gone): keySizeReady.
    void requestKeySize(const QByteArray& key);

    // "1710000000000" for scores Redis wrote as "1.71e+12" or "1710000000000": never scientific.
    static QString formatScore(const QByteArray& score);
    static constexpr int maxFilteredRows = 200000;

signals:
    void countReady(quint64 generation, qint64 rows, bool truncated);
    void pageReady(quint64 generation, qint64 firstRow, const QVector<ZsetEntry>& entries);
    void rowReady(quint64 generation, const QByteArray& member, qint64 row);
    void snapshotReady(const QByteArray& key, const QVector<ZsetEntry>& members);
    void keySizeReady(const QByteArray& key, qint64 members);
    void failed(const QString& message);

private:
    struct Worker; // lives on the task thread
    std::shared_ptr<Worker> m_worker;
    ZsetQuery m_query;
    quint64 m_generation = 0;
    TaskThread m_thread; // last: joined first on destruction
};

Q_DECLARE_METATYPE(ZsetEntry)
