#include "burst/clientprofile.h"
#include "burst/scenario.h"
#include "charts/timelineview.h"
#include "mainwindow.h"
#include "redis/serversession.h"
#include "sourcetree.h"
#include "studies/clienttallymodel.h"
#include "studies/simulatedserverswindow.h"
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
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

class TestSimulatedServersWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void threeServersScenarioLoads();
    void scenarioKeepsItsClients();
    void collisionsAcrossServers_data();
    void collisionsAcrossServers();
    void refusesABadServerListAtTheField();
    void threeServersDrawOneLaneEach();

private:
    void fire();

    std::unique_ptr<MainWindow> m_window;
    SimulatedServersWindow* m_dialog = nullptr;
    QTemporaryDir m_dir;
};

void TestSimulatedServersWindow::initTestCase()
{
    TestSettings::keepToThisRun();
    m_window = std::make_unique<MainWindow>();
    m_window->show();
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    m_window->connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
    SweepWindow* sweep = SweepWindow::showFor(m_window.get(), m_window->session());
    m_dialog = sweep->simulatedServers();
    m_dialog->show();
    m_dialog->resize(1240, 640);
    QVERIFY(m_dialog->isVisible());
}

void TestSimulatedServersWindow::cleanupTestCase()
{
    m_window.reset();
}

void TestSimulatedServersWindow::threeServersScenarioLoads()
{
    for (const QString& path : {sourcePath(QStringLiteral("resources/scenarios/three-servers.json")),
                                QStringLiteral(":/scenarios/three-servers.json")}) {
        Scenario scenario;
        QString error;
        QVERIFY2(Scenario::load(path, &scenario, &error), qPrintable(error));
        QVERIFY(!scenario.title.isEmpty());
        QVERIFY(!scenario.description.isEmpty());
        const QVector<ClientProfile>& clients = scenario.experiment.burst.clients;
        QCOMPARE(clients.size(), 3);
        int ahead = 0;
        for (const ClientProfile& client : clients) {
            QVERIFY(client.pacing);
            QCOMPARE(client.pacing->toString(), clients.first().pacing->toString()); // the same rate
            QVERIFY(client.offsetMs == 0 || client.offsetMs == 40);
            ahead += client.offsetMs == 40 ? 1 : 0;
        }
        QCOMPARE(ahead, 1);
    }
    // Listed among the dialog's examples, and choosing it fills the fields.
    QComboBox* examples = m_dialog->examplesField();
    const int index = examples->findData(QStringLiteral(":/scenarios/three-servers.json"));
    QVERIFY(index > 0);
    m_dialog->serversField()->setText(QStringLiteral("rate=1"));
    examples->setCurrentIndex(index);
    emit examples->activated(index);
    QCOMPARE(m_dialog->serversField()->text(), QStringLiteral("rate=2;rate=2;rate=2,offset=40"));
    QCOMPARE(m_dialog->requestsField()->value(), 3000);
}

void TestSimulatedServersWindow::scenarioKeepsItsClients()
{
    Scenario scenario;
    QString error;
    QVERIFY(parseClientProfiles(QStringLiteral("rate=2;pace=interval:500,offset=-3,drift=250"),
                                &scenario.experiment.burst.clients, &error));
    const QString path = m_dir.filePath(QStringLiteral("servers.json"));
    QVERIFY2(scenario.save(path, &error), qPrintable(error));
    Scenario loaded;
    QVERIFY2(Scenario::load(path, &loaded, &error), qPrintable(error));
    QCOMPARE(clientProfilesToString(loaded.experiment.burst.clients),
             QStringLiteral("rate=2;pace=interval:500,offset=-3,drift=250"));
    QCOMPARE(loaded.toJson(), scenario.toJson());
    // A plan without servers writes no "clients" field: older files stay as they were.
    QVERIFY(!Scenario().toJson().value(QLatin1String("plan")).toObject().contains(QLatin1String("clients")));
    // A bad server list is refused with the field named.
    const QByteArray bad = R"({"schema":"zsetlab.scenario/1","plan":{"clients":"rate=2;rate=fast"}})";
    QVERIFY(!Scenario::fromJson(bad, &loaded, &error));
    QVERIFY2(error.startsWith(QLatin1String("plan.clients: expected")) && error.contains(QLatin1String("client 2")),
             qPrintable(error));
}

void TestSimulatedServersWindow::fire()
{
    QSignalSpy done(m_dialog, &SimulatedServersWindow::burstFinished);
    QVERIFY(m_dialog->fireButton()->isEnabled());
    QTest::mouseClick(m_dialog->fireButton(), Qt::LeftButton);
    QVERIFY(m_dialog->isRunning());
    QVERIFY(!m_dialog->fireButton()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    QVERIFY(m_dialog->fireButton()->isEnabled());
    const auto summary = done.first().first().value<BurstSummary>();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
}

void TestSimulatedServersWindow::collisionsAcrossServers_data()
{
    QTest::addColumn<QString>("servers");
    QTest::addColumn<int>("acrossServers");
    // Two servers at 0.1 per ms (one request every 10 ms each), 200 requests in all.
    QTest::newRow("same clock: every millisecond is written by both")
        << QStringLiteral("pace=interval:10000;pace=interval:10000") << 100;
    QTest::newRow("5 ms apart at a low rate: never the same millisecond")
        << QStringLiteral("pace=interval:10000;pace=interval:10000,offset=5") << 0;
}

void TestSimulatedServersWindow::collisionsAcrossServers()
{
    QFETCH(QString, servers);
    QFETCH(int, acrossServers);
    QAbstractItemModelTester tester(m_dialog->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    m_dialog->serversField()->setText(servers);
    m_dialog->requestsField()->setValue(200);
    m_dialog->clockField()->setCurrentIndex(m_dialog->clockField()->findData(int(ClockKind::Schedule)));
    m_dialog->limiterField()->setCurrentIndex(m_dialog->limiterField()->findData(QStringLiteral("now")));
    m_dialog->limitField()->setValue(0);
    // The whole burst (1 s of `now`) inside the window: on the schedule clock each server sends
    // as fast as it can, so a shorter window would let one server trim members the other has not
    // reached yet, and the count would depend on how the connections interleave.
    m_dialog->windowField()->setValue(1000);
    fire();

    ClientTallyModel* model = m_dialog->model();
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->index(0, ClientTallyModel::SentColumn).data(ClientTallyModel::ValueRole).toLongLong(), 100);
    QCOMPARE(model->index(1, ClientTallyModel::SentColumn).data(ClientTallyModel::ValueRole).toLongLong(), 100);
    QCOMPARE(model->total(ClientTallyModel::OverwroteOtherColumn), acrossServers);
    QCOMPARE(model->total(ClientTallyModel::OverwrittenColumn), acrossServers);
    QCOMPARE(model->total(ClientTallyModel::StoredColumn), 200 - acrossServers);

    // One lane per server; a collision is a diamond in one lane at the millisecond of a square in
    // the other.
    const TimelineModel& lanes = m_dialog->lanes()->model();
    QCOMPARE(lanes.laneCount(), 2);
    QCOMPARE(lanes.laneTotal(0).requests + lanes.laneTotal(1).requests, 200);
    QCOMPARE(lanes.laneTotal(0).overwritten + lanes.laneTotal(1).overwritten, acrossServers);
    int shared = 0;
    int collisions = 0;
    for (const auto& [ms, cell] : lanes.lane(0)) {
        const auto other = lanes.lane(1).find(ms);
        if (other == lanes.lane(1).end())
            continue;
        ++shared;
        if ((cell.stored && other->second.overwritten) || (cell.overwritten && other->second.stored))
            ++collisions;
    }
    QCOMPARE(shared, acrossServers);
    QCOMPARE(collisions, acrossServers);
    QVERIFY2(m_dialog->statusLine()->text().contains(QStringLiteral("%1 of them overwrote another").arg(acrossServers)),
             qPrintable(m_dialog->statusLine()->text()));

    // The table exports like every other view.
    const QString path = m_dir.filePath(QStringLiteral("servers.json"));
    QString error;
    QVERIFY2(m_dialog->writeTable(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonArray rows = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("servers")).toArray();
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows[0].toObject().value(QLatin1String("overwrote_other_client")).toInteger()
                 + rows[1].toObject().value(QLatin1String("overwrote_other_client")).toInteger(),
             acrossServers);
}

void TestSimulatedServersWindow::refusesABadServerListAtTheField()
{
    m_dialog->serversField()->setText(QStringLiteral("rate=2;;rate=2"));
    QVERIFY(m_dialog->serversMessage()->isVisible());
    QVERIFY2(m_dialog->serversMessage()->text().contains(QLatin1String("client 2")),
             qPrintable(m_dialog->serversMessage()->text()));
    QVERIFY(!m_dialog->fireButton()->isEnabled());
    m_dialog->serversField()->setText(QStringLiteral("rate=2,offset=4.5"));
    QVERIFY(m_dialog->serversMessage()->text().contains(QLatin1String("offset=MS")));
    m_dialog->fire();
    QVERIFY(!m_dialog->isRunning());
    m_dialog->serversField()->setText(QStringLiteral("rate=2;rate=2,offset=40"));
    QVERIFY(!m_dialog->serversMessage()->isVisible());
    QVERIFY(m_dialog->fireButton()->isEnabled());
}

void TestSimulatedServersWindow::threeServersDrawOneLaneEach()
{
    Scenario scenario;
    QString error;
    QVERIFY2(Scenario::load(QStringLiteral(":/scenarios/three-servers.json"), &scenario, &error), qPrintable(error));
    m_dialog->setPlan(scenario.experiment.burst);
    fire();
    const TimelineModel& lanes = m_dialog->lanes()->model();
    QCOMPARE(lanes.laneCount(), 3);
    // The third server's clock runs 40 ms ahead: its lane starts 40 ms to the right (give or take
    // the first arrivals and the wall clock's pacing).
    const qint64 lead = lanes.lane(2).begin()->first - lanes.lane(0).begin()->first;
    QVERIFY2(lead >= 36 && lead <= 44, qPrintable(QString::number(lead)));
    QVERIFY(m_dialog->model()->total(ClientTallyModel::OverwroteOtherColumn) > 0);
    const QImage image = PictureExport::render(m_dialog, 1.0);
    QVERIFY2(inkShare(image) > 0.02, qPrintable(QString::number(inkShare(image))));
    const QImage lanesImage = PictureExport::render(m_dialog->lanes(), 1.0);
    QVERIFY2(inkShare(lanesImage) > 0.05, qPrintable(QString::number(inkShare(lanesImage))));
    keepPicture(m_dialog, QStringLiteral("servers-fit.png"));
    m_dialog->lanes()->setVisibleRange(30, 70); // zoomed in: one mark per request, per millisecond
    keepPicture(m_dialog, QStringLiteral("servers-zoomed.png"));
}

QTEST_MAIN(TestSimulatedServersWindow)
#include "tst_simulatedserverswindow.moc"
