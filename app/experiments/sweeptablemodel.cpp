#include "sweeptablemodel.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace {
QString percentText(double percent)
{
    return std::isfinite(percent) ? QLocale().toString(percent, 'f', 1) : QStringLiteral("?");
}
} // namespace

SweepTableModel::SweepTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void SweepTableModel::clear()
{
    setPoints({});
}

void SweepTableModel::setPoints(const QVector<SweepPoint>& points)
{
    beginResetModel();
    m_points = points;
    endResetModel();
}

void SweepTableModel::addPoint(const SweepPoint& point)
{
    beginInsertRows({}, int(m_points.size()), int(m_points.size()));
    m_points << point;
    endInsertRows();
}

int SweepTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_points.size());
}

int SweepTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

double SweepTableModel::value(const SweepPoint& point, int column)
{
    switch (column) {
    case RateColumn:
        return point.ratePerMs;
    case SentColumn:
        return double(point.sent);
    case StoredColumn:
        return double(point.stored);
    case StoredPercentColumn:
        return 100.0 * point.storedFraction();
    case TheoryPercentColumn:
        return 100.0 * point.theoryFraction;
    case DifferenceColumn:
        return point.differencePoints();
    case OverLimitPercentColumn:
        // Without a limit nothing is "beyond" it: unknown, not zero.
        return point.limit > 0 ? 100.0 * point.admittedOverLimitFraction() : std::numeric_limits<double>::quiet_NaN();
    }
    return std::numeric_limits<double>::quiet_NaN();
}

QVariant SweepTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SweepPoint& point = m_points.at(index.row());
    const int column = index.column();
    const double number = value(point, column);
    switch (role) {
    case ValueRole:
        return number;
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column == OverLimitPercentColumn && point.limit > 0)
            return tr("%L1 of %L2 requests were admitted while more than %L3 were really in the window.")
                .arg(point.admittedOverLimit)
                .arg(point.sent)
                .arg(point.limit);
        if (column == StoredColumn)
            return tr("%L1 requests only overwrote an existing member.").arg(point.overwritten);
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (column) {
    case RateColumn:
        return QLocale().toString(point.ratePerMs, 'g', 4);
    case SentColumn:
    case StoredColumn:
        return QLocale().toString(qint64(number));
    case StoredPercentColumn:
    case TheoryPercentColumn:
        return percentText(number);
    case DifferenceColumn:
        if (!std::isfinite(number))
            return QStringLiteral("?");
        // A difference that rounds to zero has no sign.
        return std::round(number * 10) == 0
            ? QLocale().toString(0.0, 'f', 1)
            : (number > 0 ? QStringLiteral("+") : QString()) + QLocale().toString(number, 'f', 1);
    case OverLimitPercentColumn:
        return point.limit > 0 ? percentText(number) : QStringLiteral("–");
    }
    return {};
}

QVariant SweepTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= NUM_COLUMNS)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case RateColumn:
            return tr("rate /ms");
        case SentColumn:
            return tr("sent");
        case StoredColumn:
            return tr("stored");
        case StoredPercentColumn:
            return tr("stored %");
        case TheoryPercentColumn:
            return tr("theory %");
        case DifferenceColumn:
            return tr("diff. pp");
        case OverLimitPercentColumn:
            return tr("over limit %");
        }
    } else if (role == Qt::ToolTipRole) {
        switch (section) {
        case RateColumn:
            return tr("Arrivals per millisecond asked for.");
        case SentColumn:
            return tr("Requests finished (answered or failed).");
        case StoredColumn:
            return tr("Requests that got a ZSET member of their own (ZADD replied 1).");
        case StoredPercentColumn:
            return tr("Stored as a share of the requests sent.");
        case TheoryPercentColumn:
            return tr("What member = now allows at this rate: (1 − e^−L) / L for Poisson arrivals, d for one "
                      "arrival every d ms; 100 % for unique members.");
        case DifferenceColumn:
            return tr("Measured minus theory, in percentage points.");
        case OverLimitPercentColumn:
            return tr("Requests admitted while the true number in the window was above the limit.");
        }
    }
    return {};
}
