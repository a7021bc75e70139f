// zsetlab-cli doctor, the front end of ScriptDoctor and ScriptProbe: usage errors, exit codes (one
// meaning each: 0 counts right, 1 counts wrong, 6 with --strict for warnings alone, 2 usage, 3
// connection, 4 the script cannot run), and its JSON. Against the test's own redis-server.
#include "cliprocess.h"
#include "fakeredis.h"
#include "limiters/calltemplate.h"
#include "sourcetree.h"
#include "testredis.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

namespace {
QStringList names(std::initializer_list<const char*> items)
{
    QStringList list;
    for (const char* item : items)
        list << QString::fromUtf8(item);
    return list;
}

QString builtinFile(const char* name)
{
    return sourcePath(QStringLiteral("lua/") + QLatin1String(name));
}

QString corpusFile(const char* name)
{
    return sourcePath(QStringLiteral("tests/doctor-corpus/") + QLatin1String(name));
}
} // namespace

class TestDoctorCli : public QObject
{
    Q_OBJECT
private slots:
    void doctorUsageErrors_data();
    void doctorUsageErrors();
    void doctorExitCodes_data();
    void doctorExitCodes();
    void doctorJsonHasFindingsAndVerdict();
    void doctorJsonSaysWhatFailsOnACluster_data();
    void doctorJsonSaysWhatFailsOnACluster();
    void helpSaysWhatTheExitCodesMean();
    void aBlockingSetupKeepsTheTimeout();
    void aSignalEndsTheProbeWhereverItWaits();
    void aSilentServerKeepsTheTimeout();
};

void TestDoctorCli::doctorUsageErrors_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("messagePart");
    const QString now = builtinFile("now.lua");
    QTest::newRow("no script") << names({"doctor"}) << "FILE.lua";
    QTest::newRow("two scripts") << (names({"doctor"}) << now << now) << "unexpected argument";
    QTest::newRow("unknown placeholder") << (names({"doctor"})
                                             << now << QStringLiteral("--args") << QStringLiteral("{time}"))
                                         << "{time} is not a placeholder";
    QTest::newRow("a key outside zsetlab:")
        << (names({"doctor"}) << now << QStringLiteral("--keys") << QStringLiteral("rate:{key}")) << "{key}";
    QTest::newRow("--redis without --live")
        << (names({"doctor"}) << now << QStringLiteral("--redis") << TestRedis::endpoint().displayUrl())
        << "add --live";
    QTest::newRow("limit 0") << (names({"doctor"})
                                 << now << QStringLiteral("--live") << QStringLiteral("--limit") << QStringLiteral("0"))
                             << "--limit";
    QTest::newRow("unknown flag") << (names({"doctor"}) << now << QStringLiteral("--deep")) << "deep";
    QTest::newRow("a reply style it does not know")
        << (names({"doctor"}) << now << QStringLiteral("--live") << QStringLiteral("--reply") << QStringLiteral("yes"))
        << "--reply must be one of";
    QTest::newRow("--reply without --live")
        << (names({"doctor"}) << now << QStringLiteral("--reply") << QStringLiteral("count")) << "add --live";
    QTest::newRow("a script timeout of 0")
        << (names({"doctor"}) << now << QStringLiteral("--live") << QStringLiteral("--script-timeout")
                              << QStringLiteral("0"))
        << "--script-timeout";
    QTest::newRow("--function of an EVAL script")
        << (names({"doctor"}) << now << QStringLiteral("--function") << QStringLiteral("limit"))
        << "--function is for a Redis Functions library";
    QTest::newRow("--function the library does not register")
        << (names({"doctor"}) << corpusFile("library-now-and-unique.lua") << QStringLiteral("--function")
                              << QStringLiteral("limit"))
        << "registers no function \"limit\"; it registers: limit_now, limit_unique";
    QTest::newRow("--setup without --live")
        << (names({"doctor"}) << now << QStringLiteral("--setup") << QStringLiteral("HSET {key}:c a 1"))
        << "add --live";
    QTest::newRow("--setup on a key not the probe's")
        << (names({"doctor"}) << now << QStringLiteral("--live") << QStringLiteral("--setup")
                              << QStringLiteral("SET config 1"))
        << "name one that starts with {key}";
    QTest::newRow("an empty --app-key") << (names({"doctor"}) << now << QStringLiteral("--app-key") << QString())
                                        << "--app-key needs a name";
    QTest::newRow("an --app-key with a control character")
        << (names({"doctor"}) << now << QStringLiteral("--app-key") << QStringLiteral("rl:\x1b[2J"))
        << "--app-key: A key name takes printable UTF-8 text";
}

void TestDoctorCli::doctorUsageErrors()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QFETCH(QStringList, arguments);
    QFETCH(QString, messagePart);
    const CliResult result = runCli(arguments);
    QCOMPARE(result.exitCode, 2);
    QVERIFY2(QString::fromUtf8(result.err).contains(messagePart), result.err.constData());
    QVERIFY(result.out.isEmpty());
}

void TestDoctorCli::doctorExitCodes_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("outputPart");
    const QStringList live
        = QStringList {QStringLiteral("--live"), QStringLiteral("--redis"), TestRedis::endpoint().displayUrl()};
    QTest::newRow("now, read: 1") << (names({"doctor"}) << builtinFile("now.lua")) << 1 << "line 23  error";
    QTest::newRow("request-id, read: 0") << (names({"doctor"}) << builtinFile("request-id.lua")) << 0 << "No findings.";
    // zsetlab passes sequence.lua's counter as KEYS[2]; called with KEYS[1] alone, it is undeclared.
    const QStringList sequenceKeys {QStringLiteral("--keys"), QStringLiteral("{key} {key}:seq")};
    QTest::newRow("sequence with its counter in KEYS, read: 0")
        << (names({"doctor"}) << builtinFile("sequence.lua") << sequenceKeys) << 0 << "No findings.";
    // Issue 45: a warning alone is no wrong count: 0, and 6 with --strict.
    QTest::newRow("sequence with KEYS[1] only, read: a warning, 0")
        << (names({"doctor"}) << builtinFile("sequence.lua")) << 0 << "line 24  warning  INCR uses KEYS[1] .. ':seq'";
    QTest::newRow("sequence with KEYS[1] only, read, --strict: 6")
        << (names({"doctor", "--strict"}) << builtinFile("sequence.lua")) << 6
        << "Result: it counts right, with the warnings above (exit 6, --strict).";
    QTest::newRow("sequence, an application key without a hash tag: a warning, 0")
        << (names({"doctor"}) << builtinFile("sequence.lua") << sequenceKeys << QStringLiteral("--app-key")
                              << QStringLiteral("rl:user42"))
        << 0 << "CROSSSLOT";
    QTest::newRow("sequence, an application key with a hash tag: 0")
        << (names({"doctor"}) << builtinFile("sequence.lua") << sequenceKeys << QStringLiteral("--app-key")
                              << QStringLiteral("rl:{user42}"))
        << 0 << "{key} = rl:{user42}\nNo findings.";
    QTest::newRow("now, live: 1") << (names({"doctor"}) << builtinFile("now.lua") << live) << 1
                                  << "20 calls in one millisecond were stored as 1 entry";
    QTest::newRow("request-id, live: 0") << (names({"doctor"}) << builtinFile("request-id.lua") << live) << 0
                                         << "counted right in every scenario";
    QTest::newRow("sequence, live: 0") << (names({"doctor"}) << builtinFile("sequence.lua") << sequenceKeys << live)
                                       << 0 << "counted right in every scenario";
    QTest::newRow("seconds script with its call, live: 1")
        << (names({"doctor"}) << corpusFile("seconds-timestamps.lua") << QStringLiteral("--args")
                              << QStringLiteral("{now_s} {window_s} {limit}") << live)
        << 1 << "were stored as 1 entry";
    QTest::newRow("missing script: 4") << names({"doctor", "/nonexistent/limiter.lua"}) << 4 << "";
    QTest::newRow("syntax error: 4") << (names({"doctor"}) << corpusFile("syntax-error.lua")) << 4 << "syntax-error";
    QTest::newRow("syntax error, live: 4, nothing runs")
        << (names({"doctor"}) << corpusFile("syntax-error.lua") << live) << 4 << "line 20";
    QTest::newRow("a fixed key, live: it counts right, 0, only on a private server")
        << (names({"doctor"}) << corpusFile("foreign-fixed-key.lua") << live) << 0 << "instead of";
    QTest::newRow("a fixed key, live, --strict: 6")
        << (names({"doctor", "--strict"}) << corpusFile("foreign-fixed-key.lua") << live) << 6
        << "Result: it counts right, with the warnings above";
    // A known library's known issue: a warning until the probe shows it on the calls given.
    const QString shenyu = sourcePath(QStringLiteral("tests/upstream-limiters/shenyu-concurrent.lua"));
    const QStringList shenyuCall {QStringLiteral("--keys"), QStringLiteral("{key} {key}:{uuid}"),
                                  QStringLiteral("--args"), QStringLiteral("{limit} {limit} {now_s} 1")};
    // Redisson's fixed windows let up to twice the rate through around a window's end: read alone,
    // with Redisson's own call, a warning.
    QTest::newRow("a known library's issue, read: a warning, 0")
        << (names({"doctor"}) << sourcePath(
                QStringLiteral("tests/upstream-limiters/redisson-rratelimiter-fixed-window.lua"))
                              << QStringLiteral("--keys") << QStringLiteral("{key} {key}:value {key}:value:c1")
                              << QStringLiteral("--args") << QStringLiteral("1 c1"))
        << 0 << "line 1  warning  This is the limiter of Redisson RRateLimiter (before 3.13.3)";
    QTest::newRow("a known library's issue the probe shows: 1")
        << (names({"doctor"}) << shenyu << shenyuCall << live) << 1
        << "line 1  error  This is the limiter of Apache ShenYu";
    QTest::newRow("an expiry in ms, read: a warning, 0")
        << (names({"doctor"}) << corpusFile("expire-milliseconds.lua") << QStringLiteral("--args")
                              << QStringLiteral("{now} {window} {uuid}"))
        << 0 << "Result: it counts right, with the warnings above (exit 0; --strict exits 6).";
    QTest::newRow("counting before trimming, read: an error, 1")
        << (names({"doctor", "--strict"}) << corpusFile("count-before-trim.lua")) << 1
        << "Result: it counts wrong (exit 1).";
    QTest::newRow("a runaway loop, live: 4")
        << (names({"doctor"}) << corpusFile("runaway-wait.lua") << live) << 4 << "No findings.";
    const QString library = corpusFile("library-now-and-unique.lua");
    QTest::newRow("a library, read: 1, the finding names its function")
        << (names({"doctor"}) << library) << 1
        << "line 41  error  The ZSET member is the timestamp  [member-is-time]  in limit_now";
    QTest::newRow("a library, its function limit_now, live: 1")
        << (names({"doctor"}) << library << QStringLiteral("--function") << QStringLiteral("limit_now") << live) << 1
        << "Live probe of the function limit_now (FCALL) on a private redis-server";
    QTest::newRow("a library, its function limit_unique, live: 0")
        << (names({"doctor"}) << library << QStringLiteral("--function") << QStringLiteral("limit_unique") << live) << 0
        << "counted right in every scenario";
    QTest::newRow("a function's runaway loop, live: 4")
        << (names({"doctor"}) << corpusFile("library-runaway.lua") << QStringLiteral("--function")
                              << QStringLiteral("wait_for_slot") << QStringLiteral("--script-timeout")
                              << QStringLiteral("300") << live)
        << 4 << "No findings.";
    QTest::newRow("a member moved on while taken, read: 1")
        << (names({"doctor"}) << corpusFile("member-free-slot-loop.lua") << QStringLiteral("--args")
                              << QStringLiteral("{now} {window} {limit}"))
        << 1 << "line 27  error  The ZSET member is the timestamp";
    QTest::newRow("a member moved on while taken, live: 0, the probe's count wins")
        << (names({"doctor"}) << corpusFile("member-free-slot-loop.lua") << QStringLiteral("--args")
                              << QStringLiteral("{now} {window} {limit}") << live)
        << 0 << "The live probe disagrees, and its count wins";
    QTest::newRow("a configuration the app writes first, given with --setup, live: 0")
        << (names({"doctor"}) << corpusFile("setup-config-hash.lua") << QStringLiteral("--keys")
                              << QStringLiteral("{key} {key}:config") << QStringLiteral("--args")
                              << QStringLiteral("{now} {window} {uuid}") << QStringLiteral("--setup")
                              << QStringLiteral("HSET {key}:config limit {limit}") << live)
        << 0 << "counted right in every scenario";
    QTest::newRow("nil when admitted, live: 0")
        << (names({"doctor"}) << corpusFile("reply-nil-admitted.lua") << live) << 0 << "counted right";
    QTest::newRow("\"true\" when limited, given as --reply, live: 1")
        << (names({"doctor"}) << corpusFile("reply-limited-strings.lua") << QStringLiteral("--args")
                              << QStringLiteral("{now} {now-window} {limit} {uuid}") << QStringLiteral("--reply")
                              << QStringLiteral("limited=true") << live)
        << 1 << "admits limit + 1";
    QTest::newRow("server microseconds: a note, and the live run agrees: 0")
        << (names({"doctor"}) << corpusFile("server-time-microseconds.lua") << QStringLiteral("--args")
                              << QStringLiteral("{window}") << live)
        << 0 << "counted right in every scenario";
    QTest::newRow("script fails on Redis: 4")
        << (names({"doctor"}) << corpusFile("window-first-sequence.lua") << QStringLiteral("--args")
                              << QStringLiteral("{window}") << live)
        << 4 << "";
    QTemporaryDir dir;
    QTest::newRow("nothing listening: 3")
        << (names({"doctor", "--live", "--redis"})
            << QStringLiteral("unix://") + dir.filePath(QStringLiteral("x.sock")) << builtinFile("now.lua"))
        << 3 << "";
    QTest::newRow("remote without consent: 2")
        << (names({"doctor", "--live", "--redis", "redis://203.0.113.7:6379"}) << builtinFile("now.lua")) << 2 << "";
}

void TestDoctorCli::doctorExitCodes()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, outputPart);
    const CliResult result = runCli(arguments);
    QVERIFY2(result.exitCode == exitCode, result.err.constData());
    QVERIFY2(QString::fromUtf8(result.out).contains(outputPart), result.out.constData());
    if (exitCode >= 2 && exitCode != 6) // 6 is a result, not an error
        QVERIFY2(!result.err.isEmpty(), "errors say what happened");
    if (exitCode == 4 && arguments.contains(QLatin1String("--live")))
        QVERIFY2(result.err.contains("line "), result.err.constData());
}

void TestDoctorCli::doctorJsonHasFindingsAndVerdict()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const CliResult result = runCli(names({"doctor", "--json", "--live", "--redis"})
                                    << TestRedis::endpoint().displayUrl() << corpusFile("lowercase-single-quotes.lua")
                                    << QStringLiteral("--args") << QStringLiteral("{now} {window} {limit}"));
    QCOMPARE(result.exitCode, 1);
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(result.out, &error).object();
    QVERIFY2(!json.isEmpty(), qPrintable(error.errorString()));
    QCOMPARE(json.value(QLatin1String("problem")).toBool(), true);
    QCOMPARE(json.value(QLatin1String("counts_wrong")).toBool(), true);
    QCOMPARE(json.value(QLatin1String("result")).toString(), QStringLiteral("counts-wrong"));
    const QJsonArray findings = json.value(QLatin1String("findings")).toArray();
    QCOMPARE(findings.size(), 1);
    const QJsonObject finding = findings.first().toObject();
    QCOMPARE(finding.value(QLatin1String("code")).toString(), QStringLiteral("member-is-time"));
    QCOMPARE(finding.value(QLatin1String("line")).toInt(), 16);
    for (const char* key : {"severity", "title", "explanation", "suggestion", "excerpt"})
        QVERIFY2(!finding.value(QLatin1String(key)).toString().isEmpty(), key);
    const QJsonObject live = json.value(QLatin1String("live")).toObject();
    QCOMPARE(live.value(QLatin1String("reply_style")).toString(), QStringLiteral("admitted"));
    QCOMPARE(live.value(QLatin1String("counts_right")).toBool(), false);
    QVERIFY(!live.value(QLatin1String("verdict")).toArray().isEmpty());
    bool sawSameNow = false;
    for (const auto& value : live.value(QLatin1String("scenarios")).toArray()) {
        const QJsonObject scenario = value.toObject();
        if (scenario.value(QLatin1String("name")).toString() == QLatin1String("same-now-limit")) {
            sawSameNow = true;
            QCOMPARE(scenario.value(QLatin1String("admitted")).toInt(), 20);
            QCOMPARE(scenario.value(QLatin1String("expected_admitted")).toInt(), 5);
        }
    }
    QVERIFY(sawSameNow);
}

// Issue 18: the findings about Redis Cluster in zsetlab-cli doctor --json, read only (no --live).
void TestDoctorCli::doctorJsonSaysWhatFailsOnACluster_data()
{
    QTest::addColumn<QString>("keys");
    QTest::addColumn<QString>("appKey"); // empty: no --app-key
    QTest::addColumn<QString>("code"); // empty: no finding
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("explanationPart");
    QTest::newRow("a counter the caller does not pass")
        << "{key}" << QString() << "undeclared-key" << 27 << "non local key in a cluster node";
    QTest::newRow("the same, with the application's key")
        << "{key}"
        << "rl:user42"
        << "undeclared-key" << 27 << "it is rl:user42:refused, in slot 2332, while rl:user42 is in slot 8710";
    QTest::newRow("the counter passed, in another slot") << "{key} {key}:refused"
                                                         << "rl:user42"
                                                         << "cross-slot" << 27 << "CROSSSLOT";
    QTest::newRow("the counter passed, one hash tag") << "{key} {key}:refused"
                                                      << "rl:{user42}" << QString() << 0 << QString();
}

void TestDoctorCli::doctorJsonSaysWhatFailsOnACluster()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QFETCH(QString, keys);
    QFETCH(QString, appKey);
    QFETCH(QString, code);
    QFETCH(int, line);
    QFETCH(QString, explanationPart);
    QStringList arguments = names({"doctor", "--json"})
        << corpusFile("built-companion-key.lua") << QStringLiteral("--keys") << keys;
    if (!appKey.isEmpty())
        arguments << QStringLiteral("--app-key") << appKey;
    const CliResult result = runCli(arguments);
    QCOMPARE(result.exitCode, 0); // warnings: it counts right
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(result.out, &error).object();
    QVERIFY2(!json.isEmpty(), qPrintable(error.errorString()));
    QCOMPARE(json.value(QLatin1String("counts_wrong")).toBool(), false);
    QCOMPARE(json.value(QLatin1String("result")).toString(),
             code.isEmpty() ? QStringLiteral("counts-right") : QStringLiteral("counts-right-with-warnings"));
    QCOMPARE(json.value(QLatin1String("app_key")).toString(), appKey);
    QCOMPARE(json.contains(QLatin1String("app_key")), !appKey.isEmpty());
    QCOMPARE(json.value(QLatin1String("problem")).toBool(), !code.isEmpty());
    const QJsonArray findings = json.value(QLatin1String("findings")).toArray();
    QCOMPARE(findings.size(), code.isEmpty() ? 0 : 1);
    if (code.isEmpty())
        return;
    const QJsonObject finding = findings.first().toObject();
    QCOMPARE(finding.value(QLatin1String("code")).toString(), code);
    QCOMPARE(finding.value(QLatin1String("line")).toInt(), line);
    QCOMPARE(finding.value(QLatin1String("severity")).toString(), QStringLiteral("warning"));
    QVERIFY2(finding.value(QLatin1String("explanation")).toString().contains(explanationPart),
             qPrintable(finding.value(QLatin1String("explanation")).toString()));
    QVERIFY2(finding.value(QLatin1String("suggestion")).toString().contains(QLatin1String("hash tag")),
             qPrintable(finding.value(QLatin1String("suggestion")).toString()));
}

void TestDoctorCli::helpSaysWhatTheExitCodesMean()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    const CliResult result = runCli(names({"doctor", "--help"}));
    QCOMPARE(result.exitCode, 0);
    const QString help = QString::fromUtf8(result.out);
    for (const char* part : {"Exit codes, one meaning each:", "0    it counts right", "1    it counts wrong",
                             "6    with --strict only: it counts right, but warnings", "--strict", "limited@2"})
        QVERIFY2(help.contains(QLatin1String(part)), part);
}

// Issue #44: the doctor waited 67 s at --setup "BLPOP {key}:config 0" whatever --timeout said
// (every read had the script's bound, --script-timeout plus 65 s), and Ctrl+C there exited 3.
void TestDoctorCli::aBlockingSetupKeepsTheTimeout()
{
    QElapsedTimer timer;
    timer.start();
    const CliResult result = runCli(
        names({"doctor"}) << builtinFile("now.lua") << QStringLiteral("--live") << QStringLiteral("--redis")
                          << TestRedis::endpoint().displayUrl() << QStringLiteral("--timeout") << QStringLiteral("1500")
                          << QStringLiteral("--setup") << QStringLiteral("BLPOP {key}:config 0"),
        60000);
    const qint64 elapsed = timer.elapsed();
    QVERIFY2(result.exitCode == 3 || result.exitCode == 4, result.err.constData());
    QVERIFY2(result.err.contains("BLPOP"), result.err.constData());
    // 1.5 s for the blocked read, and the rest of the probe's start (a private server) around it.
    QVERIFY2(elapsed < 20000, qPrintable(QStringLiteral("took %1 ms").arg(elapsed)));
}

void TestDoctorCli::aSignalEndsTheProbeWhereverItWaits()
{
    QProcess doctor;
    doctor.start(qEnvironmentVariable("ZSETLAB_CLI"),
                 names({"doctor"}) << builtinFile("now.lua") << QStringLiteral("--live") << QStringLiteral("--redis")
                                   << TestRedis::endpoint().displayUrl() << QStringLiteral("--timeout")
                                   << QStringLiteral("60000") << QStringLiteral("--setup")
                                   << QStringLiteral("BLPOP {key}:config 0"));
    QVERIFY(doctor.waitForStarted(10000));
    QByteArray err;
    // The probe is under way (its handler of SIGINT with it); BLPOP then waits for good.
    QTRY_VERIFY_WITH_TIMEOUT((err += doctor.readAllStandardError()).contains("probing the script live")
                                 || doctor.state() == QProcess::NotRunning,
                             30000);
    QVERIFY2(doctor.state() == QProcess::Running, err.constData());
    ::kill(pid_t(doctor.processId()), SIGINT);
    QVERIFY2(doctor.waitForFinished(15000), "Ctrl+C did not end the probe within 15 s");
    err += doctor.readAllStandardError();
    QCOMPARE(doctor.exitStatus(), QProcess::NormalExit);
    QVERIFY2(doctor.exitCode() == 130, err.constData());
}

// A server that accepts and never answers: the doctor says so within --timeout, not minutes.
void TestDoctorCli::aSilentServerKeepsTheTimeout()
{
    FakeRedis silent([](const QList<QByteArray>&) { return FakeRedis::Answer {}; });
    QVERIFY(silent.isListening());
    QElapsedTimer timer;
    timer.start();
    const CliResult result
        = runCli(names({"doctor"}) << builtinFile("now.lua") << QStringLiteral("--live") << QStringLiteral("--redis")
                                   << silent.url() << QStringLiteral("--timeout") << QStringLiteral("1000"),
                 60000);
    QCOMPARE(result.exitCode, 3);
    QVERIFY2(timer.elapsed() < 10000, qPrintable(QStringLiteral("took %1 ms").arg(timer.elapsed())));

    // Ctrl+C while it waits there: 130, within --timeout. The child starts with SIGINT blocked, so
    // the signal sent at once is delivered when main() installs its handler, as to any process.
    QProcess doctor;
    doctor.setChildProcessModifier([] {
        sigset_t blocked;
        sigemptyset(&blocked);
        sigaddset(&blocked, SIGINT);
        ::sigprocmask(SIG_BLOCK, &blocked, nullptr);
    });
    timer.restart();
    doctor.start(qEnvironmentVariable("ZSETLAB_CLI"),
                 names({"doctor"}) << builtinFile("now.lua") << QStringLiteral("--live") << QStringLiteral("--redis")
                                   << silent.url() << QStringLiteral("--timeout") << QStringLiteral("3000"));
    QVERIFY(doctor.waitForStarted(10000));
    ::kill(pid_t(doctor.processId()), SIGINT);
    QVERIFY(doctor.waitForFinished(15000));
    const QByteArray err = doctor.readAllStandardError();
    QVERIFY2(doctor.exitStatus() == QProcess::NormalExit && doctor.exitCode() == 130, err.constData());
    QVERIFY2(timer.elapsed() < 10000, qPrintable(QStringLiteral("took %1 ms").arg(timer.elapsed())));
}

QTEST_GUILESS_MAIN(TestDoctorCli)
#include "tst_doctorcli.moc"
