#include "replaymembersmodel.h"

#include "results/zsetreader.h"
#include "widgets/palette.h"
#include "zsetmodel.h"

void ReplayMembersModel::setState(const ReplayState& state)
{
    beginResetModel();
    m_state = state;
    m_writtenRow = -1;
    const int written = state.request - 1;
    for (size_t row = 0; row < m_state.memberList.size(); ++row) {
        if (m_state.memberList[row].request == written)
            m_writtenRow = int(row);
    }
    m_longest = {};
    const size_t rows = m_state.memberList.size();
    const size_t ends = 100;
    auto take = [this](size_t first, size_t last) {
        for (size_t row = first; row < last; ++row) {
            const ReplayMember& member = m_state.memberList[row];
            m_longest.take(int(ZsetReader::formatScore(scoreText(member.score)).size()),
                           int(QString::fromUtf8(member.member).size()));
        }
    };
    take(0, std::min(rows, ends));
    if (rows > ends)
        take(std::max(ends, rows - ends), rows);
    endResetModel();
}

void ReplayMembersModel::clear()
{
    setState({});
}

QString ReplayMembersModel::writeText(const ReplayState& state)
{
    if (state.request <= 0)
        return {};
    if (!state.error.isEmpty())
        return tr("the request failed: %1").arg(state.error);
    if (state.added == 1)
        return tr("ZADD replied 1: a new member");
    if (state.added == 0)
        return tr("ZADD replied 0: the member was already there, nothing was added");
    if (!state.admitted)
        return tr("refused: nothing written");
    return tr("the reply did not say what ZADD did");
}

int ReplayMembersModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_state.memberList.size());
}

int ReplayMembersModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ZsetModel::NUM_COLUMNS;
}

QVariant ReplayMembersModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ReplayMember& member = m_state.memberList[size_t(index.row())];
    const bool written = index.row() == m_writtenRow;
    switch (role) {
    case Qt::TextAlignmentRole:
        return index.column() == ZsetModel::MemberColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                         : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::FontRole: {
        QFont font = m_fixedFont;
        font.setBold(written);
        return index.column() == ZsetModel::WritesColumn && !written ? QVariant() : QVariant(font);
    }
    case Qt::BackgroundRole: {
        if (!written)
            return {};
        QColor light = Palette::attention;
        light.setAlpha(90);
        return light;
    }
    case Qt::ToolTipRole:
        if (written)
            return tr("Request %L1 wrote this member: %2").arg(m_state.request).arg(writeText(m_state));
        if (member.request < 0)
            return tr("There before the first request: the what-if went on from the run's ZSET");
        return tr("Written by request %L1; %n request(s) wrote this member so far", nullptr, member.writes)
            .arg(member.request + 1);
    case ZsetModel::MemberRole:
        return member.member;
    case ZsetModel::ScoreRole:
        return scoreText(member.score);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case ZsetModel::RankColumn:
        return index.row();
    case ZsetModel::MemberColumn:
        return QString::fromUtf8(member.member);
    case ZsetModel::ScoreColumn:
        return ZsetReader::formatScore(scoreText(member.score));
    case ZsetModel::WritesColumn:
        return member.writes;
    }
    return {};
}

QVariant ReplayMembersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case ZsetModel::RankColumn:
        return tr("Rank");
    case ZsetModel::MemberColumn:
        return tr("Member");
    case ZsetModel::ScoreColumn:
        return tr("Score");
    case ZsetModel::WritesColumn:
        return tr("Writes");
    }
    return {};
}
