// The runs' life without a window: RunController over a LimiterExperiment fired at the private
// server. Each side's model gets its shape, the engine's batches and its recording; the ZSET
// table is told the live key, then the copy taken at the end, then the state at the cursor.
#include "burst/limiterexperiment.h"
#include "limiters/limitercatalog.h"
#include "redis/redisconnection.h"
#include "replay/recording.h"
#include "replay/replayfork.h"
#include "run/runcontroller.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "testredis.h"

#include <QSignalSpy>
#include <QtTest>

#include <memory>

class TestRunController : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void givesEachSideItsShapeBatchesAndRecording();
    void tellsTheZsetTableWhatToRead();
    void followsTheUserShown();
    void aForkStartsAtTheRunsOriginAndKnowsItsSeed();
    void theNextRequestIsTheLastOnesMillisecond();
    void resetForgetsTheRunsAndTheirKeys();

private:
    // Fires `plan` and waits until both sides ended and the copies of their keys were taken.
    bool fireToTheEnd(const ExperimentPlan& plan);
    static ExperimentPlan burstOf(int requests, bool compare, int users = 1);
    static qint64 exists(const QByteArray& key);

    std::unique_ptr<LimiterExperiment> m_experiment;
    std::unique_ptr<RunController> m_runs;
};

void TestRunController::initTestCase()
{
    QVERIFY(TestRedis::server().isRunning());
}

void TestRunController::init()
{
    m_experiment = std::make_unique<LimiterExperiment>();
    m_experiment->setServer(TestRedis::endpoint(), {});
    m_runs = std::make_unique<RunController>(m_experiment.get());
}

void TestRunController::cleanup()
{
    m_runs.reset();
    m_experiment.reset(); // deletes the keys it made
}

ExperimentPlan TestRunController::burstOf(int requests, bool compare, int users)
{
    ExperimentPlan plan;
    plan.burst.limiter = LimiterCatalog::builtin(QStringLiteral("now"));
    plan.burst.requests = requests;
    plan.burst.limit = 10;
    plan.burst.windowMs = 60000; // nothing leaves the window while the test reads it
    plan.burst.users = users;
    plan.compare = compare;
    return plan;
}

bool TestRunController::fireToTheEnd(const ExperimentPlan& plan)
{
    QSignalSpy finished(m_runs.get(), &RunController::allFinished);
    QSignalSpy snapshots(m_runs.get(), &RunController::snapshotTaken);
    if (!m_experiment->fire(plan))
        return false;
    const int sides = plan.compare ? 2 : 1;
    QDeadlineTimer deadline(30000);
    while ((finished.isEmpty() || snapshots.count() < sides) && !deadline.hasExpired())
        finished.wait(200);
    return !finished.isEmpty() && snapshots.count() >= sides;
}

qint64 TestRunController::exists(const QByteArray& key)
{
    RedisConnection connection;
    if (!connection.open(TestRedis::endpoint()))
        return -1;
    return connection.command({"EXISTS", key}).toInteger();
}

void TestRunController::givesEachSideItsShapeBatchesAndRecording()
{
    QSignalSpy started(m_runs.get(), &RunController::runStarted);
    QSignalSpy drawn(m_runs->run(RunController::Left), &RunModel::batchAdded);
    QVERIFY2(fireToTheEnd(burstOf(300, true)), qPrintable(m_experiment->error()));
    QCOMPARE(started.count(), 2);
    QCOMPARE(started.at(0).at(0).value<RunController::Side>(), RunController::Left);
    QVERIFY(!drawn.isEmpty()); // the engine's batches reached the model

    for (const auto side : {RunController::Left, RunController::Right}) {
        const RunModel* run = m_runs->run(side);
        QCOMPARE(run->shape().requests, 300);
        QCOMPARE(run->shape().limit, 10);
        QVERIFY(!run->isLive());
        QVERIFY(run->hasRecording());
        QCOMPARE(run->figures().sent, m_runs->summary(side).sent);
        QCOMPARE(run->recording()->requests(), 300);
        QCOMPARE(run->recording()->info().source, QStringLiteral("compare"));
        QCOMPARE(m_runs->log(side).size(), 300);
    }
    // The fix replays the bug's timestamps: drawn from the same origin.
    QCOMPARE(m_runs->run(RunController::Right)->shape().originMs, m_experiment->engine(RunController::Left).startMs());
    QCOMPARE(m_runs->run(RunController::Left)->shape().originMs, -1);
    // The bug overwrote, the fix did not: the recordings say what Redis said.
    QVERIFY(m_runs->summary(RunController::Left).overwritten > 0);
    QCOMPARE(m_runs->summary(RunController::Right).overwritten, 0);
}

void TestRunController::tellsTheZsetTableWhatToRead()
{
    QCOMPARE(m_runs->zsetSource(RunController::Left).kind, ZsetSource::Kind::LiveKey); // nothing ran: the key to come
    QVERIFY(fireToTheEnd(burstOf(200, false)));
    const ZsetSource ended = m_runs->zsetSource(RunController::Left);
    QCOMPARE(ended.kind, ZsetSource::Kind::Snapshot);
    QCOMPARE(ended.key, m_runs->key(RunController::Left));
    QCOMPARE(ended.snapshotKey, LimiterExperiment::snapshotKeyOf(ended.key));
    QCOMPARE(exists(ended.snapshotKey), 1); // the copy is on the server
    QCOMPARE(ended.stored, m_runs->summary(RunController::Left).stored);
    QCOMPARE(ended.windowMs, 60000);
    QCOMPARE(ended.limiter, m_runs->summary(RunController::Left).limiter);

    // The cursor moved: the state at its request, from the recording.
    RunCursor* cursor = m_runs->run(RunController::Left)->cursor();
    cursor->setPosition(9);
    const ZsetSource stepped = m_runs->zsetSource(RunController::Left);
    QCOMPARE(stepped.kind, ZsetSource::Kind::Replay);
    QCOMPARE(stepped.state.request, 10);
    QCOMPARE(stepped.state.members, m_runs->run(RunController::Left)->recording()->stateAt(9, true).members);
}

void TestRunController::followsTheUserShown()
{
    QVERIFY(fireToTheEnd(burstOf(90, false, 3)));
    RunModel* left = m_runs->run(RunController::Left);
    QCOMPARE(left->user(), 0);
    QSignalSpy changed(left, &RunModel::userChanged);
    QSignalSpy drawn(left, &RunModel::batchAdded);
    m_runs->showUser(RunController::Left, 2);
    QCOMPARE(left->user(), 2);
    QCOMPARE(changed.count(), 1);
    // The views start over from that user's requests: a third of the run's.
    QCOMPARE(drawn.count(), 1);
    const RequestBatch shown = drawn.at(0).at(0).value<RequestBatch>();
    QCOMPARE(int(shown.finished->size()), 30);
    const ZsetSource source = m_runs->zsetSource(RunController::Left);
    const QByteArray userKey = m_runs->plan(RunController::Left).userKey(m_runs->key(RunController::Left), 2);
    QCOMPARE(source.key, userKey);
    QCOMPARE(source.snapshotKey, LimiterExperiment::snapshotKeyOf(userKey));
    QCOMPARE(source.stored, m_runs->summary(RunController::Left).perUser.at(2).stored);
    QCOMPARE(exists(source.snapshotKey), 1);
}

void TestRunController::aForkStartsAtTheRunsOriginAndKnowsItsSeed()
{
    QVERIFY(fireToTheEnd(burstOf(120, false)));
    const std::shared_ptr<const Recording> original = m_runs->run(RunController::Left)->recording();
    QVERIFY(original);
    const int from = 60;
    ForkChange change;
    change.limiter = LimiterCatalog::builtin(QStringLiteral("request-id"));
    BurstPlan plan;
    QString error;
    QVERIFY2(ReplayFork::plan(*original, from, change, &plan, &error), qPrintable(error));
    plan.keepKey = true;
    const auto seed = [original, from, plan](NodeConnections& nodes, QString* why) {
        return ReplayFork::seed(nodes, *original, from, plan, why);
    };
    QSignalSpy finished(m_runs.get(), &RunController::allFinished);
    QVERIFY2(m_experiment->fireFork(plan, seed), qPrintable(m_experiment->error()));
    m_runs->setFork(from, original);
    QVERIFY(m_runs->hasFork());
    QVERIFY(finished.wait(30000));

    const RunModel* right = m_runs->run(RunController::Right);
    QCOMPARE(right->shape().originMs, original->info().startWallMs); // lined up with the run
    QVERIFY(right->hasRecording());
    QCOMPARE(right->recording()->info().source, QStringLiteral("fork"));
    QCOMPARE(right->recording()->requests(), 120 - from);
    QVERIFY(!right->recording()->info().seeded.empty()); // it went on from the run's ZSET
    // The left run is still the one forked from.
    QCOMPARE(m_runs->run(RunController::Left)->recording(), original);

    // The next burst ends the what-if.
    QVERIFY(fireToTheEnd(burstOf(20, false)));
    QVERIFY(!m_runs->hasFork());
}

void TestRunController::theNextRequestIsTheLastOnesMillisecond()
{
    BurstPlan fallback = burstOf(5, false).burst;
    const RunController::NextRequest before = m_runs->nextRequest(fallback);
    QVERIFY(before.values.key.startsWith("zsetlab:")); // a fresh key: nothing of anyone's
    QCOMPARE(before.values.seq, 1);
    QVERIFY(before.now > 0);

    QVERIFY(fireToTheEnd(burstOf(50, false)));
    const RunController::NextRequest next = m_runs->nextRequest(fallback);
    const RequestLog& log = m_runs->log(RunController::Left);
    QCOMPARE(next.values.key, m_runs->key(RunController::Left));
    QCOMPARE(next.now, log.now(log.truthPrefix() - 1));
    QCOMPARE(next.values.seq, qint64(log.size()) + 1);
    QCOMPARE(next.values.limit, 10);
}

void TestRunController::resetForgetsTheRunsAndTheirKeys()
{
    QVERIFY(fireToTheEnd(burstOf(100, true)));
    const QByteArray left = m_runs->key(RunController::Left);
    const QByteArray copy = LimiterExperiment::snapshotKeyOf(left);
    QCOMPARE(exists(copy), 1);
    QSignalSpy deleted(m_experiment.get(), &LimiterExperiment::keysDeleted);
    QSignalSpy cleared(m_runs->run(RunController::Right), &RunModel::cleared);
    m_runs->reset();
    QCOMPARE(cleared.count(), 1);
    QVERIFY(!m_runs->run(RunController::Left)->hasRecording());
    QVERIFY(!m_runs->run(RunController::Right)->hasRecording());
    QVERIFY(deleted.count() == 1 || deleted.wait(10000));
    QCOMPARE(exists(left), 0);
    QCOMPARE(exists(copy), 0);
}

QTEST_GUILESS_MAIN(TestRunController)
#include "tst_runcontroller.moc"
