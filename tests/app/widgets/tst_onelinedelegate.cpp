// The ZSET table's cells are drawn by OneLineDelegate, which lays a text out once instead of
// three times: it must draw what QStyledItemDelegate draws (alignment, bold, selection, the
// written row's background, elision), or the table would look different with it.
#include "widgets/onelinedelegate.h"

#include <QStandardItemModel>
#include <QTableView>
#include <QtTest>

namespace {
QStandardItemModel* tableOfMembers(QObject* parent)
{
    auto* model = new QStandardItemModel(0, 4, parent);
    const QStringList members {QStringLiteral("1796613413256"), QStringLiteral("1796613413257"),
                               QStringLiteral("a member far too long for its column, cut short"),
                               QStringLiteral("ünïcode ✓ member")};
    for (int row = 0; row < members.size(); ++row) {
        QList<QStandardItem*> items {new QStandardItem(QString::number(row)), new QStandardItem(members[row]),
                                     new QStandardItem(QStringLiteral("1796613413256.5")),
                                     new QStandardItem(QString::number(row * 7))};
        for (QStandardItem* item : items)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        items[1]->setTextAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        if (row == 1) { // the row the request wrote: bold, on a coloured background
            for (QStandardItem* item : items) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
                item->setBackground(QColor(230, 159, 0, 90));
            }
        }
        model->appendRow(items);
    }
    return model;
}

QImage drawnWith(QAbstractItemDelegate* delegate, QStandardItemModel* model, int selectedRow)
{
    QTableView view;
    view.setModel(model);
    view.setItemDelegate(delegate);
    view.setAlternatingRowColors(true);
    view.setWordWrap(false); // as the ZSET table: a cut text is elided on its line
    view.resize(420, 160);
    view.setColumnWidth(0, 40);
    view.setColumnWidth(1, 170);
    view.setColumnWidth(2, 130);
    view.setColumnWidth(3, 50);
    if (selectedRow >= 0)
        view.selectRow(selectedRow);
    view.show();
    return view.grab().toImage().convertToFormat(QImage::Format_RGB32);
}

// Per pixel and channel, how far apart two pictures are on average (0-255).
double meanDifference(const QImage& a, const QImage& b)
{
    double sum = 0;
    for (int y = 0; y < a.height(); ++y) {
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y);
            const QRgb q = b.pixel(x, y);
            sum += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q));
        }
    }
    return sum / (3.0 * a.width() * a.height());
}
} // namespace

class TestOneLineDelegate : public QObject
{
    Q_OBJECT
private slots:
    void drawsWhatTheStyledDelegateDraws_data();
    void drawsWhatTheStyledDelegateDraws();
};

void TestOneLineDelegate::drawsWhatTheStyledDelegateDraws_data()
{
    QTest::addColumn<int>("selectedRow");
    QTest::newRow("nothing selected") << -1;
    QTest::newRow("the written row selected") << 1;
    QTest::newRow("the cut row selected") << 2;
}

void TestOneLineDelegate::drawsWhatTheStyledDelegateDraws()
{
    QFETCH(int, selectedRow);
    QStandardItemModel* model = tableOfMembers(this);
    QStyledItemDelegate styled;
    OneLineDelegate oneLine;
    const QImage expected = drawnWith(&styled, model, selectedRow);
    const QImage got = drawnWith(&oneLine, model, selectedRow);
    QCOMPARE(got.size(), expected.size());
    const double difference = meanDifference(got, expected);
    QVERIFY2(difference < 0.5, qPrintable(QString::number(difference)));

    // The same check can tell: the table drawn without its texts is far from either.
    QStandardItemModel* empty = tableOfMembers(this);
    for (int row = 0; row < empty->rowCount(); ++row)
        for (int column = 0; column < empty->columnCount(); ++column)
            empty->item(row, column)->setText(QString());
    const double withoutText = meanDifference(drawnWith(&oneLine, empty, selectedRow), expected);
    QVERIFY2(withoutText > 10 * std::max(difference, 0.05), qPrintable(QString::number(withoutText)));

    // Drawn a second time, from the texts it keeps: the same picture.
    QCOMPARE(drawnWith(&oneLine, model, selectedRow), got);
}

QTEST_MAIN(TestOneLineDelegate)
#include "tst_onelinedelegate.moc"
