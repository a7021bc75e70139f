#pragma once

#include "results/zsetreader.h"

#include <algorithm>

#include <QAbstractTableModel>
#include <QFont>
#include <QFontDatabase>
#include <QHash>
#include <QSet>

class MemberWrites;

// The longest score and member a table has loaded, in characters: the panel sizes its fixed-width
// columns by them, without asking for rows nobody looks at.
struct ZsetTextLength
{
    int score = 0;
    int member = 0;
    void take(int scoreChars, int memberChars)
    {
        score = std::max(score, scoreChars);
        member = std::max(member, memberChars);
    }
};

// The live contents of a ZSET, sorted by score: rank, member, score (an exact integer) and how
// many requests of the burst wrote that member. Rows are fetched a page at a time by a
// ZsetReader on its own thread; a row not loaded yet shows "…" until its page arrives.
class ZsetModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns { RankColumn, MemberColumn, ScoreColumn, WritesColumn, NUM_COLUMNS };
    enum Roles { MemberRole = Qt::UserRole, ScoreRole };
    static constexpr int pageSize = 200;

    explicit ZsetModel(ZsetReader* reader, QObject* parent = nullptr);

    // Shows `query` (a key and filters) from the start; rows arrive asynchronously.
    void setQuery(const ZsetQuery& query);
    const ZsetQuery& query() const { return m_reader->query(); }
    // Reads the row count and the loaded pages again (during a burst, at a steady rate).
    void refresh();
    void clear();
    void setWrites(const MemberWrites* writes);
    // The font of members, scores and ranks (fixed width), sized by the view's text.
    void setFixedFont(const QFont& font);
    bool isTruncated() const { return m_truncated; }
    // Over the pages loaded since the last query.
    ZsetTextLength longestText() const { return m_longest; }
    // True when no page or count request is outstanding.
    bool isSettled() const { return m_pendingPages.isEmpty() && !m_countPending; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void countChanged(qint64 rows, bool truncated);
    void readFailed(const QString& message);

private:
    QFont m_fixedFont = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    void onCount(quint64 generation, qint64 rows, bool truncated);
    void onPage(quint64 generation, qint64 firstRow, const QVector<ZsetEntry>& entries);
    const ZsetEntry* entryAt(int row) const;

    ZsetReader* m_reader;
    const MemberWrites* m_writes = nullptr;
    int m_rows = 0;
    ZsetTextLength m_longest;
    bool m_truncated = false;
    bool m_countPending = false;
    mutable QHash<qint64, QVector<ZsetEntry>> m_pages;
    mutable QSet<qint64> m_pendingPages;
};
