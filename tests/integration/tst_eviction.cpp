// Issue #58, 1: on a server with maxmemory and an evicting policy, a run, a probe or a demo app
// could push out keys zsetlab did not make. The test server (this program's own) is given a
// memory limit and a policy, and keys of "someone else" (victim:*); zsetlab may write there only
// within its share of the headroom, or with --allow-eviction, and then stops a run that grows.

#include "cliprocess.h"
#include "redis/memoryheadroom.h"
#include "testredis.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {
constexpr int victims = 20;
constexpr int victimBytes = 100 * 1024;

// Grows a key of the run's own by 1 MB a call: past half of a 30 MB server's headroom in some
// fifteen calls, and past maxmemory in thirty.
const char grower[] = R"(redis.call('APPEND', KEYS[1] .. ':pad', string.rep('x', 1048576))
return 1
)";

RedisReply command(const RedisArgs& args)
{
    RedisConnection connection;
    if (!TestRedis::connect(connection))
        return RedisReply::connectionLost(QStringLiteral("no test server"));
    return connection.command(args);
}

QString socketUrl()
{
    return QStringLiteral("unix://") + TestRedis::server().endpoint().socketPath;
}

QByteArray victimKey(int i)
{
    return "victim:" + QByteArray::number(i);
}

// The victims still there with their value.
int victimsLeft()
{
    int left = 0;
    for (int i = 0; i < victims; ++i)
        left += command({"STRLEN", victimKey(i)}).toInteger() == victimBytes;
    return left;
}

// Keys under zsetlab's prefix: none is left after a run that was refused or stopped.
qint64 zsetlabKeys()
{
    qint64 found = 0;
    QByteArray cursor = "0";
    do {
        const RedisReply page = command({"SCAN", cursor, "MATCH", "zsetlab:*", "COUNT", "1000"});
        if (page.elements().size() != 2)
            return -1;
        cursor = page.elements().at(0).bytes();
        found += qint64(page.elements().at(1).elements().size());
    } while (cursor != "0");
    return found;
}
} // namespace

class TestEviction : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void infoMemoryIsRead();
    void scriptIsRefusedWithoutConsent_data();
    void scriptIsRefusedWithoutConsent();
    void consentedScriptIsStoppedBeforeItEvicts();
    void builtinRunWithinTheHeadroomGoes();
    void builtinRunPastTheHeadroomIsRefused();
    void doctorLiveIsRefusedWithoutConsent();
    void serverThatDoesNotEvictAsksNothing();

private:
    QTemporaryDir m_dir;
    QString m_grower;
};

void TestEviction::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QVERIFY(TestRedis::server().isRunning());
    QVERIFY(m_dir.isValid());
    m_grower = m_dir.filePath(QStringLiteral("grower.lua"));
    QFile file(m_grower);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(grower);
}

void TestEviction::init()
{
    QVERIFY(!command({"CONFIG", "SET", "maxmemory-policy", "allkeys-lru"}).isError());
    QVERIFY(!command({"CONFIG", "SET", "maxmemory", "30mb"}).isError());
    for (int i = 0; i < victims; ++i) // half of them with a TTL, for the volatile-* policies
        QVERIFY(!command(i % 2 ? RedisArgs {"SET", victimKey(i), QByteArray(victimBytes, 'v'), "EX", "3600"}
                               : RedisArgs {"SET", victimKey(i), QByteArray(victimBytes, 'v')})
                     .isError());
    QCOMPARE(victimsLeft(), victims);
}

void TestEviction::cleanup()
{
    command({"CONFIG", "SET", "maxmemory", "0"});
    command({"CONFIG", "SET", "maxmemory-policy", "noeviction"});
    for (int i = 0; i < victims; ++i)
        command({"DEL", victimKey(i)});
}

void TestEviction::infoMemoryIsRead()
{
    RedisConnection connection;
    QVERIFY(TestRedis::connect(connection));
    const MemoryHeadroom memory = MemoryHeadroom::read(connection);
    QVERIFY2(memory.known, qPrintable(memory.unknownWhy));
    QCOMPARE(memory.maxMemory, 30LL * 1024 * 1024);
    QCOMPARE(memory.policy, QStringLiteral("allkeys-lru"));
    QVERIFY(memory.usedMemory > victims * victimBytes);
    QVERIFY(memory.evicts());
    QCOMPARE(memory.headroom(), memory.maxMemory - memory.usedMemory);
    QVERIFY2(memory.describe().contains(QLatin1String("allkeys-lru")), qPrintable(memory.describe()));
}

void TestEviction::scriptIsRefusedWithoutConsent_data()
{
    QTest::addColumn<QByteArray>("policy");
    QTest::newRow("allkeys-lru") << QByteArray("allkeys-lru");
    QTest::newRow("volatile-lru") << QByteArray("volatile-lru");
    QTest::newRow("allkeys-random") << QByteArray("allkeys-random");
}

// Nothing is written: the script may write any amount in one call, and Redis would evict before
// zsetlab could see it.
void TestEviction::scriptIsRefusedWithoutConsent()
{
    QFETCH(QByteArray, policy);
    QVERIFY(!command({"CONFIG", "SET", "maxmemory-policy", policy}).isError());
    const qint64 keysBefore = command({"DBSIZE"}).toInteger();
    const CliResult run
        = runCli({QStringLiteral("run"), QStringLiteral("--redis"), socketUrl(), QStringLiteral("--script"), m_grower,
                  QStringLiteral("--requests"), QStringLiteral("40"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 8);
    QVERIFY2(run.err.contains(policy) && run.err.contains("--allow-eviction"), run.err.constData());
    QCOMPARE(victimsLeft(), victims);
    QCOMPARE(command({"DBSIZE"}).toInteger(), keysBefore);
    QCOMPARE(zsetlabKeys(), 0);
}

// With consent the run goes, and zsetlab stops it once the server has grown by half of its
// headroom, deleting what the script made: no key of anyone else is evicted. A megabyte every
// 100 ms leaves the watch (a read every 50 ms) over a second between half the headroom and the
// limit, on a loaded machine too.
void TestEviction::consentedScriptIsStoppedBeforeItEvicts()
{
    const CliResult run
        = runCli({QStringLiteral("run"), QStringLiteral("--redis"), socketUrl(), QStringLiteral("--script"), m_grower,
                  QStringLiteral("--requests"), QStringLiteral("100"), QStringLiteral("--pace"),
                  QStringLiteral("interval:100000"), QStringLiteral("--allow-eviction"), QStringLiteral("--json")});
    QCOMPARE(run.exitCode, 8);
    QVERIFY2(run.err.contains("Stopped") && run.err.contains("deleted the run's keys"), run.err.constData());
    const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
    const qint64 sent = qint64(summary.value(QStringLiteral("sent")).toDouble());
    QVERIFY2(sent > 5 && sent < 100, run.out.constData()); // it ran, and did not run to its end
    QVERIFY(summary.value(QStringLiteral("server_memory")).toObject().value(QStringLiteral("evicts")).toBool());
    QCOMPARE(victimsLeft(), victims);
    QCOMPARE(command({"INFO", "stats"}).bytes().contains("evicted_keys:0"), true);
    QCOMPARE(zsetlabKeys(), 0);
}

// A built-in limiter holds a member or a counter a request: a run far inside the headroom goes
// and says what the server's memory was.
void TestEviction::builtinRunWithinTheHeadroomGoes()
{
    const CliResult run = runCli({QStringLiteral("run"), QStringLiteral("--redis"), socketUrl(),
                                  QStringLiteral("--requests"), QStringLiteral("200"), QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QJsonObject memory
        = QJsonDocument::fromJson(run.out).object().value(QStringLiteral("server_memory")).toObject();
    QCOMPARE(memory.value(QStringLiteral("maxmemory_policy")).toString(), QStringLiteral("allkeys-lru"));
    QCOMPARE(qint64(memory.value(QStringLiteral("maxmemory")).toDouble()), 30LL * 1024 * 1024);
    QCOMPARE(victimsLeft(), victims);
    QCOMPARE(zsetlabKeys(), 0);
}

void TestEviction::builtinRunPastTheHeadroomIsRefused()
{
    const CliResult run
        = runCli({QStringLiteral("run"), QStringLiteral("--redis"), socketUrl(), QStringLiteral("--limiter"),
                  QStringLiteral("request-id"), QStringLiteral("--requests"), QStringLiteral("200000")});
    QCOMPARE(run.exitCode, 8);
    QVERIFY2(run.err.contains("more than half of what is left"), run.err.constData());
    QCOMPARE(victimsLeft(), victims);
    QCOMPARE(zsetlabKeys(), 0);
}

// The probe's trial on zsetlab's own server goes; the given server is not written.
void TestEviction::doctorLiveIsRefusedWithoutConsent()
{
    const qint64 keysBefore = command({"DBSIZE"}).toInteger();
    const QString script = m_dir.filePath(QStringLiteral("log.lua"));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\nreturn redis.call('ZCARD', KEYS[1])\n");
    file.close();
    const CliResult doctor
        = runCli({QStringLiteral("doctor"), script, QStringLiteral("--live"), QStringLiteral("--redis"), socketUrl()});
    QCOMPARE(doctor.exitCode, 8);
    QVERIFY2(doctor.err.contains("allkeys-lru") && doctor.err.contains("--allow-eviction"), doctor.err.constData());
    QCOMPARE(victimsLeft(), victims);
    QCOMPARE(command({"DBSIZE"}).toInteger(), keysBefore);
}

void TestEviction::serverThatDoesNotEvictAsksNothing()
{
    QVERIFY(!command({"CONFIG", "SET", "maxmemory-policy", "noeviction"}).isError());
    const QString small = m_dir.filePath(QStringLiteral("small.lua"));
    QFile file(small);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\nreturn redis.call('ZCARD', KEYS[1])\n");
    file.close();
    const CliResult run
        = runCli({QStringLiteral("run"), QStringLiteral("--redis"), socketUrl(), QStringLiteral("--script"), small,
                  QStringLiteral("--requests"), QStringLiteral("20")});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(!run.out.contains("memory  "), run.out.constData()); // nothing to say of a server that does not evict
}

QTEST_GUILESS_MAIN(TestEviction)
#include "tst_eviction.moc"
