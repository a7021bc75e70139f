// The Algorithms window against a real redis-server: what its table and chart show is what the
// comparison measured and what Redis did; its exports; its failures; its language.
#include "charts/algorithmschart.h"
#include "mainwindow.h"
#include "redis/serversession.h"
#include "studies/algorithmstablemodel.h"
#include "studies/algorithmswindow.h"
#include "testpictures.h"
#include "testredis.h"
#include "testsettings.h"
#include "widgets/language.h"
#include "widgets/pictureexport.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLogValueAxis>
#include <QMenuBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>

namespace {
// Share of pixels that differ from the most common colour: 0 for a blank image.
const AlgorithmTally* tallyOf(const ComparisonResult& result, const QString& id)
{
    for (const AlgorithmTally& tally : result.algorithms) {
        if (tally.id == id)
            return &tally;
    }
    return nullptr;
}
} // namespace

class TestAlgorithmsWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void opensFromTheViewMenu();
    void boundaryBurstsShowWhatRedisDid();
    void exportsPictureAndNumbers();
    void refusesLimitZeroAtOnce();
    void deadServerShowsAClearMessage();
    void followsTheLanguage();

private:
    std::unique_ptr<MainWindow> m_window;
    AlgorithmsWindow* m_algorithms = nullptr;
    QTemporaryDir m_dir;
};

void TestAlgorithmsWindow::initTestCase()
{
    TestSettings::keepToThisRun();
    QVERIFY(Language::set(QStringLiteral("en")));
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1400, 860);
    m_window->show();
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    m_window->connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
}

void TestAlgorithmsWindow::cleanupTestCase()
{
    m_window.reset();
}

void TestAlgorithmsWindow::opensFromTheViewMenu()
{
    auto* view = m_window->menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
    QVERIFY(view);
    QAction* open = nullptr;
    for (QAction* action : view->actions()) {
        if (action->text().remove(QLatin1Char('&')).contains(QLatin1String("Algorithms")))
            open = action;
    }
    QVERIFY(open);
    open->trigger();
    m_algorithms = m_window->findChild<AlgorithmsWindow*>();
    QVERIFY(m_algorithms);
    QVERIFY(m_algorithms->isVisible());
    QVERIFY(m_algorithms->isWindow());
    open->trigger(); // the same window again, not a second one
    QCOMPARE(m_window->findChildren<AlgorithmsWindow*>().size(), 1);
    // The defaults of zsetlab-cli algorithms, every algorithm of the catalog chosen.
    QCOMPARE(m_algorithms->requestsField()->value(), 2000);
    QCOMPARE(m_algorithms->paceField()->text(), QStringLiteral("poisson:2"));
    QCOMPARE(m_algorithms->limitField()->value(), 100);
    for (const QString& id : LimiterCatalog::algorithmIds()) {
        QVERIFY2(m_algorithms->algorithmBox(id), qPrintable(id));
        QVERIFY(m_algorithms->algorithmBox(id)->isChecked());
    }
    QVERIFY(m_algorithms->runButton()->isEnabled());
    QVERIFY(!m_algorithms->stopButton()->isEnabled());
    // The picker offers the three shipped scenarios, each readable.
    QCOMPARE(m_algorithms->scenarioField()->count(), 1 + int(AlgorithmsWindow::scenarioPaths().size()));
    QCOMPARE(AlgorithmsWindow::scenarioPaths().size(), 3);
    for (const QString& path : AlgorithmsWindow::scenarioPaths())
        QVERIFY2(QFile::exists(path), qPrintable(path));
}

// Bursts of the limit at the last millisecond of a window and the first of the next: the fixed
// window admits both (2 x limit), the sliding log one. The table and the chart show exactly the
// comparison's tallies.
void TestAlgorithmsWindow::boundaryBurstsShowWhatRedisDid()
{
    QVERIFY(m_algorithms);
    m_algorithms->resize(1500, 760);
    QAbstractItemModelTester tester(m_algorithms->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(m_algorithms->chooseScenario(0));
    QCOMPARE(m_algorithms->scenarioField()->currentIndex(), 1);
    QCOMPARE(m_algorithms->requestsField()->value(), 200);
    QCOMPARE(m_algorithms->paceField()->text(), QStringLiteral("bursts:100@1"));
    QCOMPARE(m_algorithms->windowField()->value(), 1000);
    QCOMPARE(m_algorithms->limitField()->value(), 100);
    QCOMPARE(m_algorithms->usersField()->value(), 1);

    QSignalSpy finished(m_algorithms->comparison(), &AlgorithmComparison::finished);
    QSignalSpy each(m_algorithms->comparison(), &AlgorithmComparison::algorithmFinished);
    QTest::mouseClick(m_algorithms->runButton(), Qt::LeftButton);
    QVERIFY(m_algorithms->isRunning());
    QVERIFY(!m_algorithms->runButton()->isEnabled());
    QVERIFY(m_algorithms->stopButton()->isEnabled());
    QVERIFY(!m_algorithms->limitField()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 120000);
    const ComparisonResult& result = m_algorithms->result();
    QVERIFY2(!result.failure.isFailure(), qPrintable(result.failure.message));
    QVERIFY2(m_algorithms->progressLine()->text().startsWith(QLatin1String("Done")),
             qPrintable(m_algorithms->progressLine()->text()));
    QCOMPARE(result.algorithms.size(), LimiterCatalog::algorithmIds().size());
    QCOMPARE(each.count(), int(result.algorithms.size()));
    QVERIFY(m_algorithms->runButton()->isEnabled());

    // What Redis did: the textbook behaviours, and no key left behind.
    const AlgorithmTally* fixed = tallyOf(result, QStringLiteral("fixed-window"));
    const AlgorithmTally* log = tallyOf(result, QStringLiteral("sliding-log"));
    QVERIFY(fixed && log);
    QCOMPARE(fixed->requests, 200);
    QCOMPARE(fixed->admitted, 200); // 2 x limit across the boundary
    QCOMPARE(fixed->admittedOverLimit, 100);
    QCOMPARE(log->admitted, 100);
    QCOMPARE(log->admittedOverLimit, 0);
    QCOMPARE(log->rejectedUnderLimit, 0);
    QVERIFY(log->memoryBytesPerKey > fixed->memoryBytesPerKey);
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    for (const AlgorithmTally& tally : result.algorithms)
        QCOMPARE(redis.command({"EXISTS", tally.runKey}).toInteger(), 0);

    // The table: one row per tally, in order, each cell what the tally holds.
    AlgorithmsTableModel* model = m_algorithms->model();
    QCOMPARE(model->rowCount(), int(result.algorithms.size()));
    QCOMPARE(model->columnCount(), int(AlgorithmsTableModel::NUM_COLUMNS));
    for (int row = 0; row < model->rowCount(); ++row) {
        const AlgorithmTally& tally = result.algorithms.at(row);
        const auto cell
            = [model, row](int column, int role = Qt::DisplayRole) { return model->index(row, column).data(role); };
        QCOMPARE(cell(AlgorithmsTableModel::IdColumn).toString(), tally.id);
        QCOMPARE(cell(AlgorithmsTableModel::AdmittedColumn).toString(), QLocale().toString(tally.admitted));
        QCOMPARE(cell(AlgorithmsTableModel::OverLimitColumn).toString(), QLocale().toString(tally.admittedOverLimit));
        QCOMPARE(cell(AlgorithmsTableModel::UnderLimitColumn).toString(), QLocale().toString(tally.rejectedUnderLimit));
        QCOMPARE(cell(AlgorithmsTableModel::BytesPerUserColumn, AlgorithmsTableModel::ValueRole).toDouble(),
                 tally.memoryBytesPerKey);
        QCOMPARE(cell(AlgorithmsTableModel::BytesPerUserColumn).toString(),
                 QLocale().toString(tally.memoryBytesPerKey, 'f', 0));
        QCOMPARE(cell(AlgorithmsTableModel::KeysColumn).toString(), QLocale().toString(tally.keys));
        QCOMPARE(cell(AlgorithmsTableModel::ServerUsecColumn, AlgorithmsTableModel::ValueRole).toDouble(),
                 tally.serverUsecPerCall);
    }

    // The chart: one labelled point per algorithm, at (bytes per user, wrong decisions in %).
    AlgorithmsChart* chart = m_algorithms->chart();
    QCOMPARE(chart->points().size(), int(result.algorithms.size()));
    for (int i = 0; i < int(result.algorithms.size()); ++i) {
        const AlgorithmTally& tally = result.algorithms.at(i);
        QScatterSeries* series = chart->points().at(i);
        QCOMPARE(series->name(), tally.id);
        // Labelled with its id, alone or with the points close to it.
        QVERIFY2(chart->labelOf(tally.id).split(QStringLiteral(", ")).contains(tally.id), qPrintable(tally.id));
        QCOMPARE(series->count(), 1);
        const QPointF point = series->at(0);
        QCOMPARE(point.x(), tally.memoryBytesPerKey);
        QCOMPARE(point.y(),
                 100.0 * double(tally.admittedOverLimit + tally.rejectedUnderLimit) / double(tally.requests));
        QVERIFY(point.x() >= chart->memoryAxis()->min() && point.x() <= chart->memoryAxis()->max());
        QVERIFY(point.y() > chart->wrongAxis()->min() && point.y() < chart->wrongAxis()->max());
    }
    const QPointF fixedPoint = AlgorithmsChart::pointOf(*fixed).value();
    QCOMPARE(fixedPoint.y(), 50.0); // 100 of its 200 decisions were wrong
    QCOMPARE(AlgorithmsChart::pointOf(*log).value().y(), 0.0);
    keepPicture(m_algorithms, QStringLiteral("algorithms-boundary.png"));
}

void TestAlgorithmsWindow::exportsPictureAndNumbers()
{
    QVERIFY(m_algorithms && !m_algorithms->result().algorithms.isEmpty());
    const ComparisonResult& result = m_algorithms->result();

    // PNG of the chart at 2x: the size asked for, and not blank.
    const QString png = m_dir.filePath(QStringLiteral("chart.png"));
    QString error;
    QVERIFY2(PictureExport::writePng(m_algorithms->chart(), png, 2.0, &error), qPrintable(error));
    const QImage image(png);
    QCOMPARE(image.size(), m_algorithms->chart()->size() * 2);
    QVERIFY2(inkShare(image) > 0.02, qPrintable(QString::number(inkShare(image))));
    const QString svg = m_dir.filePath(QStringLiteral("window.svg"));
    QVERIFY2(PictureExport::writeSvg(m_algorithms, svg, QStringLiteral("algorithms"), &error), qPrintable(error));
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    QVERIFY(svgText.contains("fixed-window")); // labels kept as text

    // JSON: ComparisonResult::toJson(), as zsetlab-cli algorithms --json prints it.
    const QString json = m_dir.filePath(QStringLiteral("algorithms.json"));
    QVERIFY2(m_algorithms->writeTable(json, &error), qPrintable(error));
    QFile jsonFile(json);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(jsonFile.readAll()).object(), result.toJson());

    // CSV: a header and one row per table row, with the table's numbers.
    const QString csv = m_dir.filePath(QStringLiteral("algorithms.csv"));
    QVERIFY2(m_algorithms->writeTable(csv, &error), qPrintable(error));
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + int(result.algorithms.size()));
    const QList<QByteArray> header = lines.at(0).trimmed().split(',');
    QCOMPARE(header.value(0), QByteArray("id"));
    for (int row = 0; row < int(result.algorithms.size()); ++row) {
        const QList<QByteArray> fields = lines.at(row + 1).trimmed().split(',');
        QCOMPARE(fields.size(), header.size());
        const AlgorithmTally& tally = result.algorithms.at(row);
        QCOMPARE(QString::fromUtf8(fields.at(header.indexOf("id"))), tally.id);
        QCOMPARE(fields.at(header.indexOf("admitted")).toLongLong(), tally.admitted);
        QCOMPARE(fields.at(header.indexOf("admitted_over_limit")).toLongLong(), tally.admittedOverLimit);
        QCOMPARE(fields.at(header.indexOf("rejected_under_limit")).toLongLong(), tally.rejectedUnderLimit);
        QCOMPARE(fields.at(header.indexOf("memory_bytes_per_key")).toDouble(), tally.memoryBytesPerKey);
        QCOMPARE(fields.at(header.indexOf("keys")).toInt(), tally.keys);
    }
}

// A plan the algorithms cannot run on says why at once and fires nothing.
void TestAlgorithmsWindow::refusesLimitZeroAtOnce()
{
    QVERIFY(m_algorithms);
    m_algorithms->limitField()->setValue(0);
    QVERIFY(!m_algorithms->runButton()->isEnabled());
    QVERIFY2(m_algorithms->progressLine()->text().contains(QLatin1String("limit of 1 or more")),
             qPrintable(m_algorithms->progressLine()->text()));
    QSignalSpy finished(m_algorithms->comparison(), &AlgorithmComparison::finished);
    m_algorithms->run();
    QVERIFY(!m_algorithms->isRunning());
    QCOMPARE(finished.count(), 0);
    m_algorithms->limitField()->setValue(100);
    QVERIFY(m_algorithms->runButton()->isEnabled());
    // The warning gives way to the last run's status again.
    QVERIFY2(m_algorithms->progressLine()->text().startsWith(QLatin1String("Done")),
             qPrintable(m_algorithms->progressLine()->text()));

    m_algorithms->paceField()->setText(QStringLiteral("bursts:oops"));
    QVERIFY(!m_algorithms->runButton()->isEnabled());
    QVERIFY2(m_algorithms->progressLine()->text().contains(QLatin1String("Pace")),
             qPrintable(m_algorithms->progressLine()->text()));
    m_algorithms->paceField()->setText(QStringLiteral("bursts:100@1"));
    for (const QString& id : LimiterCatalog::algorithmIds())
        m_algorithms->algorithmBox(id)->setChecked(false);
    QVERIFY(!m_algorithms->runButton()->isEnabled());
    QVERIFY(m_algorithms->progressLine()->text().contains(QLatin1String("at least one algorithm")));
    for (const QString& id : LimiterCatalog::algorithmIds())
        m_algorithms->algorithmBox(id)->setChecked(true);
    QVERIFY(m_algorithms->runButton()->isEnabled());
}

// A server that dies before the run: the comparison ends with a message, not a hang.
void TestAlgorithmsWindow::deadServerShowsAClearMessage()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    ServerSession session;
    session.setHealthInterval(3'600'000); // the run, not the health check, meets the dead server
    RedisServerChoice::Request request;
    request.url = server.endpoint().displayUrl();
    session.connectTo(request);
    QTRY_VERIFY_WITH_TIMEOUT(session.isUsable(), 10000);
    AlgorithmsWindow window(&session);
    window.show();
    QVERIFY(window.chooseScenario(0));
    server.stop();
    QSignalSpy finished(window.comparison(), &AlgorithmComparison::finished);
    window.run();
    QVERIFY(window.isRunning());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QVERIFY(window.result().failure.isFailure());
    QVERIFY(window.result().algorithms.isEmpty());
    QCOMPARE(window.model()->rowCount(), 0);
    QVERIFY(window.chart()->points().isEmpty());
    const QString shown = window.progressLine()->text();
    QVERIFY2(shown.startsWith(QLatin1String("Failed: ")) && shown.contains(window.result().failure.message),
             qPrintable(shown));
    QVERIFY(window.runButton()->isEnabled());
}

void TestAlgorithmsWindow::followsTheLanguage()
{
    QVERIFY(m_algorithms && !m_algorithms->result().algorithms.isEmpty());
    const auto formLabel = [](QWidget* field) {
        for (const QLabel* label : field->window()->findChildren<QLabel*>()) {
            if (label->buddy() == field)
                return label->text();
        }
        return QString();
    };
    const auto texts = [&] {
        return QStringList {
            m_algorithms->windowTitle(),
            m_algorithms->runButton()->text(),
            formLabel(m_algorithms->paceField()),
            formLabel(m_algorithms->usersField()),
            m_algorithms->scenarioField()->itemText(1),
            m_algorithms->clockField()->itemText(1),
            m_algorithms->menuBar()->actions().first()->text(),
            m_algorithms->progressLine()->text(),
            m_algorithms->chart()->chart()->title(),
            m_algorithms->chart()->memoryAxis()->titleText(),
            m_algorithms->model()->headerData(AlgorithmsTableModel::OverLimitColumn, Qt::Horizontal).toString(),
        };
    };
    const QStringList english = texts();
    QCOMPARE(english[1], QStringLiteral("Run comparison"));
    QVERIFY(Language::set(QStringLiteral("vi")));
    QTRY_VERIFY(m_algorithms->windowTitle() != english[0]);
    const QStringList vietnamese = texts();
    keepPicture(m_algorithms, QStringLiteral("algorithms-vi.png"));
    for (int i = 0; i < english.size(); ++i)
        QVERIFY2(!vietnamese[i].isEmpty() && vietnamese[i] != english[i],
                 qPrintable(QStringLiteral("text %1 stayed \"%2\"").arg(i).arg(vietnamese[i])));
    QVERIFY(Language::set(QStringLiteral("en")));
    QTRY_COMPARE(texts(), english);
}

QTEST_MAIN(TestAlgorithmsWindow)
#include "tst_algorithmswindow.moc"
