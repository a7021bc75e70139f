#include "debugger/ldbtranscript.h"

#include <QtTest>

// Transcripts captured from Redis 7.0.15 (SCRIPT DEBUG YES and SYNC, lua/now.lua and small
// scripts); each string is one status line of an LDB reply.
namespace {
using Lines = QList<QByteArray>;

QVector<LdbLine> parseAll(const Lines& lines)
{
    QVector<LdbLine> parsed;
    for (const QByteArray& line : lines)
        parsed.append(LdbTranscript::parseLine(line));
    return parsed;
}
} // namespace

class TestLdbTranscript : public QObject
{
    Q_OBJECT
private slots:
    void classifiesLines_data();
    void classifiesLines();
    void foldsSteps_data();
    void foldsSteps();
    void readsPrintedLocals();
    void showsRoundedNumbersWhole_data();
    void showsRoundedNumbersWhole();
    void parsesReadableReplies_data();
    void parsesReadableReplies();
    void findsTheErrorLine_data();
    void findsTheErrorLine();
};

void TestLdbTranscript::classifiesLines_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<LdbLine::Kind>("kind");
    QTest::addColumn<int>("number");
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("current");

    using K = LdbLine::Kind;
    QTest::newRow("stop after a step") << QByteArray("* Stopped at 23, stop reason = step over") << K::Stopped << 23
                                       << QByteArray() << QByteArray("step over") << false;
    QTest::newRow("stop at an endless loop")
        << QByteArray("* Stopped at 3, stop reason = timeout reached, infinite loop?") << K::Stopped << 3
        << QByteArray() << QByteArray("timeout reached, infinite loop?") << false;
    QTest::newRow("current line, two digits")
        << QByteArray("-> 23  local added = redis.call('ZADD', key, now, now)") << K::Source << 23 << QByteArray()
        << QByteArray("local added = redis.call('ZADD', key, now, now)") << true;
    QTest::newRow("current line, one digit") << QByteArray("-> 1   local key = KEYS[1]") << K::Source << 1
                                             << QByteArray() << QByteArray("local key = KEYS[1]") << true;
    QTest::newRow("listed line keeps its indentation")
        << QByteArray("   12      return 0") << K::Source << 12 << QByteArray() << QByteArray("    return 0") << false;
    QTest::newRow("current line on a breakpoint")
        << QByteArray("->#7   x = 1") << K::Source << 7 << QByteArray() << QByteArray("x = 1") << true;
    QTest::newRow("line number past 999")
        << QByteArray("   1234 end") << K::Source << 1234 << QByteArray() << QByteArray("end") << false;
    QTest::newRow("empty listed line") << QByteArray("   21  ") << K::Source << 21 << QByteArray() << QByteArray()
                                       << false;
    QTest::newRow("redis.call") << QByteArray("<redis> ZADD zsetlab:x 1710000000000 1710000000000") << K::RedisCall << 0
                                << QByteArray() << QByteArray("ZADD zsetlab:x 1710000000000 1710000000000") << false;
    QTest::newRow("server.call, as Valkey 8 writes it")
        << QByteArray("<command> ZADD zsetlab:x 1710000000000 1710000000000") << K::RedisCall << 0 << QByteArray()
        << QByteArray("ZADD zsetlab:x 1710000000000 1710000000000") << false;
    QTest::newRow("integer reply") << QByteArray("<reply> 0") << K::Reply << 0 << QByteArray() << QByteArray("0")
                                   << false;
    QTest::newRow("error of a call") << QByteArray(
        "<error> -WRONGTYPE Operation against a key holding the wrong kind of value")
                                     << K::Error << 0 << QByteArray()
                                     << QByteArray("-WRONGTYPE Operation against a key holding the wrong kind of value")
                                     << false;
    QTest::newRow("local from print") << QByteArray("<value> now = 1.71e+12") << K::Value << 0 << QByteArray("now")
                                      << QByteArray("1.71e+12") << false;
    QTest::newRow("string local from print") << QByteArray("<value> key = \"zsetlab:x\"") << K::Value << 0
                                             << QByteArray("key") << QByteArray("\"zsetlab:x\"") << false;
    QTest::newRow("print VAR has no name")
        << QByteArray("<value> {}") << K::Value << 0 << QByteArray() << QByteArray("{}") << false;
    QTest::newRow("maxlen answer has no name") << QByteArray("<value> replies are unlimited.") << K::Value << 0
                                               << QByteArray() << QByteArray("replies are unlimited.") << false;
    QTest::newRow("redis.debug") << QByteArray("<debug> line 3: \"n is\", 5, {1; 2}") << K::Debug << 0 << QByteArray()
                                 << QByteArray("line 3: \"n is\", 5, {1; 2}") << false;
    QTest::newRow("end of session") << QByteArray("<endsession>") << K::EndSession << 0 << QByteArray() << QByteArray()
                                    << false;
    QTest::newRow("hint") << QByteArray("<hint> The above reply was trimmed. Use 'maxlen 0' to disable trimming.")
                          << K::Hint << 0 << QByteArray()
                          << QByteArray("The above reply was trimmed. Use 'maxlen 0' to disable trimming.") << false;
    QTest::newRow("plain message") << QByteArray("No local variables in the current context.") << K::Message << 0
                                   << QByteArray() << QByteArray("No local variables in the current context.") << false;
    QTest::newRow("help text is not source")
        << QByteArray("                     line = 0 means: current position.") << K::Message << 0 << QByteArray()
        << QByteArray("                     line = 0 means: current position.") << false;
}

void TestLdbTranscript::classifiesLines()
{
    QFETCH(QByteArray, line);
    const LdbLine parsed = LdbTranscript::parseLine(line);
    QTEST(parsed.kind, "kind");
    QTEST(parsed.number, "number");
    QTEST(parsed.name, "name");
    QTEST(parsed.text, "text");
    QTEST(parsed.current, "current");
}

void TestLdbTranscript::foldsSteps_data()
{
    QTest::addColumn<Lines>("transcript");
    QTest::addColumn<int>("line");
    QTest::addColumn<QString>("lineText");
    QTest::addColumn<bool>("ended");
    QTest::addColumn<QStringList>("commands");
    QTest::addColumn<QStringList>("replies");
    QTest::addColumn<QStringList>("errors");

    QTest::newRow("first stop after EVAL")
        << Lines {"* Stopped at 15, stop reason = step over", "-> 15  local key = KEYS[1]"} << 15
        << QStringLiteral("local key = KEYS[1]") << false << QStringList() << QStringList() << QStringList();
    QTest::newRow("step over ZREMRANGEBYSCORE")
        << Lines {"<redis> ZREMRANGEBYSCORE zsetlab:x 0 1709999999000", "<reply> 0",
                  "* Stopped at 23, stop reason = step over", "-> 23  local added = redis.call('ZADD', key, now, now)"}
        << 23 << QStringLiteral("local added = redis.call('ZADD', key, now, now)") << false
        << QStringList {QStringLiteral("ZREMRANGEBYSCORE zsetlab:x 0 1709999999000")}
        << QStringList {QStringLiteral("0")} << QStringList {QString()};
    QTest::newRow("step over ZADD of a second same-millisecond request")
        << Lines {"<redis> ZADD zsetlab:x 1710000000000 1710000000000", "<reply> 0",
                  "* Stopped at 26, stop reason = step over", "-> 26  local count = redis.call('ZCARD', key)"}
        << 26 << QStringLiteral("local count = redis.call('ZCARD', key)") << false
        << QStringList {QStringLiteral("ZADD zsetlab:x 1710000000000 1710000000000")}
        << QStringList {QStringLiteral("0")} << QStringList {QString()};
    QTest::newRow("failing redis.call ends the session")
        << Lines {"<redis> INCR zsetlab:z",
                  "<error> -WRONGTYPE Operation against a key holding the wrong kind of value",
                  "<reply> \"-WRONGTYPE Operation against a key holding the wrong kind of value\"", "<endsession>"}
        << 0 << QString() << true << QStringList {QStringLiteral("INCR zsetlab:z")}
        << QStringList {QStringLiteral("\"-WRONGTYPE Operation against a key holding the wrong kind of value\"")}
        << QStringList {QStringLiteral("-WRONGTYPE Operation against a key holding the wrong kind of value")};
    QTest::newRow("continue to the end") << Lines {"<endsession>"} << 0 << QString() << true << QStringList()
                                         << QStringList() << QStringList();
    QTest::newRow("two calls in one step")
        << Lines {"<redis> ZCARD zsetlab:x",
                  "<reply> 1",
                  "<redis> EXPIRE zsetlab:x 1000",
                  "<reply> 1",
                  "* Stopped at 32, stop reason = step over",
                  "-> 32  return {count, added, ARGV[1]}"}
        << 32 << QStringLiteral("return {count, added, ARGV[1]}") << false
        << QStringList {QStringLiteral("ZCARD zsetlab:x"), QStringLiteral("EXPIRE zsetlab:x 1000")}
        << QStringList {QStringLiteral("1"), QStringLiteral("1")} << QStringList {QString(), QString()};
}

void TestLdbTranscript::foldsSteps()
{
    QFETCH(Lines, transcript);
    const DebugStep step = LdbTranscript::toStep(parseAll(transcript));
    QTEST(step.line, "line");
    QTEST(step.lineText, "lineText");
    QTEST(step.ended, "ended");
    QStringList commands, replies, errors;
    for (const DebugCall& call : step.calls) {
        commands << call.command;
        replies << call.reply;
        errors << call.error;
    }
    QTEST(commands, "commands");
    QTEST(replies, "replies");
    QTEST(errors, "errors");
}

void TestLdbTranscript::readsPrintedLocals()
{
    DebugStep step;
    LdbTranscript::addLocals(&step,
                             parseAll({"<value> key = \"zsetlab:x\"", "<value> now = 1.71e+12", "<value> window = 1000",
                                       "<value> added = 0", "<value> t = {[\"a\"]=1; [\"b\"]=\"x\\n\"}"}));
    QCOMPARE(step.locals.size(), 5);
    QCOMPARE(step.locals.at(1).name, QStringLiteral("now"));
    QCOMPARE(step.locals.at(1).value, QStringLiteral("1.71e+12")); // LDB prints numbers with %g
    QCOMPARE(step.locals.at(3).name, QStringLiteral("added"));
    QCOMPARE(step.locals.at(3).value, QStringLiteral("0"));
    QCOMPARE(step.locals.at(4).value, QStringLiteral("{[\"a\"]=1; [\"b\"]=\"x\\n\"}"));

    DebugStep empty;
    LdbTranscript::addLocals(&empty, parseAll({"No local variables in the current context."}));
    QVERIFY(empty.locals.isEmpty());
}

void TestLdbTranscript::parsesReadableReplies_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<bool>("complete");
    QTest::addColumn<Lines>("values");

    QTest::newRow("integer") << QByteArray("0") << true << true << Lines {"0"};
    QTest::newRow("empty ZRANGE") << QByteArray("[]") << true << true << Lines {};
    QTest::newRow("ZRANGE WITHSCORES") << QByteArray("[\"1710000000000\",\"1710000000000\",\"b\",\"1710000000001\"]")
                                       << true << true
                                       << Lines {"1710000000000", "1710000000000", "b", "1710000000001"};
    QTest::newRow("escapes") << QByteArray("\"a\\\"b\\n\\x01c\\\\\"") << true << true
                             << Lines {"a\"b\n\x01"
                                       "c\\"};
    QTest::newRow("UTF-8 comes as hex") << QByteArray("[\"\\xc3\\xa9\",\"1\"]") << true << true
                                        << Lines {"\xc3\xa9", "1"};
    QTest::newRow("status") << QByteArray("\"+OK\"") << true << true << Lines {"+OK"};
    QTest::newRow("nil") << QByteArray("NULL") << true << true << Lines {QByteArray()};
    QTest::newRow("nested arrays are flattened")
        << QByteArray("[1,[\"a\",NULL],-2]") << true << true << Lines {"1", "a", QByteArray(), "-2"};
    QTest::newRow("trimmed inside a string")
        << QByteArray("[\"m1\",\"1\",\"m2\",\"2\",\"m3 ...") << true << false << Lines {"m1", "1", "m2", "2"};
    QTest::newRow("trimmed after a value") << QByteArray("[\"m1\",\"1\" ...") << true << false << Lines {"m1", "1"};
    QTest::newRow("unterminated without trimming") << QByteArray("[\"m1\",\"1\"") << false << true << Lines {"m1", "1"};
    QTest::newRow("garbage") << QByteArray("what") << false << true << Lines {};
}

void TestLdbTranscript::parsesReadableReplies()
{
    QFETCH(QByteArray, text);
    QList<QByteArray> values;
    bool complete = true;
    QTEST(LdbTranscript::parseReadableValue(text, &values, &complete), "ok");
    QTEST(complete, "complete");
    QTEST(values, "values");
}

void TestLdbTranscript::findsTheErrorLine_data()
{
    QTest::addColumn<QString>("error");
    QTest::addColumn<int>("line");

    QTest::newRow("Lua runtime error, Redis 7")
        << QStringLiteral("ERR user_script:3: attempt to perform arithmetic on a nil value script: "
                          "54aad53308eb1a378f7e3999e9c0d4539f533262, on @user_script:3.")
        << 3;
    QTest::newRow("error from redis.call, Redis 7")
        << QStringLiteral("WRONGTYPE Operation against a key holding the wrong kind of value script: "
                          "5b089f85e2f8577ab7cc2ce9fcb4475c9daaa029, on @user_script:4.")
        << 4;
    QTest::newRow("abort") << QStringLiteral("ERR script aborted for user request script: "
                                             "6210cda9b5fe228f062b630a5dc88f86d3cdad57, on @user_script:23.")
                           << 23;
    QTest::newRow("Redis 6.2 wording") << QStringLiteral("ERR Error running script (call to f_0123): @user_script:7: "
                                                         "user_script:7: attempt to call a nil value")
                                       << 7;
    QTest::newRow("no line named") << QStringLiteral("ERR max client buffer reached") << 0;
}

void TestLdbTranscript::findsTheErrorLine()
{
    QFETCH(QString, error);
    QTEST(LdbTranscript::errorLine(error), "line");
}

void TestLdbTranscript::showsRoundedNumbersWhole_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("printed");
    QTest::addColumn<QString>("shown");
    // LDB's %g text of each local, and what the debugger view shows.
    QTest::newRow("now = tonumber(ARGV[1])") << "now"
                                             << "1.79611e+12"
                                             << "1796110592123";
    QTest::newRow("oldest = now - window") << "oldest"
                                           << "1.79611e+12"
                                           << "1796110591123";
    QTest::newRow("a small number stays") << "window"
                                          << "1000"
                                          << "1000";
    QTest::newRow("text stays") << "member"
                                << "\"1796110592123\""
                                << "\"1796110592123\"";
    QTest::newRow("not defined from ARGV: marked as rounded")
        << "count"
        << "4.2e+15" << QStringLiteral("≈ 4.2e+15 (the debugger prints 6 digits)");
    QTest::newRow("defined, yet not what LDB printed: not guessed")
        << "limit"
        << "1.5e+12" << QStringLiteral("≈ 1.5e+12 (the debugger prints 6 digits)");
}

void TestLdbTranscript::showsRoundedNumbersWhole()
{
    QFETCH(QString, name);
    QFETCH(QString, printed);
    QFETCH(QString, shown);
    const QList<QByteArray> source {"local key = KEYS[1]",
                                    "local now = tonumber(ARGV[1])",
                                    "local window = tonumber(ARGV[2]) -- in ms",
                                    "local limit = tonumber(ARGV[3])",
                                    "local oldest = now - window",
                                    "local member = ARGV[1]"};
    QVector<DebugVariable> locals {{name, printed, {}}};
    LdbTranscript::exactNumbers(&locals, source, {"1796110592123", "1000", "10", "req-1"});
    QCOMPARE(locals.at(0).value, shown);
}

QTEST_GUILESS_MAIN(TestLdbTranscript)
#include "tst_ldbtranscript.moc"
