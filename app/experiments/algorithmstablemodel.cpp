#include "algorithmstablemodel.h"

#include "limitercatalog.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace {
constexpr double unknown = std::numeric_limits<double>::quiet_NaN();
}

AlgorithmsTableModel::AlgorithmsTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void AlgorithmsTableModel::clear()
{
    setTallies({});
}

void AlgorithmsTableModel::setTallies(const QVector<AlgorithmTally>& tallies)
{
    beginResetModel();
    m_tallies = tallies;
    endResetModel();
}

void AlgorithmsTableModel::addTally(const AlgorithmTally& tally)
{
    beginInsertRows({}, int(m_tallies.size()), int(m_tallies.size()));
    m_tallies << tally;
    endInsertRows();
}

int AlgorithmsTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_tallies.size());
}

int AlgorithmsTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

double AlgorithmsTableModel::value(const AlgorithmTally& tally, int column)
{
    switch (column) {
    case AdmittedColumn:
        return double(tally.admitted);
    case OverLimitColumn:
        return double(tally.admittedOverLimit);
    case UnderLimitColumn:
        return double(tally.rejectedUnderLimit);
    case BytesPerUserColumn:
        return tally.memoryBytesPerKey < 0 ? unknown : tally.memoryBytesPerKey;
    case KeysColumn:
        return double(tally.keys);
    case ServerUsecColumn:
        return tally.serverUsecPerCall < 0 ? unknown : tally.serverUsecPerCall;
    }
    return unknown;
}

QVariant AlgorithmsTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AlgorithmTally& tally = m_tallies.at(index.row());
    const int column = index.column();
    const double number = value(tally, column);
    switch (role) {
    case ValueRole:
        return column == IdColumn ? QVariant(tally.id) : QVariant(number);
    case Qt::TextAlignmentRole:
        return column == IdColumn ? QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter)
                                  : QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column == IdColumn) {
            const LimiterRef limiter = LimiterCatalog::find(tally.id);
            return limiter ? limiter->displayName() + QStringLiteral(": ") + limiter->displaySummary() : QString();
        }
        if (column == BytesPerUserColumn && tally.memoryBytes >= 0)
            return tr("%L1 bytes in %n key(s) in all", nullptr, tally.keys).arg(tally.memoryBytes);
        if (column == ServerUsecColumn && tally.serverCalls > 0)
            return tr("over %L1 EVALSHA calls").arg(tally.serverCalls);
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (column) {
    case IdColumn:
        return tally.id;
    case AdmittedColumn:
    case OverLimitColumn:
    case UnderLimitColumn:
    case KeysColumn:
        return QLocale().toString(qint64(number));
    case BytesPerUserColumn:
        return std::isfinite(number) ? QLocale().toString(number, 'f', 0) : QStringLiteral("?");
    case ServerUsecColumn:
        return std::isfinite(number) ? QLocale().toString(number, 'f', 2) : QStringLiteral("?");
    }
    return {};
}

QVariant AlgorithmsTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IdColumn:
            return tr("algorithm");
        case AdmittedColumn:
            return tr("admitted");
        case OverLimitColumn:
            return tr("over limit");
        case UnderLimitColumn:
            return tr("under limit");
        case BytesPerUserColumn:
            return tr("bytes / user");
        case KeysColumn:
            return tr("keys");
        case ServerUsecColumn:
            return tr("µs / call");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case IdColumn:
            return tr("The limiter's catalog id (lua/<id>.lua).");
        case AdmittedColumn:
            return tr("Requests the algorithm admitted.");
        case OverLimitColumn:
            return tr("Admitted although the exact sliding log refuses them: more than the limit got through.");
        case UnderLimitColumn:
            return tr("Refused although the exact sliding log admits them: a request within the limit was "
                      "turned away.");
        case BytesPerUserColumn:
            return tr("MEMORY USAGE of one user's keys at the end of the run.");
        case KeysColumn:
            return tr("The keys that held data at the end, for all users.");
        case ServerUsecColumn:
            return tr("Server time per EVALSHA call, from INFO commandstats before and after the run.");
        }
    }
    return {};
}
