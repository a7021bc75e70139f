#include "chartandtable.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QMainWindow>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>

namespace ChartAndTable {
QTableView* arrange(QMainWindow* window, QWidget* controls, QWidget* chart, QAbstractItemModel* model,
                    const QList<int>& sizes)
{
    auto* central = new QWidget(window);
    auto* layout = new QHBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(controls);
    auto* split = new QSplitter(Qt::Horizontal, central);
    chart->setMinimumSize(420, 320);
    auto* table = new QTableView(split);
    table->setModel(model);
    table->setAlternatingRowColors(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    split->addWidget(chart);
    split->addWidget(table);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setSizes(sizes);
    layout->addWidget(split, 1);
    window->setCentralWidget(central);
    return table;
}

void fitTable(QTableView* table, int widest)
{
    table->resizeColumnsToContents();
    const int width = table->horizontalHeader()->length() + 2 * table->frameWidth()
        + table->verticalScrollBar()->sizeHint().width();
    table->setMinimumWidth(std::min(width, widest));
    table->setMaximumWidth(std::max(width, widest));
}
} // namespace ChartAndTable
