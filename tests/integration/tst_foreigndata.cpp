// zsetlab is pointed at real servers that hold other people's data. This test fills the test
// server's database with keys of every type that zsetlab did not write, runs every feature that
// writes or deletes, and proves that each of those keys is byte for byte what it was (DUMP), that
// its expiry only ran down with the clock (PTTL), and that zsetlab created nothing outside its
// "zsetlab:" prefix. SCAN over the whole database is fine here; product code never lists keys.
#include "burst/burstengine.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "sourcetree.h"
#include "testredis.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <set>

namespace {
// What a foreign key looked like before zsetlab ran.
struct ForeignKey
{
    QByteArray dump;
    qint64 pttl = -1; // -1: no expiry
};

// Slack on top of the elapsed time when comparing expiries: PTTL is read a little after the clock.
constexpr qint64 pttlSlackMs = 2000;
// Long enough that no foreign key expires while the test runs.
constexpr qint64 foreignTtlMs = 3'600'000;

struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliResult runCli(const QStringList& arguments)
{
    QProcess process;
    process.start(qEnvironmentVariable("ZSETLAB_CLI"), arguments);
    CliResult result;
    if (!process.waitForFinished(120000))
        return result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

// A Redis command passed as a string literal: a command list {"KEYS", ...}, an argument appended
// with <<, a hiredis format string redisCommand(c, "FLUSHALL"), redis.call('keys', '*') in Lua,
// optionally wrapped in QByteArrayLiteral(). Redis reads commands in any case. Prose ("no KEYS,
// FLUSHDB or FLUSHALL" in a comment), Lua's KEYS[1] table, comparisons with the name (a Lua reader
// checking for KEYS) and QString text (a --keys option: QString never converts to a command
// argument under QT_NO_CAST_TO_ASCII) are not calls, so they are not matched.
const QRegularExpression& forbiddenCommandLiteral()
{
    static const QRegularExpression re(QStringLiteral("(?:\\{|,|<<|(?:command|append|call)\\s*\\()\\s*"
                                                      "(?:(?:QByteArrayLiteral|QByteArray)\\s*\\(\\s*)?"
                                                      "[\"'](KEYS|FLUSHDB|FLUSHALL)(?:\\s+[^\"'\\s]*)*[\"']"),
                                       QRegularExpression::CaseInsensitiveOption);
    return re;
}

QStringList forbiddenCommandsIn(const QString& text)
{
    QStringList found;
    auto matches = forbiddenCommandLiteral().globalMatch(text);
    while (matches.hasNext())
        found << matches.next().captured(1).toUpper();
    return found;
}
} // namespace

class TestForeignData : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void burstsLeaveForeignKeysAlone_data();
    void burstsLeaveForeignKeysAlone();
    void stoppedBurstLeavesForeignKeysAlone();
    void planOnAForeignKeyIsRefused_data();
    void planOnAForeignKeyIsRefused();
    void deleteRunKeysRefusesForeignKeys_data();
    void deleteRunKeysRefusesForeignKeys();
    void cliRunLeavesForeignKeysAlone_data();
    void cliRunLeavesForeignKeysAlone();
    void cliKeyThatExistsIsNotWrittenWithoutConsent_data();
    void cliKeyThatExistsIsNotWrittenWithoutConsent();
    void reusedKeyIsNotDeletedAtTheEnd();
    void scannerFindsForbiddenCommands_data();
    void scannerFindsForbiddenCommands();
    void productNeverListsOrFlushes_data();
    void productNeverListsOrFlushes();
    void cleanupTestCase();

private:
    void fillForeignData();
    // Empty when every foreign key is intact and nothing outside "zsetlab:" was created, else why.
    QString foreignDataDamage();
    QList<QByteArray> allKeys();

    RedisConnection m_redis;
    // A server that answers DEBUG DIGEST-VALUE (the shared one refuses DEBUG, as Redis 7 does by default).
    std::unique_ptr<PrivateRedisServer> m_debuggable;
    std::map<QByteArray, ForeignKey> m_foreign;
    QElapsedTimer m_sinceSnapshot;
};

void TestForeignData::initTestCase()
{
    QVERIFY(TestRedis::connect(m_redis));
    QCOMPARE(TestRedis::endpoint().db, 0);
    fillForeignData();
    QCOMPARE(foreignDataDamage(), QString());
}

void TestForeignData::fillForeignData()
{
    // One key of each type, each in a plain and an expiring variant, plus names that a sloppy
    // prefix check would mistake for zsetlab's own.
    const QList<RedisArgs> writes = {
        {"SET", "app:config", "{\"limit\": 100}"},
        {"SET", "app:session:alice", "token-1", "PX", QByteArray::number(foreignTtlMs)},
        {"RPUSH", "app:queue", "job-1", "job-2", "job-3"},
        {"RPUSH", "app:queue:ttl", "job-9"},
        {"HSET", "app:user:1", "name", "alice", "plan", "pro"},
        {"HSET", "app:user:2", "name", "bob"},
        {"SADD", "app:tags", "redis", "lua", "zset"},
        {"SADD", "app:tags:ttl", "short-lived"},
        // A real limiter's ZSET, with timestamp members like the ones zsetlab writes.
        {"ZADD", "app:ratelimit:alice", "1700000000000", "1700000000000", "1700000000001", "1700000000001"},
        {"ZADD", "app:ratelimit:bob", "1700000000000", "1700000000000-0.5"},
        {"XADD", "app:events", "1-1", "type", "login"},
        {"XADD", "app:events:ttl", "*", "type", "logout"},
        {"SET", "zsetlab", "no colon: not zsetlab's"},
        {"SET", "ZSETLAB:upper", "other case: not zsetlab's"},
        {"SET", "zsetlab_run:1", "underscore: not zsetlab's"},
        {"ZADD", "app:zsetlab:run:1", "1", "inner prefix: not zsetlab's"},
        {"SET", "app:bytes:\x01\xff", QByteArray("\x00\x01\x02\xff", 4)},
    };
    for (const RedisArgs& write : writes) {
        const RedisReply reply = m_redis.command(write);
        QVERIFY2(!reply.isError(), qPrintable(reply.toDisplayString()));
    }
    for (const char* key : {"app:queue:ttl", "app:user:2", "app:tags:ttl", "app:ratelimit:bob", "app:events:ttl"})
        QCOMPARE(m_redis.command({"PEXPIRE", key, QByteArray::number(foreignTtlMs)}).toInteger(), 1LL);

    // Snapshot whatever the database holds now (only these keys: the server is this program's own).
    m_foreign.clear();
    for (const QByteArray& key : allKeys()) {
        QVERIFY2(!ZsetKeys::isOwnKey(key), key.constData());
        const RedisReply dump = m_redis.command({"DUMP", key});
        QCOMPARE(dump.type(), RedisReply::Type::String);
        m_foreign[key] = {dump.bytes(), m_redis.command({"PTTL", key}).toInteger()};
    }
    QCOMPARE(int(m_foreign.size()), int(writes.size()));
    m_sinceSnapshot.start();
}

QList<QByteArray> TestForeignData::allKeys()
{
    QList<QByteArray> keys;
    QByteArray cursor = "0";
    do {
        const RedisReply page = m_redis.command({"SCAN", cursor, "COUNT", "1000"});
        if (page.type() != RedisReply::Type::Array || page.elements().size() != 2)
            return keys;
        cursor = page.elements()[0].bytes();
        for (const RedisReply& key : page.elements()[1].elements())
            keys << key.bytes();
    } while (cursor != "0");
    return keys;
}

QString TestForeignData::foreignDataDamage()
{
    QStringList damage;
    const qint64 elapsed = m_sinceSnapshot.isValid() ? m_sinceSnapshot.elapsed() : 0;
    for (const auto& [key, before] : m_foreign) {
        const QString name = QString::fromUtf8(key.toPercentEncoding(":"));
        const RedisReply dump = m_redis.command({"DUMP", key});
        if (dump.type() != RedisReply::Type::String) {
            damage << QStringLiteral("%1 is gone (%2)").arg(name, dump.toDisplayString());
            continue;
        }
        if (dump.bytes() != before.dump)
            damage << QStringLiteral("%1 changed").arg(name);
        const qint64 pttl = m_redis.command({"PTTL", key}).toInteger();
        if (before.pttl < 0 ? pttl != before.pttl : (pttl > before.pttl || pttl < before.pttl - elapsed - pttlSlackMs))
            damage << QStringLiteral("%1: PTTL %2 ms, was %3 ms %4 ms ago")
                          .arg(name)
                          .arg(pttl)
                          .arg(before.pttl)
                          .arg(elapsed);
    }
    for (const QByteArray& key : allKeys()) {
        if (m_foreign.count(key) == 0 && !ZsetKeys::isOwnKey(key))
            damage << QStringLiteral("created %1, outside the zsetlab: prefix").arg(QString::fromUtf8(key));
    }
    return damage.join(QStringLiteral("; "));
}

void TestForeignData::burstsLeaveForeignKeysAlone_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<bool>("keepKey");
    QTest::addColumn<int>("connections");
    QTest::addColumn<int>("pipeline");
    for (const bool keep : {false, true}) {
        const char* cleanup = keep ? "kept key" : "key deleted at the end";
        for (const QString& strategy : {QStringLiteral("now"), QStringLiteral("random"), QStringLiteral("request-id"),
                                        QStringLiteral("sequence"), QStringLiteral("custom")}) {
            const QByteArray name = strategy.toUtf8();
            QTest::addRow("%s, %s", name.constData(), cleanup) << strategy << keep << 1 << 1;
            QTest::addRow("%s, %s, 3 connections, pipeline 8", name.constData(), cleanup) << strategy << keep << 3 << 8;
        }
    }
}

void TestForeignData::burstsLeaveForeignKeysAlone()
{
    QFETCH(QString, strategy);
    QFETCH(bool, keepKey);
    QFETCH(int, connections);
    QFETCH(int, pipeline);
    BurstPlan plan;
    if (strategy == QLatin1String("custom")) {
        // A user's script in the article's style: replies with the bare count, keeps a counter
        // beside its ZSET (named from KEYS[1], as the convention requires).
        plan.limiter = LimiterCatalog::custom(LimiterScript::fromSource(
            QStringLiteral("mine.lua"),
            "local now = tonumber(ARGV[1])\n"
            "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - tonumber(ARGV[2]))\n"
            "redis.call('ZADD', KEYS[1], now, now .. '-' .. redis.call('INCR', KEYS[1] .. ':seq'))\n"
            "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
            "redis.call('PEXPIRE', KEYS[1] .. ':seq', ARGV[2])\n"
            "return redis.call('ZCARD', KEYS[1])\n"));
    } else {
        plan.limiter = LimiterCatalog::builtin(strategy);
    }
    plan.clock = ClockKind::Frozen;
    plan.requests = 300;
    plan.limit = 10;
    plan.connections = connections;
    plan.pipeline = pipeline;
    plan.keepKey = keepKey;

    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY2(engine.start(TestRedis::endpoint(), plan), qPrintable(engine.planError()));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 300);
    QVERIFY(ZsetKeys::isOwnKey(engine.key()));

    const RedisArgs runKeys = RedisArgs {engine.key()} + ZsetKeys::companionKeys(engine.key());
    QCOMPARE(m_redis.command(RedisArgs {"EXISTS"} + runKeys).toInteger() > 0, keepKey);
    QCOMPARE(foreignDataDamage(), QString());
    if (keepKey) {
        QVERIFY(ZsetKeys::deleteRunKeys(m_redis, engine.key()));
        QCOMPARE(m_redis.command(RedisArgs {"EXISTS"} + runKeys).toInteger(), 0LL);
        QCOMPARE(foreignDataDamage(), QString());
    }
}

void TestForeignData::stoppedBurstLeavesForeignKeysAlone()
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("sequence");
    plan.requests = 1'000'000;
    plan.connections = 2;
    plan.pipeline = 4;
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(TestRedis::endpoint(), plan));
    QTRY_VERIFY_WITH_TIMEOUT(engine.log().finished() >= 200, 20000);
    engine.stop();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
    QVERIFY(finished.at(0).at(0).value<BurstSummary>().stopped);
    QCOMPARE(m_redis.command({"EXISTS", engine.key(), engine.key() + ":seq"}).toInteger(), 0LL);
    QCOMPARE(foreignDataDamage(), QString());
}

void TestForeignData::planOnAForeignKeyIsRefused_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::newRow("a foreign zset") << QByteArray("app:ratelimit:alice");
    QTest::newRow("a foreign string") << QByteArray("app:config");
    QTest::newRow("zsetlab without the colon") << QByteArray("zsetlab");
    QTest::newRow("zsetlab in capitals") << QByteArray("ZSETLAB:upper");
    QTest::newRow("zsetlab: deeper in the name") << QByteArray("app:zsetlab:run:1");
}

void TestForeignData::planOnAForeignKeyIsRefused()
{
    QFETCH(QByteArray, key);
    BurstPlan plan;
    plan.key = key;
    plan.requests = 10;
    BurstEngine engine;
    QVERIFY(!engine.start(TestRedis::endpoint(), plan));
    QVERIFY2(engine.planError().contains(QLatin1String("zsetlab:")), qPrintable(engine.planError()));
    QVERIFY(!engine.isRunning());
    QCOMPARE(foreignDataDamage(), QString());
}

void TestForeignData::deleteRunKeysRefusesForeignKeys_data()
{
    QTest::addColumn<QByteArray>("key");
    for (const auto& [key, before] : m_foreign) {
        Q_UNUSED(before);
        QTest::addRow("%s", key.toPercentEncoding(":").constData()) << key;
    }
    QTest::newRow("the bare prefix") << QByteArray(ZsetKeys::prefix);
    QTest::newRow("empty") << QByteArray();
}

void TestForeignData::deleteRunKeysRefusesForeignKeys()
{
    QFETCH(QByteArray, key);
    QVERIFY(!ZsetKeys::deleteRunKeys(m_redis, key));
    QCOMPARE(foreignDataDamage(), QString());
}

void TestForeignData::cliRunLeavesForeignKeysAlone_data()
{
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<QByteArray>("keptKey"); // empty: the run's fresh key is deleted at the end
    const auto flags = [](std::initializer_list<const char*> items) {
        QStringList list;
        for (const char* item : items)
            list << QString::fromUtf8(item);
        return list;
    };
    QTest::newRow("fresh key, deleted") << flags({"--limiter", "sequence"}) << QByteArray();
    QTest::newRow("fresh key, --keep") << flags({"--limiter", "sequence", "--keep"}) << QByteArray("*");
    QTest::newRow("--key") << flags({"--limiter", "now", "--key", "cli-foreign"}) << QByteArray("zsetlab:cli-foreign");
    QTest::newRow("--key and --keep") << flags({"--limiter", "request-id", "--key", "cli-both", "--keep"})
                                      << QByteArray("zsetlab:cli-both");
    // The name of a foreign key goes under the prefix: the foreign key itself is not touched.
    QTest::newRow("--key named like a foreign zset") << flags({"--limiter", "sequence", "--key", "app:ratelimit:alice"})
                                                     << QByteArray("zsetlab:app:ratelimit:alice");
    QTest::newRow("--key named like a foreign string, --keep")
        << flags({"--limiter", "random", "--key", "app:config", "--keep"}) << QByteArray("zsetlab:app:config");
}

void TestForeignData::cliRunLeavesForeignKeysAlone()
{
    QFETCH(QStringList, flags);
    QFETCH(QByteArray, keptKey);
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const CliResult result
        = runCli(QStringList {QStringLiteral("run"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl(),
                              QStringLiteral("--requests"), QStringLiteral("200"), QStringLiteral("--clock"),
                              QStringLiteral("frozen"), QStringLiteral("--json")}
                 + flags);
    QVERIFY2(result.exitCode == 0, result.err.constData());
    const QByteArray key = QJsonDocument::fromJson(result.out).object().value(QLatin1String("key")).toString().toUtf8();
    QVERIFY2(ZsetKeys::isOwnKey(key), result.out.constData());
    if (keptKey.isEmpty()) {
        QCOMPARE(m_redis.command({"EXISTS", key, key + ":seq"}).toInteger(), 0LL);
    } else {
        if (keptKey != "*")
            QCOMPARE(key, keptKey);
        QCOMPARE(m_redis.command({"EXISTS", key}).toInteger(), 1LL);
    }
    QCOMPARE(foreignDataDamage(), QString());
    if (!keptKey.isEmpty()) {
        QVERIFY(ZsetKeys::deleteRunKeys(m_redis, key));
        QCOMPARE(foreignDataDamage(), QString());
    }
}

void TestForeignData::cliKeyThatExistsIsNotWrittenWithoutConsent_data()
{
    QTest::addColumn<QString>("strategy"); // a catalog id, or "custom" for a --script
    QTest::addColumn<QByteArrayList>("existing"); // suffixes of the --key that exist before the run
    QTest::addColumn<bool>("reuse");
    QTest::addColumn<QByteArray>("named"); // the suffix of the key the refusal must name
    const QStringList strategies = LimiterCatalog::ids() << QStringLiteral("custom");
    for (const QString& strategy : strategies) {
        const QByteArray id = strategy.toUtf8();
        // Every key the entry's store keeps: the ZSET and its companions (sequence's :seq).
        const LimiterStore store = strategy == QLatin1String("custom") ? LimiterEntry::storeOf(nullptr)
                                                                       : LimiterCatalog::builtin(strategy)->store;
        QByteArrayList all;
        for (const LimiterStore::Key& key : store.keys())
            all << key.suffix;
        QTest::addRow("%s: the ZSET and its companions exist", id.constData())
            << strategy << all << false << QByteArray();
        for (const QByteArray& companion : all.mid(1))
            QTest::addRow("%s: only %s exists", id.constData(), companion.constData())
                << strategy << QByteArrayList {companion} << false << companion;
        QTest::addRow("%s: --reuse-key", id.constData()) << strategy << all << true << QByteArray();
    }
}

// Issue #20: "--key foreign-zset --limiter sequence" trimmed an existing ZSET before INCR failed
// on its counter, and named the wrong key. A key the run did not create is not written unless the
// user says so, whatever its prefix.
void TestForeignData::cliKeyThatExistsIsNotWrittenWithoutConsent()
{
    QFETCH(QString, strategy);
    QFETCH(QByteArrayList, existing);
    QFETCH(bool, reuse);
    QFETCH(QByteArray, named);
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    if (!m_debuggable) {
        m_debuggable = std::make_unique<PrivateRedisServer>(
            QStringList {QStringLiteral("--enable-debug-command"), QStringLiteral("local")});
        QVERIFY2(m_debuggable->start(), qPrintable(m_debuggable->errorString()));
    }
    RedisConnection redis;
    QVERIFY(redis.open(m_debuggable->endpoint()));
    static int row = 0;
    const QString name = QStringLiteral("foreign-%1-%2").arg(strategy).arg(++row);
    const QByteArray key = ZsetKeys::userKey(name);
    // An earlier run's data, of the type the limiter keeps there, without a TTL: a ZSET (3 members),
    // a counter (a string), a hash, a list.
    const LimiterStore store = strategy == QLatin1String("custom") ? LimiterEntry::storeOf(nullptr)
                                                                   : LimiterCatalog::builtin(strategy)->store;
    for (const QByteArray& suffix : existing) {
        QByteArray type = "string";
        for (const LimiterStore::Key& stored : store.keys()) {
            if (stored.suffix == suffix && !stored.type.isEmpty())
                type = stored.type;
        }
        const QByteArray name = key + suffix;
        const RedisReply write = type == "zset"
            ? redis.command({"ZADD", name, "1700000000000", "a", "1700000000001", "b", "1700000000002", "c"})
            : type == "hash" ? redis.command({"HSET", name, "tokens", "3", "at", "1700000000000"})
            : type == "list" ? redis.command({"RPUSH", name, "1700000000000", "1700000000001"})
                             : redis.command({"SET", name, "100"});
        QVERIFY2(!write.isError(), qPrintable(write.toDisplayString()));
    }
    const auto state = [&redis, &key, &existing] {
        QByteArrayList digests;
        for (const QByteArray& suffix : existing) {
            const RedisReply digest = redis.command({"DEBUG", "DIGEST-VALUE", key + suffix});
            digests << QByteArray(digest.toDisplayString().toUtf8() + " pttl "
                                  + QByteArray::number(redis.command({"PTTL", key + suffix}).toInteger()));
        }
        return digests;
    };
    const QByteArrayList before = state();
    QVERIFY2(!before.join().contains("ERR"), before.join().constData());

    QStringList arguments {
        QStringLiteral("run"),        QStringLiteral("--redis"), m_debuggable->endpoint().displayUrl(),
        QStringLiteral("--requests"), QStringLiteral("50"),
        QStringLiteral("--limit"), // the algorithms decide by it; the others compare with it
        QStringLiteral("10"),         QStringLiteral("--key"),   name};
    QTemporaryDir dir;
    if (strategy == QLatin1String("custom")) {
        // A user's script that keeps a counter beside its ZSET, named from KEYS[1].
        QFile script(dir.filePath(QStringLiteral("mine.lua")));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("local now = tonumber(ARGV[1])\n"
                     "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - tonumber(ARGV[2]))\n"
                     "redis.call('ZADD', KEYS[1], now, now .. '-' .. redis.call('INCR', KEYS[1] .. ':seq'))\n"
                     "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
                     "return redis.call('ZCARD', KEYS[1])\n");
        script.close();
        arguments << QStringLiteral("--script") << script.fileName();
    } else {
        arguments << QStringLiteral("--limiter") << strategy;
    }
    if (reuse)
        arguments << QStringLiteral("--reuse-key");
    QProcess cli;
    cli.start(qEnvironmentVariable("ZSETLAB_CLI"), arguments);
    QVERIFY(cli.waitForFinished(60000));
    const QByteArray err = cli.readAllStandardError();
    if (reuse) {
        QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0, err.constData());
    } else {
        QVERIFY2(cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 4, err.constData());
        QVERIFY2(err.contains(QByteArray("The key " + key + named + " already exists")), err.constData());
        QVERIFY2(err.contains("--reuse-key"), err.constData());
        QCOMPARE(state(), before);
        // Nor is a key of the store created beside the existing one.
        QCOMPARE(redis.command(RedisArgs {"EXISTS"} + LimiterEntry::storeOf(nullptr).keysFor(key)).toInteger(),
                 qint64(existing.size()));
    }
    QVERIFY(ZsetKeys::deleteRunKeys(redis, key));
}

// A key the user let a run write into held data before it: the run's cleanup, which deletes the
// keys a run created, leaves it even when the plan does not ask to keep its key.
void TestForeignData::reusedKeyIsNotDeletedAtTheEnd()
{
    const QByteArray key = TestRedis::uniqueKey("reused");
    QVERIFY(!m_redis.command({"ZADD", key, "1", "earlier"}).isError());
    BurstPlan plan;
    plan.key = key;
    plan.reuseKey = true;
    plan.keepKey = false;
    plan.requests = 20;
    plan.windowMs = 60000;
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY2(engine.start(TestRedis::endpoint(), plan), qPrintable(engine.planError()));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QVERIFY(!finished.at(0).at(0).value<BurstSummary>().failure.isFailure());
    QCOMPARE(m_redis.command({"EXISTS", key}).toInteger(), 1LL);
    QVERIFY(ZsetKeys::deleteRunKeys(m_redis, key));
    QCOMPARE(foreignDataDamage(), QString());
}

void TestForeignData::scannerFindsForbiddenCommands_data()
{
    // The scanner itself, on lines written the ways a forbidden call could be.
    QTest::addColumn<QString>("line");
    QTest::addColumn<QStringList>("found");
    const QStringList none;
    QTest::newRow("a command list") << QStringLiteral("m_redis.command({\"KEYS\", \"zsetlab:*\"});")
                                    << QStringList {QStringLiteral("KEYS")};
    QTest::newRow("a literal macro") << QStringLiteral("args << QByteArrayLiteral(\"FLUSHALL\");")
                                     << QStringList {QStringLiteral("FLUSHALL")};
    QTest::newRow("lower case, with an argument")
        << QStringLiteral("connection.command({\"flushdb async\"});") << QStringList {QStringLiteral("FLUSHDB")};
    QTest::newRow("Lua redis.call") << QStringLiteral("local all = redis.call('keys', '*')")
                                    << QStringList {QStringLiteral("KEYS")};
    QTest::newRow("prose in a comment") << QStringLiteral("// never KEYS, FLUSHDB or FLUSHALL: delete known keys")
                                        << none;
    QTest::newRow("Lua's KEYS table") << QStringLiteral("local key = KEYS[1]") << none;
    QTest::newRow("a hiredis format string")
        << QStringLiteral("redisCommand(context, \"FLUSHALL\");") << QStringList {QStringLiteral("FLUSHALL")};
    QTest::newRow("a comparison with Lua's KEYS table")
        << QStringLiteral("if (base.path == \"KEYS\" && literal)") << none;
    QTest::newRow("an option named keys")
        << QStringLiteral("QCommandLineOption keys {QStringLiteral(\"keys\"), QStringLiteral(\"KEYS as...\")};")
        << none;
    QTest::newRow("a word that starts alike") << QStringLiteral("QStringLiteral(\"KEYSPACE\")") << none;
}

void TestForeignData::scannerFindsForbiddenCommands()
{
    QFETCH(QString, line);
    QFETCH(QStringList, found);
    QCOMPARE(forbiddenCommandsIn(line), found);
}

void TestForeignData::productNeverListsOrFlushes_data()
{
    QTest::addColumn<QString>("folder");
    for (const char* folder : {"core", "app", "cli", "lua"})
        QTest::newRow(folder) << QString::fromLatin1(folder);
}

void TestForeignData::productNeverListsOrFlushes()
{
    QFETCH(QString, folder);
    const QString root = sourceTree() + QLatin1Char('/') + folder;
    QVERIFY2(QFileInfo(root).isDir(), qPrintable(root));
    QStringList findings;
    int scanned = 0;
    QDirIterator files(root, {QStringLiteral("*.cpp"), QStringLiteral("*.h"), QStringLiteral("*.lua")}, QDir::Files,
                       QDirIterator::Subdirectories);
    while (files.hasNext()) {
        QFile file(files.next());
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(file.fileName()));
        ++scanned;
        const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
        for (int i = 0; i < lines.size(); ++i) {
            for (const QString& command : forbiddenCommandsIn(lines[i]))
                findings << QStringLiteral("%1:%2: %3").arg(file.fileName()).arg(i + 1).arg(command);
        }
    }
    QVERIFY2(scanned > 0, qPrintable(root));
    QVERIFY2(findings.isEmpty(), qPrintable(findings.join(QLatin1Char('\n'))));
}

void TestForeignData::cleanupTestCase()
{
    QCOMPARE(foreignDataDamage(), QString());
}

QTEST_GUILESS_MAIN(TestForeignData)
#include "tst_foreigndata.moc"
