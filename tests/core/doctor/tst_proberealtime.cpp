// Issue 45, part 4: scripts whose call carries no time (they read TIME, their keys' TTL, or no
// clock at all) are run in real time with a short window, waited out on the server's clock: a
// burst, the window passes, a burst again; a burst and one call half a window later; one call and,
// a window later, are its keys gone? The report names the clock. Against the test's own
// redis-server; the waits are the server's deadlines (WAIT, TIME), bounded by the window.
#include "doctor/scriptprobe.h"
#include "sourcetree.h"
#include "testredis.h"

#include <QElapsedTimer>
#include <QtTest>

namespace {
CallTemplate callWith(const QString& args, const QString& keys = CallTemplate::defaultKeys())
{
    CallTemplate call;
    QString error;
    if (!CallTemplate::parse(keys, args, &call, &error))
        qFatal("bad template in the test: %s", qPrintable(error));
    return call;
}

LimiterScript corpusScript(const QString& name)
{
    LimiterScript script;
    QString error;
    if (!LimiterScript::fromFile(sourcePath(QStringLiteral("tests/doctor-corpus/") + name), &script, &error))
        qFatal("%s", qPrintable(error));
    return script;
}
} // namespace

class TestProbeRealTime : public QObject
{
    Q_OBJECT
private slots:
    void runsTheWindowInRealTime_data();
    void runsTheWindowInRealTime();
    void aCallInSecondsWaitsAWholeSecond();
    void aCallWithoutAWindowRunsNoRealTime();
    void scriptsWithATimeInTheirCallStaySimulated();
};

void TestProbeRealTime::runsTheWindowInRealTime_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("clock");
    QTest::addColumn<int>("admittedAfterWindow"); // of the burst after the window passed
    QTest::addColumn<int>("refilled"); // the call half a window later: 1 admitted, 0 refused, -1 not checked
    QTest::addColumn<bool>("countsRight");
    QTest::newRow("a fixed window on PTTL") << "pttl-window-counter.lua"
                                            << "{limit} {window}"
                                            << "PTTL" << 5 << 0 << true;
    QTest::newRow("a counter with an expiry, no clock") << "counter-expire-no-clock.lua"
                                                        << "{window}"
                                                        << "none" << 5 << 0 << true;
    QTest::newRow("GCRA on TIME: capacity comes back as time passes") << "gcra-server-time.lua"
                                                                      << "{limit} {window}"
                                                                      << "TIME" << 5 << 1 << true;
    QTest::newRow("slots leased for a window on TIME") << "reply-slot-or-nil.lua"
                                                       << "{limit} {window} {uuid}"
                                                       << "TIME" << 5 << 0 << true;
    // Its TTL rounds to 0 at 25 tokens a second: nothing is stored, every burst passes whole.
    QTest::newRow("a token bucket whose TTL rounds to 0: counts wrong") << "token-bucket-ttl-rounds-to-zero.lua"
                                                                        << "{limit} {window}"
                                                                        << "TIME" << 7 << -1 << false;
}

void TestProbeRealTime::runsTheWindowInRealTime()
{
    QFETCH(QString, file);
    QFETCH(QString, args);
    QFETCH(QString, clock);
    QFETCH(int, admittedAfterWindow);
    QFETCH(int, refilled);
    QFETCH(bool, countsRight);
    ScriptProbe probe(corpusScript(file), callWith(args));
    QElapsedTimer took;
    took.start();
    const ProbeReport report = probe.run(TestRedis::endpoint());
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    const QString verdict = report.verdict.join(QLatin1Char('\n'));
    QVERIFY(!report.clockControlled);
    QCOMPARE(report.clock, clock);
    QVERIFY2(verdict.contains(clock == QLatin1String("none") ? QStringLiteral("reads no clock")
                                                             : QStringLiteral("(%1)").arg(clock)),
             qPrintable(verdict));

    const ProbeScenario* window = report.scenario(QStringLiteral("window"));
    QVERIFY2(window, qPrintable(verdict));
    QCOMPARE(window->windowMs, 200);
    QCOMPARE(window->burstCalls, 7);
    // The wait is the server's: at least the window and its margin, and not much more.
    QVERIFY2(window->waitedMs >= 220 && window->waitedMs < 400, qPrintable(QString::number(window->waitedMs)));
    QCOMPARE(window->admittedAfterWait, admittedAfterWindow);
    QCOMPARE(window->problem, !countsRight);

    const ProbeScenario* refill = report.scenario(QStringLiteral("refill"));
    QVERIFY(refill);
    QVERIFY2(refill->waitedMs >= 100 && refill->waitedMs < 200, qPrintable(QString::number(refill->waitedMs)));
    if (refilled >= 0)
        QCOMPARE(refill->admittedAfterWait, refilled);
    QVERIFY(!refill->problem); // told, not judged

    const ProbeScenario* expiry = report.scenario(QStringLiteral("expiry"));
    QVERIFY(expiry);
    QVERIFY(expiry->waitedMs >= 220);
    QCOMPARE(expiry->keysLeft, 0);

    QVERIFY2(report.countsRight == countsRight, qPrintable(verdict));
    // Bounded: three waits of at most a window and a margin each, plus the calls.
    QVERIFY2(took.elapsed() < 8000, qPrintable(QString::number(took.elapsed())));
}

void TestProbeRealTime::aCallInSecondsWaitsAWholeSecond()
{
    // APISIX-style: a TTL in whole seconds. The window cannot be shorter than a second.
    const LimiterScript script = LimiterScript::fromSource(
        QStringLiteral("ttl-seconds.lua"),
        "if redis.call('TTL', KEYS[1]) < 0 then redis.call('SET', KEYS[1], ARGV[1] - 1, 'EX', ARGV[2]) "
        "return ARGV[1] - 1 end return redis.call('DECR', KEYS[1])");
    ScriptProbe probe(script, callWith(QStringLiteral("{limit} {window_s}")));
    const ProbeReport report = probe.run(TestRedis::endpoint());
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    QCOMPARE(report.clock, QStringLiteral("PTTL"));
    QCOMPARE(report.replyStyle, ReplyStyle::Remaining);
    const ProbeScenario* window = report.scenario(QStringLiteral("window"));
    QVERIFY(window);
    QCOMPARE(window->windowMs, 1000);
    QVERIFY(window->waitedMs >= 1100);
    QCOMPARE(window->admittedAfterWait, 5);
    QVERIFY2(report.countsRight, qPrintable(report.verdict.join(QLatin1Char('\n'))));
}

// A concurrency limiter whose call carries no window: nothing to shorten. No real-time scenario,
// and the verdict says why; the sorted set without expiry is found all the same.
void TestProbeRealTime::aCallWithoutAWindowRunsNoRealTime()
{
    ScriptProbe probe(corpusScript(QStringLiteral("concurrency-zset-no-ttl.lua")),
                      callWith(QStringLiteral("{limit} {uuid}")));
    const ProbeReport report = probe.run(TestRedis::endpoint());
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    const QString verdict = report.verdict.join(QLatin1Char('\n'));
    QCOMPARE(report.clock, QStringLiteral("TIME"));
    QVERIFY(!report.scenario(QStringLiteral("window")));
    QVERIFY2(verdict.contains(QLatin1String("The call carries no window")), qPrintable(verdict));
    QVERIFY2(report.ttlProblem && !report.ttlTooShort, qPrintable(verdict));
    QVERIFY2(verdict.contains(QLatin1String("no expiry")), qPrintable(verdict));
}

void TestProbeRealTime::scriptsWithATimeInTheirCallStaySimulated()
{
    ScriptProbe probe(corpusScript(QStringLiteral("reply-true-and-wait.lua")),
                      callWith(QStringLiteral("{now} {window} {limit}")));
    const ProbeReport report = probe.run(TestRedis::endpoint());
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    QCOMPARE(report.clock, QStringLiteral("argument"));
    QVERIFY(!report.scenario(QStringLiteral("window")));
    QVERIFY(report.scenario(QStringLiteral("slide")));
}

QTEST_GUILESS_MAIN(TestProbeRealTime)
#include "tst_proberealtime.moc"
