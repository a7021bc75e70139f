#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QVariant>
#include <QVector>

#include <functional>
#include <utility>

// A table of rows of one type, one column per RowTableModel::Column: what the column's header
// says, and how a row shows in it (its text, the value behind the text, a tip). The study
// windows' tables (the algorithms, the rates of a sweep, the simulated servers) are such columns
// over the rows their work measured; the texts are made when asked, so they follow the language.
template<typename Row>
class RowTableModel : public QAbstractTableModel
{
public:
    enum Roles {
        ValueRole = Qt::UserRole, // the value behind the text (a number, NaN when unknown), for sorting and checks
    };
    struct Column
    {
        Column(std::function<QString()> header, std::function<QString()> headerToolTip,
               std::function<QString(const Row&)> text, std::function<QVariant(const Row&)> value,
               std::function<QString(const Row&)> toolTip = nullptr,
               Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter)
            : header(std::move(header))
            , headerToolTip(std::move(headerToolTip))
            , text(std::move(text))
            , value(std::move(value))
            , toolTip(std::move(toolTip))
            , alignment(alignment)
        { }
        std::function<QString()> header;
        std::function<QString()> headerToolTip;
        std::function<QString(const Row&)> text; // Qt::DisplayRole
        std::function<QVariant(const Row&)> value; // ValueRole
        std::function<QString(const Row&)> toolTip; // none when empty
        Qt::Alignment alignment;
    };

    explicit RowTableModel(QVector<Column> columns, QObject* parent = nullptr)
        : QAbstractTableModel(parent)
        , m_columns(std::move(columns))
    { }

    void clear() { setRows({}); }
    void setRows(const QVector<Row>& rows)
    {
        beginResetModel();
        m_rows = rows;
        endResetModel();
    }
    void addRow(const Row& row)
    {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
        m_rows << row;
        endInsertRows();
    }
    const QVector<Row>& rows() const { return m_rows; }

    // The headers in the language now chosen, for the views that show them.
    void retranslateHeaders()
    {
        if (!m_columns.isEmpty())
            emit headerDataChanged(Qt::Horizontal, 0, int(m_columns.size()) - 1);
    }

    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : int(m_rows.size()); }
    int columnCount(const QModelIndex& parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_columns.size());
    }

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override
    {
        if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
            return {};
        const Column& column = m_columns.at(index.column());
        const Row& row = m_rows.at(index.row());
        switch (role) {
        case Qt::DisplayRole:
            return column.text ? QVariant(column.text(row)) : QVariant();
        case ValueRole:
            return column.value ? column.value(row) : QVariant();
        case Qt::TextAlignmentRole:
            return QVariant::fromValue(column.alignment);
        case Qt::ToolTipRole:
            if (column.toolTip) {
                const QString tip = column.toolTip(row);
                if (!tip.isEmpty())
                    return tip;
            }
            return {};
        default:
            return {};
        }
    }

    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override
    {
        if (orientation != Qt::Horizontal || section < 0 || section >= m_columns.size())
            return QAbstractTableModel::headerData(section, orientation, role);
        const Column& column = m_columns.at(section);
        if (role == Qt::DisplayRole && column.header)
            return column.header();
        if (role == Qt::ToolTipRole && column.headerToolTip)
            return column.headerToolTip();
        return {};
    }

private:
    QVector<Column> m_columns;
    QVector<Row> m_rows;
};
