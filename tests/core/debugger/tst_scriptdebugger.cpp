#include "debugger/scriptdebugger.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "testredis.h"

#include <QFile>
#include <QScopeGuard>
#include <QtTest>

#include <memory>

namespace {
constexpr qint64 now = 1710000000000;

RedisArgs request(qint64 at, const char* id)
{
    return {QByteArray::number(at), "1000", "10", id};
}

// One ordinary call of the "now" script: the request that came first in the millisecond.
bool runNow(const QByteArray& key, qint64 at)
{
    RedisConnection connection;
    if (!TestRedis::connect(connection))
        return false;
    ScriptRunner runner(LimiterCatalog::builtin("now")->script);
    return !runner.run(connection, {key}, request(at, "first")).isError();
}

qint64 zcard(const QByteArray& key)
{
    RedisConnection connection;
    if (!TestRedis::connect(connection))
        return -1;
    return connection.command({"ZCARD", key}).toInteger();
}

void deleteKey(const QByteArray& key)
{
    RedisConnection connection;
    if (TestRedis::connect(connection))
        ZsetKeys::deleteRunKeys(connection, key);
}

// True when a fresh client gets PONG within 300 ms: no debugging session holds the server.
bool serverAnswersAtOnce()
{
    ConnectOptions quick;
    quick.connectTimeout = std::chrono::milliseconds(300);
    quick.commandTimeout = std::chrono::milliseconds(300);
    RedisConnection connection;
    return connection.open(TestRedis::endpoint(), quick) && connection.command({"PING"}).bytes() == "PONG";
}

// Forked sessions run in a child of redis-server; none may outlive the session.
int serverChildren()
{
    const qint64 pid = TestRedis::server().serverPid();
    QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(pid));
    if (!children.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray pids = children.readAll().simplified();
    return pids.isEmpty() ? 0 : int(pids.split(' ').size());
}

DebugStep lastStep(const QSignalSpy& spy)
{
    return spy.last().at(0).value<DebugStep>();
}

bool hasCall(const DebugStep& step, const QString& command, DebugCall* found)
{
    for (const DebugCall& call : step.calls) {
        if (call.command.startsWith(command)) {
            *found = call;
            return true;
        }
    }
    return false;
}

void addModeColumn()
{
    QTest::addColumn<ScriptDebugger::Mode>("mode");
}
} // namespace

class TestScriptDebugger : public QObject
{
    Q_OBJECT
private slots:
    void secondSameMillisecondRequestShowsZaddReplyZero_data();
    void secondSameMillisecondRequestShowsZaddReplyZero();
    void forkedRollsBackAndSyncKeepsTheWrites_data();
    void forkedRollsBackAndSyncKeepsTheWrites();
    void reportsTheLineOfAScriptError_data();
    void reportsTheLineOfAScriptError();
    void stopMidwayReleasesTheServer_data();
    void stopMidwayReleasesTheServer();
    void destroyingMidSessionReleasesTheServer_data();
    void destroyingMidSessionReleasesTheServer();
    void endlessLoopNeverHoldsTheServer_data();
    void endlessLoopNeverHoldsTheServer();
    void showsTheZsetUpToTheRowLimit_data();
    void showsTheZsetUpToTheRowLimit();
    void idleSessionIsEnded();
    void refusesForeignKeysInSyncMode();

private:
    std::unique_ptr<ScriptDebugger> makeDebugger();
};

std::unique_ptr<ScriptDebugger> TestScriptDebugger::makeDebugger()
{
    auto debugger = std::make_unique<ScriptDebugger>();
    debugger->setServer(TestRedis::endpoint());
    return debugger;
}

void TestScriptDebugger::secondSameMillisecondRequestShowsZaddReplyZero_data()
{
    addModeColumn();
    QTest::newRow("forked") << ScriptDebugger::Mode::Forked;
    QTest::newRow("sync") << ScriptDebugger::Mode::Sync;
}

void TestScriptDebugger::secondSameMillisecondRequestShowsZaddReplyZero()
{
    QFETCH(ScriptDebugger::Mode, mode);
    const QByteArray key = TestRedis::uniqueKey("debug-now");
    QVERIFY(runNow(key, now));

    auto debugger = makeDebugger();
    QSignalSpy stopped(debugger.get(), &ScriptDebugger::stopped);
    QSignalSpy finished(debugger.get(), &ScriptDebugger::finished);
    QVERIFY(debugger->start(LimiterCatalog::builtin("now")->script, key, request(now, "second"), mode));
    QVERIFY(!debugger->isPaused()); // start() returns before the server answers
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 5000);
    QCOMPARE(lastStep(stopped).line, 15);
    QCOMPARE(lastStep(stopped).lineText, QStringLiteral("local key = KEYS[1]"));
    QCOMPARE(lastStep(stopped).zsetSize, 1); // the first request's member, seen from inside the session

    // Step until the step that runs ZADD; the stop before it is on the ZADD line.
    DebugCall zadd;
    int zaddLine = 0;
    for (int i = 0; i < 10 && !hasCall(lastStep(stopped), QStringLiteral("ZADD"), &zadd); ++i) {
        zaddLine = lastStep(stopped).line;
        debugger->step();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), i + 2, 5000);
    }
    QCOMPARE(zadd.command, QStringLiteral("ZADD %1 %2 %2").arg(QString::fromUtf8(key)).arg(now));
    QCOMPARE(zadd.reply, QStringLiteral("0")); // the member existed: overwritten, not added
    QVERIFY(!zadd.failed());
    QCOMPARE(zaddLine, 23);

    const DebugStep after = lastStep(stopped);
    QCOMPARE(after.line, 26);
    bool sawAdded = false;
    bool sawNow = false;
    for (const DebugVariable& local : after.locals) {
        sawAdded |= local.name == QLatin1String("added") && local.value == QLatin1String("0");
        // LDB prints `now` as 1.79611e+12; the millisecond the lesson is about is shown whole.
        if (local.name == QLatin1String("now")) {
            sawNow = true;
            QCOMPARE(local.value, QString::number(now));
            QVERIFY2(local.printed.contains(QLatin1String("e+")), qPrintable(local.printed));
        }
    }
    QVERIFY(sawAdded);
    QVERIFY(sawNow);
    QCOMPARE(after.zsetSize, 1);
    QCOMPARE(after.zset.size(), 1);
    QCOMPARE(after.zset.at(0).member, QByteArray::number(now));
    QCOMPARE(after.zset.at(0).score, QByteArray::number(now));

    debugger->continueToEnd();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    const auto reply = finished.last().at(1).value<RedisReply>();
    QCOMPARE(reply.type(), RedisReply::Type::Array);
    QCOMPARE(reply.elements().size(), size_t(3));
    QCOMPARE(reply.elements()[0].toInteger(), 1); // count 1 for two requests
    QCOMPARE(reply.elements()[1].toInteger(), 0); // added 0
    QVERIFY(!debugger->isActive());
    QVERIFY(serverAnswersAtOnce());
    deleteKey(key);
}

void TestScriptDebugger::forkedRollsBackAndSyncKeepsTheWrites_data()
{
    addModeColumn();
    QTest::addColumn<qint64>("membersAfter");
    QTest::newRow("forked: rolled back") << ScriptDebugger::Mode::Forked << qint64(1);
    QTest::newRow("sync: kept") << ScriptDebugger::Mode::Sync << qint64(2);
}

void TestScriptDebugger::forkedRollsBackAndSyncKeepsTheWrites()
{
    QFETCH(ScriptDebugger::Mode, mode);
    QFETCH(qint64, membersAfter);
    const QByteArray key = TestRedis::uniqueKey("debug-writes");
    QVERIFY(runNow(key, now));

    auto debugger = makeDebugger();
    QSignalSpy stopped(debugger.get(), &ScriptDebugger::stopped);
    QSignalSpy finished(debugger.get(), &ScriptDebugger::finished);
    // A request one millisecond later: a new member, so ZADD writes.
    QVERIFY(debugger->start(LimiterCatalog::builtin("now")->script, key, request(now + 1, "later"), mode));
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 5000);
    DebugCall zadd;
    for (int i = 0; i < 10 && !hasCall(lastStep(stopped), QStringLiteral("ZADD"), &zadd); ++i) {
        debugger->step();
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), i + 2, 5000);
    }
    QCOMPARE(zadd.reply, QStringLiteral("1"));
    QCOMPARE(lastStep(stopped).zsetSize, 2); // inside the session both modes see the write

    debugger->continueToEnd();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    const DebugStep last = finished.last().at(0).value<DebugStep>();
    QVERIFY(last.ended);
    QCOMPARE(last.zsetSize, membersAfter);
    QCOMPARE(zcard(key), membersAfter);
    deleteKey(key);
}

void TestScriptDebugger::reportsTheLineOfAScriptError_data()
{
    addModeColumn();
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<bool>("stringKey");
    QTest::addColumn<int>("line");

    const QByteArray arithmetic = "local key = KEYS[1]\n"
                                  "local now = tonumber(ARGV[1])\n"
                                  "redis.call('ZADD', key, now, now)\n"
                                  "local broken = nil + now\n"
                                  "return broken\n";
    const QByteArray wrongType = "local key = KEYS[1]\n"
                                 "local now = tonumber(ARGV[1])\n"
                                 "local added = redis.call('ZADD', key, now, now)\n"
                                 "return added\n";
    for (const auto mode : {ScriptDebugger::Mode::Forked, ScriptDebugger::Mode::Sync}) {
        const char* name = mode == ScriptDebugger::Mode::Forked ? "forked" : "sync";
        QTest::addRow("%s: arithmetic on nil", name) << mode << arithmetic << false << 4;
        QTest::addRow("%s: redis.call on a string key", name) << mode << wrongType << true << 3;
        QTest::addRow("%s: does not compile", name) << mode << QByteArray("local x = = 1\n") << false << 1;
    }
}

void TestScriptDebugger::reportsTheLineOfAScriptError()
{
    QFETCH(ScriptDebugger::Mode, mode);
    QFETCH(QByteArray, source);
    QFETCH(bool, stringKey);
    QFETCH(int, line);
    const QByteArray key = TestRedis::uniqueKey("debug-error");
    if (stringKey) {
        RedisConnection connection;
        QVERIFY(TestRedis::connect(connection));
        QVERIFY(!connection.command({"SET", key, "not a zset"}).isError());
    }

    auto debugger = makeDebugger();
    QSignalSpy stopped(debugger.get(), &ScriptDebugger::stopped);
    QSignalSpy finished(debugger.get(), &ScriptDebugger::finished);
    QVERIFY(debugger->start(LimiterScript::fromSource(QStringLiteral("broken"), source), key, request(now, "x"), mode));
    QTRY_VERIFY_WITH_TIMEOUT(stopped.count() + finished.count() > 0, 5000);
    if (finished.isEmpty()) {
        debugger->continueToEnd();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    }
    const DebugStep last = finished.last().at(0).value<DebugStep>();
    const auto reply = finished.last().at(1).value<RedisReply>();
    QVERIFY(reply.isServerError());
    QCOMPARE(last.line, line);
    QCOMPARE(last.lineText, QString::fromUtf8(source.split('\n').at(line - 1)));
    QVERIFY(serverAnswersAtOnce());
    deleteKey(key);
}

void TestScriptDebugger::stopMidwayReleasesTheServer_data()
{
    addModeColumn();
    QTest::addColumn<bool>("heldDuringSession");
    QTest::newRow("forked") << ScriptDebugger::Mode::Forked << false;
    QTest::newRow("sync") << ScriptDebugger::Mode::Sync << true;
}

void TestScriptDebugger::stopMidwayReleasesTheServer()
{
    QFETCH(ScriptDebugger::Mode, mode);
    QFETCH(bool, heldDuringSession);
    const QByteArray key = TestRedis::uniqueKey("debug-stop");
    auto debugger = makeDebugger();
    QSignalSpy stopped(debugger.get(), &ScriptDebugger::stopped);
    QSignalSpy aborted(debugger.get(), &ScriptDebugger::aborted);
    QSignalSpy finished(debugger.get(), &ScriptDebugger::finished);
    QVERIFY(debugger->start(LimiterCatalog::builtin("now")->script, key, request(now, "r"), mode));
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 5000);
    debugger->step();
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 2, 5000);
    QCOMPARE(serverAnswersAtOnce(), !heldDuringSession); // Sync holds the server, Forked does not
    if (mode == ScriptDebugger::Mode::Forked)
        QCOMPARE(serverChildren(), 1); // the forked copy running the script

    debugger->stop();
    QVERIFY(!debugger->isActive());
    QTRY_COMPARE_WITH_TIMEOUT(aborted.count(), 1, 2000);
    QVERIFY(serverAnswersAtOnce());
    QTRY_COMPARE_WITH_TIMEOUT(serverChildren(), 0, 2000);
    debugger->step(); // nothing to step: ignored
    QCOMPARE(stopped.count(), 2);
    QCOMPARE(finished.count(), 0);
    deleteKey(key);
}

void TestScriptDebugger::destroyingMidSessionReleasesTheServer_data()
{
    addModeColumn();
    QTest::newRow("forked") << ScriptDebugger::Mode::Forked;
    QTest::newRow("sync") << ScriptDebugger::Mode::Sync;
}

void TestScriptDebugger::destroyingMidSessionReleasesTheServer()
{
    QFETCH(ScriptDebugger::Mode, mode);
    const QByteArray key = TestRedis::uniqueKey("debug-destroy");
    auto debugger = makeDebugger();
    QSignalSpy stopped(debugger.get(), &ScriptDebugger::stopped);
    QVERIFY(debugger->start(LimiterCatalog::builtin("now")->script, key, request(now, "r"), mode));
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 5000);
    debugger->step();
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 2, 5000);

    QElapsedTimer timer;
    timer.start();
    debugger.reset();
    QVERIFY2(timer.elapsed() < 1000, "destruction must not wait on the server");
    QTRY_VERIFY_WITH_TIMEOUT(serverAnswersAtOnce(), 2000);
    QTRY_COMPARE_WITH_TIMEOUT(serverChildren(), 0, 2000);
    deleteKey(key);
}

void TestScriptDebugger::endlessLoopNeverHoldsTheServer_data()
{
    addModeColumn();
    QTest::addColumn<QString>("ending");
    QTest::newRow("sync: stop at the loop's timeout stop")
        << ScriptDebugger::Mode::Sync << QStringLiteral("stop-paused");
    QTest::newRow("sync: stop while it runs") << ScriptDebugger::Mode::Sync << QStringLiteral("stop-running");
    QTest::newRow("sync: destroy while it runs") << ScriptDebugger::Mode::Sync << QStringLiteral("destroy-running");
    QTest::newRow("forked: stop while it runs") << ScriptDebugger::Mode::Forked << QStringLiteral("stop-running");
}

void TestScriptDebugger::endlessLoopNeverHoldsTheServer()
{
    QFETCH(ScriptDebugger::Mode, mode);
    QFETCH(QString, ending);
    // LDB stops a running loop at the busy-script threshold; a short one keeps the test short.
    RedisConnection admin;
    QVERIFY(TestRedis::connect(admin));
    const QByteArray threshold = admin.command({"CONFIG", "GET", "lua-time-limit"}).elements().at(1).bytes();
    QVERIFY(!admin.command({"CONFIG", "SET", "lua-time-limit", "300"}).isError());
    const auto restore = qScopeGuard([&] { admin.command({"CONFIG", "SET", "lua-time-limit", threshold}); });

    const QByteArray key = TestRedis::uniqueKey("debug-loop");
    auto debugger = makeDebugger();
    QSignalSpy stopped(debugger.get(), &ScriptDebugger::stopped);
    QSignalSpy aborted(debugger.get(), &ScriptDebugger::aborted);
    const QByteArray loop = "local i = 0\nwhile true do\n  i = i + 1\nend\n";
    QVERIFY(debugger->start(LimiterScript::fromSource(QStringLiteral("loop"), loop), key, {}, mode));
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 5000);
    debugger->continueToEnd();
    if (ending == QLatin1String("stop-paused")) {
        QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 2, 5000);
        QCOMPARE(lastStep(stopped).stopReason, QStringLiteral("timeout reached, infinite loop?"));
        QCOMPARE(lastStep(stopped).line, 3);
        QVERIFY(!serverAnswersAtOnce()); // Sync: held while paused in the loop
        debugger->stop();
    } else if (ending == QLatin1String("stop-running")) {
        debugger->stop();
    } else {
        debugger.reset();
    }
    if (debugger)
        QTRY_COMPARE_WITH_TIMEOUT(aborted.count(), 1, 5000);
    QTRY_VERIFY_WITH_TIMEOUT(serverAnswersAtOnce(), 5000);
    QTRY_COMPARE_WITH_TIMEOUT(serverChildren(), 0, 5000);
}

void TestScriptDebugger::showsTheZsetUpToTheRowLimit_data()
{
    addModeColumn();
    QTest::addColumn<int>("rowLimit");
    QTest::addColumn<int>("rowsShown");
    QTest::newRow("forked, default limit") << ScriptDebugger::Mode::Forked << 0 << 100;
    QTest::newRow("sync, default limit") << ScriptDebugger::Mode::Sync << 0 << 100;
    QTest::newRow("forked, 20 rows") << ScriptDebugger::Mode::Forked << 20 << 20;
}

void TestScriptDebugger::showsTheZsetUpToTheRowLimit()
{
    QFETCH(ScriptDebugger::Mode, mode);
    QFETCH(int, rowLimit);
    QFETCH(int, rowsShown);
    const QByteArray key = TestRedis::uniqueKey("debug-rows");
    {
        RedisConnection connection;
        QVERIFY(TestRedis::connect(connection));
        RedisArgs zadd {"ZADD", key};
        for (int i = 0; i < 150; ++i)
            zadd << QByteArray::number(now - 500 + i) << "request-" + QByteArray::number(i);
        QCOMPARE(connection.command(zadd).toInteger(), 150);
    }
    auto debugger = makeDebugger();
    if (rowLimit > 0)
        debugger->setZsetRowLimit(rowLimit);
    QSignalSpy stopped(debugger.get(), &ScriptDebugger::stopped);
    QVERIFY(debugger->start(LimiterCatalog::builtin("now")->script, key, request(now, "r"), mode));
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 5000);
    const DebugStep first = lastStep(stopped);
    QCOMPARE(first.zsetSize, 150);
    QCOMPARE(first.zset.size(), rowsShown); // whole rows, not cut by LDB's 256-byte default
    QCOMPARE(first.zset.last().member, "request-" + QByteArray::number(rowsShown - 1));
    QCOMPARE(first.zset.last().score, QByteArray::number(now - 500 + rowsShown - 1));
    QVERIFY(!first.zsetNote.contains(QLatin1String("trimmed")));
    QSignalSpy aborted(debugger.get(), &ScriptDebugger::aborted);
    debugger->stop();
    QTRY_COMPARE_WITH_TIMEOUT(aborted.count(), 1, 2000);
    deleteKey(key);
}

void TestScriptDebugger::idleSessionIsEnded()
{
    const QByteArray key = TestRedis::uniqueKey("debug-idle");
    auto debugger = makeDebugger();
    debugger->setIdleTimeout(std::chrono::milliseconds(200));
    QSignalSpy stopped(debugger.get(), &ScriptDebugger::stopped);
    QSignalSpy aborted(debugger.get(), &ScriptDebugger::aborted);
    QVERIFY(
        debugger->start(LimiterCatalog::builtin("now")->script, key, request(now, "r"), ScriptDebugger::Mode::Sync));
    QTRY_COMPARE_WITH_TIMEOUT(stopped.count(), 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(aborted.count(), 1, 3000);
    QVERIFY(aborted.last().at(0).toString().contains(QLatin1String("0.2 s")));
    QVERIFY(!debugger->isActive());
    QVERIFY(serverAnswersAtOnce());
    deleteKey(key);
}

void TestScriptDebugger::refusesForeignKeysInSyncMode()
{
    auto debugger = makeDebugger();
    QSignalSpy failed(debugger.get(), &ScriptDebugger::failed);
    QVERIFY(!debugger->start(LimiterCatalog::builtin("now")->script, "someone:else", request(now, "r"),
                             ScriptDebugger::Mode::Sync));
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.last().at(0).toString().contains(QLatin1String("zsetlab:")));
    QVERIFY(!debugger->isActive());
}

QTEST_GUILESS_MAIN(TestScriptDebugger)
#include "tst_scriptdebugger.moc"
