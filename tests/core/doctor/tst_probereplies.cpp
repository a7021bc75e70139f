// Issue 45, part 2: replies whose decision is not their first element. The probe learns from its
// own calls which element changes kind when a call is refused ({"true", wait}, {count, wait} when
// refused, a leaky bucket's {size, rate, last, level, wait}, a slot's name or nil), takes the
// element from --reply STYLE@N, and says when the replies did not say: never a verdict on
// admissions it did not read. Against the test's own redis-server.
#include "cliprocess.h"
#include "doctor/scriptprobe.h"
#include "limiters/replydecision.h"
#include "sourcetree.h"
#include "testredis.h"

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

ProbeReport probe(const LimiterScript& script, const CallTemplate& call, const ProbeSettings& settings = {})
{
    ScriptProbe probe(script, call, settings);
    return probe.run(TestRedis::endpoint());
}

QStringList names(std::initializer_list<const char*> items)
{
    QStringList list;
    for (const char* item : items)
        list << QString::fromUtf8(item);
    return list;
}

const QString defaultArgs = CallTemplate::defaultArgs();
} // namespace

Q_DECLARE_METATYPE(ReplyClass)
Q_DECLARE_METATYPE(ReplyStyle)

class TestProbeReplies : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    // Reply styles read from the first element, on replies Redis itself made (EVAL "return ...").
    void learnsReplyConventionsFromItsOwnCalls_data();
    void learnsReplyConventionsFromItsOwnCalls();
    void readsTheReplyOption_data();
    void readsTheReplyOption();
    void readsRepliesAsScriptsMeanThem_data();
    void readsRepliesAsScriptsMeanThem();
    void learnsTheReplyStyle_data();
    void learnsTheReplyStyle();
    void countsAdmissionsWithoutGuessing_data();
    void countsAdmissionsWithoutGuessing();
    void saysWhenItCannotReadTheReplies();
    // Issue 45: the element that decides.
    void learnsTheDecidingElementFromRepliesAlone_data();
    void learnsTheDecidingElementFromRepliesAlone();
    void learnsWhichElementDecides_data();
    void learnsWhichElementDecides();
    void takesTheElementFromReply();
    void saysWhenTheRepliesDidNotSay();
    void aLimiterThatRefusesNothingTeachesNoElement();
    void theCommandLineTakesAnElement_data();
    void theCommandLineTakesAnElement();

private:
    RedisConnection m_connection;
};

void TestProbeReplies::initTestCase()
{
    QVERIFY(TestRedis::connect(m_connection));
}

void TestProbeReplies::learnsReplyConventionsFromItsOwnCalls_data()
{
    QTest::addColumn<QStringList>("unlimited"); // Lua values the calls replied, without a limit
    QTest::addColumn<QStringList>("limited"); // with limit 3
    QTest::addColumn<ReplyStyle>("style");
    const QStringList falses = names({"'false'", "'false'", "'false'", "'false'"});
    QTest::newRow("\"false\" then \"true\": true means limited")
        << falses << names({"'false'", "'false'", "'false'", "'true'", "'true'"}) << ReplyStyle::Limited;
    QTest::newRow("0 then 1: an inverted decision")
        << names({"0", "0", "0"}) << names({"0", "0", "0", "1", "1"}) << ReplyStyle::Limited;
    QTest::newRow("nil then a wait time in ms")
        << names({"nil", "nil"}) << names({"nil", "nil", "nil", "850", "420"}) << ReplyStyle::Limited;
    QTest::newRow("nil then a message") << names({"nil", "nil"}) << names({"nil", "nil", "nil", "'slow down'"})
                                        << ReplyStyle::NilAdmitted;
    QTest::newRow("0 everywhere: no way to tell")
        << names({"0", "0"}) << names({"0", "0", "0", "0", "0"}) << ReplyStyle::Unknown;
    QTest::newRow("{true, n} then {false, 0}")
        << names({"{true, 9}", "{true, 8}"}) << names({"{true, 2}", "{true, 1}", "{true, 0}", "{false, 0}"})
        << ReplyStyle::Admitted;
    // Issue 33: shapes public limiters use.
    QTest::newRow("what is left of the limit, -1 when refused")
        << names({"999999", "999998", "999997"}) << names({"2", "1", "0", "-1", "-1"}) << ReplyStyle::Remaining;
    QTest::newRow("{remaining, limit}, -1 when refused")
        << names({"{999999, 1000000}", "{999998, 1000000}"}) << names({"{2, 3}", "{1, 3}", "{0, 3}", "{-1, 3}"})
        << ReplyStyle::Remaining;
    QTest::newRow("tri-state 0/1/2: 2 is admitted, the limit now used up")
        << names({"1", "1", "1"}) << names({"1", "1", "2", "0", "0"}) << ReplyStyle::Admitted;
    QTest::newRow("a count stays a count")
        << names({"1", "2", "3"}) << names({"1", "2", "3", "4"}) << ReplyStyle::CountWithCall;
}

void TestProbeReplies::learnsReplyConventionsFromItsOwnCalls()
{
    QFETCH(QStringList, unlimited);
    QFETCH(QStringList, limited);
    QFETCH(ReplyStyle, style);
    // Real replies: each value goes through Redis's own Lua-to-reply conversion.
    auto read = [this](const QStringList& values) {
        QVector<ReplyReading> readings;
        for (const QString& value : values)
            readings << ReplyReading::read(m_connection.command({"EVAL", "return " + value.toUtf8(), "0"}));
        return readings;
    };
    QString why;
    const ReplyStyle learned = learnReplyStyle({read(unlimited)}, {LimitedReplies {3, read(limited)}}, &why);
    QCOMPARE(learned, style);
    QCOMPARE(why.isEmpty(), style != ReplyStyle::Unknown);
    if (style == ReplyStyle::Unknown)
        QVERIFY2(why.contains(QLatin1String("--reply")), qPrintable(why));
    // Read that way, the calls under the limit admit exactly the first three.
    if (style != ReplyStyle::Unknown && style != ReplyStyle::CountWithCall) {
        const AdmissionCount count = countAdmissions(style, read(limited), 3, true);
        QCOMPARE(count.admitted, 3);
        QCOMPARE(count.unclear, 0);
    }
}

void TestProbeReplies::readsTheReplyOption_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<ReplyStyle>("style"); // Unknown: refused
    QTest::newRow("count") << "count" << ReplyStyle::CountWithCall;
    QTest::newRow("count-before") << "count-before" << ReplyStyle::CountBeforeCall;
    QTest::newRow("allowed=1") << "allowed=1" << ReplyStyle::Admitted;
    QTest::newRow("allowed=true") << "allowed=true" << ReplyStyle::Admitted;
    QTest::newRow("allowed=0") << "allowed=0" << ReplyStyle::Limited;
    QTest::newRow("limited=true") << "Limited=True" << ReplyStyle::Limited;
    QTest::newRow("allowed=nil") << "allowed=nil" << ReplyStyle::NilAdmitted;
    QTest::newRow("a name the JSON uses") << "nil-admitted" << ReplyStyle::NilAdmitted;
    QTest::newRow("nonsense") << "allowed=maybe" << ReplyStyle::Unknown;
}

void TestProbeReplies::readsTheReplyOption()
{
    QFETCH(QString, text);
    QFETCH(ReplyStyle, style);
    ReplyStyle parsed = ReplyStyle::Unknown;
    QCOMPARE(parseReplyStyle(text, &parsed), style != ReplyStyle::Unknown);
    if (style != ReplyStyle::Unknown) {
        QCOMPARE(parsed, style);
        ReplyStyle again = ReplyStyle::Unknown;
        QVERIFY(parseReplyStyle(replyStyleName(parsed), &again));
        QCOMPARE(again, parsed);
    }
}

void TestProbeReplies::readsRepliesAsScriptsMeanThem_data()
{
    QTest::addColumn<QByteArray>("lua");
    QTest::addColumn<bool>("readable");
    QTest::addColumn<qint64>("value");
    QTest::addColumn<qint64>("added");
    QTest::newRow("a count") << QByteArray("return 7") << true << 7LL << -1LL;
    QTest::newRow("true") << QByteArray("return true") << true << 1LL << -1LL;
    QTest::newRow("false arrives as nil") << QByteArray("return false") << true << 0LL << -1LL;
    QTest::newRow("\"true\"") << QByteArray("return 'true'") << true << 1LL << -1LL;
    QTest::newRow("\"false\"") << QByteArray("return 'false'") << true << 0LL << -1LL;
    QTest::newRow("a count as text") << QByteArray("return '12'") << true << 12LL << -1LL;
    QTest::newRow("{count, added, member}") << QByteArray("return {3, 0, 'm'}") << true << 3LL << 0LL;
    QTest::newRow("{allowed, remaining}") << QByteArray("return {1, 4}") << true << 1LL << -1LL;
    QTest::newRow("a status OK") << QByteArray("return redis.status_reply('OK')") << true << 1LL << -1LL;
    QTest::newRow("a word it does not know") << QByteArray("return 'hello'") << false << 0LL << -1LL;
    QTest::newRow("a fraction is no count") << QByteArray("return '2.5'") << false << 2LL << -1LL;
    QTest::newRow("an empty array") << QByteArray("return {}") << false << 0LL << -1LL;
}

void TestProbeReplies::readsRepliesAsScriptsMeanThem()
{
    QFETCH(QByteArray, lua);
    QFETCH(bool, readable);
    QFETCH(qint64, value);
    QFETCH(qint64, added);
    const ReplyReading reading = ReplyReading::read(m_connection.command({"EVAL", lua, "0"}));
    QCOMPARE(reading.readable, readable);
    if (readable)
        QCOMPARE(reading.value, value);
    QCOMPARE(reading.added, added);
}

void TestProbeReplies::learnsTheReplyStyle_data()
{
    QTest::addColumn<QVector<qint64>>("replies");
    QTest::addColumn<ReplyStyle>("style");
    QTest::newRow("1, 2, 3: a count with the call") << QVector<qint64> {1, 2, 3, 4} << ReplyStyle::CountWithCall;
    QTest::newRow("0, 1, 2: the count before it") << QVector<qint64> {0, 1, 2, 3} << ReplyStyle::CountBeforeCall;
    QTest::newRow("a count that stalls on overwrites") << QVector<qint64> {1, 1, 2, 2} << ReplyStyle::CountWithCall;
    QTest::newRow("all 1: admitted") << QVector<qint64> {1, 1, 1, 1} << ReplyStyle::Admitted;
    QTest::newRow("all 0 without a limit") << QVector<qint64> {0, 0, 0} << ReplyStyle::Unknown;
    // Issue 33: without a limit, what is left of the limit counts down by one per call.
    QTest::newRow("counting down: what is left") << QVector<qint64> {9, 8, 7} << ReplyStyle::Remaining;
    QTest::newRow("counting down to nothing") << QVector<qint64> {2, 1, 0} << ReplyStyle::Unknown;
    QTest::newRow("jumps") << QVector<qint64> {1, 5, 9} << ReplyStyle::Unknown;
    // Calls spread over a fixed window's end: the next window starts the count again.
    QTest::newRow("a count that starts again in the next window")
        << QVector<qint64> {1, 2, 3, 1, 2} << ReplyStyle::CountWithCall;
    QTest::newRow("what is left, full again in the next window")
        << QVector<qint64> {9, 8, 7, 9, 8} << ReplyStyle::Remaining;
    QTest::newRow("up and down") << QVector<qint64> {1, 2, 1, 0} << ReplyStyle::Unknown;
}

void TestProbeReplies::learnsTheReplyStyle()
{
    QFETCH(QVector<qint64>, replies);
    QFETCH(ReplyStyle, style);
    QVector<ReplyReading> readings;
    for (const qint64 value : replies) {
        ReplyReading reading;
        reading.readable = true;
        reading.value = value;
        readings << reading;
    }
    QString why;
    QCOMPARE(inferReplyStyle(readings, &why), style);
    QCOMPARE(why.isEmpty(), style != ReplyStyle::Unknown);
}

void TestProbeReplies::countsAdmissionsWithoutGuessing_data()
{
    QTest::addColumn<ReplyStyle>("style");
    QTest::addColumn<QVector<qint64>>("replies");
    QTest::addColumn<bool>("scriptReadsLimit");
    QTest::addColumn<int>("admitted");
    QTest::addColumn<int>("unclear");
    // limit 3 throughout
    QTest::newRow("caller compares a growing count")
        << ReplyStyle::CountWithCall << QVector<qint64> {1, 2, 3, 4, 5} << false << 3 << 0;
    QTest::newRow("a count stuck at 1 is admitted every time")
        << ReplyStyle::CountWithCall << QVector<qint64> {1, 1, 1, 1, 1} << false << 5 << 0;
    QTest::newRow("a script that stops at the limit: unclear")
        << ReplyStyle::CountWithCall << QVector<qint64> {1, 2, 3, 3, 3} << true << 3 << 2;
    QTest::newRow("the count before the call")
        << ReplyStyle::CountBeforeCall << QVector<qint64> {0, 1, 2, -1, -1} << true << 3 << 0;
    QTest::newRow("0/1 decisions") << ReplyStyle::Admitted << QVector<qint64> {1, 1, 1, 0, 0} << true << 3 << 0;
    QTest::newRow("a decision that is no 0/1") << ReplyStyle::Admitted << QVector<qint64> {1, 7} << true << 1 << 1;
}

void TestProbeReplies::countsAdmissionsWithoutGuessing()
{
    QFETCH(ReplyStyle, style);
    QFETCH(QVector<qint64>, replies);
    QFETCH(bool, scriptReadsLimit);
    QFETCH(int, admitted);
    QFETCH(int, unclear);
    QVector<ReplyReading> readings;
    for (const qint64 value : replies) {
        ReplyReading reading;
        reading.readable = true;
        reading.value = value;
        readings << reading;
    }
    const AdmissionCount count = countAdmissions(style, readings, 3, scriptReadsLimit);
    QCOMPARE(count.admitted, admitted);
    QCOMPARE(count.unclear, unclear);
    QCOMPARE(count.note.isEmpty(), unclear == 0);
}

void TestProbeReplies::saysWhenItCannotReadTheReplies()
{
    const LimiterScript script = LimiterScript::fromSource(QStringLiteral("chatty.lua"),
                                                           "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                                                           "return 'hello'\n");
    const ProbeReport report = probe(script, CallTemplate::zsetlabConvention());
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    QCOMPARE(report.replyStyle, ReplyStyle::Unknown);
    QVERIFY2(report.replyStyleWhy.contains(QLatin1String("hello")), qPrintable(report.replyStyleWhy));
    const ProbeScenario* limited = report.scenario(QStringLiteral("same-now-limit"));
    QCOMPARE(limited->admitted, -1);
    QVERIFY(!limited->problem);
    QCOMPARE(report.scenario(QStringLiteral("same-now"))->stored, 20); // the sorted set still speaks
    const QString verdict = report.verdict.join(QLatin1Char('\n'));
    QVERIFY2(verdict.contains(QLatin1String("cannot read the replies")), qPrintable(verdict));
    QVERIFY2(verdict.contains(QLatin1String("do not say how many were admitted")), qPrintable(verdict));
}

// ReplyDecision on replies Redis made: Lua values EVAL returns, under limit 3.
void TestProbeReplies::learnsTheDecidingElementFromRepliesAlone_data()
{
    QTest::addColumn<QStringList>("limited"); // Lua values the calls replied, with limit 3
    QTest::addColumn<int>("element"); // 1-based; 0: none learned
    QTest::addColumn<ReplyClass>("admitted");
    QTest::newRow("{\"true\", wait}") << names(
        {"{'true', 0}", "{'true', 0}", "{'true', 0}", "{'true', 250}", "{'true', 500}"})
                                      << 2 << ReplyClass::Zero;
    QTest::newRow("a count, then {count, wait}")
        << names({"1", "2", "3", "{3, 900}", "{3, 800}"}) << 2 << ReplyClass::Absent;
    QTest::newRow("a slot's name or nil") << names({"'s1'", "'s2'", "'s3'", "false", "false"}) << 1 << ReplyClass::Text;
    QTest::newRow("a level that stops at the size, then a wait")
        << names({"{3, '0.1', 7, '1', 0}", "{3, '0.1', 7, '2', 0}", "{3, '0.1', 7, '3', 0}", "{3, '0.1', 7, '3', 40}"})
        << 5 << ReplyClass::Zero;
    QTest::newRow("what is left, counting down: no single element")
        << names({"{2}", "{1}", "{0}", "{-1}"}) << 0 << ReplyClass::Absent;
    QTest::newRow("nothing ever refused: nothing learned")
        << names({"1", "1", "1", "1", "1"}) << 0 << ReplyClass::Absent;
}

void TestProbeReplies::learnsTheDecidingElementFromRepliesAlone()
{
    QFETCH(QStringList, limited);
    QFETCH(int, element);
    QFETCH(ReplyClass, admitted);
    QVector<ReplyReading> readings;
    for (const QString& value : limited)
        readings << ReplyReading::read(m_connection.command({"EVAL", "return " + value.toUtf8(), "0"}));
    const ReplyDecision decision = learnReplyDecision({{3, readings}});
    QCOMPARE(decision.element + 1, element);
    if (element == 0)
        return;
    QCOMPARE(decision.admitted, admitted);
    const AdmissionCount count = countAdmissions(decision, readings);
    QCOMPARE(count.admitted, 3);
    QCOMPARE(count.refused, int(limited.size()) - 3);
    QVERIFY(!decision.describe().isEmpty());
}

void TestProbeReplies::learnsWhichElementDecides_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("args");
    QTest::addColumn<int>("element"); // 1-based, as --reply @N counts
    QTest::addColumn<ReplyClass>("admitted");
    QTest::addColumn<ReplyStyle>("firstElementStyle"); // the style read from the first element alone
    QTest::addColumn<int>("firstElementAdmits"); // what that style counts in same-now-limit (-1: unread)
    QTest::newRow("{\"true\", wait}: a wait of 0 admits")
        << "reply-true-and-wait.lua"
        << "{now} {window} {limit}" << 2 << ReplyClass::Zero << ReplyStyle::Admitted << 20;
    QTest::newRow("a count, or {count, wait} when refused")
        << "reply-count-then-wait.lua" << defaultArgs << 2 << ReplyClass::Absent << ReplyStyle::CountWithCall << 5;
    QTest::newRow("a leaky bucket's {size, rate, last, level, wait}")
        << "reply-leaky-bucket-state.lua"
        << "{now} {window} {limit}" << 5 << ReplyClass::Zero << ReplyStyle::CountWithCall << 0;
    QTest::newRow("a slot's name or nil")
        << "reply-slot-or-nil.lua"
        << "{limit} {window} {uuid}" << 1 << ReplyClass::Text << ReplyStyle::Unknown << -1;
}

void TestProbeReplies::learnsWhichElementDecides()
{
    QFETCH(QString, file);
    QFETCH(QString, args);
    QFETCH(int, element);
    QFETCH(ReplyClass, admitted);
    QFETCH(ReplyStyle, firstElementStyle);
    QFETCH(int, firstElementAdmits);
    const LimiterScript script = corpusScript(file);
    const ProbeReport report = probe(script, callWith(args));
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    const QString verdict = report.verdict.join(QLatin1Char('\n'));
    QVERIFY2(report.decision.isKnown(), qPrintable(verdict));
    QCOMPARE(report.decision.element + 1, element);
    QCOMPARE(report.decision.admitted, admitted);
    QVERIFY(report.admissionsRead);
    for (const ProbeScenario& s : report.scenarios) {
        if (s.limit > 0 && s.kind != ProbeScenario::Kind::Refill)
            QVERIFY2(s.admitted == s.expectedAdmitted && s.unclear == 0,
                     qPrintable(s.name + QLatin1Char('\n') + verdict));
    }
    QVERIFY2(report.countsRight, qPrintable(verdict));
    QVERIFY2(verdict.contains(QStringLiteral("element %1 of the reply").arg(element))
                 || (element == 1 && verdict.contains(QLatin1String("the reply itself"))),
             qPrintable(verdict));
    // Read from the first element, the same calls say something else: the reading this replaces.
    if (firstElementStyle == ReplyStyle::Unknown)
        return;
    ProbeSettings first;
    first.replyStyle = firstElementStyle;
    const ProbeReport old = probe(script, callWith(args), first);
    const ProbeScenario* burst = old.scenario(report.clockControlled ? QStringLiteral("same-now-limit")
                                                                     : QStringLiteral("back-to-back-limit"));
    QVERIFY(burst);
    QVERIFY2(burst->admitted != 5 || burst->unclear > 0, qPrintable(old.verdict.join(QLatin1Char('\n'))));
    if (firstElementAdmits >= 0 && burst->unclear == 0)
        QCOMPARE(burst->admitted, firstElementAdmits);
}

void TestProbeReplies::takesTheElementFromReply()
{
    ProbeSettings settings;
    int element = 0;
    QVERIFY(parseReplyStyle(QStringLiteral("limited@2"), &settings.replyStyle, &element));
    settings.replyElement = element;
    const ProbeReport report = probe(corpusScript(QStringLiteral("reply-true-and-wait.lua")),
                                     callWith(QStringLiteral("{now} {window} {limit}")), settings);
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    QVERIFY(report.replyStyleGiven);
    QVERIFY(!report.decision.isKnown());
    QCOMPARE(report.replyElement, 1);
    QCOMPARE(report.scenario(QStringLiteral("same-now-limit"))->admitted, 5);
    QVERIFY2(report.countsRight, qPrintable(report.verdict.join(QLatin1Char('\n'))));
    const QJsonObject json = report.toJson();
    QCOMPARE(json.value(QStringLiteral("reply_element")).toInt(), 2);
}

// A reply that is the same whether the call was admitted or not: no style reads it, no element
// changes. The verdict gives no number of admissions and says what to pass.
void TestProbeReplies::saysWhenTheRepliesDidNotSay()
{
    const LimiterScript script
        = LimiterScript::fromSource(QStringLiteral("queued.lua"),
                                    "local now = tonumber(ARGV[1])\n"
                                    "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ARGV[2])\n"
                                    "if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[3]) then\n"
                                    "  redis.call('ZADD', KEYS[1], now, ARGV[4])\n"
                                    "end\n"
                                    "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
                                    "return 'queued'\n");
    const ProbeReport report = probe(script, callWith(defaultArgs));
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    const QString verdict = report.verdict.join(QLatin1Char('\n'));
    QVERIFY(!report.admissionsRead);
    QVERIFY(!report.decision.isKnown());
    QCOMPARE(report.replyStyle, ReplyStyle::Unknown);
    for (const ProbeScenario& s : report.scenarios) {
        if (s.limit > 0)
            QCOMPARE(s.admitted, -1);
    }
    QVERIFY2(verdict.contains(QLatin1String("the replies did not say which calls were admitted")), qPrintable(verdict));
    QVERIFY2(verdict.contains(QLatin1String("--reply")), qPrintable(verdict));
    QVERIFY2(!verdict.contains(QLatin1String("counted right in every scenario")), qPrintable(verdict));
    QVERIFY2(!verdict.contains(QRegularExpression(QStringLiteral("\\d+ were admitted"))), qPrintable(verdict));
    QVERIFY(!report.countsWrong());
    QVERIFY(report.hasWarnings());
}

// The article's bug with a 1/0 reply: every call admitted, every reply 1. No element changes, so
// none is learned, and the first element's count stands: 20 of 5 admitted.
void TestProbeReplies::aLimiterThatRefusesNothingTeachesNoElement()
{
    const LimiterScript script = LimiterScript::fromSource(
        QStringLiteral("now-now.lua"),
        "local now = tonumber(ARGV[1])\n"
        "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ARGV[2])\n"
        "if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return {0, 'refused'} end\n"
        "redis.call('ZADD', KEYS[1], now, now)\n"
        "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
        "return {1, 'admitted'}\n");
    const ProbeReport report = probe(script, callWith(defaultArgs));
    QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
    QVERIFY(!report.decision.isKnown() || report.decision.element == 0);
    QCOMPARE(report.scenario(QStringLiteral("same-now-limit"))->admitted, 20);
    QVERIFY(report.countsWrong());
}

void TestProbeReplies::theCommandLineTakesAnElement_data()
{
    QTest::addColumn<QString>("reply");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("outputPart");
    QTest::newRow("limited@2: counts right, 0") << "limited@2" << 0 << "element 2 of the reply";
    QTest::newRow("allowed=1, the first element: 20 of 5, 1") << "allowed=1" << 1 << "20 were admitted";
    QTest::newRow("an element 0: usage") << "limited@0" << 2 << "--reply must be one of";
    QTest::newRow("no element after @: usage") << "limited@" << 2 << "@N";
}

void TestProbeReplies::theCommandLineTakesAnElement()
{
    if (qEnvironmentVariableIsEmpty("ZSETLAB_CLI"))
        QSKIP("ZSETLAB_CLI is not set (run through ctest)");
    QFETCH(QString, reply);
    QFETCH(int, exitCode);
    QFETCH(QString, outputPart);
    const CliResult result
        = runCli({QStringLiteral("doctor"), sourcePath(QStringLiteral("tests/doctor-corpus/reply-true-and-wait.lua")),
                  QStringLiteral("--args"), QStringLiteral("{now} {window} {limit}"), QStringLiteral("--live"),
                  QStringLiteral("--redis"), TestRedis::endpoint().displayUrl(), QStringLiteral("--reply"), reply});
    QCOMPARE(result.exitCode, exitCode);
    const QString output = QString::fromUtf8(result.out + result.err).simplified(); // the text wraps lines
    QVERIFY2(output.contains(outputPart), qPrintable(output));
}

QTEST_GUILESS_MAIN(TestProbeReplies)
#include "tst_probereplies.moc"
