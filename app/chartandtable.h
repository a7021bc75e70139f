#pragma once

#include <QList>

class QAbstractItemModel;
class QMainWindow;
class QTableView;
class QWidget;

// The layout the measuring windows share (the collision curve, the algorithm comparison): their
// controls on the left, then the chart, and beside it a table of the same numbers. The chart
// gets the room; the table needs only its columns.
namespace ChartAndTable {
// Makes the window's central widget of the three and returns the table, showing `model`.
QTableView* arrange(QMainWindow* window, QWidget* controls, QWidget* chart, QAbstractItemModel* model,
                    const QList<int>& sizes);
// Wide enough for every column, so that no number is cut, up to `widest` when the chart needs
// the rest.
void fitTable(QTableView* table, int widest);
} // namespace ChartAndTable
