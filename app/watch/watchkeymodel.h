#pragma once

#include "watchreport.h"

#include <QAbstractTableModel>
#include <QVector>

// The keys a watch follows, one row each: requests seen, overwrites, the members the limiter
// counts beside the true count, and where the calls came from.
class WatchKeyModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Columns {
        KeyColumn,
        RequestsColumn,
        OverwritesColumn,
        SizeColumn,
        TrueCountColumn,
        SourcesColumn,
        NUM_COLUMNS
    };
    enum Roles {
        ValueRole = Qt::UserRole, // the number behind the text (-1 unknown), for sorting and checks
    };

    explicit WatchKeyModel(QObject* parent = nullptr);

    void clear();
    // The figures of a snapshot: rows keep their place while the same keys are watched.
    void setKeys(const QVector<WatchedKey>& keys);
    const QVector<WatchedKey>& keys() const { return m_keys; }
    int rowOf(int db, const QByteArray& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "script 15be1f… (9,870), 127.0.0.1:50412 (12)"
    static QString sourcesText(const WatchedKey& key);

private:
    QVector<WatchedKey> m_keys;
};
