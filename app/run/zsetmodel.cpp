#include "zsetmodel.h"

#include "results/memberwrites.h"

#include <QFont>
#include <QFontDatabase>
#include <QLocale>

namespace {
constexpr int maxCachedPages = 64;
}

ZsetModel::ZsetModel(ZsetReader* reader, QObject* parent)
    : QAbstractTableModel(parent)
    , m_reader(reader)
{
    connect(m_reader, &ZsetReader::countReady, this, &ZsetModel::onCount);
    connect(m_reader, &ZsetReader::pageReady, this, &ZsetModel::onPage);
    connect(m_reader, &ZsetReader::failed, this, [this](const QString& message) {
        // No rows of "…" that never fill: the panel says why instead.
        beginResetModel();
        m_rows = 0;
        m_pages.clear();
        endResetModel();
        m_countPending = false;
        m_pendingPages.clear();
        emit readFailed(message);
    });
}

void ZsetModel::setQuery(const ZsetQuery& query)
{
    beginResetModel();
    m_reader->setQuery(query);
    m_rows = 0;
    m_longest = {};
    m_truncated = false;
    m_pages.clear();
    m_pendingPages.clear();
    endResetModel();
    if (query.key.isEmpty())
        return;
    m_countPending = true;
    m_reader->requestCount();
}

void ZsetModel::clear()
{
    setQuery(ZsetQuery());
}

void ZsetModel::refresh()
{
    if (m_reader->query().key.isEmpty() || m_countPending)
        return;
    m_countPending = true;
    m_reader->requestCount();
}

void ZsetModel::setWrites(const MemberWrites* writes)
{
    m_writes = writes;
    if (m_rows > 0)
        emit dataChanged(index(0, WritesColumn), index(m_rows - 1, WritesColumn));
}

void ZsetModel::onCount(quint64 generation, qint64 rows, bool truncated)
{
    if (generation != m_reader->generation())
        return;
    m_countPending = false;
    const int newRows = int(std::min<qint64>(rows, std::numeric_limits<int>::max()));
    if (newRows > m_rows) {
        beginInsertRows({}, m_rows, newRows - 1);
        m_rows = newRows;
        endInsertRows();
    } else if (newRows < m_rows) {
        beginRemoveRows({}, newRows, m_rows - 1);
        m_rows = newRows;
        endRemoveRows();
    }
    m_truncated = truncated;
    // Members may have moved (new scores, trimmed window): loaded pages are stale.
    m_pages.clear();
    m_pendingPages.clear();
    if (m_rows > 0)
        emit dataChanged(index(0, 0), index(m_rows - 1, NUM_COLUMNS - 1));
    emit countChanged(rows, truncated);
}

void ZsetModel::onPage(quint64 generation, qint64 firstRow, const QVector<ZsetEntry>& entries)
{
    if (generation != m_reader->generation())
        return;
    const qint64 page = firstRow / pageSize;
    if (!m_pendingPages.remove(page))
        return; // answers a request made before the last refresh
    if (m_pages.size() >= maxCachedPages)
        m_pages.clear();
    m_pages.insert(page, entries);
    for (const ZsetEntry& entry : entries)
        m_longest.take(int(ZsetReader::formatScore(entry.score).size()), int(QString::fromUtf8(entry.member).size()));
    const int first = int(firstRow);
    const int last = std::min(m_rows, first + int(entries.size())) - 1;
    if (last >= first)
        emit dataChanged(index(first, 0), index(last, NUM_COLUMNS - 1));
}

const ZsetEntry* ZsetModel::entryAt(int row) const
{
    const qint64 page = row / pageSize;
    const auto found = m_pages.constFind(page);
    if (found == m_pages.constEnd()) {
        if (!m_pendingPages.contains(page)) {
            m_pendingPages.insert(page);
            m_reader->requestPage(page * pageSize, pageSize);
        }
        return nullptr;
    }
    const int offset = int(row - page * pageSize);
    return offset < found->size() ? &found->at(offset) : nullptr;
}

int ZsetModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : m_rows;
}

int ZsetModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

void ZsetModel::setFixedFont(const QFont& font)
{
    if (font == m_fixedFont)
        return;
    m_fixedFont = font;
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, NUM_COLUMNS - 1), {Qt::FontRole});
}

QVariant ZsetModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == MemberColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                              : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && index.column() != WritesColumn)
        return m_fixedFont;
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole && role != MemberRole && role != ScoreRole)
        return {};
    const ZsetEntry* entry = entryAt(index.row());
    if (!entry)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("…")) : QVariant();
    if (role == MemberRole)
        return entry->member;
    if (role == ScoreRole)
        return entry->score;
    switch (index.column()) {
    case RankColumn: // the member's rank in the ZSET, also under a filter
        if (entry->rank < 0)
            return role == Qt::DisplayRole ? QVariant(QStringLiteral("?")) : QVariant();
        return entry->rank;
    case MemberColumn:
        return QString::fromUtf8(entry->member);
    case ScoreColumn:
        return ZsetReader::formatScore(entry->score);
    case WritesColumn: {
        if (!m_writes)
            return {};
        const int writes = m_writes->writesOf(entry->member);
        if (writes < 0)
            return role == Qt::ToolTipRole
                ? QVariant(tr("Unknown: the script's replies do not name the member each request wrote."))
                : QVariant(QStringLiteral("?"));
        if (role == Qt::ToolTipRole)
            return writes > 1 ? tr("%n requests wrote this member: all but one were overwritten", nullptr, writes)
                              : tr("Written by one request");
        return writes;
    }
    }
    return {};
}

QVariant ZsetModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case MemberColumn:
        return tr("Member");
    case ScoreColumn:
        return tr("Score");
    case WritesColumn:
        return tr("Writes");
    }
    return {};
}
