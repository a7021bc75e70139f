#pragma once

#include "algorithmcomparison.h"

#include <QAbstractTableModel>
#include <QVector>

// The algorithms of a comparison as a table, one row per algorithm: how many it admitted, how
// often it decided otherwise than the exact sliding log, and what it costs in memory and in
// server time.
class AlgorithmsTableModel : public QAbstractTableModel
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
    enum Roles {
        ValueRole = Qt::UserRole, // the number behind the text (NaN when unknown; the id for IdColumn)
    };

    explicit AlgorithmsTableModel(QObject* parent = nullptr);

    void clear();
    void setTallies(const QVector<AlgorithmTally>& tallies);
    void addTally(const AlgorithmTally& tally);
    const QVector<AlgorithmTally>& tallies() const { return m_tallies; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // The number a numeric cell shows (NaN when unknown).
    static double value(const AlgorithmTally& tally, int column);

private:
    QVector<AlgorithmTally> m_tallies;
};
