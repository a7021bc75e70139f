#include "watchkeymodel.h"

#include "doctor/knownlimiters.h"

#include <QLocale>

WatchKeyModel::WatchKeyModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void WatchKeyModel::clear()
{
    beginResetModel();
    m_keys.clear();
    endResetModel();
}

void WatchKeyModel::nameScripts(const QVector<WatchedKey>& keys, const QHash<QByteArray, QByteArray>& scripts)
{
    for (const WatchedKey& key : keys) {
        for (const WatchSource& source : key.sources) {
            if (source.kind != WatchSource::Kind::Script)
                continue;
            const QByteArray sha = source.id.toLower();
            const auto named = m_scriptNames.constFind(sha);
            const bool hasBody = scripts.contains(sha);
            if (named != m_scriptNames.cend() && (named->fromBody || !hasBody))
                continue;
            m_scriptNames.insert(sha, {KnownLimiters::nameOf(sha, scripts.value(sha)), hasBody});
        }
    }
}

void WatchKeyModel::setKeys(const QVector<WatchedKey>& keys, const QHash<QByteArray, QByteArray>& scripts)
{
    nameScripts(keys, scripts);
    bool sameRows = keys.size() == m_keys.size();
    for (qsizetype i = 0; sameRows && i < keys.size(); ++i)
        sameRows = keys.at(i).db == m_keys.at(i).db && keys.at(i).key == m_keys.at(i).key;
    if (!sameRows) {
        // New keys come at the end of a snapshot: rows inserted keep the selection in place.
        bool prefix = keys.size() > m_keys.size();
        for (qsizetype i = 0; prefix && i < m_keys.size(); ++i)
            prefix = keys.at(i).db == m_keys.at(i).db && keys.at(i).key == m_keys.at(i).key;
        if (!prefix) {
            beginResetModel();
            m_keys = keys;
            endResetModel();
            return;
        }
        beginInsertRows({}, int(m_keys.size()), int(keys.size()) - 1);
        m_keys = keys;
        endInsertRows();
        if (!m_keys.isEmpty())
            emit dataChanged(index(0, 0), index(int(m_keys.size()) - 1, NUM_COLUMNS - 1));
        return;
    }
    m_keys = keys;
    if (!m_keys.isEmpty())
        emit dataChanged(index(0, 0), index(int(m_keys.size()) - 1, NUM_COLUMNS - 1));
}

int WatchKeyModel::rowOf(int db, const QByteArray& key) const
{
    for (qsizetype i = 0; i < m_keys.size(); ++i) {
        if (m_keys.at(i).db == db && m_keys.at(i).key == key)
            return int(i);
    }
    return -1;
}

int WatchKeyModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_keys.size());
}

int WatchKeyModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : NUM_COLUMNS;
}

QString WatchKeyModel::sourcesText(const WatchedKey& key) const
{
    QStringList parts;
    const QLocale locale;
    for (const WatchSource& source : key.sources) {
        QString who = source.kind == WatchSource::Kind::Script
            ? tr("script %1…").arg(QString::fromLatin1(source.id.left(8)))
            : QString::fromUtf8(source.id);
        if (const QString known = m_scriptNames.value(source.id.toLower()).name;
            source.kind == WatchSource::Kind::Script && !known.isEmpty())
            who = tr("%1, %2").arg(who, known);
        parts << tr("%1 (%2)").arg(who, locale.toString(source.requests));
    }
    if (key.otherSources > 0)
        parts << tr("%n more request(s)", nullptr, int(std::min<qint64>(key.otherSources, 1'000'000'000)));
    return parts.join(QStringLiteral(", "));
}

QVariant WatchKeyModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const WatchedKey& key = m_keys.at(index.row());
    if (role == Qt::TextAlignmentRole)
        return index.column() == KeyColumn || index.column() == SourcesColumn
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    const qint64 trueCount = key.stateKnown ? key.trueCount : -1;
    if (role == ValueRole) {
        switch (index.column()) {
        case RequestsColumn:
            return key.requests;
        case OverwritesColumn:
            return key.overwrites;
        case SizeColumn:
            return key.size;
        case TrueCountColumn:
            return trueCount;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole && index.column() == KeyColumn) // the cell may be elided
        return QString(QString::fromUtf8(key.key) + QStringLiteral("\n\n") + key.verdict());
    if (role == Qt::ToolTipRole && index.column() == SourcesColumn)
        return sourcesText(key);
    if (role != Qt::DisplayRole)
        return {};
    const QLocale locale;
    switch (index.column()) {
    case KeyColumn:
        return key.db == 0 ? QString::fromUtf8(key.key) : tr("%1 (db %2)").arg(QString::fromUtf8(key.key)).arg(key.db);
    case RequestsColumn:
        return locale.toString(key.requests);
    case OverwritesColumn:
        return locale.toString(key.overwrites);
    case SizeColumn:
        return key.stateKnown ? locale.toString(key.size) : tr("%1 + ?").arg(locale.toString(key.size));
    case TrueCountColumn:
        return trueCount < 0 ? tr("unknown") : locale.toString(trueCount);
    case SourcesColumn:
        return sourcesText(key);
    default:
        return {};
    }
}

QVariant WatchKeyModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case KeyColumn:
        return tr("Key");
    case RequestsColumn:
        return tr("Requests");
    case OverwritesColumn:
        return tr("Overwrote");
    case SizeColumn:
        return tr("Counted");
    case TrueCountColumn:
        return tr("True count");
    case SourcesColumn:
        return tr("From");
    default:
        return {};
    }
}
