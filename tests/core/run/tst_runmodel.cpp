// The run every view of it reads: live, it follows the engine's batches; ended, its recording's
// cursor; one user's requests at a time when it has several.

#include "limiters/limitercatalog.h"
#include "replay/recording.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "testbursts.h"
#include "testredis.h"

#include <QSignalSpy>
#include <QTest>

namespace {
// A run of 30 requests spread over 3 users, each request its own member: who wrote what is plain.
std::shared_ptr<const Recording> threeUsersRun()
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin(QStringLiteral("random")); // members as text, each its own
    plan.requests = 30;
    plan.users = 3;
    plan.connections = 1;
    plan.limit = 5;
    return std::make_shared<const Recording>(TestBursts::recordToTheEnd(TestRedis::endpoint(), plan));
}

RunModel::Shape shapeOf(const Recording& recording)
{
    RunModel::Shape shape;
    shape.requests = recording.requests();
    shape.limit = recording.info().limit;
    shape.users = recording.info().users;
    return shape;
}

int writtenBy(const RunModel& run, const Recording& recording, const RequestBatch& batch, int user)
{
    int members = 0;
    for (const RequestRecord& record : *batch.finished) {
        if (recording.log().userOf(int(record.id)) == user && run.writes().writesOf(batch.memberOf(record)) > 0)
            ++members;
    }
    return members;
}
} // namespace

class TestRunModel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void followsTheRunThenItsCursor();
    void showsOneUserAtATime();
    void anOpenedRecordingIsARunThatEnded();
};

void TestRunModel::initTestCase()
{
    QVERIFY(TestRedis::server().isRunning());
}

void TestRunModel::followsTheRunThenItsCursor()
{
    const std::shared_ptr<const Recording> recording = threeUsersRun();
    const RequestBatch whole = recording->batch();
    RunModel run;
    QSignalSpy started(&run, &RunModel::started);
    QSignalSpy drawn(&run, &RunModel::batchAdded);
    QSignalSpy moved(&run, &RunModel::cursorMoved);
    run.start(shapeOf(*recording));
    QCOMPARE(started.count(), 1);
    QVERIFY(run.isLive());
    QVERIFY(!run.hasRecording()); // a live run: the cursor is its end, no recording yet

    run.addBatch(whole);
    QCOMPARE(drawn.count(), 1);
    QCOMPARE(run.figures().sent, 30);
    QCOMPARE(run.figuresAtCursor().sent, 30);
    run.finish(whole.summary);
    QVERIFY(!run.isLive());

    run.setRecording(recording);
    QVERIFY(run.hasRecording());
    QCOMPARE(run.cursor()->position(), 29);
    QVERIFY(!run.isReplaying()); // the views show the run as it ended
    QCOMPARE(moved.count(), 0);
    run.cursor()->setPosition(9);
    QCOMPARE(moved.count(), 1);
    QCOMPARE(moved.at(0).at(0).toInt(), 9);
    QVERIFY(run.isReplaying());
    const BurstSummary soFar = run.figuresAtCursor();
    QCOMPARE(soFar.sent, 10);
    QCOMPARE(soFar.sent, recording->summaryThrough(9).sent);
    QCOMPARE(soFar.perUser.size(), whole.summary.perUser.size()); // per user: the run's
    QCOMPARE(run.figures().sent, 30); // the run's own figures stay

    QSignalSpy cleared(&run, &RunModel::cleared);
    run.clear();
    QCOMPARE(cleared.count(), 1);
    QVERIFY(!run.hasRecording());
    QVERIFY(!run.isReplaying());
    QCOMPARE(run.figures().sent, 0);
    QCOMPARE(writtenBy(run, *recording, whole, 0), 0);
}

void TestRunModel::showsOneUserAtATime()
{
    const std::shared_ptr<const Recording> recording = threeUsersRun();
    const RequestBatch whole = recording->batch();
    RunModel run;
    run.start(shapeOf(*recording));
    QSignalSpy drawn(&run, &RunModel::batchAdded);
    run.addBatch(whole);
    QCOMPARE(run.user(), 0);
    // What the views draw and what the ZSET table marks: user 0's requests, not the others'.
    QCOMPARE(drawn.at(0).at(0).value<RequestBatch>().finished->size(), size_t(10));
    QCOMPARE(writtenBy(run, *recording, whole, 0), 10);
    QCOMPARE(writtenBy(run, *recording, whole, 1), 0);

    QSignalSpy changed(&run, &RunModel::userChanged);
    run.showUser(2, whole);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(run.user(), 2);
    QCOMPARE(drawn.count(), 2);
    QCOMPARE(drawn.at(1).at(0).value<RequestBatch>().finished->size(), size_t(10));
    QCOMPARE(writtenBy(run, *recording, whole, 2), 10);
    QCOMPARE(writtenBy(run, *recording, whole, 0), 0);
    QCOMPARE(run.figures().sent, 30); // the figures stay the whole run's
    run.showUser(3, whole); // no such user
    run.showUser(2, whole); // the one shown
    QCOMPARE(changed.count(), 1);
}

void TestRunModel::anOpenedRecordingIsARunThatEnded()
{
    const std::shared_ptr<const Recording> recording = threeUsersRun();
    RunModel run;
    QStringList order;
    connect(&run, &RunModel::started, this, [&] { order << QStringLiteral("started"); });
    connect(&run, &RunModel::batchAdded, this, [&] { order << QStringLiteral("drawn"); });
    connect(&run, &RunModel::finished, this, [&] { order << QStringLiteral("finished"); });
    connect(&run, &RunModel::recordingChanged, this,
            [&](bool any) { order << (any ? QStringLiteral("recording") : QStringLiteral("none")); });
    run.showRecording(recording);
    // started clears the recording of the run before; the new one comes last, the cursor at its end.
    QCOMPARE(order.join(u' '), QStringLiteral("none started drawn finished recording"));
    QVERIFY(!run.isLive());
    QCOMPARE(run.shape().users, 3);
    QCOMPARE(run.figures().sent, 30);
    QCOMPARE(run.cursor()->position(), 29);
    QCOMPARE(run.recording(), recording);
}

QTEST_GUILESS_MAIN(TestRunModel)
#include "tst_runmodel.moc"
