#include "chartandtable.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMainWindow>
#include <QMessageBox>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
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
    table->setTabKeyNavigation(false); // one Tab stop: the arrows move between cells
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

void saveTable(QMainWindow* window, bool empty, const SaveTexts& texts,
               const std::function<bool(const QString& path, QString* error)>& write)
{
    if (empty) {
        QMessageBox::information(window, texts.title, texts.empty);
        return;
    }
    const QString path = QFileDialog::getSaveFileName(window, texts.title, texts.defaultName, texts.filters);
    if (path.isEmpty())
        return;
    QString error;
    if (!write(path, &error))
        QMessageBox::warning(window, texts.title, error);
    else
        window->statusBar()->showMessage(texts.saved.arg(path), 5000);
}
} // namespace ChartAndTable
