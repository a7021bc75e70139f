// The window under a failing server: a redis-server killed mid-burst shows at once in the status
// bar, the burst goes on when the server is back, Stop still works, and the results stay.
#include "burstpanel.h"
#include "limitercatalog.h"
#include "limiterexperiment.h"
#include "mainwindow.h"
#include "planmodel.h"
#include "serversession.h"

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
};

void TestWindowFaults::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("zsetlab-tests"));
    QStandardPaths::setTestModeEnabled(true);
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

QTEST_MAIN(TestWindowFaults)
#include "tst_windowfaults.moc"
