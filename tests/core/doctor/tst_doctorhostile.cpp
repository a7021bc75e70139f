// zsetlab-cli doctor against scripts that would harm a server or a terminal, run on a real
// redis-server that the doctor did not start (this test starts it, as a user's server).

#include "cliprocess.h"
#include "doctor/runawayguard.h"
#include "redis/privateredisserver.h"
#include "redis/redisconnection.h"
#include "sourcetree.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace {
QString corpusFile(const char* name)
{
    return sourcePath(QStringLiteral("tests/doctor-corpus/") + QLatin1String(name));
}

// Bytes a terminal would act on: everything below a space but the newline, and DEL.
bool hasControlBytes(const QByteArray& text)
{
    return std::any_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return (byte < 0x20 && byte != '\n') || byte == 0x7f;
    });
}
} // namespace

class TestDoctorHostile : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void foreignWritesLeaveTheGivenServerAlone_data();
    void foreignWritesLeaveTheGivenServerAlone();
    void endlessLoopsLeaveTheServerAnswering_data();
    void endlessLoopsLeaveTheServerAnswering();
    void guardKillsALoopOnAGivenServer();
    void guardNeverShutsDownAGivenServer();
    void binaryFileIsNotRun();
    void escapeSequencesAreShownNotSent_data();
    void escapeSequencesAreShownNotSent();

private:
    QStringList live() const;
    QString script(const char* name, const QByteArray& source);

    // The "user's" server: started by this test, not by the doctor.
    std::unique_ptr<PrivateRedisServer> m_given;
    RedisConnection m_connection;
    QTemporaryDir m_dir;
};

void TestDoctorHostile::initTestCase()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    m_given = std::make_unique<PrivateRedisServer>(
        QStringList {QStringLiteral("--enable-debug-command"), QStringLiteral("local"),
                     QStringLiteral("--lua-time-limit"), QStringLiteral("100")});
    QVERIFY2(m_given->start(), qPrintable(m_given->errorString()));
    QVERIFY2(m_connection.open(m_given->endpoint()), qPrintable(m_connection.lastError().message));
    QVERIFY(m_dir.isValid());
}

void TestDoctorHostile::cleanupTestCase()
{
    m_connection.close();
    m_given.reset();
}

QStringList TestDoctorHostile::live() const
{
    return {QStringLiteral("--live"), QStringLiteral("--redis"), m_given->endpoint().displayUrl()};
}

QString TestDoctorHostile::script(const char* name, const QByteArray& source)
{
    QString path = m_dir.filePath(QLatin1String(name));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(source) != source.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void TestDoctorHostile::foreignWritesLeaveTheGivenServerAlone_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("key"); // the user's key the script writes
    QTest::newRow("SET victim") << script("victim.lua",
                                          "redis.call('SET', 'victim', 'x')\n"
                                          "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])\n"
                                          "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                                          "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
                                          "return redis.call('ZCARD', KEYS[1])\n")
                                << QByteArray("victim");
    QTest::newRow("HINCRBY on a dashboard hash") << corpusFile("foreign-fixed-key.lua") << QByteArray("limiter:stats");
    QTest::newRow("a prefix in front of the key") << corpusFile("foreign-prefix-key.lua") << QByteArray("victim");
}

void TestDoctorHostile::foreignWritesLeaveTheGivenServerAlone()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, key);
    m_connection.command({"SET", "victim", "the user's value"});
    m_connection.command({"HSET", "limiter:stats", "admitted", "41"});
    const QByteArray digest = m_connection.command({"DEBUG", "DIGEST-VALUE", key}).elements().at(0).bytes();
    QVERIFY(!digest.isEmpty());
    const qint64 keys = m_connection.command({"DBSIZE"}).toInteger();

    // Touching keys not its own is a warning, not a wrong count (issue 45): --strict exits 6.
    const CliResult result = runCli(QStringList {QStringLiteral("doctor"), QStringLiteral("--strict"), file} << live());
    QVERIFY2(result.exitCode == 6, result.err.constData());
    QVERIFY2(result.out.contains("foreign-key"), result.out.constData());
    QVERIFY2(result.out.contains("instead of"), result.out.constData()); // the probe ran elsewhere

    QCOMPARE(m_connection.command({"DEBUG", "DIGEST-VALUE", key}).elements().at(0).bytes(), digest);
    QCOMPARE(m_connection.command({"DBSIZE"}).toInteger(), keys); // nothing left behind either
}

void TestDoctorHostile::endlessLoopsLeaveTheServerAnswering_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("while true do end") << script("loop.lua", "while true do end\n");
    QTest::newRow("waiting for a slot") << corpusFile("runaway-wait.lua");
    QTest::newRow("waiting after a write (UNKILLABLE)") << corpusFile("runaway-after-write.lua");
}

void TestDoctorHostile::endlessLoopsLeaveTheServerAnswering()
{
    QFETCH(QString, file);
    const qint64 keys = m_connection.command({"DBSIZE"}).toInteger();
    const CliResult result = runCli(QStringList {QStringLiteral("doctor"), file} << live(), 60000);
    QVERIFY2(result.exitCode == 4, result.err.constData());
    QVERIFY2(result.err.contains("did not finish within 1000 ms"), result.err.constData());

    // Right after the doctor exits, the given server answers at once.
    QElapsedTimer clock;
    clock.start();
    RedisConnection fresh;
    ConnectOptions quick;
    quick.connectTimeout = quick.commandTimeout = std::chrono::milliseconds(1000);
    QVERIFY2(fresh.open(m_given->endpoint(), quick), qPrintable(fresh.lastError().message));
    QCOMPARE(fresh.command({"PING"}).text(), QStringLiteral("PONG"));
    QVERIFY2(clock.elapsed() < 1000, qPrintable(QString::number(clock.elapsed())));
    QCOMPARE(m_connection.command({"DBSIZE"}).toInteger(), keys);
}

void TestDoctorHostile::guardKillsALoopOnAGivenServer()
{
    RunawayGuard guard(std::chrono::milliseconds(200), false);
    QString error;
    QVERIFY2(guard.start(m_given->endpoint(), {}, &error), qPrintable(error));
    RedisConnection call;
    ConnectOptions patient;
    patient.commandTimeout = guard.callTimeout();
    QVERIFY(call.open(m_given->endpoint(), patient));
    guard.arm(&call);
    const RedisReply reply = call.command({"EVAL", "while true do end", "0"});
    guard.disarm();
    QCOMPARE(guard.outcome(), RunawayGuard::Outcome::Killed);
    QVERIFY2(reply.isServerError() && reply.bytes().contains("SCRIPT KILL"), qPrintable(reply.text()));
    QVERIFY2(guard.message().contains(QLatin1String("did not finish within 200 ms")), qPrintable(guard.message()));
    QCOMPARE(m_connection.command({"PING"}).text(), QStringLiteral("PONG"));
}

void TestDoctorHostile::guardNeverShutsDownAGivenServer()
{
    // A server of the test's own that the guard must treat as a user's: after a write, Redis
    // refuses SCRIPT KILL, and the guard only says what the operator can do.
    PrivateRedisServer stuck({QStringLiteral("--lua-time-limit"), QStringLiteral("100")});
    QVERIFY2(stuck.start(), qPrintable(stuck.errorString()));
    RunawayGuard guard(std::chrono::milliseconds(200), false);
    QString error;
    QVERIFY2(guard.start(stuck.endpoint(), {}, &error), qPrintable(error));
    RedisConnection call;
    ConnectOptions patient;
    patient.commandTimeout = guard.callTimeout();
    QVERIFY(call.open(stuck.endpoint(), patient));
    guard.arm(&call);
    const RedisReply reply
        = call.command({"EVAL", "redis.call('SET', KEYS[1], 1) while true do end", "1", "zsetlab:test:stuck"});
    guard.disarm();
    QVERIFY(reply.isConnectionLost()); // the guard let the caller go
    QCOMPARE(guard.outcome(), RunawayGuard::Outcome::Unkillable);
    const QString message = guard.message();
    QVERIFY2(message.contains(QLatin1String("UNKILLABLE")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("SHUTDOWN NOSAVE")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("does not shut down a server it did not start")), qPrintable(message));
    QVERIFY(stuck.isRunning());
    RedisConnection probe;
    ConnectOptions quick;
    quick.commandTimeout = std::chrono::milliseconds(2000);
    QVERIFY(!probe.open(stuck.endpoint(), quick)); // still busy running the script: it was left as it was
    QVERIFY2(probe.lastError().message.contains(QLatin1String("BUSY")), qPrintable(probe.lastError().message));
    // The test started this server, so the test ends it.
    stuck.stop();
}

void TestDoctorHostile::binaryFileIsNotRun()
{
    QByteArray bytes("\x7f"
                     "ELF\x02\x01\x01\0\0\0\x1b]0;owned\x07\x1b[2J",
                     20);
    for (int i = 0; i < 2000; ++i)
        bytes += char(QRandomGenerator::global()->bounded(256));
    const QString file = script("limiter.lua", bytes);
    const qint64 keys = m_connection.command({"DBSIZE"}).toInteger();
    const CliResult result = runCli(QStringList {QStringLiteral("doctor"), file} << live());
    QVERIFY2(result.exitCode == 4, result.err.constData());
    QVERIFY2(result.out.contains("not a Lua script"), result.out.constData());
    QVERIFY2(result.err.contains("the live probe did not run"), result.err.constData());
    QVERIFY(!hasControlBytes(result.out));
    QVERIFY(!hasControlBytes(result.err));
    QCOMPARE(m_connection.command({"DBSIZE"}).toInteger(), keys);
}

void TestDoctorHostile::escapeSequencesAreShownNotSent_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::newRow("read") << QStringList();
    QTest::newRow("live") << live();
    QTest::newRow("live, JSON") << (live() << QStringLiteral("--json"));
}

void TestDoctorHostile::escapeSequencesAreShownNotSent()
{
    QFETCH(QStringList, options);
    const CliResult result = runCli(QStringList {QStringLiteral("doctor"), corpusFile("ansi-escapes.lua")} << options);
    QVERIFY2(result.exitCode == 1, result.err.constData());
    QVERIFY2(!hasControlBytes(result.out), result.out.constData());
    QVERIFY(!hasControlBytes(result.err));
    if (options.contains(QLatin1String("--json"))) {
        const QJsonDocument json = QJsonDocument::fromJson(result.out);
        QVERIFY(json.isObject()); // JSON escapes them its own way (\u001b)
        QVERIFY(result.out.contains("\\u001b"));
        return;
    }
    if (options.contains(QLatin1String("--live"))) // the members it stored are shown, escaped
        QVERIFY2(result.out.contains("\\e]0;owned\\x07\\e[2J"), result.out.constData());
}

QTEST_GUILESS_MAIN(TestDoctorHostile)
#include "tst_doctorhostile.moc"
