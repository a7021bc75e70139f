#pragma once

#include "watch/watchreport.h"

#include <QAbstractTableModel>
#include <QHash>
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
    // scripts: the bodies the watch saw, by SHA1, to name a public library's limiter by.
    void setKeys(const QVector<WatchedKey>& keys, const QHash<QByteArray, QByteArray>& scripts = {});
    const QVector<WatchedKey>& keys() const { return m_keys; }
    int rowOf(int db, const QByteArray& key) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "script 15be1f… (9,870), 127.0.0.1:50412 (12)"; "script 15be1f…, Redisson RRateLimiter (9,870)"
    QString sourcesText(const WatchedKey& key) const;

private:
    struct ScriptName
    {
        QString name; // the public library it is; empty when none
        bool fromBody = false; // its body was read: a later snapshot cannot say more
    };
    void nameScripts(const QVector<WatchedKey>& keys, const QHash<QByteArray, QByteArray>& scripts);

    QVector<WatchedKey> m_keys;
    QHash<QByteArray, ScriptName> m_scriptNames; // by SHA1 in lower case
};
