#pragma once

#include "burst/clienttally.h"
#include "rowtablemodel.h"

// What each simulated app server of a burst sent and what became of it, one row per server. The
// value behind a cell is its count (the server's number for the server column).
class ClientTallyModel : public RowTableModel<ClientTally>
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

    explicit ClientTallyModel(QObject* parent = nullptr);

    void setTallies(const QVector<ClientTally>& tallies) { setRows(tallies); }
    const QVector<ClientTally>& tallies() const { return rows(); }
    // Sum of a column over the servers.
    qint64 total(int column) const;
};
