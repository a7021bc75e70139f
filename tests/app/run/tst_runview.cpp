// A run stepped through in the window: the timeline, the counts, the figures and the ZSET table
// at each request, a replay file opened without Redis, and a damaged one refused.

#include "burst/planfields.h"
#include "burst/planmodel.h"
#include "burst/scenario.h"
#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "limiters/limitercatalog.h"
#include "redis/redisconnection.h"
#include "replay/recording.h"
#include "replay/replayfile.h"
#include "replay/replayfork.h"
#include "run/numberspanel.h"
#include "run/replayactions.h"
#include "run/replaymembersmodel.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "run/runview.h"
#include "run/scenarioactions.h"
#include "run/transportbar.h"
#include "run/zsetpanel.h"
#include "testbursts.h"
#include "testredis.h"
#include "testsettings.h"
#include "testwindow.h"

#include <QApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

namespace {
// Answers the next modal dialog with Close, keeping its text.
void closeNextDialog(QString* text)
{
    QTimer::singleShot(0, qApp, [text] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (!box) {
            closeNextDialog(text); // not shown yet: the next turn of the event loop
            return;
        }
        *text = box->text();
        box->done(QMessageBox::Close);
    });
}

// The plan of `requests` requests in one millisecond with member = now (the bug), one side.
void planOneMillisecondAtTheBug(MainWindow& window, int requests, qint64 limit)
{
    ExperimentPlan plan = window.planModel()->plan();
    plan.compare = false;
    plan.burst.limiter = LimiterCatalog::builtin("now");
    plan.burst.clock = ClockKind::Frozen;
    plan.burst.requests = requests;
    plan.burst.limit = limit;
    window.planModel()->setPlan(plan);
}
} // namespace

class TestRunView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void oneMillisecondStepByStep();
    void playingReachesTheEnd();
    void aReplayFileOpensWithoutRedis();
    void aDamagedReplayChangesNothing();
    void theTimelineKeepsNoStalePicture();
    void aWhatIfRunsBesideTheRun();
    void aScenarioCarriesItsRun();
    void compareModeBecomesOneWebPage();

private:
    QTemporaryDir m_dir;
};

void TestRunView::initTestCase()
{
    TestSettings::keepToThisRun();
}

void TestRunView::oneMillisecondStepByStep()
{
    MainWindow window;
    QVERIFY(showConnected(window));
    planOneMillisecondAtTheBug(window, 3, 0);
    QSignalSpy done(window.experiment(), &LimiterExperiment::allFinished);
    window.fire();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);

    RunView* run = window.runView(LimiterExperiment::Left);
    QTRY_VERIFY(run->transport()->isVisible());
    QCOMPARE(run->run()->cursor()->position(), 2);
    QVERIFY(!run->run()->isReplaying()); // the run as it ended, until the cursor moves
    QVERIFY(!run->timeline()->hasReplayCursor());

    // The keys, where the focus is in the run's area: Home, then Right.
    run->timeline()->setFocus();
    QTest::keyClick(run->timeline(), Qt::Key_Home);
    QCOMPARE(run->run()->cursor()->position(), 0);
    ZsetPanel* zset = window.zsetPanel();
    const int addedThen[] = {1, 0, 0};
    for (int i = 0; i < 3; ++i) {
        if (i > 0)
            QTest::keyClick(run->timeline(), Qt::Key_Right);
        QCOMPARE(run->run()->cursor()->position(), i);
        QVERIFY(zset->showsReplay());
        const ReplayState& state = zset->replayModel()->state();
        QCOMPARE(state.added, addedThen[i]);
        QCOMPARE(state.members, 1); // ZCARD 1 after each
        QCOMPARE(zset->replayModel()->rowCount(), 1);
        QCOMPARE(zset->replayModel()->writtenRow(), 0);
        QCOMPARE(zset->replayModel()->index(0, 3).data().toInt(), i + 1); // writes of the member so far
        QCOMPARE(run->numbers()->figure(QStringLiteral("sent")), QString::number(i + 1));
        QCOMPARE(run->numbers()->figure(QStringLiteral("overwritten")), QString::number(i));
        QVERIFY(run->timeline()->hasReplayCursor());
        QCOMPARE(run->counts()->replayCursor(), i);
        // Drawn upright at the request's place, across the plot's height.
        QChart* chart = run->counts()->chart();
        const QLineF cursor = run->counts()->replayCursorLine();
        QVERIFY(!cursor.isNull());
        QCOMPARE(cursor.x1(), cursor.x2());
        QCOMPARE(cursor.x1(), chart->mapToPosition(QPointF(i, 0), chart->series().constFirst()).x());
        QVERIFY(cursor.x1() >= chart->plotArea().left() && cursor.x1() <= chart->plotArea().right());
        QVERIFY(std::abs(cursor.y1() - chart->plotArea().bottom()) < 1);
        QVERIFY(std::abs(cursor.y2() - chart->plotArea().top()) < 1);
        QVERIFY2(run->transport()->captionText().contains(QStringLiteral("Request %1 of 3").arg(i + 1)),
                 qPrintable(run->transport()->captionText()));
        QVERIFY(run->transport()->captionText().contains(addedThen[i] ? QLatin1String("ZADD replied 1")
                                                                      : QLatin1String("ZADD replied 0")));
    }
    QTest::keyClick(run->timeline(), Qt::Key_Right); // at the end: stays
    QCOMPARE(run->run()->cursor()->position(), 2);

    // Saved from the window, as File > Save Replay does.
    QVERIFY(window.replayActions()->saveAction()->isEnabled());
    QVERIFY(window.replayActions()->save(m_dir.filePath(QStringLiteral("three.zsetreplay"))));
}

void TestRunView::playingReachesTheEnd()
{
    MainWindow window;
    QVERIFY(showConnected(window));
    ExperimentPlan plan = window.planModel()->plan();
    plan.compare = false;
    plan.burst.limiter = LimiterCatalog::builtin("now");
    plan.burst.requests = 120;
    plan.burst.pacing.kind = Pacing::Kind::Poisson;
    plan.burst.pacing.perMs = 2;
    plan.burst.clock = ClockKind::Schedule;
    window.planModel()->setPlan(plan);
    QSignalSpy done(window.experiment(), &LimiterExperiment::allFinished);
    window.fire();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    RunView* run = window.runView(LimiterExperiment::Left);
    run->run()->cursor()->setSpeed({ReplaySpeed::Unit::RequestsPerSecond, 1000});
    QList<int> seen;
    connect(run->run(), &RunModel::cursorMoved, this, [&seen](int at) { seen << at; });
    run->timeline()->setFocus();
    QTest::keyClick(run->timeline(), Qt::Key_Space); // at the end: plays from the start
    QVERIFY(run->run()->cursor()->isPlaying());
    QTRY_VERIFY_WITH_TIMEOUT(!run->run()->cursor()->isPlaying(), 10000);
    QCOMPARE(seen.first(), 0);
    QCOMPARE(seen.last(), 119);
    QVERIFY(std::is_sorted(seen.cbegin(), seen.cend()));
    QCOMPARE(window.zsetPanel()->replayModel()->state().request, 120);
    // What the ZSET panel shows at the end is what the recording says Redis held.
    const ReplayState end = run->run()->cursor()->recording()->stateAt(119, true);
    QCOMPARE(window.zsetPanel()->replayModel()->rowCount(), int(end.memberList.size()));
}

void TestRunView::aReplayFileOpensWithoutRedis()
{
    const QString path = m_dir.filePath(QStringLiteral("three.zsetreplay"));
    QVERIFY2(QFile::exists(path), "oneMillisecondStepByStep saves it");
    MainWindow window; // never connected
    window.show();
    window.planModel()->edit([](ExperimentPlan& plan) {
        plan.burst.requests = 777;
        plan.burst.limiter = LimiterCatalog::builtin(QStringLiteral("random"));
    });
    QVERIFY(window.openReplay(path));
    RunView* run = window.runView(LimiterExperiment::Left);
    // The Burst panel has the replay's plan: F5 fires that burst, live.
    Recording opened;
    QVERIFY(ReplayFile::open(path, &opened, nullptr));
    BurstPlan recorded;
    QString why;
    QVERIFY2(PlanFields::fromJson(opened.info().plan, &recorded, &why), qPrintable(why));
    QCOMPARE(window.planModel()->plan().burst.requests, recorded.requests);
    QCOMPARE(window.planModel()->plan().burst.limiter->id, recorded.limiter->id);
    QCOMPARE(window.planModel()->plan().burst.windowMs, recorded.windowMs);
    QVERIFY(run->transport()->isVisible());
    QCOMPARE(run->run()->cursor()->requests(), 3);
    QCOMPARE(run->timeline()->model().requests(), 3);
    QCOMPARE(run->numbers()->figure(QStringLiteral("overwritten")), QStringLiteral("2"));
    QVERIFY(window.zsetPanel()->showsReplay());
    QCOMPARE(window.zsetPanel()->replayModel()->state().request, 3);
    run->run()->cursor()->stepBack();
    QCOMPARE(window.zsetPanel()->replayModel()->state().request, 2);
    QCOMPARE(run->numbers()->figure(QStringLiteral("sent")), QStringLiteral("2"));
}

void TestRunView::aDamagedReplayChangesNothing()
{
    MainWindow window;
    window.show();
    QVERIFY(window.openReplay(m_dir.filePath(QStringLiteral("three.zsetreplay"))));
    QFile damaged(m_dir.filePath(QStringLiteral("damaged.zsetreplay")));
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write("this is a scenario, not a replay");
    damaged.close();
    QString told;
    closeNextDialog(&told);
    QVERIFY(!window.openReplay(damaged.fileName()));
    QVERIFY2(told.contains(QLatin1String("not a zsetlab replay"))
                 && told.contains(QLatin1String("Nothing was changed")),
             qPrintable(told));
    QCOMPARE(window.runView(LimiterExperiment::Left)->run()->cursor()->requests(), 3); // the replay shown before stays
}

void TestRunView::theTimelineKeepsNoStalePicture()
{
    // The timeline keeps what it drew under the replay cursor: whatever changes after (requests
    // added, another range, a palette), it draws what a timeline drawing it all anew does.
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.requests = 2000;
    plan.pacing.kind = Pacing::Kind::Poisson;
    plan.pacing.perMs = 2;
    plan.clock = ClockKind::Schedule;
    plan.seed = 5;
    const Recording recording = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    const RequestBatch whole = recording.batch();
    RequestBatch first = whole;
    RequestBatch second = whole;
    const auto& records = *whole.finished;
    const auto half = records.begin() + std::ptrdiff_t(records.size() / 2);
    first.finished = std::make_shared<const std::vector<RequestRecord>>(records.begin(), half);
    second.finished = std::make_shared<const std::vector<RequestRecord>>(half, records.end());
    first.counted = std::make_shared<const std::vector<CountedRequest>>();
    second.counted = first.counted;

    const QSize size(900, 260);
    QPalette dark;
    dark.setColor(QPalette::Base, Qt::black);
    dark.setColor(QPalette::Text, Qt::white);
    // A timeline that draws the state it is given all at once.
    auto drawnAnew = [&](bool both, std::optional<std::pair<double, double>> range, bool darkPalette, int cursorAt) {
        TimelineView fresh;
        fresh.resize(size);
        if (darkPalette)
            fresh.setPalette(dark);
        fresh.addBatch(first);
        if (both)
            fresh.addBatch(second);
        if (range)
            fresh.setVisibleRange(range->first, range->second);
        fresh.setReplayCursor(recording.log().now(cursorAt), 0);
        return fresh.grab().toImage();
    };

    TimelineView kept;
    kept.resize(size);
    kept.addBatch(first);
    kept.setReplayCursor(recording.log().now(100), 0);
    const QImage before = kept.grab().toImage();
    QCOMPARE(before, drawnAnew(false, {}, false, 100));
    kept.setReplayCursor(recording.log().now(700), 0);
    QVERIFY(kept.grab().toImage() != before); // the cursor moved over the same picture
    QCOMPARE(kept.grab().toImage(), drawnAnew(false, {}, false, 700));
    kept.addBatch(second);
    QCOMPARE(kept.grab().toImage(), drawnAnew(true, {}, false, 700));
    kept.setVisibleRange(10, 400);
    QCOMPARE(kept.grab().toImage(), drawnAnew(true, std::pair(10.0, 400.0), false, 700));
    kept.setPalette(dark);
    QCOMPARE(kept.grab().toImage(), drawnAnew(true, std::pair(10.0, 400.0), true, 700));
}

void TestRunView::aWhatIfRunsBesideTheRun()
{
    // Eight requests in one millisecond at the bug; from the third on, what if each had its own member?
    MainWindow window;
    QVERIFY(showConnected(window));
    planOneMillisecondAtTheBug(window, 8, 5);
    QSignalSpy done(window.experiment(), &LimiterExperiment::allFinished);
    window.fire();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    RunView* left = window.runView(LimiterExperiment::Left);
    RunView* right = window.runView(LimiterExperiment::Right);
    QVERIFY(left->transport()->forkAction()->isVisible());
    QVERIFY(!right->transport()->forkAction()->isVisible());
    const std::shared_ptr<const Recording> original = left->run()->cursor()->recording();

    const QByteArray originalKey = window.experiment()->engine(LimiterExperiment::Left).key();
    ForkChange change;
    change.limiter = LimiterCatalog::builtin("request-id");
    QVERIFY(window.forkFrom(2, change));
    QVERIFY(!window.fireAction()->isEnabled()); // one run at a time
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, 60000);
    QVERIFY(right->isVisible());
    QVERIFY2(right->run()->title().contains(QLatin1String("what if")), qPrintable(right->run()->title()));
    QCOMPARE(left->run()->cursor()->recording(), original); // the run stays on the left, at the fork's request
    QCOMPARE(left->run()->cursor()->position(), 2);

    // Requests 3..8 again, with the original's timestamps, on a ZSET that held what the original's
    // held before request 3 (its one member): each new member counts.
    QTRY_VERIFY(right->run()->cursor()->recording() != nullptr);
    const Recording& fork = *right->run()->cursor()->recording();
    QCOMPARE(fork.requests(), 6);
    QCOMPARE(fork.info().source, QStringLiteral("fork"));
    Recording reopened;
    QString error;
    QVERIFY2(ReplayFile::decode(ReplayFile::encode(fork), &reopened, &error), qPrintable(error));
    for (int i = 0; i < fork.requests(); ++i) {
        QCOMPARE(fork.log().now(i), original->log().now(i + 2));
        QCOMPARE(fork.log().added(i), 1);
        QCOMPARE(fork.log().count(i), qint64(i + 2));
        // The member the run held before request 3 is in the what-if's ZSET, saved or not.
        QCOMPARE(fork.stateAt(i, false).members, qint64(i + 2));
        QCOMPARE(reopened.stateAt(i, true).memberList.size(), size_t(i + 2));
    }
    QCOMPARE(original->totalsFrom(2).overwritten, 6);
    QVERIFY2(window.statusBar()->currentMessage().contains(QLatin1String("From request 3 on")),
             qPrintable(window.statusBar()->currentMessage()));

    // Reset deletes the fork's key, made by this run.
    const QByteArray key = window.experiment()->engine(LimiterExperiment::Right).key();
    QVERIFY(!key.isEmpty());
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    // Its copy, kept while shown (the live key's PEXPIRE of one window may pass on a slow machine).
    QTRY_COMPARE_WITH_TIMEOUT(redis.command({"EXISTS", LimiterExperiment::snapshotKeyOf(key)}).toInteger(), 1LL, 10000);
    // The run's own key stays while it is shown beside the what-if.
    QCOMPARE(redis.command({"EXISTS", LimiterExperiment::snapshotKeyOf(originalKey)}).toInteger(), 1LL);
    QSignalSpy deleted(window.experiment(), &LimiterExperiment::keysDeleted);
    window.reset();
    QTRY_COMPARE_WITH_TIMEOUT(deleted.count(), 1, 10000);
    QCOMPARE(redis.command({"EXISTS", key}).toInteger(), 0LL);
    QCOMPARE(redis.command({"EXISTS", LimiterExperiment::snapshotKeyOf(key)}).toInteger(), 0LL);
    QCOMPARE(redis.command({"EXISTS", LimiterExperiment::snapshotKeyOf(originalKey)}).toInteger(), 0LL);
    QVERIFY(!right->isVisible()); // no what-if left to show

    // After Reset there is no run to go on from: said, nothing fired.
    QVERIFY(!window.forkFrom(2, change));
    QVERIFY(!window.statusBar()->currentMessage().isEmpty());
    QVERIFY(!window.experiment()->isRunning());
    QVERIFY(window.fireAction()->isEnabled());
}

void TestRunView::aScenarioCarriesItsRun()
{
    const QString replay = m_dir.filePath(QStringLiteral("three.zsetreplay"));
    QVERIFY2(QFile::exists(replay), "oneMillisecondStepByStep saves it");
    const QString path = m_dir.filePath(QStringLiteral("carried.json"));
    {
        MainWindow window; // never connected
        window.show();
        Scenario scenario;
        QString error;
        QVERIFY(!window.scenarioActions()->currentWithRun(&scenario, &error)); // nothing on screen yet
        QVERIFY2(error.contains(QLatin1String("no run on screen")), qPrintable(error));
        QVERIFY(window.openReplay(replay));
        QVERIFY2(window.scenarioActions()->currentWithRun(&scenario, &error), qPrintable(error));
        QVERIFY(scenario.save(path, &error));
    }
    // Opened elsewhere, with no Redis: the same three requests, ZADD 1, 0, 0.
    Scenario loaded;
    QString error;
    QVERIFY2(Scenario::load(path, &loaded, &error), qPrintable(error));
    QVERIFY(!loaded.recording.isEmpty());
    MainWindow window;
    window.show();
    window.applyScenario(loaded);
    RunView* run = window.runView(LimiterExperiment::Left);
    QVERIFY(run->run()->cursor()->recording());
    QCOMPARE(run->run()->cursor()->requests(), 3);
    const int addedThen[] = {1, 0, 0};
    for (int i = 0; i < 3; ++i) {
        run->run()->cursor()->setPosition(i);
        QCOMPARE(window.zsetPanel()->replayModel()->state().added, addedThen[i]);
        QCOMPARE(window.zsetPanel()->replayModel()->state().members, 1);
    }
    // A damaged run: said, and the plan is loaded all the same.
    Scenario damaged = loaded;
    damaged.recording = loaded.recording.left(loaded.recording.size() / 2);
    damaged.experiment.burst.requests = 77;
    MainWindow other;
    other.show();
    other.applyScenario(damaged);
    QVERIFY(!other.runView(LimiterExperiment::Left)->run()->cursor()->recording());
    QCOMPARE(other.planModel()->plan().burst.requests, 77);
    QVERIFY2(other.statusBar()->currentMessage().contains(QLatin1String("does not read")),
             qPrintable(other.statusBar()->currentMessage()));
}

// File > Export as Web Page in compare mode: one page, both sides, in the window's language.
void TestRunView::compareModeBecomesOneWebPage()
{
    MainWindow window;
    QVERIFY(showConnected(window));
    ExperimentPlan plan = window.planModel()->plan();
    plan.burst.limiter = LimiterCatalog::builtin("now");
    plan.burst.clock = ClockKind::Frozen;
    plan.burst.requests = 20;
    plan.compare = true;
    plan.fix = LimiterCatalog::builtin("request-id");
    window.planModel()->setPlan(plan);
    QSignalSpy done(window.experiment(), &LimiterExperiment::allFinished);
    window.fire();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    QTRY_VERIFY(window.run(LimiterExperiment::Right)->hasRecording());

    const QString path = m_dir.filePath(QStringLiteral("compare.html"));
    QString error;
    QVERIFY2(window.replayActions()->exportPage(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray html = file.readAll();
    QVERIFY(html.contains("<html lang=\"en\">"));
    // The page's header, as its script reads it: the data block, unpacked.
    const QByteArray open = "id=\"zsetlab-data\">";
    const qsizetype from = html.indexOf(open) + open.size();
    QByteArray packed = QByteArray::fromBase64(html.mid(from, html.indexOf("</script>", from) - from));
    packed.prepend(QByteArray::fromHex("00100000")); // qUncompress's size hint: 1 MiB
    const QByteArray raw = qUncompress(packed);
    QVERIFY(raw.size() > 2);
    const qsizetype headerSize = quint8(raw[0]) < 0x80 ? quint8(raw[0]) : (quint8(raw[0]) & 0x7f) | quint8(raw[1]) << 7;
    const qsizetype headerAt = quint8(raw[0]) < 0x80 ? 1 : 2;
    const QJsonObject header = QJsonDocument::fromJson(raw.mid(headerAt, headerSize)).object();
    const QJsonArray sides = header.value(QLatin1String("sides")).toArray();
    QCOMPARE(sides.size(), 2);
    QCOMPARE(sides.at(0).toObject().value(QLatin1String("strategy")).toString(), QStringLiteral("now"));
    QCOMPARE(sides.at(1).toObject().value(QLatin1String("strategy")).toString(), QStringLiteral("request-id"));
    QCOMPARE(sides.at(0).toObject().value(QLatin1String("source")).toString(), QStringLiteral("compare"));

    // Out of compare mode, an opened replay alone: one side.
    QVERIFY(window.replayActions()->save(m_dir.filePath(QStringLiteral("left.zsetreplay"))));
    QVERIFY(window.openReplay(m_dir.filePath(QStringLiteral("left.zsetreplay"))));
    QVERIFY2(window.replayActions()->exportPage(path, &error), qPrintable(error));
    QVERIFY(!window.replayActions()->exportPage(m_dir.filePath(QStringLiteral("no/page.html")), &error));
    QVERIFY2(error.contains(QLatin1String("does not exist")), qPrintable(error));
}

QTEST_MAIN(TestRunView)
#include "tst_runview.moc"
