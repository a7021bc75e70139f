// The parts the study windows share: the row table model (columns give the headers and the
// formatted cells; the three windows' models are columns over it) and the result-file writer
// (CSV and JSON that read back, refused paths with a message that says what to do).
#include "results/dataexport.h"
#include "studies/algorithmstablemodel.h"
#include "studies/clienttallymodel.h"
#include "studies/resultfile.h"
#include "studies/rowtablemodel.h"
#include "studies/sweeptablemodel.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

namespace {
struct Fruit
{
    QString name;
    qint64 count = 0;
    double weight = 0; // NaN: not weighed
};

// What a language change would change.
QString& headerWord()
{
    static QString word = QStringLiteral("fruit");
    return word;
}

RowTableModel<Fruit>::Column nameColumn()
{
    return {[] { return headerWord(); },
            [] { return QStringLiteral("What it is."); },
            [](const Fruit& fruit) { return fruit.name; },
            [](const Fruit& fruit) { return QVariant(fruit.name); },
            [](const Fruit& fruit) { return fruit.count > 2 ? QStringLiteral("plenty") : QString(); },
            Qt::AlignLeft | Qt::AlignVCenter};
}

QVector<RowTableModel<Fruit>::Column> fruitColumns()
{
    return {
        nameColumn(),
        {[] { return QStringLiteral("count"); }, [] { return QStringLiteral("How many."); },
         [](const Fruit& fruit) { return QLocale::c().toString(fruit.count); },
         [](const Fruit& fruit) { return QVariant(fruit.count); }},
        {[] { return QStringLiteral("kg"); }, nullptr,
         [](const Fruit& fruit) {
             return std::isfinite(fruit.weight) ? QString::number(fruit.weight, 'f', 1) : QStringLiteral("?");
         },
         [](const Fruit& fruit) { return QVariant(fruit.weight); }},
    };
}

constexpr double unknown = std::numeric_limits<double>::quiet_NaN();

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}
} // namespace

class TestStudyParts : public QObject
{
    Q_OBJECT
private slots:
    void rowModelGivesHeadersAndCells();
    void rowModelAddsAndResetsRows();
    void rowModelHeadersFollowTheLanguage();
    void windowModelsShowUnknownsAsUnknown();
    void clientTallyTotals();
    void csvReadsBack();
    void writesCsvOrJsonByTheName_data();
    void writesCsvOrJsonByTheName();
    void refusesAPathItCannotWrite_data();
    void refusesAPathItCannotWrite();

private:
    QTemporaryDir m_dir;
};

void TestStudyParts::rowModelGivesHeadersAndCells()
{
    RowTableModel<Fruit> model(fruitColumns());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRows({{QStringLiteral("apple"), 3, 0.5}, {QStringLiteral("fig"), 1, unknown}});
    QCOMPARE(model.columnCount(), 3);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("fruit"));
    QCOMPARE(model.headerData(1, Qt::Horizontal, Qt::ToolTipRole).toString(), QStringLiteral("How many."));
    QVERIFY(!model.headerData(2, Qt::Horizontal, Qt::ToolTipRole).isValid()); // none given
    QCOMPARE(model.headerData(2, Qt::Horizontal).toString(), QStringLiteral("kg"));
    QCOMPARE(model.headerData(1, Qt::Vertical).toInt(), 2); // rows are numbered as Qt does

    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("apple"));
    QCOMPARE(model.index(0, 1).data().toString(), QStringLiteral("3"));
    QCOMPARE(model.index(0, 1).data(RowTableModel<Fruit>::ValueRole).toLongLong(), 3);
    QCOMPARE(model.index(0, 2).data().toString(), QStringLiteral("0.5"));
    QCOMPARE(model.index(1, 2).data().toString(), QStringLiteral("?"));
    QVERIFY(std::isnan(model.index(1, 2).data(RowTableModel<Fruit>::ValueRole).toDouble()));
    QCOMPARE(model.index(0, 0).data(Qt::ToolTipRole).toString(), QStringLiteral("plenty"));
    QVERIFY(!model.index(1, 0).data(Qt::ToolTipRole).isValid()); // an empty tip is no tip
    QVERIFY(!model.index(0, 1).data(Qt::ToolTipRole).isValid()); // a column without tips
    QCOMPARE(model.index(0, 0).data(Qt::TextAlignmentRole).value<Qt::Alignment>(), Qt::AlignLeft | Qt::AlignVCenter);
    QCOMPARE(model.index(0, 1).data(Qt::TextAlignmentRole).value<Qt::Alignment>(), Qt::AlignRight | Qt::AlignVCenter);
    QVERIFY(!model.index(0, 1).data(Qt::EditRole).isValid());
    QVERIFY(!model.index(2, 0).isValid());
}

void TestStudyParts::rowModelAddsAndResetsRows()
{
    RowTableModel<Fruit> model(fruitColumns());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.addRow({QStringLiteral("pear"), 2, 0.2});
    model.addRow({QStringLiteral("plum"), 5, 0.1});
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(inserted.last().at(1).toInt(), 1); // appended at the end
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rows().last().name, QStringLiteral("plum"));
    model.clear();
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.rows().isEmpty());
}

void TestStudyParts::rowModelHeadersFollowTheLanguage()
{
    RowTableModel<Fruit> model(fruitColumns());
    QSignalSpy changed(&model, &QAbstractItemModel::headerDataChanged);
    headerWord() = QStringLiteral("trái cây");
    model.retranslateHeaders();
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.first().at(0).value<Qt::Orientation>(), Qt::Horizontal);
    QCOMPARE(changed.first().at(1).toInt(), 0);
    QCOMPARE(changed.first().at(2).toInt(), 2);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("trái cây"));
    headerWord() = QStringLiteral("fruit");
}

void TestStudyParts::windowModelsShowUnknownsAsUnknown()
{
    AlgorithmsTableModel algorithms;
    QAbstractItemModelTester algorithmsTester(&algorithms, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(algorithms.columnCount(), int(AlgorithmsTableModel::NUM_COLUMNS));
    AlgorithmTally tally;
    tally.id = QStringLiteral("sliding-log");
    tally.admitted = 1234;
    tally.memoryBytes = -1;
    tally.memoryBytesPerKey = -1;
    tally.serverUsecPerCall = 1.5;
    tally.serverCalls = 10;
    algorithms.addTally(tally);
    const auto cell = [&](int column, int role = Qt::DisplayRole) { return algorithms.index(0, column).data(role); };
    QCOMPARE(cell(AlgorithmsTableModel::IdColumn, AlgorithmsTableModel::ValueRole).toString(), tally.id);
    QCOMPARE(cell(AlgorithmsTableModel::AdmittedColumn).toString(), QLocale().toString(1234));
    QCOMPARE(cell(AlgorithmsTableModel::BytesPerUserColumn).toString(), QStringLiteral("?"));
    QVERIFY(std::isnan(cell(AlgorithmsTableModel::BytesPerUserColumn, AlgorithmsTableModel::ValueRole).toDouble()));
    QVERIFY(!cell(AlgorithmsTableModel::BytesPerUserColumn, Qt::ToolTipRole).isValid()); // no bytes to tell
    QCOMPARE(cell(AlgorithmsTableModel::ServerUsecColumn).toString(), QLocale().toString(1.5, 'f', 2));
    QVERIFY(cell(AlgorithmsTableModel::ServerUsecColumn, Qt::ToolTipRole).toString().contains(QLatin1String("10")));
    QCOMPARE(algorithms.headerData(AlgorithmsTableModel::IdColumn, Qt::Horizontal).toString(),
             QStringLiteral("algorithm"));

    SweepTableModel sweep;
    QAbstractItemModelTester sweepTester(&sweep, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(sweep.columnCount(), int(SweepTableModel::NUM_COLUMNS));
    SweepPoint point;
    point.ratePerMs = 2;
    point.sent = 1000;
    point.stored = 432;
    point.theoryFraction = 0.4322; // measured minus theory rounds to zero
    point.limit = 0; // no limit: nothing is beyond it
    sweep.addPoint(point);
    QCOMPARE(sweep.index(0, SweepTableModel::DifferenceColumn).data().toString(), QLocale().toString(0.0, 'f', 1));
    QCOMPARE(sweep.index(0, SweepTableModel::OverLimitPercentColumn).data().toString(), QStringLiteral("–"));
    QVERIFY(std::isnan(
        sweep.index(0, SweepTableModel::OverLimitPercentColumn).data(SweepTableModel::ValueRole).toDouble()));
    QCOMPARE(sweep.index(0, SweepTableModel::StoredPercentColumn).data(SweepTableModel::ValueRole).toDouble(), 43.2);
    QCOMPARE(sweep.headerData(SweepTableModel::RateColumn, Qt::Horizontal).toString(), QStringLiteral("rate /ms"));
}

void TestStudyParts::clientTallyTotals()
{
    ClientTallyModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ClientTally first;
    first.client = 0;
    first.profile = QStringLiteral("rate=2");
    first.sent = 10;
    first.overwroteOtherClient = 3;
    ClientTally second = first;
    second.client = 1;
    second.profile = QStringLiteral("rate=2,offset=40");
    second.overwroteOtherClient = 4;
    model.setTallies({first, second});
    QCOMPARE(model.total(ClientTallyModel::SentColumn), 20);
    QCOMPARE(model.total(ClientTallyModel::OverwroteOtherColumn), 7);
    QCOMPARE(model.index(1, ClientTallyModel::ServerColumn).data().toString(), QStringLiteral("2: rate=2,offset=40"));
    QCOMPARE(model.index(1, ClientTallyModel::ServerColumn).data(ClientTallyModel::ValueRole).toLongLong(), 2);
}

void TestStudyParts::csvReadsBack()
{
    using Column = ResultFile::CsvColumn<Fruit>;
    const QVector<Column> columns {
        {"name", [](const Fruit& fruit) { return ResultFile::text(fruit.name); }},
        {"count", [](const Fruit& fruit) { return QByteArray::number(fruit.count); }},
        {"weight", [](const Fruit& fruit) { return ResultFile::number(fruit.weight); }},
    };
    const QByteArray text = ResultFile::csv(
        columns,
        QVector<Fruit> {{QStringLiteral("apple, \"red\""), 3, 0.1 + 0.2}, {QStringLiteral("fig"), 1, unknown}});
    QVERIFY(text.endsWith("\r\n"));
    QCOMPARE(text.count("\r\n"), 3);
    QList<QStringList> rows;
    QVERIFY(DataExport::parseCsv(text, &rows));
    QCOMPARE(rows.size(), 3);
    QCOMPARE(rows[0], (QStringList {QStringLiteral("name"), QStringLiteral("count"), QStringLiteral("weight")}));
    QCOMPARE(rows[1][0], QStringLiteral("apple, \"red\"")); // quoted where CSV needs it
    QCOMPARE(rows[1][2].toDouble(), 0.3); // full precision, to 12 digits
    QCOMPARE(rows[2][2], QString()); // unknown: an empty field, not "nan"
}

void TestStudyParts::writesCsvOrJsonByTheName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("json");
    QTest::newRow("csv") << QStringLiteral("table.csv") << false;
    QTest::newRow("json") << QStringLiteral("table.json") << true;
    QTest::newRow("JSON in capitals") << QStringLiteral("TABLE.JSON") << true;
    QTest::newRow("any other name is CSV") << QStringLiteral("table.txt") << false;
}

void TestStudyParts::writesCsvOrJsonByTheName()
{
    QFETCH(QString, name);
    QFETCH(bool, json);
    int jsonMade = 0;
    int csvMade = 0;
    QJsonObject document;
    document[QStringLiteral("schema")] = QStringLiteral("zsetlab.test/1");
    document[QStringLiteral("rows")] = QJsonArray {1, 2, 3};
    const QString path = m_dir.filePath(name);
    QString error;
    QVERIFY2(ResultFile::write(
                 path,
                 [&] {
                     ++jsonMade;
                     return document;
                 },
                 [&] {
                     ++csvMade;
                     return QByteArray("a,b\r\n1,2\r\n");
                 },
                 &error),
             qPrintable(error));
    QCOMPARE(jsonMade, json ? 1 : 0); // only the document asked for is made
    QCOMPARE(csvMade, json ? 0 : 1);
    const QByteArray bytes = readAll(path);
    if (json) {
        QJsonParseError parse;
        const QJsonDocument read = QJsonDocument::fromJson(bytes, &parse);
        QVERIFY2(parse.error == QJsonParseError::NoError, qPrintable(parse.errorString()));
        QCOMPARE(read.object(), document);
    } else {
        QList<QStringList> rows;
        QVERIFY(DataExport::parseCsv(bytes, &rows));
        QCOMPARE(rows,
                 (QList<QStringList> {{QStringLiteral("a"), QStringLiteral("b")},
                                      {QStringLiteral("1"), QStringLiteral("2")}}));
    }
    // Written again over the file it made: a regular file is replaced whole.
    QVERIFY2(ResultFile::write(
                 path, [] { return QJsonObject(); }, [] { return QByteArray("c\r\n"); }, &error),
             qPrintable(error));
    QCOMPARE(readAll(path), json ? QJsonDocument(QJsonObject()).toJson(QJsonDocument::Indented) : QByteArray("c\r\n"));
}

void TestStudyParts::refusesAPathItCannotWrite_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("message");
    QTest::newRow("a folder") << m_dir.path() << QStringLiteral("is a folder: give the name of a file in it");
    QTest::newRow("in a folder that does not exist")
        << m_dir.filePath(QStringLiteral("missing/table.csv")) << QStringLiteral("does not exist: create it first");
    QTest::newRow("no name") << QString() << QStringLiteral("Give the name of a file to write");
}

void TestStudyParts::refusesAPathItCannotWrite()
{
    QFETCH(QString, path);
    QFETCH(QString, message);
    bool made = false;
    QString error;
    QVERIFY(!ResultFile::write(
        path,
        [&] {
            made = true;
            return QJsonObject();
        },
        [&] {
            made = true;
            return QByteArray("a\r\n");
        },
        &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY(!made); // refused before any document was made
    QVERIFY(QFileInfo(m_dir.path()).isDir()); // the folder is still a folder
    QVERIFY(!QFileInfo::exists(m_dir.filePath(QStringLiteral("missing"))));
}

QTEST_MAIN(TestStudyParts)
#include "tst_studyparts.moc"
