#include "burst/burstengine.h"
#include "doctor/knownlimiters.h"
#include "fakeredis.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "redis/privateredisserver.h"
#include "sourcetree.h"
#include "testredis.h"
#include "watch/watchsession.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>

#include <atomic>
#include <memory>

namespace {
// Sums the records that the snapshots hand on, one by one, as a window would.
struct RecordTally
{
    qint64 stored = 0;
    qint64 overwrote = 0;
    void add(const WatchSnapshot& snapshot)
    {
        for (const WatchedKey& key : snapshot.keys) {
            for (const WatchRecord& record : key.records) {
                if (record.outcome == WatchRecord::Outcome::Stored)
                    ++stored;
                else if (record.outcome == WatchRecord::Outcome::Overwrote)
                    ++overwrote;
            }
        }
    }
};

WatchedKey keyIn(const WatchSnapshot& snapshot, const QByteArray& key)
{
    for (const WatchedKey& item : snapshot.keys) {
        if (item.key == key)
            return item;
    }
    return {};
}

// The commands INFO commandstats counts, with their calls.
QHash<QByteArray, qint64> commandCalls(RedisConnection& redis)
{
    QHash<QByteArray, qint64> calls;
    const RedisReply info = redis.command({"INFO", "commandstats"});
    for (const QByteArray& line : info.bytes().split('\n')) {
        if (!line.startsWith("cmdstat_"))
            continue;
        const qsizetype colon = line.indexOf(':');
        const qsizetype from = line.indexOf("calls=") + 6;
        calls.insert(line.mid(8, colon - 8), line.mid(from, line.indexOf(',', from) - from).toLongLong());
    }
    return calls;
}
} // namespace

class TestWatchSession : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void seesWhatTheBurstDid_data();
    void seesWhatTheBurstDid();
    void plainPipelineIsAttributedToItsClient();
    void readsAKeyFirstSeenMidStreamAndWritesNothing();
    void withoutMonitorPermissionNamesTheGrant();
    void serverGoingAwayKeepsWhatWasSeen();
    void deadServerFailsClearly();
    void stopEndsAtOnce();
    void aScriptLoadedBeforeTheWatch();
    void namesAPublicLibrarysScript();
    void groupsAFunctionsCallsUnderItsName();
    void slowKeyReadsKeepTheDeadline_data();
    void slowKeyReadsKeepTheDeadline();
    void hugeScriptBodiesAreNotKeptNorAskedAgain();

private:
    // A server of this test's own that answers DEBUG DIGEST (the shared fixture's refuses DEBUG).
    std::unique_ptr<PrivateRedisServer> m_server;
    WatchSession::Settings settingsFor(const QByteArray& pattern) const;
    bool waitUntilStarted(WatchSession& session);
};

void TestWatchSession::initTestCase()
{
    m_server = std::make_unique<PrivateRedisServer>(
        QStringList {QStringLiteral("--enable-debug-command"), QStringLiteral("local")});
    QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
}

WatchSession::Settings TestWatchSession::settingsFor(const QByteArray& pattern) const
{
    WatchSession::Settings settings;
    settings.endpoint = m_server->endpoint();
    settings.patterns = {KeyPattern(pattern)};
    settings.duration = std::chrono::milliseconds(120000);
    settings.snapshotInterval = std::chrono::milliseconds(50);
    return settings;
}

bool TestWatchSession::waitUntilStarted(WatchSession& session)
{
    QSignalSpy started(&session, &WatchSession::started);
    return started.wait(20000);
}

void TestWatchSession::seesWhatTheBurstDid_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::newRow("member = now overwrites") << QStringLiteral("now");
    QTest::newRow("unique member overwrites nothing") << QStringLiteral("request-id");
}

void TestWatchSession::seesWhatTheBurstDid()
{
    QFETCH(QString, strategy);
    const QByteArray key = TestRedis::uniqueKey("watched-burst");
    WatchSession session;
    WatchSnapshot latest;
    RecordTally tally;
    connect(&session, &WatchSession::snapshotAvailable, this, [&](const WatchSnapshot& snapshot) {
        latest = snapshot;
        tally.add(snapshot);
    });
    QSignalSpy finished(&session, &WatchSession::finished);
    QVERIFY(session.start(settingsFor(key)));
    QVERIFY(waitUntilStarted(session));

    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin(strategy);
    plan.clock = ClockKind::SystemMs;
    plan.requests = 3000;
    plan.connections = 2;
    plan.pipeline = 8;
    plan.windowMs = 60000;
    plan.key = key;
    plan.keepKey = true;
    BurstEngine engine;
    QSignalSpy burstDone(&engine, &BurstEngine::finished);
    QVERIFY2(engine.start(m_server->endpoint(), plan), qPrintable(engine.planError()));
    QTRY_COMPARE_WITH_TIMEOUT(burstDone.count(), 1, 120000);
    const auto summary = burstDone.at(0).at(0).value<BurstSummary>();
    QCOMPARE(summary.sent, 3000);
    QCOMPARE(summary.errors, 0);

    // Every ZADD of the burst has gone by in the stream.
    QTRY_COMPARE_WITH_TIMEOUT(keyIn(latest, key).zadds, summary.sent, 30000);
    session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const auto result = finished.at(0).at(0).value<WatchResult>();
    QCOMPARE(result.end, WatchResult::End::Stopped);
    tally.add(result.snapshot);
    const WatchedKey watched = keyIn(result.snapshot, key);
    RedisConnection redis;
    QVERIFY(redis.open(m_server->endpoint()));
    QVERIFY(watched.stateKnown);
    QCOMPARE(watched.requests, summary.sent);
    QCOMPARE(watched.overwrites, summary.overwritten);
    QCOMPARE(watched.distinctMembers, summary.stored);
    QCOMPARE(watched.size, redis.command({"ZCARD", key}).toInteger());
    QCOMPARE(watched.trueCount, summary.sent); // the window (60 s) holds every request
    QCOMPARE(tally.overwrote, summary.overwritten);
    QCOMPARE(tally.stored, summary.stored);
    QCOMPARE(watched.sources.size(), 1);
    QCOMPARE(watched.sources.first().kind, WatchSource::Kind::Script);
    QCOMPARE(watched.sources.first().id, plan.limiter->script.sha1());
    if (strategy == QLatin1String("now"))
        QVERIFY2(summary.overwritten > 0, "the burst should have shared milliseconds");
    else
        QCOMPARE(watched.overwrites, 0);
    QVERIFY(ZsetKeys::deleteRunKeys(redis, key));
}

void TestWatchSession::plainPipelineIsAttributedToItsClient()
{
    const QByteArray key = TestRedis::uniqueKey("watched-pipeline");
    WatchSession session;
    WatchSnapshot latest;
    connect(&session, &WatchSession::snapshotAvailable, this, [&](const WatchSnapshot& s) { latest = s; });
    QSignalSpy finished(&session, &WatchSession::finished);
    QVERIFY(session.start(settingsFor(key)));
    QVERIFY(waitUntilStarted(session));

    RedisConnection app;
    QVERIFY(app.open(m_server->endpoint()));
    for (int i = 0; i < 100; ++i) {
        const QByteArray now = QByteArray::number(1710000000000 + i / 4); // four requests per millisecond
        QVERIFY(app.append({"ZADD", key, now, now}));
    }
    for (int i = 0; i < 100; ++i)
        QVERIFY(!app.readReply().isError());
    QTRY_COMPARE_WITH_TIMEOUT(keyIn(latest, key).zadds, 100, 30000);
    session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const WatchedKey watched = keyIn(finished.at(0).at(0).value<WatchResult>().snapshot, key);
    QCOMPARE(watched.requests, 100);
    QCOMPARE(watched.overwrites, 75);
    QCOMPARE(watched.size, app.command({"ZCARD", key}).toInteger());
    QCOMPARE(watched.size, 25);
    QCOMPARE(watched.sources.size(), 1);
    QCOMPARE(watched.sources.first().kind, WatchSource::Kind::Client);
    QCOMPARE(watched.sources.first().id, "unix:" + m_server->socketPath().toUtf8());
    QVERIFY(watched.verdict().contains(QLatin1String("75 of 100 requests overwrote a member: the member is the time")));
    app.command({"DEL", key});
}

void TestWatchSession::readsAKeyFirstSeenMidStreamAndWritesNothing()
{
    const QByteArray key = TestRedis::uniqueKey("watched-before");
    RedisConnection app;
    QVERIFY(app.open(m_server->endpoint()));
    QCOMPARE(app.command({"ZADD", key, "1", "a", "2", "b", "3", "c"}).toInteger(), 3);
    const QByteArray digestBefore = app.command({"DEBUG", "DIGEST"}).bytes();
    const qint64 sizeBefore = app.command({"DBSIZE"}).toInteger();
    QVERIFY(!digestBefore.isEmpty());
    const QHash<QByteArray, qint64> callsBefore = commandCalls(app);

    WatchSession session;
    WatchSnapshot latest;
    connect(&session, &WatchSession::snapshotAvailable, this, [&](const WatchSnapshot& s) { latest = s; });
    QSignalSpy finished(&session, &WatchSession::finished);
    QVERIFY(session.start(settingsFor(key)));
    QVERIFY(waitUntilStarted(session));
    // Traffic the watch sees: reads of a key it has never seen, so it reads the key itself.
    QCOMPARE(app.command({"ZCARD", key}).toInteger(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(keyIn(latest, key).stateKnown, 30000);
    QCOMPARE(keyIn(latest, key).size, 3);
    QCOMPARE(keyIn(latest, key).trueCount, 3);
    // A ZADD after the read is an overwrite of a member that was there before the watch.
    QCOMPARE(app.command({"ZADD", key, "4", "a"}).toInteger(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(keyIn(latest, key).overwrites, 1, 30000);
    QCOMPARE(app.command({"ZADD", key, "1", "a"}).toInteger(), 0); // back as it was
    QTRY_COMPARE_WITH_TIMEOUT(keyIn(latest, key).overwrites, 2, 30000);
    session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QCOMPARE(finished.at(0).at(0).value<WatchResult>().keysRead, 1);

    QCOMPARE(app.command({"DEBUG", "DIGEST"}).bytes(), digestBefore);
    QCOMPARE(app.command({"DBSIZE"}).toInteger(), sizeBefore);
    // The only commands that ran besides this test's own: MONITOR and the read of the key.
    const QHash<QByteArray, qint64> callsAfter = commandCalls(app);
    const QSet<QByteArray> allowed {"monitor", "echo", "select", "zcard", "zrange", "info", "zadd", "debug", "dbsize"};
    for (auto it = callsAfter.cbegin(); it != callsAfter.cend(); ++it) {
        if (it.value() != callsBefore.value(it.key()))
            QVERIFY2(allowed.contains(it.key()), it.key().constData());
    }
    QCOMPARE(callsAfter.value("zadd") - callsBefore.value("zadd"), 2); // this test's own two
    QCOMPARE(callsAfter.value("monitor") - callsBefore.value("monitor"), 1);
    QCOMPARE(callsAfter.value("zrange") - callsBefore.value("zrange"), 1);
    app.command({"DEL", key});
}

void TestWatchSession::withoutMonitorPermissionNamesTheGrant()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    RedisConnection admin;
    QVERIFY(admin.open(server.endpoint()));
    QCOMPARE(admin.command({"ACL", "SETUSER", "default", "-monitor"}).text(), QStringLiteral("OK"));
    WatchSession session;
    QSignalSpy finished(&session, &WatchSession::finished);
    WatchSession::Settings settings;
    settings.endpoint = server.endpoint();
    QVERIFY(session.start(settings));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    const auto result = finished.at(0).at(0).value<WatchResult>();
    QCOMPARE(result.end, WatchResult::End::Failed);
    QCOMPARE(result.error.kind, RedisError::Kind::NoPermission);
    QVERIFY2(result.error.message.contains(QLatin1String("ACL SETUSER default +monitor")),
             qPrintable(result.error.message));
}

void TestWatchSession::serverGoingAwayKeepsWhatWasSeen()
{
    PrivateRedisServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    WatchSession session;
    WatchSnapshot latest;
    connect(&session, &WatchSession::snapshotAvailable, this, [&](const WatchSnapshot& s) { latest = s; });
    QSignalSpy finished(&session, &WatchSession::finished);
    WatchSession::Settings settings;
    settings.endpoint = server.endpoint();
    settings.snapshotInterval = std::chrono::milliseconds(50);
    QVERIFY(session.start(settings));
    QVERIFY(waitUntilStarted(session));
    RedisConnection app;
    QVERIFY(app.open(server.endpoint()));
    for (int i = 0; i < 10; ++i)
        app.command({"ZADD", "zsetlab:gone", "5", "5"});
    QTRY_COMPARE_WITH_TIMEOUT(keyIn(latest, "zsetlab:gone").zadds, 10, 30000);
    server.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    const auto result = finished.at(0).at(0).value<WatchResult>();
    QCOMPARE(result.end, WatchResult::End::Failed);
    QCOMPARE(result.error.kind, RedisError::Kind::ConnectionLost);
    QVERIFY2(result.error.message.contains(QLatin1String("went away")), qPrintable(result.error.message));
    QCOMPARE(keyIn(result.snapshot, "zsetlab:gone").overwrites, 9);
}

void TestWatchSession::deadServerFailsClearly()
{
    WatchSession session;
    QSignalSpy finished(&session, &WatchSession::finished);
    WatchSession::Settings settings;
    settings.endpoint = RedisEndpoint::unixSocket(m_server->folder() + QStringLiteral("/nothing-here.sock"));
    QVERIFY(session.start(settings));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
    const auto result = finished.at(0).at(0).value<WatchResult>();
    QCOMPARE(result.end, WatchResult::End::Failed);
    QCOMPARE(result.error.kind, RedisError::Kind::NoSocket);
}

void TestWatchSession::stopEndsAtOnce()
{
    WatchSession session;
    QSignalSpy finished(&session, &WatchSession::finished);
    WatchSession::Settings settings = settingsFor("zsetlab:nothing");
    settings.duration = std::chrono::milliseconds(600000);
    QVERIFY(session.start(settings));
    QVERIFY(waitUntilStarted(session));
    QElapsedTimer clock;
    clock.start();
    session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QVERIFY(clock.elapsed() < 2000);
    QCOMPARE(finished.at(0).at(0).value<WatchResult>().end, WatchResult::End::Stopped);

    // And the duration ends it by itself.
    settings.duration = std::chrono::milliseconds(300);
    QVERIFY(session.start(settings));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 20000);
    QCOMPARE(finished.at(1).at(0).value<WatchResult>().end, WatchResult::End::Duration);
}

// An app loaded its script before the watch began: the stream shows only EVALSHA. Valkey 8 tells the
// body (SCRIPT SHOW), so its script opens in the Script Doctor; Redis has no way to, and the watch
// says nothing of a body it does not have.
void TestWatchSession::aScriptLoadedBeforeTheWatch()
{
    const QByteArray key = TestRedis::uniqueKey("loaded-before");
    RedisConnection app;
    QVERIFY(app.open(m_server->endpoint()));
    const QByteArray body = "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1]) -- \"quoted\" \\ " + key;
    const QByteArray sha = app.command({"SCRIPT", "LOAD", body}).bytes();
    QCOMPARE(sha.size(), 40);
    WatchSession session;
    QSignalSpy finished(&session, &WatchSession::finished);
    QVERIFY(session.start(settingsFor(key)));
    QVERIFY(waitUntilStarted(session));
    QCOMPARE(app.command({"EVALSHA", sha, "1", key, "5"}).type(), RedisReply::Type::Nil);
    session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const WatchResult result = finished.at(0).at(0).value<WatchResult>();
    const bool showsScripts = result.server.name == QLatin1String("valkey")
        && result.server.nameVersion.section(QLatin1Char('.'), 0, 0).toInt() >= 8;
    QCOMPARE(result.snapshot.scripts.value(sha), showsScripts ? body : QByteArray());
    QCOMPARE(keyIn(result.snapshot, key).sources.value(0).id, sha);
    app.command({"DEL", key});
}

// A public library's limiter is named by what the watch has of it: its SHA1 alone (loaded before
// the watch, called with EVALSHA), or its body (sent with EVAL).
void TestWatchSession::namesAPublicLibrarysScript()
{
    auto upstream = [](const char* id) {
        QFile file(sourcePath(QStringLiteral("tests/upstream-limiters/%1.lua").arg(QLatin1String(id))));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    const QByteArray tyk = upstream("tyk-sliding-log");
    const QByteArray async = upstream("async-ratelimiter");
    QVERIFY(!tyk.isEmpty() && !async.isEmpty());
    const QByteArray key = TestRedis::uniqueKey("known-limiters");
    RedisConnection app;
    QVERIFY(app.open(m_server->endpoint()));
    const QByteArray tykSha = app.command({"SCRIPT", "LOAD", tyk}).bytes();
    QCOMPARE(tykSha.size(), 40);
    WatchSession session;
    QSignalSpy finished(&session, &WatchSession::finished);
    QVERIFY(session.start(settingsFor(key + '*')));
    QVERIFY(waitUntilStarted(session));
    const RedisReply logged = app.command({"EVALSHA", tykSha, "1", key, "1000", "0", "5", "60"});
    QVERIFY2(!logged.isError(), qPrintable(logged.text()));
    const RedisReply counted = app.command({"EVAL", async, "1", key + ":async", "2000", "1000", "5"});
    QVERIFY2(!counted.isError(), qPrintable(counted.text()));
    session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const WatchSnapshot snapshot = finished.at(0).at(0).value<WatchResult>().snapshot;
    app.command({"DEL", key, key + ":async"});
    const WatchSource tykSource = keyIn(snapshot, key).sources.value(0);
    QCOMPARE(tykSource.id, tykSha);
    QCOMPARE(KnownLimiters::nameOf(tykSource.id, snapshot.scripts.value(tykSource.id)),
             QStringLiteral("Tyk sliding log"));
    const WatchSource asyncSource = keyIn(snapshot, key + ":async").sources.value(0);
    QVERIFY(snapshot.scripts.contains(asyncSource.id)); // the body came with EVAL
    QCOMPARE(KnownLimiters::nameOf(asyncSource.id, snapshot.scripts.value(asyncSource.id)),
             QStringLiteral("async-ratelimiter"));
    // A body changed by the app is derived from the library's.
    const QByteArray changed = "local zsetlab_extra = redis.call('PING')\n" + async;
    QCOMPARE(KnownLimiters::nameOf(ScriptFingerprint::of(changed).sha1, changed),
             QStringLiteral("derived from async-ratelimiter"));
}

// Redis Functions: FCALL and FCALL_RO are requests like EVALSHA, the ZADDs they run are theirs,
// and the source is named by the function.
void TestWatchSession::groupsAFunctionsCallsUnderItsName()
{
    const QByteArray key = TestRedis::uniqueKey("function-calls");
    RedisConnection app;
    QVERIFY(app.open(m_server->endpoint()));
    const QByteArray library = "#!lua name=watchedlib\n"
                               "redis.register_function('add_now', function(keys, args)\n"
                               "  redis.call('ZADD', keys[1], args[1], args[1])\n"
                               "  return redis.call('ZCARD', keys[1])\n"
                               "end)\n"
                               "redis.register_function{function_name = 'count', flags = {'no-writes'},\n"
                               "  callback = function(keys) return redis.call('ZCARD', keys[1]) end}\n";
    const RedisReply loaded = app.command({"FUNCTION", "LOAD", "REPLACE", library});
    QVERIFY2(!loaded.isError(), qPrintable(loaded.text()));
    WatchSession session;
    QSignalSpy finished(&session, &WatchSession::finished);
    QVERIFY(session.start(settingsFor(key)));
    QVERIFY(waitUntilStarted(session));
    for (int i = 0; i < 6; ++i) // three calls in each of two milliseconds
        QCOMPARE(app.command({"FCALL", "add_now", "1", key, QByteArray::number(1000 + i / 3)}).toInteger(), i / 3 + 1);
    QCOMPARE(app.command({"FCALL_RO", "count", "1", key}).toInteger(), 2LL);
    session.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    const WatchResult result = finished.at(0).at(0).value<WatchResult>();
    const WatchedKey watched = keyIn(result.snapshot, key);
    app.command({"FUNCTION", "DELETE", "watchedlib"});
    app.command({"DEL", key});
    // Seven calls on the key (a read-only call is a request too, as a refused one is), six ZADDs.
    QCOMPARE(watched.requests, 7);
    QCOMPARE(watched.zadds, 6);
    QCOMPARE(watched.overwrites, 4);
    QCOMPARE(watched.distinctMembers, 2);
    QCOMPARE(watched.sources.size(), 2);
    QCOMPARE(watched.sources.at(0).id, QByteArray("function add_now"));
    QCOMPARE(watched.sources.at(0).requests, 6);
    QCOMPARE(watched.sources.at(0).overwrites, 4);
    QCOMPARE(watched.sources.at(1).id, QByteArray("function count"));
    QCOMPARE(watched.sources.at(1).requests, 1);
    QCOMPARE(watched.sources.at(1).overwrites, 0);
}

// Issue #34: a server that answers the reads of keys first seen mid-stream one byte every 200 ms
// made a 3 s watch run 15 s, and Ctrl+C take 10 s and report "duration"; the lines it fell
// behind on were not counted. The watch's end now bounds those reads too, and what it could not
// follow is counted.
void TestWatchSession::slowKeyReadsKeepTheDeadline_data()
{
    QTest::addColumn<bool>("stopped");
    QTest::newRow("duration") << false;
    QTest::newRow("stop") << true;
}

void TestWatchSession::slowKeyReadsKeepTheDeadline()
{
    QFETCH(bool, stopped);
    constexpr int keys = 200;
    FakeRedis fake([](const QList<QByteArray>& command) {
        FakeRedis::Answer answer;
        const QByteArray name = command.value(0).toUpper();
        if (name == "INFO") {
            answer.bytes = FakeRedis::infoServer();
        } else if (name == "MONITOR") {
            // A limiter's traffic on many keys the watch has not seen yet: each is read once.
            answer.bytes = "+OK\r\n";
            for (int k = 0; k < keys; ++k)
                answer.bytes += "+1796000000." + QByteArray::number(100000 + k) + " [0 127.0.0.1:5000] \"ZADD\" "
                    + "\"rl:" + QByteArray::number(k) + "\" \"1796000000000\" \"1796000000000\"\r\n";
            // A value of megabytes, as an app's SET may carry: counted, not parsed.
            answer.bytes += "+1796000001.000000 [0 127.0.0.1:5000] \"SET\" \"blob\" \""
                + QByteArray(2 * 1024 * 1024, 'x') + "\"\r\n";
        } else if (name == "ECHO") {
            answer.bytes = '$' + QByteArray::number(command.value(1).size()) + "\r\n" + command.value(1) + "\r\n";
        } else {
            answer.bytes = "+OK\r\n"; // SELECT, ZCARD, ZRANGE: one byte every 200 ms
            answer.mode = FakeRedis::Answer::Mode::Drip;
        }
        return answer;
    });
    QVERIFY(fake.isListening());
    WatchSession::Settings settings;
    settings.endpoint = fake.endpoint();
    settings.duration = std::chrono::milliseconds(stopped ? 60000 : 2000);
    settings.options.commandTimeout = std::chrono::milliseconds(2000);
    WatchSession session;
    QSignalSpy started(&session, &WatchSession::started);
    QSignalSpy finished(&session, &WatchSession::finished);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(session.start(settings));
    QVERIFY(started.wait(5000));
    if (stopped) {
        QVERIFY(!finished.wait(1000)); // the reads are under way: what stop() has to cut short
        clock.restart();
        session.stop();
    }
    QVERIFY(finished.count() > 0 || finished.wait(20000));
    const qint64 tookMs = clock.elapsed();
    // The duration (whose end also bounds the reads of keys), or stop() and the rest of a read
    // under way (the command timeout); then at most 1 s to catch up. It was 15 s, and 10 s.
    const qint64 boundMs = 2000 + 1000 + 1500; // and slack for a slow machine (sanitizers)
    QVERIFY2(tookMs <= boundMs, qPrintable(QStringLiteral("%1 ms, bound %2 ms").arg(tookMs).arg(boundMs)));
    const auto result = finished.first().first().value<WatchResult>();
    QCOMPARE(result.end, stopped ? WatchResult::End::Stopped : WatchResult::End::Duration);
    QCOMPARE(result.oversizeLines, 1);
    QVERIFY2(result.keysNotRead + result.linesBehind > 0, "the keys it could not read in time are counted");
    QVERIFY(result.keysRead < keys);
    QVERIFY(result.snapshot.droppedLines >= result.linesBehind + result.oversizeLines);
}

// Issue #44: SCRIPT SHOW bodies were kept up to 64 of 64 MiB each (1.09 GB), and the watch ran
// 79 s for a --duration of 60 s. A body past the bound is not kept, and such a server is asked
// SCRIPT SHOW no more.
void TestWatchSession::hugeScriptBodiesAreNotKeptNorAskedAgain()
{
    constexpr int scripts = 20;
    std::vector<QByteArray> bodies;
    // A value of megabytes first, as in slowKeyReadsKeepTheDeadline: the stream comes in more than
    // one read.
    QByteArray stream = "+OK\r\n+1796000000.000000 [0 127.0.0.1:5000] \"SET\" \"blob\" \""
        + QByteArray(2 * 1024 * 1024, 'x') + "\"\r\n";
    for (int i = 0; i < scripts; ++i) {
        bodies.push_back("return '" + QByteArray::number(i) + QByteArray(1 << 20, 'x') + "'");
        const QByteArray sha = QCryptographicHash::hash(bodies.back(), QCryptographicHash::Sha1).toHex();
        stream += "+1796000000." + QByteArray::number(100000 + i) + " [0 127.0.0.1:5000] \"EVALSHA\" \"" + sha
            + "\" \"1\" \"rl:1\" \"5\"\r\n";
        stream += "+1796000000." + QByteArray::number(100000 + i) + " [0 lua] \"ZADD\" \"rl:1\" \"5\" \"5\"\r\n";
    }
    auto shows = std::make_shared<std::atomic<int>>(0);
    FakeRedis fake([&bodies, stream, shows](const QList<QByteArray>& command) {
        FakeRedis::Answer answer;
        const QByteArray name = command.value(0).toUpper();
        if (name == "INFO") {
            const QByteArray text = "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.1\r\n"
                                    "server_mode:standalone\r\nos:Linux\r\n";
            answer.bytes = '$' + QByteArray::number(text.size()) + "\r\n" + text + "\r\n";
        } else if (name == "MONITOR") {
            answer.bytes = stream;
        } else if (name == "SCRIPT" && command.value(1).toUpper() == "SHOW") {
            ++*shows;
            for (const QByteArray& body : bodies) { // its true body: it would pass the SHA1 check
                if (QCryptographicHash::hash(body, QCryptographicHash::Sha1).toHex() == command.value(2).toLower())
                    answer.bytes = '$' + QByteArray::number(body.size()) + "\r\n" + body + "\r\n";
            }
        } else if (name == "ECHO") {
            answer.bytes = '$' + QByteArray::number(command.value(1).size()) + "\r\n" + command.value(1) + "\r\n";
        } else {
            answer.bytes = "*0\r\n"; // SELECT's +OK is not needed: ZCARD and ZRANGE of nothing
        }
        return answer;
    });
    QVERIFY(fake.isListening());
    WatchSession::Settings settings;
    settings.endpoint = fake.endpoint();
    settings.duration = std::chrono::milliseconds(2000);
    WatchSession session;
    QSignalSpy finished(&session, &WatchSession::finished);
    QElapsedTimer clock;
    clock.start();
    QVERIFY(session.start(settings));
    QVERIFY(finished.wait(20000));
    QVERIFY2(clock.elapsed() <= 2000 + 1000 + 1500, qPrintable(QStringLiteral("%1 ms").arg(clock.elapsed())));
    const auto result = finished.first().first().value<WatchResult>();
    QVERIFY2(result.server.name == QLatin1String("valkey"), qPrintable(result.server.name));
    QVERIFY(result.snapshot.scripts.isEmpty());
    QCOMPARE(shows->load(), 1);
    QCOMPARE(result.snapshot.scriptsNotKept, 1);
}

QTEST_GUILESS_MAIN(TestWatchSession)
#include "tst_watchsession.moc"
