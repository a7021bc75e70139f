// The window under a failing server: a redis-server killed mid-burst shows at once in the status
// bar, the burst goes on when the server is back, Stop still works, and the results stay.
#include "burst/limiterexperiment.h"
#include "burst/planmodel.h"
#include "limiters/limitercatalog.h"
#include "mainwindow.h"
#include "redis/serversession.h"
#include "run/burstpanel.h"
#include "testsettings.h"

#include <QAction>
#include <QElapsedTimer>
#include <QStatusBar>
#include <QtTest>

#include <csignal>

class TestWindowFaults : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void killedServerShowsAtOnceAndTheBurstGoesOn();
    void deadPrivateServerIsReplacedAtOnce();
};

void TestWindowFaults::initTestCase()
{
    TestSettings::keepToThisRun();
    if (PrivateRedisServer::executable().isEmpty())
        QSKIP("redis-server is not installed");
}

void TestWindowFaults::killedServerShowsAtOnceAndTheBurstGoesOn()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    MainWindow window;
    window.show();
    RedisServerChoice::Request request;
    request.url = server.endpoint().displayUrl();
    window.connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->isUsable(), 10000);

    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.requests = 100000; // 50 s: ended by Stop
    plan.pacing.kind = Pacing::Kind::Interval;
    plan.pacing.intervalMicros = 500;
    window.planModel()->edit([&plan](ExperimentPlan& experiment) { experiment.burst = plan; });
    QSignalSpy done(window.experiment(), &LimiterExperiment::allFinished);
    window.fireAction()->trigger();
    const BurstEngine& engine = window.experiment()->engine(LimiterExperiment::Left);
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 200, 20000);

    ::kill(static_cast<pid_t>(server.serverPid()), SIGKILL);
    QElapsedTimer clock;
    clock.start();
    QTRY_VERIFY_WITH_TIMEOUT(window.statusBar()->currentMessage().contains(QLatin1String("Lost the connection")), 1000);
    qInfo("window: the loss shown after %lld ms", clock.elapsed());
    const int beforeRestart = engine.log().finished();
    QVERIFY(beforeRestart >= 200);

    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(engine.summary().reconnects >= 1 && engine.log().finished() > beforeRestart + 200, 5000);
    QVERIFY(!window.statusBar()->currentMessage().contains(QLatin1String("Lost the connection")));

    clock.restart();
    window.stopAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 1000);
    qInfo("window: Stop took %lld ms", clock.elapsed());
    const BurstSummary summary = engine.summary();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QVERIFY(summary.stopped);
    QVERIFY(summary.reconnects >= 1);
    QCOMPARE(summary.sent, qint64(engine.log().finished()));
    QCOMPARE(summary.stored + summary.overwritten + summary.errors, summary.sent);
    QVERIFY(window.fireAction()->isEnabled());
}

void TestWindowFaults::deadPrivateServerIsReplacedAtOnce()
{
    MainWindow window;
    window.show();
    RedisServerChoice::Request request;
    request.privateServer = true;
    window.connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(window.session()->isUsable(), 10000);
    QCOMPARE(window.session()->origin(), RedisServerChoice::Origin::Private);
    const QString socket = window.session()->privateServer()->socketPath();
    QStringList messages;
    connect(window.statusBar(), &QStatusBar::messageChanged, this,
            [&messages](const QString& message) { messages << message; });

    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("request-id");
    plan.requests = 100000; // 50 s: ended by Stop
    plan.pacing.kind = Pacing::Kind::Interval;
    plan.pacing.intervalMicros = 500;
    plan.reconnectForMs = 10000;
    window.planModel()->edit([&plan](ExperimentPlan& experiment) { experiment.burst = plan; });
    QSignalSpy done(window.experiment(), &LimiterExperiment::allFinished);
    window.fireAction()->trigger();
    const BurstEngine& engine = window.experiment()->engine(LimiterExperiment::Left);
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 200, 20000);

    const qint64 oldPid = window.session()->privateServer()->serverPid();
    ::kill(static_cast<pid_t>(oldPid), SIGKILL);
    const int atKill = engine.log().finished();
    QElapsedTimer clock;
    clock.start();
    // Well within the burst's 10 s of reconnecting: the new server is there at once.
    QTRY_VERIFY_WITH_TIMEOUT(engine.summary().reconnects >= 1 && engine.log().finished() > atKill + 200, 3000);
    qInfo("window: the burst went on %lld ms after the private server died", clock.elapsed());
    QVERIFY(window.session()->isUsable());
    QVERIFY(window.session()->lastError().isEmpty());
    QCOMPARE(window.session()->privateServer()->socketPath(), socket);
    QVERIFY(window.session()->privateServer()->serverPid() != oldPid);
    QVERIFY(!window.statusBar()->currentMessage().contains(QLatin1String("Lost")));
    QVERIFY(messages.join(QLatin1Char('\n')).contains(QLatin1String("private Redis server stopped")));
    for (const QString& message : std::as_const(messages)) {
        QVERIFY2(!message.contains(QLatin1String("start redis-server"), Qt::CaseInsensitive), qPrintable(message));
        QVERIFY2(!message.contains(socket), qPrintable(message));
    }

    window.stopAction()->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 2000);
    const BurstSummary summary = engine.summary();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QVERIFY(summary.reconnects >= 1);
}

QTEST_MAIN(TestWindowFaults)
#include "tst_windowfaults.moc"
