#include "charts/sweepchart.h"
#include "mainwindow.h"
#include "redis/serversession.h"
#include "results/dataexport.h"
#include "studies/sweeptablemodel.h"
#include "studies/sweepwindow.h"
#include "testpictures.h"
#include "testredis.h"
#include "testsettings.h"
#include "widgets/pictureexport.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMenuBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {
// Share of pixels that differ from the most common colour: 0 for a blank image.
void choose(QComboBox* box, const QVariant& data)
{
    const int index = box->findData(data);
    QVERIFY(index >= 0);
    box->setCurrentIndex(index);
}

} // namespace

class TestSweepWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void opensFromTheViewMenu();
    void scheduleSweepMatchesTheory_data();
    void scheduleSweepMatchesTheory();
    void exportsRoundTrip_data();
    void exportsRoundTrip();
    void pictureIsNotBlank();
    void chartFollowsADarkPalette();
    void stopKeepsTheFinishedPoints();
    void refusesInvalidRatesAtTheField_data();
    void refusesInvalidRatesAtTheField();

private:
    void sweepThroughTheUi(SweepPacing pacing, const QString& rates, int requests, int limit);

    std::unique_ptr<MainWindow> m_window;
    SweepWindow* m_sweep = nullptr;
    QTemporaryDir m_dir;
};

void TestSweepWindow::initTestCase()
{
    TestSettings::keepToThisRun();
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1400, 860);
    m_window->show();
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    m_window->connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
}

void TestSweepWindow::cleanupTestCase()
{
    m_window.reset();
}

void TestSweepWindow::opensFromTheViewMenu()
{
    auto* view = m_window->menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"));
    QVERIFY(view);
    QAction* open = nullptr;
    for (QAction* action : view->actions()) {
        if (action->text().contains(QLatin1String("Collision")))
            open = action;
    }
    QVERIFY(open);
    open->trigger();
    m_sweep = m_window->findChild<SweepWindow*>();
    QVERIFY(m_sweep);
    QVERIFY(m_sweep->isVisible());
    QVERIFY(m_sweep->isWindow());
    open->trigger(); // the same window again, not a second one
    QCOMPARE(m_window->findChildren<SweepWindow*>().size(), 1);
    m_sweep->resize(1440, 720);
    // Defaults: the rates of FACTS.md, on the exact clock, and a run that is allowed.
    QVERIFY(m_sweep->ratesField()->text().startsWith(QLatin1String("0.1, 0.2, 0.5")));
    QCOMPARE(ClockKind(m_sweep->clockField()->currentData().toInt()), ClockKind::Schedule);
    QCOMPARE(m_sweep->requestsField()->value(), 5000);
    QVERIFY(m_sweep->runButton()->isEnabled());
    QVERIFY(!m_sweep->ratesMessage()->isVisible());
}

void TestSweepWindow::sweepThroughTheUi(SweepPacing pacing, const QString& rates, int requests, int limit)
{
    m_sweep->ratesField()->setText(rates);
    choose(m_sweep->pacingField(), int(pacing));
    choose(m_sweep->clockField(), int(ClockKind::Schedule));
    choose(m_sweep->limiterField(), QStringLiteral("now"));
    m_sweep->requestsField()->setValue(requests);
    m_sweep->windowField()->setValue(100);
    m_sweep->limitField()->setValue(limit);
    QSignalSpy done(m_sweep->sweep(), &RateSweep::finished);
    QSignalSpy points(m_sweep->sweep(), &RateSweep::pointFinished);
    QTest::mouseClick(m_sweep->runButton(), Qt::LeftButton);
    QVERIFY(m_sweep->isRunning());
    QVERIFY(!m_sweep->runButton()->isEnabled());
    QVERIFY(m_sweep->stopButton()->isEnabled());
    QVERIFY(!m_sweep->ratesField()->isEnabled());
    // The GUI thread stays free while the bursts run: progress arrives through the event loop.
    QTRY_VERIFY_WITH_TIMEOUT(m_sweep->progressLine()->text().contains(QLatin1String("Rate ")), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 120000);
    QVERIFY2(!m_sweep->result().failure.isFailure(), qPrintable(m_sweep->result().failure.message));
    QVERIFY(m_sweep->runButton()->isEnabled());
    QVERIFY(!m_sweep->stopButton()->isEnabled());
    QVERIFY2(m_sweep->progressLine()->text().startsWith(QLatin1String("Done")),
             qPrintable(m_sweep->progressLine()->text()));
}

void TestSweepWindow::scheduleSweepMatchesTheory_data()
{
    QTest::addColumn<SweepPacing>("pacing");
    QTest::addColumn<int>("limit");
    QTest::newRow("poisson arrivals, limit 50") << SweepPacing::Poisson << 50;
    QTest::newRow("even arrivals, no limit") << SweepPacing::Even << 0;
}

void TestSweepWindow::scheduleSweepMatchesTheory()
{
    QFETCH(SweepPacing, pacing);
    QFETCH(int, limit);
    QVERIFY(m_sweep);
    // Created before the data arrives, so that every insertion is checked.
    QAbstractItemModelTester tester(m_sweep->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    sweepThroughTheUi(pacing, QStringLiteral("0.5, 2, 10"), 5000, limit);

    const QVector<double> rates {0.5, 2, 10};
    SweepTableModel* model = m_sweep->model();
    QCOMPARE(model->rowCount(), 3);
    for (int row = 0; row < 3; ++row) {
        const SweepPoint& point = model->points().at(row);
        QCOMPARE(point.ratePerMs, rates[row]);
        QCOMPARE(point.sent, 5000);
        const double measured = 100.0 * point.storedFraction();
        const double theory = 100.0 * theoryStoredFraction(pacing, rates[row]);
        qInfo("%s L = %g per ms: measured %.2f %%, theory %.2f %%, over limit %.2f %%",
              qPrintable(sweepPacingName(pacing)), rates[row], measured, theory,
              100.0 * point.admittedOverLimitFraction());
        QVERIFY2(std::abs(measured - theory) <= 2.0, qPrintable(QStringLiteral("%1 vs %2").arg(measured).arg(theory)));
        // The table shows the same numbers.
        QCOMPARE(model->index(row, SweepTableModel::StoredColumn).data().toString(), QLocale().toString(point.stored));
        QCOMPARE(model->index(row, SweepTableModel::TheoryPercentColumn).data(SweepTableModel::ValueRole).toDouble(),
                 theory);
        QCOMPARE(model->index(row, SweepTableModel::StoredPercentColumn).data().toString(),
                 QLocale().toString(measured, 'f', 1));
        const QString overLimit = model->index(row, SweepTableModel::OverLimitPercentColumn).data().toString();
        QVERIFY2(limit > 0 ? overLimit != QStringLiteral("–") : overLimit == QStringLiteral("–"),
                 qPrintable(overLimit));
    }
    // Poisson at 0.5 per ms in a 100 ms window: about 50 requests are really in the window, but
    // only about 39 distinct milliseconds are counted, so a limit of 50 lets all of them through
    // and roughly half of them beyond the limit.
    if (limit > 0)
        QVERIFY(model->points().at(0).admittedOverLimitFraction() > 0.3);

    SweepChart* chart = m_sweep->chart();
    QVERIFY(chart->chart()->series().contains(chart->poissonTheory()));
    QVERIFY(chart->chart()->series().contains(chart->evenTheory()));
    QVERIFY(chart->poissonTheory()->count() > 100); // sampled densely
    QVERIFY(chart->evenTheory()->count() > 100);
    QCOMPARE(chart->measured()->count(), 3);
    QCOMPARE(chart->measured()->at(1), QPointF(2, 100.0 * model->points().at(1).storedFraction()));
    QCOMPARE(chart->overLimit()->isVisible(), limit > 0);
    QCOMPARE(chart->overLimit()->count(), limit > 0 ? 3 : 0);
    QVERIFY(qobject_cast<QLogValueAxis*>(chart->rateAxis()));
    QVERIFY(chart->rateAxis()->min() <= 0.5 && chart->rateAxis()->max() >= 10);
    // The theory at a measured rate is on the drawn curve.
    QLineSeries* curve = pacing == SweepPacing::Poisson ? chart->poissonTheory() : chart->evenTheory();
    const auto nearest
        = std::min_element(curve->points().cbegin(), curve->points().cend(), [](const QPointF& a, const QPointF& b) {
              return std::abs(std::log(a.x() / 2)) < std::abs(std::log(b.x() / 2));
          });
    QVERIFY(std::abs(nearest->y() - 100.0 * theoryStoredFraction(pacing, 2)) < 1.0);
    keepPicture(m_sweep, QStringLiteral("sweepwindow-%1.png").arg(sweepPacingName(pacing)));
}

void TestSweepWindow::exportsRoundTrip_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("csv") << QStringLiteral("sweep.csv");
    QTest::newRow("json") << QStringLiteral("sweep.json");
}

void TestSweepWindow::exportsRoundTrip()
{
    QFETCH(QString, name);
    if (m_sweep->model()->rowCount() == 0)
        sweepThroughTheUi(SweepPacing::Poisson, QStringLiteral("0.5, 2, 10"), 2000, 0);
    const QVector<SweepPoint> points = m_sweep->model()->points();
    const QString path = m_dir.filePath(name);
    QString error;
    QVERIFY2(m_sweep->writeTable(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    if (name.endsWith(QLatin1String(".csv"))) {
        QList<QStringList> rows;
        QVERIFY(DataExport::parseCsv(bytes, &rows));
        QCOMPARE(rows.size(), points.size() + 1);
        const QStringList header = rows.first();
        const int rate = int(header.indexOf(QStringLiteral("rate_per_ms")));
        const int stored = int(header.indexOf(QStringLiteral("stored")));
        const int percent = int(header.indexOf(QStringLiteral("stored_percent")));
        const int theory = int(header.indexOf(QStringLiteral("theory_percent")));
        QVERIFY(rate >= 0 && stored >= 0 && percent >= 0 && theory >= 0);
        for (int i = 0; i < points.size(); ++i) {
            const QStringList& row = rows[i + 1];
            QCOMPARE(row.size(), header.size());
            QCOMPARE(row[rate].toDouble(), points[i].ratePerMs);
            QCOMPARE(row[stored].toLongLong(), points[i].stored);
            QVERIFY(std::abs(row[percent].toDouble() - 100.0 * points[i].storedFraction()) < 1e-9);
            QVERIFY(std::abs(row[theory].toDouble() - 100.0 * points[i].theoryFraction) < 1e-9);
        }
    } else {
        const QJsonObject json = QJsonDocument::fromJson(bytes).object();
        QCOMPARE(json.value(QLatin1String("schema")).toString(), QStringLiteral("zsetlab.sweep/1"));
        QCOMPARE(json, m_sweep->result().toJson());
        const QJsonArray entries = json.value(QLatin1String("points")).toArray();
        QCOMPARE(entries.size(), points.size());
        for (int i = 0; i < points.size(); ++i) {
            const QJsonObject entry = entries[i].toObject();
            QCOMPARE(entry.value(QLatin1String("rate_per_ms")).toDouble(), points[i].ratePerMs);
            QCOMPARE(entry.value(QLatin1String("stored")).toInteger(), points[i].stored);
        }
    }
}

void TestSweepWindow::pictureIsNotBlank()
{
    if (m_sweep->model()->rowCount() == 0)
        sweepThroughTheUi(SweepPacing::Poisson, QStringLiteral("0.5, 2, 10"), 2000, 0);
    int parts = 0;
    for (QWidget* part : std::initializer_list<QWidget*> {m_sweep, m_sweep->chart(), m_sweep->table()}) {
        const QString path = m_dir.filePath(QStringLiteral("part%1.png").arg(++parts));
        QString error;
        QVERIFY2(PictureExport::writePng(part, path, 2.0, &error), qPrintable(error));
        const QImage image(path);
        QCOMPARE(image.size(), part->size() * 2);
        QVERIFY2(inkShare(image) > 0.02, qPrintable(QString::number(inkShare(image))));
    }
    keepPicture(m_sweep->chart(), QStringLiteral("sweepchart.png"));
}

void TestSweepWindow::chartFollowsADarkPalette()
{
    SweepChart* chart = m_sweep->chart();
    const QPalette light = m_sweep->palette();
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(30, 30, 30));
    dark.setColor(QPalette::WindowText, QColor(235, 235, 235));
    dark.setColor(QPalette::Base, QColor(20, 20, 20));
    dark.setColor(QPalette::Text, QColor(235, 235, 235));
    m_sweep->setPalette(dark);
    QCOMPARE(chart->chart()->theme(), QChart::ChartThemeDark);
    QCOMPARE(chart->chart()->backgroundBrush().color(), QColor(20, 20, 20));
    QCOMPARE(chart->rateAxis()->labelsBrush().color(), QColor(235, 235, 235));
    // The theme change resets series colours; they are set again, and the markers keep their shapes.
    QCOMPARE(chart->measured()->color(), QColor(213, 94, 0));
    QCOMPARE(chart->measured()->markerShape(), QScatterSeries::MarkerShapeCircle);
    QCOMPARE(chart->overLimit()->markerShape(), QScatterSeries::MarkerShapeRotatedRectangle);
    QVERIFY(inkShare(PictureExport::render(chart, 1.0)) > 0.02);
    keepPicture(m_sweep, QStringLiteral("sweepwindow-dark.png"));
    m_sweep->setPalette(light);
    QCOMPARE(chart->chart()->theme(), QChart::ChartThemeLight);
}

void TestSweepWindow::stopKeepsTheFinishedPoints()
{
    m_sweep->ratesField()->setText(QStringLiteral("0.5, 1, 2, 5, 10"));
    m_sweep->requestsField()->setValue(400'000);
    m_sweep->limitField()->setValue(0);
    QSignalSpy done(m_sweep->sweep(), &RateSweep::finished);
    QSignalSpy progress(m_sweep->sweep(), &RateSweep::progress);
    QTest::mouseClick(m_sweep->runButton(), Qt::LeftButton);
    QVERIFY(m_sweep->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 10000);
    QTest::mouseClick(m_sweep->stopButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 5000);
    QVERIFY(m_sweep->result().stopped);
    QVERIFY(m_sweep->result().points.size() < 5);
    QCOMPARE(m_sweep->model()->rowCount(), int(m_sweep->result().points.size()));
    QVERIFY2(m_sweep->progressLine()->text().startsWith(QLatin1String("Stopped")),
             qPrintable(m_sweep->progressLine()->text()));
    QVERIFY(m_sweep->runButton()->isEnabled());
    QVERIFY(m_sweep->ratesField()->isEnabled());
}

void TestSweepWindow::refusesInvalidRatesAtTheField_data()
{
    QTest::addColumn<QString>("rates");
    QTest::addColumn<QString>("message");
    QTest::newRow("a word") << QStringLiteral("0.1, fast, 2") << QStringLiteral("\"fast\"");
    QTest::newRow("zero") << QStringLiteral("0") << QStringLiteral("\"0\"");
    QTest::newRow("beyond the maximum") << QStringLiteral("5000") << QStringLiteral("\"5000\"");
    QTest::newRow("nothing") << QStringLiteral("  ") << QStringLiteral("at least one");
    QStringList many;
    for (int i = 1; i <= SweepPlan::maxPoints + 1; ++i)
        many << QString::number(i);
    QTest::newRow("too many rates") << many.join(QLatin1Char(',')) << QStringLiteral("from 1 to 100");
}

void TestSweepWindow::refusesInvalidRatesAtTheField()
{
    QFETCH(QString, rates);
    QFETCH(QString, message);
    QVERIFY(!m_sweep->isRunning());
    m_sweep->ratesField()->setText(rates);
    QVERIFY(m_sweep->ratesMessage()->isVisible());
    QVERIFY2(m_sweep->ratesMessage()->text().contains(message), qPrintable(m_sweep->ratesMessage()->text()));
    QVERIFY(!m_sweep->runButton()->isEnabled());
    QSignalSpy started(m_sweep->sweep(), &RateSweep::pointStarted);
    m_sweep->run(); // F5 does not get around the field either
    QVERIFY(!m_sweep->isRunning());
    QCOMPARE(started.count(), 0);
    // Fixed, the message goes and Run comes back.
    m_sweep->ratesField()->setText(QStringLiteral("0.1, 1, 10"));
    QVERIFY(!m_sweep->ratesMessage()->isVisible());
    QVERIFY(m_sweep->runButton()->isEnabled());
}

QTEST_MAIN(TestSweepWindow)
#include "tst_sweepwindow.moc"
