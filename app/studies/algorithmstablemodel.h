#pragma once

#include "algorithms/algorithmcomparison.h"
#include "rowtablemodel.h"

// The algorithms of a comparison as a table, one row per algorithm: how many it admitted, how
// often it decided otherwise than the exact sliding log, and what it costs in memory and in
// server time. The value behind a number is NaN when unknown; the id's is the id.
class AlgorithmsTableModel : public RowTableModel<AlgorithmTally>
{
    Q_OBJECT
public:
    enum Columns {
        IdColumn,
        AdmittedColumn,
        OverLimitColumn,
        UnderLimitColumn,
        BytesPerUserColumn,
        KeysColumn,
        ServerUsecColumn,
        NUM_COLUMNS
    };

    explicit AlgorithmsTableModel(QObject* parent = nullptr);

    void setTallies(const QVector<AlgorithmTally>& tallies) { setRows(tallies); }
    void addTally(const AlgorithmTally& tally) { addRow(tally); }
    const QVector<AlgorithmTally>& tallies() const { return rows(); }
};
