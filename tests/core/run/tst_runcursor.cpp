// The cursor of a recorded run: steps, jumps, and playing at a speed.

#include "run/runcursor.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

namespace {
// A run of the `now` limiter as the log records it: `perMs` requests in each millisecond, the
// first of each a new member, the others overwriting it; limit 2 in a window of 3 ms.
std::shared_ptr<const Recording> recordingOf(int requests, int perMs)
{
    RecordingInfo info;
    info.limiter = QStringLiteral("now");
    info.windowInNowUnits = 3;
    info.limit = 2;
    info.requests = requests;
    RequestLog log;
    log.reset(requests, info.windowInNowUnits, info.limit, QByteArrayLiteral("t"));
    std::vector<RequestRecord> records;
    for (int i = 0; i < requests; ++i) {
        RequestRecord r;
        r.id = quint32(i);
        r.now = 1'800'000'000'000 + i / perMs;
        r.memberKind = RequestRecord::MemberKind::Now;
        r.added = qint8(i % perMs == 0 ? 1 : 0);
        r.count = std::min<qint64>(i / perMs, 2) + 1;
        records.push_back(r);
    }
    log.add(records);
    return std::make_shared<const Recording>(info, log);
}
} // namespace

class TestRunCursor : public QObject
{
    Q_OBJECT
private slots:
    void stepsStayWithinTheRun();
    void jumpsToWhatMatters();
    void playsToTheEndAndStops();
    void slowMotionWaitsASecondARequest();
    void realTimeFollowsTheTimestamps();
};

void TestRunCursor::stepsStayWithinTheRun()
{
    RunCursor player;
    QCOMPARE(player.position(), -1);
    player.stepForward(); // nothing to step through: no crash, no move
    QCOMPARE(player.position(), -1);
    QSignalSpy moved(&player, &RunCursor::positionChanged);
    player.setRecording(recordingOf(9, 3));
    QCOMPARE(player.position(), 8); // the state the run ended with
    player.stepForward();
    QCOMPARE(player.position(), 8);
    player.toStart();
    player.stepBack();
    QCOMPARE(player.position(), 0);
    player.stepForward();
    player.stepForward();
    QCOMPARE(player.position(), 2);
    player.toEnd();
    QCOMPARE(player.position(), 8);
    QCOMPARE(moved.count(), 5); // the new recording, start, two steps, end: no signal without a move
}

void TestRunCursor::jumpsToWhatMatters()
{
    RunCursor player;
    player.setRecording(recordingOf(30, 3));
    player.toStart();
    QVERIFY(player.toNextOverwrite());
    QCOMPARE(player.position(), 1); // the second request of the first millisecond
    QVERIFY(player.toNextOverwrite());
    QCOMPARE(player.position(), 2);
    QVERIFY(player.toNextOverwrite());
    QCOMPARE(player.position(), 4);
    // Admitted beyond the limit: the ZSET counts 1 per millisecond, so the window's 3 ms hold 9
    // requests when it counts 3: the first request past 2 in the window that is admitted.
    player.toStart();
    const bool found = player.toNextBeyondLimit();
    const Recording& recording = *player.recording();
    int expected = -1;
    for (int i = 1; i < recording.requests() && expected < 0; ++i)
        expected = recording.log().isAdmittedOverLimit(i) ? i : -1;
    QCOMPARE(found, expected >= 0);
    QCOMPARE(player.position(), found ? expected : 0);
    player.toEnd();
    QVERIFY(!player.toNextOverwrite());
    QCOMPARE(player.position(), 29);
}

void TestRunCursor::playsToTheEndAndStops()
{
    RunCursor player;
    player.setRecording(recordingOf(200, 4));
    player.setSpeed({ReplaySpeed::Unit::RequestsPerSecond, 1000});
    QSignalSpy playing(&player, &RunCursor::playingChanged);
    QList<int> positions;
    connect(&player, &RunCursor::positionChanged, this, [&positions](int at) { positions << at; });
    player.play(); // at the end: from the start
    QVERIFY(player.isPlaying());
    QVERIFY(QTest::qWaitFor([&] { return !player.isPlaying(); }, 10000));
    QCOMPARE(playing.count(), 2);
    QCOMPARE(player.position(), 199);
    QCOMPARE(positions.first(), 0);
    QVERIFY(std::is_sorted(positions.cbegin(), positions.cend()));
    // Pausing keeps the place; playing again goes on from it.
    player.setPosition(50);
    player.setSpeed({ReplaySpeed::Unit::RequestsPerSecond, 1});
    player.play();
    player.pause();
    QCOMPARE(player.position(), 50);
}

void TestRunCursor::slowMotionWaitsASecondARequest()
{
    RunCursor player;
    player.setRecording(recordingOf(5, 1));
    player.toStart();
    player.setSpeed({ReplaySpeed::Unit::RequestsPerSecond, 1});
    QElapsedTimer clock;
    QSignalSpy moved(&player, &RunCursor::positionChanged);
    clock.start();
    player.play();
    QVERIFY(QTest::qWaitFor([&] { return moved.count() == 1; }, 5000));
    QVERIFY2(clock.elapsed() >= 990, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(player.position(), 1);
    player.pause();
}

void TestRunCursor::realTimeFollowsTheTimestamps()
{
    // 40 requests, one every millisecond of `now`: at 1x time the replay lasts 39 ms at least.
    RunCursor player;
    player.setRecording(recordingOf(40, 1));
    player.setFrameInterval(1);
    player.toStart();
    player.setSpeed({ReplaySpeed::Unit::TimeFactor, 1});
    QElapsedTimer clock;
    clock.start();
    player.play();
    QVERIFY(QTest::qWaitFor([&] { return !player.isPlaying(); }, 10000));
    QVERIFY2(clock.elapsed() >= 39, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(player.position(), 39);
}

QTEST_GUILESS_MAIN(TestRunCursor)
#include "tst_runcursor.moc"
