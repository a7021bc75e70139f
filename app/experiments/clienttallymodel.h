#pragma once

#include "clienttally.h"

#include <QAbstractTableModel>
#include <QVector>

// What each simulated app server of a burst sent and what became of it, one row per server.
class ClientTallyModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns {
        ServerColumn,
        SentColumn,
        StoredColumn,
        OverwrittenColumn,
        OverwroteOtherColumn,
        OverLimitColumn,
        NUM_COLUMNS
    };
    enum Roles {
        ValueRole = Qt::UserRole, // the count behind the text
    };

    explicit ClientTallyModel(QObject* parent = nullptr);

    void setTallies(const QVector<ClientTally>& tallies);
    const QVector<ClientTally>& tallies() const { return m_tallies; }
    // Sum of a column over the servers.
    qint64 total(int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    static qint64 count(const ClientTally& tally, int column);

    QVector<ClientTally> m_tallies;
};
