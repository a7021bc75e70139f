#include "burst/planfields.h"
#include "burst/planmodel.h"
#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "connectdialog.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "mainwindow.h"
#include "redis/privateredisserver.h"
#include "redis/serversession.h"
#include "results/timelinescale.h"
#include "run/burstpanel.h"
#include "run/numberspanel.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "run/runview.h"
#include "run/zsetmodel.h"
#include "run/zsetpanel.h"
#include "script/scriptdoctordialog.h"
#include "sourcetree.h"
#include "testpictures.h"
#include "testredis.h"
#include "testsettings.h"
#include "widgets/exportdialog.h"
#include "widgets/manualdialog.h"
#include "widgets/serverbar.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

namespace {
BurstPlan frozenPlan(const QString& strategy, int requests)
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin(strategy);
    plan.requests = requests;
    plan.clock = ClockKind::Frozen;
    plan.windowMs = 60000;
    plan.limit = 10;
    return plan;
}

// Share of pixels that differ from the most common colour: 0 for a blank image.
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void helpShowsTheManual();
    void buildsWithAllPanels();
    void burstPanelEditsThePlanModel();
    void frozenBurstWithNowStoresOneMember();
    void eachUserHasItsTimelineAndZset();
    void frozenBurstWithRequestIdStoresEveryRequest();
    void compareModeRunsBothFromOneSchedule();
    void timelineClickSelectsTheMember();
    void refusesToFireWithoutAServer();
    void keepsTheSimulatedServersOfAScenario();
    void scenarioPlanSurvivesOpenFireSave_data();
    void scenarioPlanSurvivesOpenFireSave();
    void windowImageIsNotBlank();
    void mnemonicLabelsHaveBuddies();
    void connectDialogReachesATlsServer();
    void anotherServerGetsNoneOfTheShownKeys();

private:
    void connectWindow();
    void fireAndWait(const BurstPlan& plan, bool compare = false);

    std::unique_ptr<MainWindow> m_window;
};

void TestMainWindow::initTestCase()
{
    TestSettings::keepToThisRun();
    TestRedis::server();
}

void TestMainWindow::init()
{
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1400, 860);
    m_window->show();
}

// Help > Manual (F1): the README itself, compiled in, readable without a network.
void TestMainWindow::helpShowsTheManual()
{
    auto* action = m_window->findChild<QAction*>(QStringLiteral("ManualAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
    action->trigger();
    auto* manual = m_window->findChild<ManualDialog*>(QStringLiteral("ManualDialog"));
    QVERIFY(manual);
    QVERIFY(manual->isVisible());
    QFile readme(sourcePath(QStringLiteral("README.md")));
    QVERIFY(readme.open(QIODevice::ReadOnly));
    const QString source = QString::fromUtf8(readme.readAll());
    for (const char* heading :
         {"Quick start (Debian 12 or Debian 13)", "Teaching with it", "Command line: `zsetlab-cli`"}) {
        QVERIFY2(source.contains(QStringLiteral("## ") + QString::fromUtf8(heading)), heading);
        QVERIFY2(manual->text().contains(QString::fromUtf8(heading).remove(QLatin1Char('`'))), heading);
    }
    QVERIFY(!manual->text().contains(QLatin1String("](docs/screenshots"))); // no broken pictures
}

void TestMainWindow::cleanup()
{
    m_window.reset();
}

void TestMainWindow::connectWindow()
{
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    m_window->connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
}

void TestMainWindow::fireAndWait(const BurstPlan& plan, bool compare)
{
    m_window->planModel()->edit([&](ExperimentPlan& experiment) {
        experiment.burst = plan;
        experiment.compare = compare;
    });
    QSignalSpy done(m_window->experiment(), &LimiterExperiment::allFinished);
    m_window->fireAction()->trigger();
    QVERIFY(m_window->experiment()->isRunning());
    QVERIFY(!m_window->fireAction()->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    QVERIFY(m_window->fireAction()->isEnabled());
}

void TestMainWindow::buildsWithAllPanels()
{
    QVERIFY(m_window->windowTitle().contains(QLatin1String("zsetlab")));
    QVERIFY(m_window->burstPanel()->isVisible());
    QVERIFY(m_window->zsetPanel()->isVisible());
    QVERIFY(m_window->runView(LimiterExperiment::Left)->isVisible());
    QVERIFY(!m_window->runView(LimiterExperiment::Right)->isVisible());
    QVERIFY(m_window->serverBar()->isVisible());
    QAbstractItemModelTester tester(m_window->zsetPanel()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    // Defaults that show the bug on the first click.
    const BurstPlan plan = m_window->planModel()->plan().burst;
    QCOMPARE(plan.limiter->id, QStringLiteral("now"));
    QCOMPARE(plan.requests, 200);
    QCOMPARE(plan.limit, 10);
    QCOMPARE(plan.pacing.kind, Pacing::Kind::Burst);
    QCOMPARE(m_window->fireAction()->shortcut(), QKeySequence(Qt::Key_F5));
    // Every field of the burst panel has its label, with a shortcut to it.
    QStringList labels;
    for (QLabel* label : m_window->burstPanel()->findChildren<QLabel*>())
        if (label->buddy())
            labels << label->text();
    for (const char* name : {"&Requests", "&Connections", "&Pipeline", "P&acing", "C&lock", "&Window", "&Limit"})
        QVERIFY2(labels.contains(QLatin1String(name)), name);
    QCOMPARE(m_window->stopAction()->shortcut(), QKeySequence(Qt::Key_Escape));
    QCOMPARE(m_window->resetAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
    connectWindow();
    QVERIFY2(m_window->serverBar()->statusText().contains(TestRedis::endpoint().socketPath),
             qPrintable(m_window->serverBar()->statusText()));
}

void TestMainWindow::burstPanelEditsThePlanModel()
{
    BurstPanel* panel = m_window->burstPanel();
    PlanModel* model = m_window->planModel();
    // The unique member's choices are the catalog's fixes and traps, in its order.
    QComboBox* unique = panel->uniqueField();
    QVector<LimiterRef> offered
        = LimiterCatalog::withRole(LimiterEntry::Role::Fix) + LimiterCatalog::withRole(LimiterEntry::Role::Trap);
    QCOMPARE(unique->count(), int(offered.size()));
    for (int i = 0; i < offered.size(); ++i)
        QCOMPARE(unique->itemText(i), offered[i]->displayName());
    // A field edits the model; choosing "random" makes it the burst's limiter.
    panel->findChild<QSpinBox*>()->setValue(77); // Requests, the form's first field
    QCOMPARE(model->plan().burst.requests, 77);
    const int random = unique->findText(LimiterCatalog::builtin("random")->displayName());
    unique->setCurrentIndex(random);
    emit unique->activated(random);
    QCOMPARE(model->plan().burst.limiter->id, QStringLiteral("random"));
    QCOMPARE(model->plan().fix->id, QStringLiteral("random"));
    // And the model's changes show in the fields.
    model->edit([](ExperimentPlan& plan) {
        plan.burst.limiter = LimiterCatalog::builtin("now");
        plan.burst.limit = 3;
        plan.burst.users = 4;
    });
    const QList<QSpinBox*> numbers = panel->findChildren<QSpinBox*>();
    QCOMPARE(numbers.at(numbers.size() - 2)->value(), 3); // Limit
    QCOMPARE(numbers.last()->value(), 4); // Users, the form's last field
    numbers.last()->setValue(6);
    QCOMPARE(model->plan().burst.users, 6);
    model->edit([](ExperimentPlan& plan) { plan.burst.users = 1; });
    QVERIFY(panel->findChildren<QRadioButton*>().first()->isChecked()); // member = now
}

void TestMainWindow::frozenBurstWithNowStoresOneMember()
{
    connectWindow();
    QAbstractItemModelTester tester(m_window->zsetPanel()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    fireAndWait(frozenPlan(QStringLiteral("now"), 500));
    ZsetModel* model = m_window->zsetPanel()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    QTRY_VERIFY_WITH_TIMEOUT(model->index(0, ZsetModel::MemberColumn).data().toString() != QStringLiteral("…"), 10000);
    // The panel moves from the live key to the kept snapshot when the run ends: its rows are read
    // again then (seen once under ASan: the row of the live key, read before, showed no writes).
    const BurstEngine& engine = m_window->experiment()->engine(LimiterExperiment::Left);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->zsetPanel()->key(), LimiterExperiment::snapshotKeyOf(engine.key()), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(model->index(0, ZsetModel::WritesColumn).data().toInt(), 500, 10000);
    NumbersPanel* numbers = m_window->runView(LimiterExperiment::Left)->numbers();
    QCOMPARE(numbers->figure(QStringLiteral("stored")), QStringLiteral("1"));
    QCOMPARE(numbers->figure(QStringLiteral("overwritten")), QStringLiteral("499"));
    QCOMPARE(numbers->figure(QStringLiteral("beyond")), QStringLiteral("490"));
    const TimelineModel& timeline = m_window->runView(LimiterExperiment::Left)->timeline()->model();
    QCOMPARE(timeline.lane(0).size(), size_t(1));
    QCOMPARE(timeline.lane(0).begin()->second.overwritten, 499);
}

void TestMainWindow::eachUserHasItsTimelineAndZset()
{
    connectWindow();
    BurstPlan plan = frozenPlan(QStringLiteral("request-id"), 90);
    plan.users = 3; // 30 requests each, every one a member of its own
    fireAndWait(plan);
    RunView* view = m_window->runView(LimiterExperiment::Left);
    auto* userBox = view->findChild<QSpinBox*>(QStringLiteral("userBox"));
    QVERIFY(userBox && userBox->isVisibleTo(view));
    QCOMPARE(view->run()->user(), 0);
    const BurstEngine& engine = m_window->experiment()->engine(LimiterExperiment::Left);
    // The run's figures stay the run's; the timeline and the ZSET are user 0's.
    QCOMPARE(view->numbers()->figure(QStringLiteral("stored")), QStringLiteral("90"));
    QCOMPARE(view->timeline()->model().requests(), 30);
    ZsetModel* model = m_window->zsetPanel()->model();
    QTRY_COMPARE_WITH_TIMEOUT(m_window->zsetPanel()->key(),
                              LimiterExperiment::snapshotKeyOf(ZsetKeys::userOfRun(engine.key(), 0)), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 30, 10000);
    // User 2: its own requests (ids 2, 5, 8, ...) and its own key, as Redis holds it.
    userBox->setValue(2);
    QCOMPARE(view->run()->user(), 2);
    // The user's own figures and its node; each node's in the tooltip.
    auto* figures = view->findChild<QLabel*>(QStringLiteral("userFigures"));
    QVERIFY(figures);
    QVERIFY2(figures->text().contains(QLatin1String("sent 30, overwritten 0, beyond the limit 0")),
             qPrintable(figures->text()));
    QVERIFY2(figures->text().contains(TestRedis::endpoint().address()), qPrintable(figures->text()));
    QVERIFY2(figures->toolTip().contains(TestRedis::endpoint().address() + QLatin1String(": 3 user")),
             qPrintable(figures->toolTip()));
    QVERIFY2(figures->toolTip().contains(QLatin1String("sent 90, overwritten 0")), qPrintable(figures->toolTip()));
    QCOMPARE(view->timeline()->model().requests(), 30);
    const QByteArray key = ZsetKeys::userOfRun(engine.key(), 2);
    QTRY_COMPARE_WITH_TIMEOUT(m_window->zsetPanel()->key(), LimiterExperiment::snapshotKeyOf(key), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 30, 10000);
    m_window->zsetPanel()->view()->scrollToBottom();
    QTRY_VERIFY_WITH_TIMEOUT(model->index(29, ZsetModel::MemberColumn).data().toString() != QStringLiteral("…"), 10000);
    RedisConnection redis;
    QVERIFY(redis.open(TestRedis::endpoint()));
    QCOMPARE(redis.command({"ZCARD", LimiterExperiment::snapshotKeyOf(key)}).toInteger(), 30LL);
    for (int row = 0; row < 30; ++row) {
        const QString member = model->index(row, ZsetModel::MemberColumn).data().toString();
        QVERIFY2(member.endsWith(QLatin1Char(':') + QString::number(member.section(QLatin1Char(':'), -1).toInt()))
                     && member.section(QLatin1Char(':'), -1).toInt() % 3 == 2,
                 qPrintable(member));
    }
    // Stepping through the run: the counts chart's cursor stands at the run's request, as the
    // timeline's does, whichever user is shown.
    view->run()->cursor()->setPosition(41);
    QCOMPARE(view->counts()->replayCursor(), 41);
    QVERIFY(view->timeline()->hasReplayCursor());
}

void TestMainWindow::frozenBurstWithRequestIdStoresEveryRequest()
{
    connectWindow();
    QAbstractItemModelTester tester(m_window->zsetPanel()->model(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    fireAndWait(frozenPlan(QStringLiteral("request-id"), 500));
    ZsetModel* model = m_window->zsetPanel()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 500, 10000);
    QCOMPARE(m_window->runView(LimiterExperiment::Left)->numbers()->figure(QStringLiteral("stored")),
             QStringLiteral("500"));
    QCOMPARE(m_window->runView(LimiterExperiment::Left)->numbers()->figure(QStringLiteral("beyond")),
             QStringLiteral("0"));
    // Scroll to the end: rows load on demand, page by page.
    m_window->zsetPanel()->view()->scrollToBottom();
    QTRY_VERIFY_WITH_TIMEOUT(model->index(499, ZsetModel::MemberColumn).data().toString() != QStringLiteral("…"),
                             10000);
    QTRY_COMPARE_WITH_TIMEOUT(model->index(499, ZsetModel::WritesColumn).data().toInt(), 1, 5000);
}

void TestMainWindow::compareModeRunsBothFromOneSchedule()
{
    connectWindow();
    BurstPlan plan = frozenPlan(QStringLiteral("request-id"), 300);
    plan.clock = ClockKind::Schedule;
    QVERIFY(Pacing::parse(QStringLiteral("interval:250"), &plan.pacing, nullptr));
    fireAndWait(plan, true);
    QVERIFY(m_window->runView(LimiterExperiment::Right)->isVisible());
    const BurstEngine& left = m_window->experiment()->engine(LimiterExperiment::Left);
    const BurstEngine& right = m_window->experiment()->engine(LimiterExperiment::Right);
    QCOMPARE(left.summary().limiter, QStringLiteral("now"));
    QCOMPARE(right.summary().limiter, QStringLiteral("request-id"));
    QCOMPARE(right.log().size(), 300);
    for (int i = 0; i < 300; ++i)
        QCOMPARE(right.log().now(i), left.log().now(i)); // the same timestamps
    QCOMPARE(left.summary().stored, 75); // four requests per millisecond share a member
    QCOMPARE(right.summary().stored, 300);
    QCOMPARE(m_window->runView(LimiterExperiment::Left)->numbers()->figure(QStringLiteral("stored")),
             QStringLiteral("75"));
    QCOMPARE(m_window->runView(LimiterExperiment::Right)->numbers()->figure(QStringLiteral("stored")),
             QStringLiteral("300"));
    QVERIFY(left.key() != right.key());
}

void TestMainWindow::timelineClickSelectsTheMember()
{
    connectWindow();
    BurstPlan plan = frozenPlan(QStringLiteral("now"), 400);
    plan.clock = ClockKind::Schedule;
    QVERIFY(Pacing::parse(QStringLiteral("interval:250"), &plan.pacing, nullptr));
    fireAndWait(plan);
    TimelineView* timeline = m_window->runView(LimiterExperiment::Left)->timeline();
    timeline->setVisibleRange(0, 20);
    QSignalSpy clicked(timeline, &TimelineView::millisecondClicked);
    // Click in the middle of millisecond 7.
    const double x = timeline->scale().xOf(7.5);
    QTest::mouseClick(timeline, Qt::LeftButton, {}, QPoint(int(x), timeline->height() - 40));
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.at(0).at(0).toLongLong(), 7);
    const QByteArray member = clicked.at(0).at(1).toByteArray();
    QVERIFY(!member.isEmpty());
    QTableView* table = m_window->zsetPanel()->view();
    QTRY_VERIFY_WITH_TIMEOUT(table->selectionModel()->hasSelection(), 10000);
    const QModelIndex selected = table->selectionModel()->selectedRows(ZsetModel::MemberColumn).value(0);
    QTRY_COMPARE_WITH_TIMEOUT(selected.data(ZsetModel::MemberRole).toByteArray(), member, 10000);
    // Read again (a filter typed, or the run's snapshot taking the live key's place), the table
    // keeps the member selected.
    auto selectedMember = [table] {
        return table->selectionModel()
            ->selectedRows(ZsetModel::MemberColumn)
            .value(0)
            .data(ZsetModel::MemberRole)
            .toByteArray();
    };
    QLineEdit* filter = nullptr;
    for (QLineEdit* edit : m_window->zsetPanel()->findChildren<QLineEdit*>()) {
        if (edit->placeholderText().startsWith(QLatin1String("member")))
            filter = edit;
    }
    QVERIFY(filter);
    filter->setText(QString::fromUtf8(member.left(member.size() - 1)));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->zsetPanel()->model()->rowCount() <= 10, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(selectedMember(), member, 10000);
}

void TestMainWindow::keepsTheSimulatedServersOfAScenario()
{
    Scenario scenario;
    QString error;
    QVERIFY2(Scenario::load(QStringLiteral(":/scenarios/three-servers.json"), &scenario, &error), qPrintable(error));
    m_window->applyScenario(scenario);
    const BurstPlan plan = m_window->planModel()->plan().burst;
    QCOMPARE(plan.clients.size(), 3);
    QCOMPARE(plan.clients.at(2).offsetMs, 40);
    QCOMPARE(m_window->currentScenario().experiment.burst.clients.size(), 3);
}

void TestMainWindow::scenarioPlanSurvivesOpenFireSave_data()
{
    QTest::addColumn<QByteArray>("plan");
    QTest::addColumn<bool>("compare");
    // Every field of a plan, none at its default.
    QTest::newRow("connections with clock offsets")
        << QByteArray(R"({"strategy":"sequence","requests":120,"connections":3,"pipeline":4,"pace":"poisson:2.5",)"
                      R"("clock":"schedule","window_ms":250,"limit":42,"users":3,"seed":99,"reconnect_for_ms":5000,)"
                      R"("stop_on_error":true,"clock_offsets_ms":[0,0,40]})")
        << false;
    QTest::newRow("app servers, compare mode")
        << QByteArray(R"({"strategy":"request-id","requests":90,"connections":1,"pipeline":2,"pace":"interval:300",)"
                      R"("clock":"schedule","window_ms":500,"limit":7,"users":2,"seed":5,"reconnect_for_ms":0,)"
                      R"("stop_on_error":false,"clients":"rate=2;rate=1,offset=5"})")
        << true;
}

void TestMainWindow::scenarioPlanSurvivesOpenFireSave()
{
    QFETCH(QByteArray, plan);
    QFETCH(bool, compare);
    const QByteArray json = R"({"schema":"zsetlab.scenario/1","title":"every field","unique_strategy":"sequence",)"
                            R"("compare":)"
        + QByteArray(compare ? "true" : "false") + R"(,"plan":)" + plan + "}";
    Scenario scenario;
    QString error;
    QVERIFY2(Scenario::fromJson(json, &scenario, &error), qPrintable(error));
    const QJsonObject written = QJsonDocument::fromJson(plan).object();
    QCOMPARE(PlanFields::toJson(scenario.experiment.burst), written); // the file reads whole

    connectWindow();
    m_window->applyScenario(scenario);
    QSignalSpy done(m_window->experiment(), &LimiterExperiment::allFinished);
    m_window->fireAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    // What ran is the file's plan: the left side's (the bug in compare mode), then the fix.
    const BurstEngine& left = m_window->experiment()->engine(LimiterExperiment::Left);
    QJsonObject ran = PlanFields::toJson(left.plan());
    if (compare) {
        QCOMPARE(ran.value(QLatin1String("strategy")).toString(), QStringLiteral("now"));
        ran[QStringLiteral("strategy")] = written.value(QLatin1String("strategy"));
        const BurstEngine& right = m_window->experiment()->engine(LimiterExperiment::Right);
        QCOMPARE(right.plan().limiter->id, QStringLiteral("sequence"));
        QCOMPARE(right.summary().sent, left.summary().sent);
    }
    QCOMPARE(ran, written);
    QVERIFY2(!left.summary().failure.isFailure(), qPrintable(left.summary().failure.message));
    QCOMPARE(left.summary().sent, written.value(QLatin1String("requests")).toInt());

    // Saved again, the file says what it said.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("saved.json"));
    QVERIFY2(m_window->currentScenario().save(path, &error), qPrintable(error));
    Scenario saved;
    QVERIFY2(Scenario::load(path, &saved, &error), qPrintable(error));
    QCOMPARE(PlanFields::toJson(saved.experiment.burst), written);
    QCOMPARE(saved.experiment.compare, compare);
    QCOMPARE(saved.experiment.fix->id, QStringLiteral("sequence"));
}

void TestMainWindow::refusesToFireWithoutAServer()
{
    m_window->session()->disconnectFromServer();
    m_window->fireAction()->trigger();
    QVERIFY(!m_window->experiment()->isRunning());
}

void TestMainWindow::windowImageIsNotBlank()
{
    connectWindow();
    BurstPlan plan = frozenPlan(QStringLiteral("now"), 2000);
    plan.clock = ClockKind::Schedule;
    QVERIFY(Pacing::parse(QStringLiteral("poisson:3"), &plan.pacing, nullptr));
    fireAndWait(plan, true);
    const QString path = qEnvironmentVariableIsSet("ZSETLAB_SCREENSHOT")
        ? qEnvironmentVariable("ZSETLAB_SCREENSHOT")
        : QDir::temp().filePath(QStringLiteral("zsetlab-test-window.png"));
    QString error;
    QVERIFY2(m_window->saveScreenshot(path, &error), qPrintable(error));
    const QImage image(path);
    QCOMPARE(image.size(), m_window->size() * m_window->devicePixelRatio());
    QVERIFY2(inkShare(image, 4) > 0.2, "the window picture is nearly one colour");
    QVERIFY(m_window->runView(LimiterExperiment::Left)->counts()->plottedPoints() > 0);
}

// A label's "&F" underlines F and moves the focus to its buddy; without a buddy Qt shows the "&"
// itself ("&File" in Export Picture once did).
void TestMainWindow::mnemonicLabelsHaveBuddies()
{
    ExportDialog exportDialog({{QStringLiteral("window"), m_window.get()}}, m_window.get());
    ConnectDialog connectDialog(RedisServerChoice::Request(), m_window.get());
    ScriptDoctorDialog doctor(m_window->session(), m_window.get());
    int checked = 0;
    for (const QWidget* root :
         std::initializer_list<const QWidget*> {m_window.get(), &exportDialog, &connectDialog, &doctor}) {
        for (const QLabel* label : root->findChildren<QLabel*>()) {
            QString text = label->text();
            text.remove(QStringLiteral("&&"));
            if (!text.contains(QLatin1Char('&')) || Qt::mightBeRichText(label->text()))
                continue;
            QVERIFY2(label->buddy(), qPrintable(QStringLiteral("\"%1\" has no buddy").arg(label->text())));
            ++checked;
        }
    }
    QVERIFY(checked >= 5);
}

// The Connect dialog's TLS fields reach the connection; the window then says over TLS what Redis
// holds (read over the server's plain socket).
void TestMainWindow::connectDialogReachesATlsServer()
{
    PrivateTls tls;
    tls.enabled = true;
    PrivateRedisServer server({}, {}, tls);
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    ConnectDialog dialog(RedisServerChoice::Request(), m_window.get());
    auto* caField = dialog.findChild<QLineEdit*>(QStringLiteral("tlsCa"));
    QVERIFY(caField);
    QVERIFY(!caField->isEnabled()); // not for the default server
    dialog.findChild<QLineEdit*>(QStringLiteral("url"))->setText(server.tlsEndpoint().displayUrl());
    QVERIFY(caField->isEnabled());
    caField->setText(server.caFile());
    dialog.accept();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    const RedisServerChoice::Request request = dialog.request();
    QCOMPARE(request.tls.caFile, server.caFile());
    m_window->connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
    QVERIFY(m_window->session()->endpoint().tls.enabled);
    QVERIFY2(m_window->serverBar()->statusText().contains(QLatin1String("rediss://127.0.0.1")),
             qPrintable(m_window->serverBar()->statusText()));

    BurstPlan plan = frozenPlan(QStringLiteral("now"), 300);
    plan.keepKey = true;
    fireAndWait(plan);
    NumbersPanel* numbers = m_window->runView(LimiterExperiment::Left)->numbers();
    QCOMPARE(numbers->figure(QStringLiteral("stored")), QStringLiteral("1"));
    QCOMPARE(numbers->figure(QStringLiteral("overwritten")), QStringLiteral("299"));
    RedisConnection plain;
    QVERIFY(plain.open(server.endpoint()));
    const QByteArray key = m_window->experiment()->engine(LimiterExperiment::Left).key();
    QCOMPARE(plain.command({"ZCARD", key}).toInteger(), 1LL);
    ZsetModel* model = m_window->zsetPanel()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(model->index(0, ZsetModel::WritesColumn).data().toInt(), 300, 10000);

    // A CA the server was not signed by: the dialog's choice fails with the check that failed.
    RedisServerChoice::Request wrong = request;
    wrong.tls.caFile.clear(); // the system's store
    QSignalSpy failed(m_window->session(), &ServerSession::failed);
    m_window->connectToServer(wrong);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
    QVERIFY2(failed.at(0).at(0).toString().contains(QLatin1String("--tls-ca")),
             qPrintable(failed.at(0).at(0).toString()));
}

// A window that fired at one server and then at another deleted the first run's keys on the
// second server, by name, and left them on the first.
void TestMainWindow::anotherServerGetsNoneOfTheShownKeys()
{
    connectWindow();
    fireAndWait(frozenPlan(QStringLiteral("now"), 50));
    const QByteArray first = m_window->experiment()->engine(LimiterExperiment::Left).key();
    RedisConnection shared;
    QVERIFY(shared.open(TestRedis::endpoint()));
    QCOMPARE(shared.command({"EXISTS", first, LimiterExperiment::snapshotKeyOf(first)}).toInteger(), 2LL);

    PrivateRedisServer other;
    QVERIFY2(other.start(), qPrintable(other.errorString()));
    RedisServerChoice::Request request;
    request.url = other.endpoint().displayUrl();
    m_window->connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable() && m_window->session()->endpoint() == other.endpoint(),
                             10000);
    RedisConnection second;
    QVERIFY(second.open(other.endpoint()));
    const qint64 deletesBefore = second.command({"INFO", "commandstats"}).bytes().count("cmdstat_del:");
    fireAndWait(frozenPlan(QStringLiteral("now"), 50));
    QTRY_COMPARE_WITH_TIMEOUT(shared.command({"EXISTS", first, LimiterExperiment::snapshotKeyOf(first)}).toInteger(),
                              0LL, 5000);
    QCOMPARE(second.command({"INFO", "commandstats"}).bytes().count("cmdstat_del:"), deletesBefore);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
