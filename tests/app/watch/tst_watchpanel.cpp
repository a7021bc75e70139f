// Watch mode in the window: what its table, verdict and timeline say about an app's limiter is
// what Redis did, read from the run's own summary and from the server.
#include "burst/limiterexperiment.h"
#include "burst/planmodel.h"
#include "charts/timelineview.h"
#include "cliprocess.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "mainwindow.h"
#include "redis/redisconnection.h"
#include "redis/serversession.h"
#include "replay/recording.h"
#include "run/numberspanel.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "run/runview.h"
#include "run/transportbar.h"
#include "run/zsetpanel.h"
#include "script/scriptdoctordialog.h"
#include "testsettings.h"
#include "watch/watchkeymodel.h"
#include "watch/watchpanel.h"

#include <QAction>
#include <QCryptographicHash>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QTableView>
#include <QtTest>

class TestWatchPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void showsWhatRedisDid_data();
    void showsWhatRedisDid();
    void asksBeforeWatchingAServerItDidNotStart();
    void keepsABoundedHistoryForKeysChosenLater();

private:
    void connectWindow(MainWindow& window, const PrivateRedisServer& server);
};

void TestWatchPanel::initTestCase()
{
    TestSettings::keepToThisRun();
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    if (PrivateRedisServer::executable().isEmpty())
        QSKIP("redis-server is not installed");
}

void TestWatchPanel::connectWindow(MainWindow& window, const PrivateRedisServer& server)
{
    window.show();
    RedisServerChoice::Request request;
    request.url = server.endpoint().displayUrl();
    window.connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->isUsable(), 10000);
}

void TestWatchPanel::showsWhatRedisDid_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::newRow("the member is the time") << QStringLiteral("now");
    QTest::newRow("a unique member") << QStringLiteral("request-id");
}

void TestWatchPanel::showsWhatRedisDid()
{
    QFETCH(QString, strategy);
    PrivateRedisServer server; // the app's server: one zsetlab did not start in this window
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    MainWindow window;
    connectWindow(window, server);
    WatchPanel* panel = window.watchPanel();
    QString asked;
    panel->setConfirm([&asked](const QString& question) {
        asked = question;
        return true;
    });
    // A compare-mode burst first: the watched key takes the runs' place alone afterwards.
    window.planModel()->edit([](ExperimentPlan& plan) {
        plan.burst.requests = 20;
        plan.compare = true;
    });
    QSignalSpy burst(window.experiment(), &LimiterExperiment::allFinished);
    window.fire();
    QTRY_COMPARE_WITH_TIMEOUT(burst.count(), 1, 30000);
    QVERIFY(window.runView(LimiterExperiment::Right)->isVisible());
    window.showWatch();
    QVERIFY(panel->start());
    QVERIFY2(asked.contains(QLatin1String("MONITOR")), qPrintable(asked));
    QTRY_VERIFY_WITH_TIMEOUT(
        panel->statusText().contains(QLatin1String("Watching ") + window.session()->server().displayName()), 10000);
    QVERIFY(window.stopAction()->isEnabled()); // Esc stops a watch
    // A key only read comes first, as the window's own ZSET table reads its burst's key: the
    // timeline is left to the first key written to.
    const QByteArray onlyRead = "zsetlab:a-key-only-read";
    RedisConnection reader;
    QVERIFY(reader.open(server.endpoint()));
    QCOMPARE(reader.command({"ZCARD", onlyRead}).toInteger(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(panel->keys()->rowOf(0, onlyRead) >= 0, 10000);

    // The app: another process with its own limiter calls, on the same server.
    const QByteArray key = "zsetlab:watched-" + strategy.toUtf8();
    const CliResult run
        = runCli({QStringLiteral("run"), QStringLiteral("--redis"), server.endpoint().displayUrl(),
                  QStringLiteral("--limiter"), strategy, QStringLiteral("--requests"), QStringLiteral("3000"),
                  QStringLiteral("--key"), QString::fromUtf8(key.mid(8)), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 0);
    const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
    const qint64 sent = summary.value(QLatin1String("sent")).toInteger();
    const qint64 overwritten = summary.value(QLatin1String("overwritten")).toInteger();
    const qint64 stored = summary.value(QLatin1String("stored")).toInteger();
    QCOMPARE(sent, 3000);
    QCOMPARE(overwritten > 0, strategy == QLatin1String("now"));
    RedisConnection redis;
    QVERIFY(redis.open(server.endpoint()));
    const qint64 zcard = redis.command({"ZCARD", key}).toInteger();

    const WatchKeyModel* keys = panel->keys();
    auto cell = [keys, &key](int column) {
        const int row = keys->rowOf(0, key);
        return row < 0 ? QVariant() : keys->data(keys->index(row, column), WatchKeyModel::ValueRole);
    };
    QTRY_COMPARE_WITH_TIMEOUT(cell(WatchKeyModel::RequestsColumn).toLongLong(), sent, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(cell(WatchKeyModel::OverwritesColumn).toLongLong(), overwritten, 5000);
    QCOMPARE(cell(WatchKeyModel::SizeColumn).toLongLong(), zcard);
    // The true count is what a unique member would have kept: the set itself when members are
    // unique; more than the set when requests shared members (the window may have trimmed some).
    const qint64 trueCount = cell(WatchKeyModel::TrueCountColumn).toLongLong();
    if (overwritten == 0)
        QCOMPARE(trueCount, zcard);
    else
        QVERIFY2(trueCount >= zcard && trueCount <= sent, qPrintable(QString::number(trueCount)));
    const QString shown = keys->data(keys->index(keys->rowOf(0, key), WatchKeyModel::RequestsColumn)).toString();
    QCOMPARE(shown, QLocale().toString(sent));
    QVERIFY2(keys->sourcesText(keys->keys().at(keys->rowOf(0, key))).startsWith(QLatin1String("script ")),
             qPrintable(keys->sourcesText(keys->keys().at(keys->rowOf(0, key)))));

    // The table fits its side dock: no sideways scrolling, every figure's header whole (the key
    // and the sources are elided into what is left).
    QTableView* table = panel->table();
    const QHeaderView* header = table->horizontalHeader();
    QTRY_VERIFY2_WITH_TIMEOUT(
        header->length() <= table->viewport()->width(),
        qPrintable(QStringLiteral("%1 px of columns in %2 px").arg(header->length()).arg(table->viewport()->width())),
        5000);
    QVERIFY(!table->horizontalScrollBar()->isVisible());
    for (int column = WatchKeyModel::RequestsColumn; column <= WatchKeyModel::TrueCountColumn; ++column) {
        const QString title = keys->headerData(column, Qt::Horizontal).toString();
        QVERIFY2(header->sectionSize(column) >= header->fontMetrics().horizontalAdvance(title) + 8, qPrintable(title));
    }

    // The verdict in words, with the run's own numbers.
    if (overwritten > 0)
        QVERIFY2(
            panel->verdictText().contains(QStringLiteral("%1 of %2 requests overwrote a member: the member is the time")
                                              .arg(QLocale().toString(overwritten), QLocale().toString(sent))),
            qPrintable(panel->verdictText()));
    else
        QVERIFY2(panel->verdictText().contains(QLatin1String("None of 3,000 requests overwrote a member")),
                 qPrintable(panel->verdictText()));

    // The key's timeline: stored and overwritten as the run counted them, and its figures. The
    // first key was chosen when it came (each request drawn once), and choosing it again draws it
    // whole from what the panel kept.
    RunView* timeline = window.runView(LimiterExperiment::Left);
    QTRY_COMPARE_WITH_TIMEOUT(timeline->timeline()->model().requests(), int(sent), 5000);
    QCOMPARE(timeline->timeline()->model().laneTotal(0).overwritten, int(overwritten));
    panel->showKey(0, key);
    QCOMPARE(timeline->timeline()->model().requests(), int(sent));
    // Its members in the ZSET table, as Redis holds them.
    QTRY_COMPARE_WITH_TIMEOUT(window.zsetPanel()->view()->model()->rowCount(), int(zcard), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(timeline->timeline()->model().laneTotal(0).overwritten, int(overwritten), 5000);
    QCOMPARE(timeline->timeline()->model().laneTotal(0).stored, int(stored));
    QTRY_COMPARE_WITH_TIMEOUT(timeline->numbers()->figure(QStringLiteral("overwritten")),
                              QLocale().toString(overwritten), 5000);
    // Issue #30: the app's limit is an argument of its calls (zsetlab cannot know it), and the
    // x axis is Redis's clock, not the app's `now`.
    QVERIFY(timeline->timeline()->isServerClock());
    QVERIFY(!window.runView(LimiterExperiment::Right)->isVisible()); // no burst beside the watched key
    const QString note = timeline->numbers()->findChild<QLabel*>(QStringLiteral("NumbersNote"))->text();
    QVERIFY2(note.contains(QLatin1String("cannot know your app's limit")) && !note.contains(QLatin1String("No limit")),
             qPrintable(note));

    // The script behind the key, as SCRIPT LOAD showed it in the stream, opens in the Script Doctor.
    const QByteArray builtIn = LimiterCatalog::builtin(strategy)->script.source();
    QCOMPARE(panel->chosenScriptSha(), QCryptographicHash::hash(builtIn, QCryptographicHash::Sha1).toHex());
    auto* openScript = panel->findChild<QPushButton*>(QStringLiteral("WatchOpenScript"));
    QVERIFY(openScript && openScript->isEnabled());
    openScript->click();
    QVERIFY(window.scriptDoctor()->isVisible());
    QCOMPARE(window.scriptDoctor()->source(), builtIn);
    window.scriptDoctor()->close();

    // Esc ends the watch at once; what was seen stays.
    window.stopAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isWatching(), 3000);
    QVERIFY2(panel->statusText().contains(QLatin1String("stopped")), qPrintable(panel->statusText()));
    QCOMPARE(cell(WatchKeyModel::OverwritesColumn).toLongLong(), overwritten);
    // The watched key, recorded once the watch ended: the transport bar steps through it, and after
    // its last request the set is what Redis holds.
    RunModel* watched = window.run(LimiterExperiment::Left);
    QTRY_VERIFY_WITH_TIMEOUT(watched->hasRecording(), 10000); // made on a thread of its own
    QVERIFY(timeline->transport()->isVisibleTo(timeline));
    const Recording& recording = *watched->recording();
    QCOMPARE(recording.info().knowledge, ZsetKnowledge::Watched);
    QCOMPARE(recording.requests(), timeline->timeline()->model().requests());
    const ReplayState end = recording.stateAt(recording.requests() - 1, true);
    QCOMPARE(end.members, redis.command({"ZCARD", key}).toInteger());
    const RedisReply zrange = redis.command({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    QCOMPARE(end.memberList.size() * 2, zrange.elements().size());
    for (size_t i = 0; i < end.memberList.size(); ++i) {
        QCOMPARE(end.memberList[i].member, zrange.elements()[2 * i].bytes());
        QCOMPARE(end.memberList[i].score, zrange.elements()[2 * i + 1].bytes().toDouble());
    }
    watched->cursor()->setPosition(0);
    QVERIFY(watched->isReplaying());
    QCOMPARE(timeline->numbers()->figure(QStringLiteral("sent")), QStringLiteral("1"));
    // Stepping through, the app's limit stays one zsetlab cannot know (not "no limit").
    const QString stepped = timeline->numbers()->findChild<QLabel*>(QStringLiteral("NumbersNote"))->text();
    QVERIFY2(stepped.contains(QLatin1String("cannot know your app's limit")), qPrintable(stepped));
    QVERIFY(ZsetKeys::deleteRunKeys(redis, key));
}

void TestWatchPanel::keepsABoundedHistoryForKeysChosenLater()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    MainWindow window;
    connectWindow(window, server);
    WatchPanel* panel = window.watchPanel();
    panel->setConfirm([](const QString&) { return true; });
    panel->setKeptLimits(500, 800);
    window.showWatch();
    QVERIFY(panel->start());
    QTRY_VERIFY_WITH_TIMEOUT(
        panel->statusText().contains(QLatin1String("Watching ") + window.session()->server().displayName()), 10000);
    // Three users' keys of 1,000 ZADDs each: more than the panel keeps for drawing.
    const CliResult run = runCli({QStringLiteral("run"), QStringLiteral("--redis"), server.endpoint().displayUrl(),
                                  QStringLiteral("--limiter"), QStringLiteral("request-id"),
                                  QStringLiteral("--requests"), QStringLiteral("3000"), QStringLiteral("--users"),
                                  QStringLiteral("3"), QStringLiteral("--key"), QStringLiteral("watched-bound")});
    QCOMPARE(run.exitCode, 0);
    const WatchKeyModel* keys = panel->keys();
    auto zadds = [keys](const QByteArray& key) {
        const int row = keys->rowOf(0, key);
        return row < 0
            ? -1
            : keys->data(keys->index(row, WatchKeyModel::RequestsColumn), WatchKeyModel::ValueRole).toLongLong();
    };
    for (int u = 0; u < 3; ++u) // the figures count every one
        QTRY_COMPARE_WITH_TIMEOUT(zadds("zsetlab:watched-bound:u" + QByteArray::number(u)), 1000LL, 10000);
    window.stopAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!panel->isWatching(), 3000);
    // Each key chosen now is drawn from what was kept: at most 500 of it, 800 of all three.
    RunView* timeline = window.runView(LimiterExperiment::Left);
    int drawnInAll = 0;
    for (int u = 0; u < 3; ++u) {
        panel->showKey(0, "zsetlab:watched-bound:u" + QByteArray::number(u));
        const int drawn = timeline->timeline()->model().requests();
        QVERIFY2(drawn <= 500, qPrintable(QString::number(drawn)));
        QVERIFY2(
            timeline->run()->title().contains(QStringLiteral("drawn from the first %1 of its 1,000 ZADDs").arg(drawn)),
            qPrintable(timeline->run()->title()));
        drawnInAll += drawn;
    }
    QCOMPARE(drawnInAll, 800);
}

void TestWatchPanel::asksBeforeWatchingAServerItDidNotStart()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    MainWindow window;
    connectWindow(window, server);
    WatchPanel* panel = window.watchPanel();
    QString asked;
    panel->setConfirm([&asked](const QString& question) {
        asked = question;
        return false;
    });
    QVERIFY(!panel->start());
    QVERIFY(!panel->isWatching());
    QVERIFY2(asked.contains(QLatin1String("95,000 to 42,000")), qPrintable(asked));
    QVERIFY2(asked.contains(server.endpoint().socketPath), qPrintable(asked));
    QCOMPARE(panel->statusText(), QStringLiteral("Not watched."));
    // Nothing reached the server: no MONITOR in its statistics.
    RedisConnection redis;
    QVERIFY(redis.open(server.endpoint()));
    QVERIFY(!redis.command({"INFO", "commandstats"}).bytes().contains("cmdstat_monitor"));
}

QTEST_MAIN(TestWatchPanel)
#include "tst_watchpanel.moc"
