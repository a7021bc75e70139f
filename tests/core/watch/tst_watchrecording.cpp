// A watched key recorded: the set after each request is what Redis held after that call, for an
// app's limiter scripts that trim before they write and ones that write, take back and trim after.

#include "replay/replayfile.h"
#include "testredis.h"
#include "watch/watchrecording.h"
#include "watch/watchsession.h"

#include <QSignalSpy>
#include <QtTest>

namespace {
// Trims, counts, writes when under the limit (1 written, 0 refused).
const QByteArray trimFirst = R"(redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  return 1
end
return 0)";
// Writes, counts, takes its member back when over the limit, then trims (2 written and kept).
const QByteArray writeFirst = R"(redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
local n = redis.call('ZCARD', KEYS[1])
if n > tonumber(ARGV[3]) then redis.call('ZREM', KEYS[1], ARGV[4]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, tonumber(ARGV[1]) - tonumber(ARGV[2]))
return n + 2)";

struct Call
{
    QByteArray script;
    QByteArray now;
    QByteArray member;
};

// 60 calls, three to a millisecond, some at a quarter past it; every fourth member is the time
// itself (it collides), the others are their own.
QVector<Call> appCalls()
{
    QVector<Call> calls;
    for (int i = 0; i < 60; ++i) {
        const int ms = 1000 + i / 3; // three calls a millisecond
        const double now = ms + (i % 5 == 0 ? 0.25 : 0);
        const QByteArray nowText = QByteArray::number(now, 'g', 17);
        calls.append(
            {i % 2 == 0 ? trimFirst : writeFirst, nowText, i % 4 == 0 ? nowText : "r" + QByteArray::number(i)});
    }
    return calls;
}

// Fills `key` as the app found it, then makes the calls; returns whether each wrote a member.
QVector<bool> play(RedisConnection& redis, const QByteArray& key, const QVector<Call>& calls)
{
    QVector<bool> wrote;
    for (const Call& call : calls) {
        const RedisReply reply = redis.command({"EVAL", call.script, "1", key, call.now, "6", "5", call.member});
        if (reply.type() != RedisReply::Type::Integer)
            qFatal("the app's script failed: %s", reply.bytes().constData());
        wrote.append(reply.toInteger() != 0);
    }
    return wrote;
}

void preexisting(RedisConnection& redis, const QByteArray& key)
{
    redis.command({"DEL", key});
    redis.command({"ZADD", key, "995", "p1", "1003", "p2", "1100", "p3"});
}

QStringList held(RedisConnection& redis, const QByteArray& key)
{
    QStringList list;
    const RedisReply reply = redis.command({"ZRANGE", key, "0", "-1", "WITHSCORES"});
    for (size_t i = 0; i + 1 < reply.elements().size(); i += 2)
        list << QString::fromUtf8(reply.elements()[i].bytes()) + QLatin1Char('@')
                + QString::fromLatin1(scoreText(reply.elements()[i + 1].bytes().toDouble()));
    return list;
}

QStringList described(const ReplayState& state)
{
    QStringList list;
    for (const ReplayMember& m : state.memberList)
        list << QString::fromUtf8(m.member) + QLatin1Char('@') + QString::fromLatin1(scoreText(m.score));
    return list;
}
} // namespace

class TestWatchRecording : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void theSetAtEachRequestIsWhatRedisHeld();
};

void TestWatchRecording::initTestCase()
{
    QVERIFY(TestRedis::server().isRunning());
}

void TestWatchRecording::theSetAtEachRequestIsWhatRedisHeld()
{
    const QByteArray key = TestRedis::uniqueKey("watched-recorded");
    RedisConnection app;
    QVERIFY(TestRedis::connect(app));
    preexisting(app, key);

    WatchSession session;
    QVector<WatchRecord> records;
    std::vector<WatchMember> before;
    bool known = false;
    auto take = [&](const WatchSnapshot& snapshot) {
        for (const WatchedKey& watched : snapshot.keys) {
            if (watched.key != key)
                continue;
            records += watched.records;
            before.insert(before.end(), watched.preexisting.begin(), watched.preexisting.end());
            known = watched.stateKnown;
        }
    };
    connect(&session, &WatchSession::snapshotAvailable, this, take);
    WatchSession::Settings settings;
    settings.endpoint = TestRedis::endpoint();
    settings.patterns = {KeyPattern(key)};
    settings.duration = std::chrono::milliseconds(120000);
    settings.snapshotInterval = std::chrono::milliseconds(50);
    QSignalSpy started(&session, &WatchSession::started);
    QSignalSpy finished(&session, &WatchSession::finished);
    QVERIFY(session.start(settings));
    QVERIFY(started.wait(20000));
    // The watch reads the key once it sees it: the app's calls begin once it knows what it held.
    app.command({"ZSCORE", key, "p1"});
    QTRY_VERIFY_WITH_TIMEOUT(known, 20000);

    const QVector<Call> calls = appCalls();
    const QVector<bool> wrote = play(app, key, calls);
    const QStringList atTheEnd = held(app, key);
    session.stop();
    QVERIFY(finished.wait(20000));
    take(finished.first().first().value<WatchResult>().snapshot);

    const Recording recording = WatchRecording::of(key, records, before, QStringLiteral("redis"), QStringLiteral("7"));
    QCOMPARE(recording.info().knowledge, ZsetKnowledge::Watched);
    QCOMPARE(recording.requests(), int(wrote.count(true)));
    QCOMPARE(described(recording.stateAt(recording.requests() - 1, true)), atTheEnd);

    // After every call that wrote: the same calls on a fresh key leave what the recording says.
    const QByteArray again = TestRedis::uniqueKey("watched-again");
    int request = -1;
    int compared = 0;
    for (int n = 1; n <= calls.size(); ++n) {
        if (!wrote.at(n - 1))
            continue;
        ++request;
        if (n % 7 != 1 && n != calls.size()) // a spread of points; each costs a whole run
            continue;
        preexisting(app, again);
        play(app, again, calls.mid(0, n));
        const ReplayState state = recording.stateAt(request, true);
        QCOMPARE(described(state), held(app, again));
        QCOMPARE(state.members, app.command({"ZCARD", again}).toInteger());
        ++compared;
    }
    QVERIFY(compared >= 6);
    QVERIFY(recording.stateAt(0, true).memberList.size() >= 3); // p1..p3 were there before

    // Saved and opened: the same states.
    Recording opened;
    QString error;
    QVERIFY2(ReplayFile::decode(ReplayFile::encode(recording), &opened, &error), qPrintable(error));
    QCOMPARE(opened.requests(), recording.requests());
    for (int i = 0; i < recording.requests(); ++i) {
        QCOMPARE(described(opened.stateAt(i, true)), described(recording.stateAt(i, true)));
        QCOMPARE(opened.stateAt(i, false).trueCount, recording.stateAt(i, false).trueCount);
        QCOMPARE(opened.stateAt(i, false).countReturned, recording.stateAt(i, false).countReturned);
    }
    app.command({"DEL", key, again});
}

QTEST_GUILESS_MAIN(TestWatchRecording)
#include "tst_watchrecording.moc"
