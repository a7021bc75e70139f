#pragma once

#include "burst/sweeppoint.h"
#include "rowtablemodel.h"

// The points of a rate sweep as a table, one row per rate: what was sent, what was stored, how
// that compares with theory, and how much got through beyond the limit. The value behind a cell
// is its number (NaN when unknown): percentages in percent, the difference in percentage points.
class SweepTableModel : public RowTableModel<SweepPoint>
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

    explicit SweepTableModel(QObject* parent = nullptr);

    void setPoints(const QVector<SweepPoint>& points) { setRows(points); }
    void addPoint(const SweepPoint& point) { addRow(point); }
    const QVector<SweepPoint>& points() const { return rows(); }
};
