#pragma once

#include <QList>
#include <QString>

#include <functional>

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
// Asks where to save the table (CSV or JSON, by the file name), writes it with `write` and says so
// in the window's status bar, or why not. The texts are the window's own, translated there.
struct SaveTexts
{
    QString title; // "Export Table"
    QString empty; // said instead when there is nothing to save
    QString defaultName; // "sweep.csv"
    QString filters; // "CSV tables (*.csv);;JSON documents (*.json)"
    QString saved; // "Saved %1"
};
void saveTable(QMainWindow* window, bool empty, const SaveTexts& texts,
               const std::function<bool(const QString& path, QString* error)>& write);
} // namespace ChartAndTable
