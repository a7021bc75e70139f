#pragma once

#include "sweeppoint.h"

#include <QAbstractTableModel>
#include <QVector>

// The points of a rate sweep as a table, one row per rate: what was sent, what was stored, how
// that compares with theory, and how much got through beyond the limit.
class SweepTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns {
        RateColumn,
        SentColumn,
        StoredColumn,
        StoredPercentColumn,
        TheoryPercentColumn,
        DifferenceColumn,
        OverLimitPercentColumn,
        NUM_COLUMNS
    };
    enum Roles {
        ValueRole = Qt::UserRole, // the number behind the text (NaN when unknown), for sorting and checks
    };

    explicit SweepTableModel(QObject* parent = nullptr);

    void clear();
    void setPoints(const QVector<SweepPoint>& points);
    void addPoint(const SweepPoint& point);
    const QVector<SweepPoint>& points() const { return m_points; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The number a cell shows: percentages in percent, the difference in percentage points.
    static double value(const SweepPoint& point, int column);

private:
    QVector<SweepPoint> m_points;
};
