#pragma once

#include "replay/recording.h"
#include "zsetmodel.h"

#include <QAbstractTableModel>
#include <QFont>
#include <QFontDatabase>

// The members a replay's ZSET held right after one request, sorted by score as ZRANGE returns
// them, in the ZSET table's columns (rank, member, score, writes so far). The member the request
// itself wrote is marked: new, or "ZADD replied 0: already there".
class ReplayMembersModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setState(const ReplayState& state);
    void clear();
    const ReplayState& state() const { return m_state; }
    // The row of the member the request wrote; -1 when it wrote none that is still there.
    int writtenRow() const { return m_writtenRow; }
    // Over the first and last rows (sorted by score, the widest are there).
    ZsetTextLength longestText() const { return m_longest; }
    void setFixedFont(const QFont& font) { m_fixedFont = font; }
    // What the request did to its member, for the caption and the written row's tip.
    static QString writeText(const ReplayState& state);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ReplayState m_state;
    int m_writtenRow = -1;
    ZsetTextLength m_longest;
    QFont m_fixedFont = QFontDatabase::systemFont(QFontDatabase::FixedFont);
};
