// A server that misbehaves on purpose (FakeRedis): a reply that announces 2^31-1 elements, a line
// that never ends, a reply dripped one byte at a time, an error of 1 MB with terminal escapes.
// Each must end within the command timeout, with a message that says what the server did, and
// without memory growing with what the server announces or sends.
#include "burst/burstengine.h"
#include "cliprocess.h"
#include "fakeredis.h"
#include "limiters/limitercatalog.h"
#include "redis/hiredisapi.h"
#include "redis/redisconnection.h"
#include "sourcetree.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

#include <sys/resource.h>

class TestHostileServer : public QObject
{
    Q_OBJECT
private slots:
    void handshakeEndsWithinTheDeadline_data();
    void handshakeEndsWithinTheDeadline();
    void hugeArrayMidBurstFailsTheRun();
    void resp3RepliesReadAsTheirResp2Peers_data();
    void resp3RepliesReadAsTheirResp2Peers();
    void cliEndsAndStaysSmall_data();
    void cliEndsAndStaysSmall();
    void refusedScriptLoadIsTheServersAnswer();
    void serverTextInInfoIsEscaped();
    void doctorOnADrippingServerEndsWithinTheDeadline();
    void watchMonitorReplyIsBounded();
    void lastReadPastTheBoundNamesTheKey();
};

namespace {
using Mode = FakeRedis::Answer::Mode;

FakeRedis::Answer answerInfoWith(const QByteArray& bytes, Mode mode)
{
    FakeRedis::Answer answer;
    answer.bytes = bytes;
    answer.mode = mode;
    return answer;
}

// The largest a CLI may grow here: its 64 MiB bound and the program (before the bounds it grew
// past 3 GB). AddressSanitizer's shadow memory adds some 300 MB to any program.
#if defined(__SANITIZE_ADDRESS__)
constexpr long maxChildRssKiB = 1024 * 1024;
#else
constexpr long maxChildRssKiB = 200 * 1024;
#endif

// A server that takes a burst as far as its script: INFO, a key that is free, then these answers
// to SCRIPT LOAD and to every EVALSHA.
FakeRedis::Answerer limiterServer(const QByteArray& scriptLoad, const QByteArray& evalsha)
{
    return [scriptLoad, evalsha](const QList<QByteArray>& command) {
        const QByteArray name = command.value(0).toUpper();
        FakeRedis::Answer answer;
        if (name == "INFO")
            answer.bytes = FakeRedis::infoServer();
        else if (name == "TYPE")
            answer.bytes = "+none\r\n";
        else if (name == "SCRIPT")
            answer.bytes = scriptLoad;
        else if (name == "EVALSHA")
            answer.bytes = evalsha;
        else
            answer.bytes = "+OK\r\n";
        return answer;
    };
}

// 4,194,304 small elements (16 MB on the wire): within the bytes a reply may take, and some 3 GB
// once parsed before replies were bounded by what they cost to hold.
QByteArray manySmallElements()
{
    constexpr int elements = 4 * 1024 * 1024;
    QByteArray bytes = "*" + QByteArray::number(elements) + "\r\n";
    bytes.reserve(bytes.size() + elements * 4);
    for (int i = 0; i < elements; ++i)
        bytes += ":1\r\n";
    return bytes;
}

// The largest RSS of the children waited for so far, in KiB.
long childrenMaxRssKiB()
{
    rusage usage {};
    return ::getrusage(RUSAGE_CHILDREN, &usage) == 0 ? usage.ru_maxrss : -1;
}

QByteArray hugeError()
{
    return "-ERR \x1b[2J\x1b[31mred alert\x07 " + QByteArray(1024 * 1024, 'x') + "\r\n";
}
} // namespace

void TestHostileServer::handshakeEndsWithinTheDeadline_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("said");
    QTest::newRow("2^31-1 elements announced")
        << QByteArray("*2147483647\r\n") << int(Mode::AtOnce) << QStringLiteral("zsetlab holds at most");
    // hiredis looks for the end of a line from its start at every read: the deadline ends it first.
    QTest::newRow("a line that never ends") << QByteArray("+") << int(Mode::Endless)
                                            << QStringLiteral("no whole reply within 2000 ms|without ending its reply");
    // 64 MiB unread ends it on a fast machine; under a sanitizer the deadline may come first.
    QTest::newRow("a 2 GB string, sent without end")
        << QByteArray("$2000000000\r\n") << int(Mode::Endless)
        << QStringLiteral("without ending its reply|no whole reply within 2000 ms");
    QTest::newRow("one byte every 200 ms")
        << QByteArray("$100000\r\n") + QByteArray(100000, 'y') + "\r\n"
        << int(Mode::Drip) << QStringLiteral("no whole reply within 2000 ms|did not answer within 2000 ms");
}

void TestHostileServer::handshakeEndsWithinTheDeadline()
{
    QFETCH(QByteArray, bytes);
    QFETCH(int, mode);
    QFETCH(QString, said);
    FakeRedis fake([&](const QList<QByteArray>&) { return answerInfoWith(bytes, Mode(mode)); });
    QVERIFY(fake.isListening());
    ConnectOptions options;
    options.commandTimeout = std::chrono::milliseconds(2000);
    RedisConnection connection;
    QElapsedTimer clock;
    clock.start();
    QVERIFY(!connection.open(fake.endpoint(), options));
    QVERIFY2(clock.elapsed() < 6000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY2(connection.lastError().message.contains(QRegularExpression(said)),
             qPrintable(connection.lastError().message));
}

// zsetlab speaks RESP2, but a server may answer in RESP3's types unasked. hiredis 1.x parses them:
// each must read as the RESP2 reply in its place, never as a silent nil. hiredis 0.14 does not
// know them: the connection then fails, saying so.
void TestHostileServer::resp3RepliesReadAsTheirResp2Peers_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("read");
    QTest::newRow("a double") << QByteArray(",1.5\r\n") << QStringLiteral("\"1.5\"");
    QTest::newRow("a big number") << QByteArray("(3492890328409238509324850943850943825024385\r\n")
                                  << QStringLiteral("\"3492890328409238509324850943850943825024385\"");
    QTest::newRow("true") << QByteArray("#t\r\n") << QStringLiteral("(integer) 1");
    QTest::newRow("false") << QByteArray("#f\r\n") << QStringLiteral("(integer) 0");
    QTest::newRow("a map of one") << QByteArray("%1\r\n+count\r\n:3\r\n") << QStringLiteral("[count, (integer) 3]");
    QTest::newRow("a set of two") << QByteArray("~2\r\n:1\r\n:2\r\n") << QStringLiteral("[(integer) 1, (integer) 2]");
    QTest::newRow("a null") << QByteArray("_\r\n") << QStringLiteral("(nil)");
}

void TestHostileServer::resp3RepliesReadAsTheirResp2Peers()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, read);
    FakeRedis fake([&](const QList<QByteArray>& command) {
        return answerInfoWith(command.value(0).toUpper() == "INFO" ? FakeRedis::infoServer() : bytes, Mode::AtOnce);
    });
    QVERIFY(fake.isListening());
    ConnectOptions options;
    options.commandTimeout = std::chrono::milliseconds(2000);
    RedisConnection connection;
    QVERIFY2(connection.open(fake.endpoint(), options), qPrintable(connection.lastError().message));
    const RedisReply reply = connection.command({"GET", "k"});
    if (!HiredisApi::readsResp3) {
        QVERIFY(reply.isConnectionLost());
        QVERIFY2(reply.text().contains(QLatin1String("Protocol error"), Qt::CaseInsensitive), qPrintable(reply.text()));
        return;
    }
    QVERIFY2(!reply.isError(), qPrintable(reply.text()));
    QCOMPARE(reply.toDisplayString(), read);
}

// Past the handshake, the first EVALSHA of a burst gets the huge array: the lane fails, the run
// ends with a connection failure that says why.
void TestHostileServer::hugeArrayMidBurstFailsTheRun()
{
    FakeRedis fake(limiterServer("$40\r\n" + QByteArray(40, 'a') + "\r\n", "*2147483647\r\n"));
    QVERIFY(fake.isListening());
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.requests = 50;
    plan.keepKey = true; // nothing to delete on a fake
    plan.reconnectForMs = 0; // the fake answers the same way on every connection
    ConnectOptions options;
    options.commandTimeout = std::chrono::milliseconds(2000);
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(fake.endpoint(), plan, options));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QVERIFY(summary.failure.isFailure());
    QVERIFY2(summary.failure.message.contains(QLatin1String("zsetlab holds at most")),
             qPrintable(summary.failure.message));
}

// Issue #34: a server with `rename-command SCRIPT ""` made zsetlab say that its own limiter
// "does not compile": say what the server said.
void TestHostileServer::refusedScriptLoadIsTheServersAnswer()
{
    FakeRedis fake(limiterServer("-ERR unknown command 'SCRIPT', with args beginning with: 'LOAD'\r\n", "+OK\r\n"));
    QVERIFY(fake.isListening());
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.requests = 5;
    plan.keepKey = true; // nothing to delete on a fake
    plan.reconnectForMs = 0;
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    QVERIFY(engine.start(fake.endpoint(), plan));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);
    const BurstSummary summary = finished.at(0).at(0).value<BurstSummary>();
    QCOMPARE(summary.failure.kind, BurstFailure::Kind::Script);
    QVERIFY2(!summary.failure.message.contains(QLatin1String("does not compile"))
                 && summary.failure.message.contains(QLatin1String("refused to load"))
                 && summary.failure.message.contains(QLatin1String("unknown command 'SCRIPT'")),
             qPrintable(summary.failure.message));
    QCOMPARE(summary.sent, 0);
}

// Issue #34: the server's version string reached the terminal raw.
void TestHostileServer::serverTextInInfoIsEscaped()
{
    FakeRedis fake([](const QList<QByteArray>& command) {
        FakeRedis::Answer answer;
        if (command.value(0).toUpper() == "INFO") {
            const QByteArray text = "# Server\r\nredis_version:7.0.15\x1b[2J\x1b[31mred\x07" + QByteArray(100000, 'v')
                + "\r\nredis_mode:standalone\r\n";
            answer.bytes = '$' + QByteArray::number(text.size()) + "\r\n" + text + "\r\n";
        } else {
            answer.bytes = "-ERR not today\r\n";
        }
        return answer;
    });
    QVERIFY(fake.isListening());
    const CliResult result = runCli({QStringLiteral("run"), QStringLiteral("--redis"), fake.url(),
                                     QStringLiteral("--requests"), QStringLiteral("3"), QStringLiteral("--keep")},
                                    30000);
    QVERIFY2(result.exitCode > 0, result.err.constData());
    const QByteArray all = result.out + result.err;
    QVERIFY2(!all.contains('\x1b') && !all.contains('\x07'), all.left(400).constData());
    QVERIFY2(all.contains("7.0.15\\e[2J"), all.left(400).constData());
    QVERIFY2(all.size() < 20000, "the version is cut short");
}

// Issue #34: a reply dripping one byte every 0.2 s held the doctor's live probe for as long as it
// lasted. After its private trial, the probe's first command on the given server (here the ACL
// user it makes for the script) waits no longer than --timeout.
void TestHostileServer::doctorOnADrippingServerEndsWithinTheDeadline()
{
    FakeRedis fake([](const QList<QByteArray>& command) {
        FakeRedis::Answer answer;
        if (command.value(0).toUpper() == "INFO") {
            answer.bytes = FakeRedis::infoServer();
        } else {
            answer.bytes = "$1000\r\n" + QByteArray(1000, 'd') + "\r\n"; // 200 s at one byte per 0.2 s
            answer.mode = Mode::Drip;
        }
        return answer;
    });
    QVERIFY(fake.isListening());
    QElapsedTimer clock;
    clock.start();
    const CliResult result
        = runCli({QStringLiteral("doctor"), sourcePath(QStringLiteral("tests/doctor-corpus/caller-supplied-id.lua")),
                  QStringLiteral("--live"), QStringLiteral("--redis"), fake.url(), QStringLiteral("--timeout"),
                  QStringLiteral("1000"), QStringLiteral("--allow-eviction")},
                 120000);
    // --allow-eviction: the fake's INFO tells nothing of its memory, and the probe goes on to the
    // command that drips only with consent.
    QCOMPARE(result.exitCode, 3);
    // "no whole reply within 1000 ms (5 bytes of it came)", or no byte at all in that time.
    QVERIFY2(result.err.contains("no whole reply within 1000 ms") || result.err.contains("timed out waiting"),
             result.err.constData());
    // The private trial takes a second or a few; the dripping server adds one timeout, not 200 s.
    QVERIFY2(clock.elapsed() < 30000, qPrintable(QString::number(clock.elapsed())));
}

void TestHostileServer::cliEndsAndStaysSmall_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("mode");
    QTest::addColumn<QByteArray>("said");
    QTest::newRow("2^31-1 elements") << QByteArray("*2147483647\r\n") << int(Mode::AtOnce)
                                     << QByteArray("zsetlab holds at most");
    QTest::newRow("endless line") << QByteArray("+") << int(Mode::Endless)
                                  << QByteArray("no whole reply within 2000 ms|without ending its reply");
    QTest::newRow("endless 2 GB string") << QByteArray("$2000000000\r\n") << int(Mode::Endless)
                                         << QByteArray("without ending its reply|no whole reply within 2000 ms");
    QTest::newRow("drip") << QByteArray("+") + QByteArray(1000, 'z') + "\r\n"
                          << int(Mode::Drip)
                          << QByteArray("no whole reply within 2000 ms|did not answer within 2000 ms");
    QTest::newRow("1 MB error with escapes") << hugeError() << int(Mode::AtOnce) << QByteArray("red alert");
    QTest::newRow("4,194,304 small elements")
        << manySmallElements() << int(Mode::AtOnce) << QByteArray("would take more than 64 MB to hold");
}

void TestHostileServer::cliEndsAndStaysSmall()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QFETCH(QByteArray, bytes);
    QFETCH(int, mode);
    QFETCH(QByteArray, said);
    FakeRedis fake([&](const QList<QByteArray>&) { return answerInfoWith(bytes, Mode(mode)); });
    QVERIFY(fake.isListening());
    QProcess cli;
    QElapsedTimer clock;
    clock.start();
    cli.start(qEnvironmentVariable("ZSETLAB_CLI"),
              {QStringLiteral("run"), QStringLiteral("--redis"), fake.url(), QStringLiteral("--timeout"),
               QStringLiteral("2000"), QStringLiteral("--requests"), QStringLiteral("10")});
    QVERIFY(cli.waitForFinished(20000));
    const qint64 took = clock.elapsed();
    // The children this program waited for: only the CLIs of this test (the fake is a thread).
    rusage usage {};
    QCOMPARE(::getrusage(RUSAGE_CHILDREN, &usage), 0);
    const QByteArray err = cli.readAllStandardError();
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QCOMPARE(cli.exitCode(), 3);
    QVERIFY2(took < 8000, qPrintable(QString::number(took)));
    QVERIFY2(usage.ru_maxrss < maxChildRssKiB, qPrintable(QString::number(usage.ru_maxrss)));
    QVERIFY2(QString::fromUtf8(err).contains(QRegularExpression(QString::fromUtf8(said))), err.left(2000).constData());
    QVERIFY2(!err.contains('\x1b') && !err.contains('\x07'), err.left(300).toPercentEncoding().constData());
    QVERIFY2(err.size() < 8000, qPrintable(QString::number(err.size()))); // cut, not a megabyte
    qInfo("%s: exit %d after %lld ms, largest child RSS %ld KiB, %lld bytes on stderr", QTest::currentDataTag(),
          cli.exitCode(), took, usage.ru_maxrss, qint64(err.size()));
}

// Issue #58, 2: watch's MONITOR reply parsed to 2.9 GB. The server gets past the handshake and
// answers MONITOR with millions of small elements: the watch ends, small, saying why.
void TestHostileServer::watchMonitorReplyIsBounded()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const QByteArray huge = manySmallElements();
    FakeRedis fake([&huge](const QList<QByteArray>& command) {
        const QByteArray name = command.value(0).toUpper();
        return answerInfoWith(name == "INFO"          ? FakeRedis::infoServer()
                                  : name == "MONITOR" ? huge
                                                      : "+OK\r\n",
                              Mode::AtOnce);
    });
    QVERIFY(fake.isListening());
    QProcess cli;
    QElapsedTimer clock;
    clock.start();
    cli.start(qEnvironmentVariable("ZSETLAB_CLI"),
              {QStringLiteral("watch"), QStringLiteral("--redis"), fake.url(), QStringLiteral("--timeout"),
               QStringLiteral("2000"), QStringLiteral("--duration"), QStringLiteral("20000")});
    QVERIFY(cli.waitForFinished(30000));
    const QByteArray err = cli.readAllStandardError();
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QVERIFY2(cli.exitCode() == 3, err.left(2000).constData());
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY2(err.contains("would take more than 64 MB to hold"), err.left(2000).constData());
    const long rss = childrenMaxRssKiB();
    QVERIFY2(rss > 0 && rss < maxChildRssKiB, qPrintable(QString::number(rss)));
}

// Issue #58, 2: the reads after the burst (the count left, DEL) got the endless reply and the run
// exited 0 with its key left unnamed. The run ends with exit 5, naming the key and the server.
void TestHostileServer::lastReadPastTheBoundNamesTheKey()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const QByteArray huge = manySmallElements();
    const QSet<QByteArray> afterTheBurst {"ZREVRANGE", "ZCOUNT", "ZCARD", "DEL", "UNLINK", "PTTL", "PEXPIRE"};
    FakeRedis fake([&huge, &afterTheBurst](const QList<QByteArray>& command) {
        const QByteArray name = command.value(0).toUpper();
        FakeRedis::Answer answer;
        if (name == "INFO")
            answer.bytes = FakeRedis::infoServer();
        else if (name == "TYPE" || name == "EXISTS")
            answer.bytes = name == "TYPE" ? "+none\r\n" : ":0\r\n";
        else if (name == "SCRIPT")
            answer.bytes = "$40\r\n" + QByteArray(40, 'a') + "\r\n";
        else if (name == "EVALSHA")
            answer.bytes = "*3\r\n:1\r\n:1\r\n$2\r\n10\r\n";
        else if (afterTheBurst.contains(name))
            answer.bytes = huge;
        else
            answer.bytes = "+OK\r\n";
        return answer;
    });
    QVERIFY(fake.isListening());
    const CliResult run = runCli({QStringLiteral("run"), QStringLiteral("--redis"), fake.url(),
                                  QStringLiteral("--requests"), QStringLiteral("5"), QStringLiteral("--json")},
                                 30000);
    QVERIFY2(run.exitCode == 5, run.err.left(2000).constData());
    const QJsonObject summary = QJsonDocument::fromJson(run.out).object();
    const QByteArray key = summary.value(QStringLiteral("key")).toString().toUtf8();
    QVERIFY(key.startsWith("zsetlab:"));
    QVERIFY2(run.err.contains(key) && run.err.contains(fake.url().mid(8).toUtf8()), run.err.left(2000).constData());
    QVERIFY2(!summary.value(QStringLiteral("keys_left")).toArray().isEmpty(), run.out.constData());
    const long rss = childrenMaxRssKiB();
    QVERIFY2(rss > 0 && rss < maxChildRssKiB, qPrintable(QString::number(rss)));
}

QTEST_GUILESS_MAIN(TestHostileServer)
#include "tst_hostileserver.moc"
