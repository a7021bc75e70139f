#include "clienttallymodel.h"

#include <QLocale>

ClientTallyModel::ClientTallyModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void ClientTallyModel::setTallies(const QVector<ClientTally>& tallies)
{
    beginResetModel();
    m_tallies = tallies;
    endResetModel();
}

qint64 ClientTallyModel::count(const ClientTally& tally, int column)
{
    switch (column) {
    case ServerColumn:
        return tally.client + 1;
    case SentColumn:
        return tally.sent;
    case StoredColumn:
        return tally.stored;
    case OverwrittenColumn:
        return tally.overwritten;
    case OverwroteOtherColumn:
        return tally.overwroteOtherClient;
    case OverLimitColumn:
        return tally.admittedOverLimit;
    }
    return 0;
}

qint64 ClientTallyModel::total(int column) const
{
    qint64 sum = 0;
    for (const ClientTally& tally : m_tallies)
        sum += count(tally, column);
    return sum;
}

int ClientTallyModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_tallies.size());
}

int ClientTallyModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QVariant ClientTallyModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ClientTally& tally = m_tallies.at(index.row());
    switch (role) {
    case ValueRole:
        return count(tally, index.column());
    case Qt::DisplayRole:
        if (index.column() == ServerColumn)
            return tr("%1: %2").arg(tally.client + 1).arg(tally.profile);
        return QLocale().toString(count(tally, index.column()));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == ServerColumn ? Qt::AlignLeft | Qt::AlignVCenter
                                                                  : Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ClientTallyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case ServerColumn:
            return tr("server");
        case SentColumn:
            return tr("sent");
        case StoredColumn:
            return tr("stored");
        case OverwrittenColumn:
            return tr("overwritten");
        case OverwroteOtherColumn:
            return tr("… another server's");
        case OverLimitColumn:
            return tr("over limit");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case ServerColumn:
            return tr("The app server and its arrivals, clock offset and drift.");
        case SentColumn:
            return tr("Requests finished (answered or failed).");
        case StoredColumn:
            return tr("Requests that created a ZSET member of their own (ZADD replied 1).");
        case OverwrittenColumn:
            return tr("Requests that only updated an existing member (ZADD replied 0).");
        case OverwroteOtherColumn:
            return tr("Of the overwritten, those whose member another server had created: servers whose clocks "
                      "agree on the millisecond collide.");
        case OverLimitColumn:
            return tr("Requests admitted while the true number in the window was above the limit.");
        }
    }
    return {};
}
