#include "doctor/scriptdoctor.h"
#include "limiters/calltemplate.h"
#include "limiters/limitercatalog.h"
#include "limiters/limiterscript.h"
#include "sourcetree.h"

#include <QFile>
#include <QtTest>

namespace {
// "code@line" for every finding, sorted: what the rows below expect.
QStringList found(const ScriptExamination& examination)
{
    QStringList codes;
    for (const ScriptFinding& finding : examination.findings)
        codes << finding.code + QLatin1Char('@') + QString::number(finding.line);
    codes.sort();
    return codes;
}

// Codes only, for snippets whose lines are obvious.
QStringList codes(const ScriptExamination& examination)
{
    QStringList list;
    for (const ScriptFinding& finding : examination.findings)
        list << finding.code;
    list.sort();
    list.removeDuplicates();
    return list;
}

QStringList sorted(QStringList list)
{
    list.sort();
    return list;
}

CallTemplate callWith(const QString& args, const QString& keys = CallTemplate::defaultKeys())
{
    CallTemplate call;
    QString error;
    if (!CallTemplate::parse(keys, args, &call, &error))
        qFatal("bad template in the test: %s", qPrintable(error));
    return call;
}

QByteArray corpusScript(const QString& name)
{
    QFile file(sourcePath(QStringLiteral("tests/doctor-corpus/") + name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing corpus script %s", qPrintable(name));
    return file.readAll();
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

class TestScriptDoctor : public QObject
{
    Q_OBJECT
private slots:
    void builtinStrategies_data();
    void builtinStrategies();
    void corpus_data();
    void corpus();
    void snippets_data();
    void snippets();
    void everyFindingSaysWhatToChange();
    void membersAreJudgedByTheirUniquePart_data();
    void membersAreJudgedByTheirUniquePart();
    void keysOnACluster_data();
    void keysOnACluster();
    void gradesATimeMemberByItsClock_data();
    void gradesATimeMemberByItsClock();
    void compilesWithLua_data();
    void compilesWithLua();
    void namesTheKeysTheScriptDerives();
    void noticesWhoComparesTheLimit_data();
    void noticesWhoComparesTheLimit();
    void suggestsArgumentsFromWhatTheScriptDoes_data();
    void suggestsArgumentsFromWhatTheScriptDoes();
};

void TestScriptDoctor::builtinStrategies_data()
{
    QTest::addColumn<QString>("strategy");
    QTest::addColumn<QString>("keys"); // empty: the keys zsetlab passes (LimiterEntry::callTemplate)
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("now: member is the timestamp, EXPIRE in ms")
        << QStringLiteral("now") << QString() << names({"expire-in-ms@30", "member-is-time@23"});
    QTest::newRow("random: repeats before Redis 7, EXPIRE in ms")
        << QStringLiteral("random") << QString() << names({"expire-in-ms@31", "member-random-pre7@25"});
    QTest::newRow("request-id: clean") << QStringLiteral("request-id") << QString() << QStringList();
    // zsetlab passes the counter the script builds as KEYS[2] as well.
    QTest::newRow("sequence, called as zsetlab calls it: clean")
        << QStringLiteral("sequence") << QString() << QStringList();
    QTest::newRow("sequence, called with KEYS[1] only: its counter is undeclared")
        << QStringLiteral("sequence") << QStringLiteral("{key}") << names({"undeclared-key@24"});
    QTest::newRow("fixed window, called as zsetlab calls it: clean")
        << QStringLiteral("fixed-window") << QString() << QStringList();
}

void TestScriptDoctor::builtinStrategies()
{
    QFETCH(QString, strategy);
    QFETCH(QString, keys);
    QFETCH(QStringList, expected);
    const LimiterRef limiter = LimiterCatalog::builtin(strategy);
    const CallTemplate call = keys.isEmpty() ? limiter->callTemplate() : callWith(defaultArgs, keys);
    const ScriptExamination examination = ScriptDoctor::examine(limiter->script.source(), call);
    QCOMPARE(found(examination), expected);
    QCOMPARE(examination.hasProblem(), !expected.isEmpty());
}

void TestScriptDoctor::corpus_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("time and request id in the member: the lossy time is a note")
        << "member-time-and-request-id.lua"
        << "{now_us} 60000000 {limit} {uuid}" << names({"lossy-time@22"});
    QTest::newRow("check then add with ZCOUNT, member = now")
        << "check-then-add-zcount.lua"
        << "{now} {window} {limit}" << names({"member-is-time@24"});
    QTest::newRow("seconds timestamps, EXPIRE in seconds is right")
        << "seconds-timestamps.lua"
        << "{now_s} {window_s} {limit}" << names({"member-is-time@22"});
    QTest::newRow("caller-supplied id: clean") << "caller-supplied-id.lua" << defaultArgs << QStringList();
    QTest::newRow("microsecond concatenation") << "microsecond-concat.lua"
                                               << "{now_us} {window}" << names({"lossy-time@19", "member-is-time@20"});
    QTest::newRow("EXPIRE with milliseconds") << "expire-milliseconds.lua"
                                              << "{now} {window} {uuid}" << names({"expire-in-ms@21"});
    QTest::newRow("upper case, double quotes, ARGV as strings")
        << "uppercase-double-quotes.lua" << defaultArgs << names({"member-is-time@12"});
    QTest::newRow("lower case, single quotes, tostring member")
        << "lowercase-single-quotes.lua"
        << "{now} {window} {limit}" << names({"member-is-time@16"});
    QTest::newRow("math.randomseed(now)") << "random-reseeded.lua"
                                          << "{now} {window} {limit}" << names({"member-random-reseeded@26"});
    QTest::newRow("counts before trimming")
        << "count-before-trim.lua" << defaultArgs << names({"count-before-trim@18"});
    QTest::newRow("server TIME in ms") << "server-time-ms.lua"
                                       << "{window}" << names({"member-is-time@20", "write-after-time@19"});
    QTest::newRow("window first, caller sequence: clean") << "window-first-sequence.lua"
                                                          << "{window} {limit} {now} {seq}" << QStringList();
    QTest::newRow("window first, called in the default order")
        << "window-first-sequence.lua" << defaultArgs
        << names({"template-mismatch@14", "template-mismatch@15", "template-mismatch@16"});
    QTest::newRow("PEXPIRE with seconds") << "pexpire-seconds.lua"
                                          << "{now_s} {window_s} {uuid}" << names({"pexpire-in-seconds@18"});
    // Issue 17: real-world shapes, and no false alarms.
    QTest::newRow("a fixed key beside the window")
        << "foreign-fixed-key.lua" << defaultArgs << names({"foreign-key@25"});
    QTest::newRow("a prefix in front of the key, no expiry")
        << "foreign-prefix-key.lua" << defaultArgs
        << names({"foreign-key@19", "foreign-key@20", "foreign-key@21", "no-expiry@21"});
    QTest::newRow("a loop waiting for a slot: nothing to read") << "runaway-wait.lua" << defaultArgs << QStringList();
    QTest::newRow("a loop after a write: nothing to read") << "runaway-after-write.lua" << defaultArgs << QStringList();
    QTest::newRow("\"true\" when limited, given the window's start")
        << "reply-limited-strings.lua"
        << "{now} {now-window} {limit} {uuid}" << QStringList();
    QTest::newRow("the window's start given as the window")
        << "reply-limited-strings.lua" << defaultArgs << names({"template-mismatch@16"});
    QTest::newRow("nil when admitted: clean") << "reply-nil-admitted.lua" << defaultArgs << QStringList();
    QTest::newRow("{allowed, remaining}: clean") << "reply-allowed-remaining.lua" << defaultArgs << QStringList();
    QTest::newRow("server microseconds: a note") << "server-time-microseconds.lua"
                                                 << "{window}" << names({"member-is-time@22", "write-after-time@21"});
    QTest::newRow("a window in seconds named like a time: clean")
        << "window-seconds-named-time.lua"
        << "{limit} {window_s} {now_s} {uuid}" << QStringList();
    QTest::newRow("a syntax error") << "syntax-error.lua" << defaultArgs << names({"syntax-error@20"});
    QTest::newRow("escape sequences in the member")
        << "ansi-escapes.lua" << defaultArgs << names({"member-is-constant@19"});
    QTest::newRow("a counter named from KEYS[1], not passed")
        << "built-companion-key.lua" << defaultArgs << names({"undeclared-key@27"});
}

void TestScriptDoctor::corpus()
{
    QFETCH(QString, file);
    QFETCH(QString, args);
    QFETCH(QStringList, expected);
    const ScriptExamination examination = ScriptDoctor::examine(corpusScript(file), callWith(args));
    QCOMPARE(found(examination), sorted(expected));
    QCOMPARE(examination.compiles, !expected.contains(QLatin1String("syntax-error@20")));
    // A note alone is no problem: server microseconds are unique on one server.
    const bool onlyNotes
        = std::all_of(examination.findings.begin(), examination.findings.end(),
                      [](const ScriptFinding& f) { return f.severity == ScriptFinding::Severity::Info; });
    QCOMPARE(examination.hasProblem(), !onlyNotes);
}

void TestScriptDoctor::snippets_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QStringList>("expected");
    const QByteArray trim = "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])\n";
    const QByteArray expire = "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n";
    auto script = [&](const QByteArray& body) -> QByteArray { return trim + body + '\n' + expire; };

    QTest::newRow("member from string.format('%d')")
        << script("local now = tonumber(ARGV[1])\n"
                  "redis.call('ZADD', KEYS[1], now, string.format('%d', now))")
        << defaultArgs << names({"member-is-time"});
    QTest::newRow("member from the key and the time")
        << script("redis.call('ZADD', KEYS[1], ARGV[1], KEYS[1] .. ':' .. ARGV[1])") << defaultArgs
        << names({"member-is-time"});
    QTest::newRow("redis.pcall, lower case, NX option")
        << script("redis.pcall('zadd', KEYS[1], 'NX', ARGV[1], ARGV[1])") << defaultArgs << names({"member-is-time"});
    QTest::newRow("redis.call under another name")
        << script("local call = redis.call\ncall('ZADD', KEYS[1], ARGV[1], ARGV[1])") << defaultArgs
        << names({"member-is-time"});
    QTest::newRow("inside a local function")
        << script("local function remember(k, t, m)\n  return redis.call('ZADD', k, t, m)\nend\n"
                  "remember(KEYS[1], tonumber(ARGV[1]), ARGV[1])")
        << defaultArgs << names({"member-is-time"});
    QTest::newRow("local function given the request id")
        << script("local function remember(k, t, m)\n  return redis.call('ZADD', k, t, m)\nend\n"
                  "remember(KEYS[1], tonumber(ARGV[1]), ARGV[4])")
        << defaultArgs << QStringList();
    QTest::newRow("member from INCR of a key not passed")
        << script("redis.call('ZADD', KEYS[1], ARGV[1], redis.call('INCR', KEYS[1] .. ':seq'))") << defaultArgs
        << names({"undeclared-key"});
    QTest::newRow("ms timestamp and id concatenated: exact and unique")
        << script("local now = tonumber(ARGV[1])\nredis.call('ZADD', KEYS[1], now, now .. '-' .. ARGV[4])")
        << defaultArgs << QStringList();
    // Issue #44: PFDEBUG's key is its second argument; its subcommand was named as the key.
    QTest::newRow("PFDEBUG on the key it was given")
        << script("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\nredis.call('PFDEBUG', 'TODENSE', KEYS[1])")
        << defaultArgs << QStringList();
    QTest::newRow("the same literal member")
        << script("redis.call('ZADD', KEYS[1], ARGV[1], 'request')") << defaultArgs << names({"member-is-constant"});
    QTest::newRow("a literal id in the call template")
        << script("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])") << "{now} {window} {limit} fixed-id"
        << names({"member-is-constant"});
    QTest::newRow("an id built in the call template") << script("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])")
                                                      << "{now} {window} {limit} req-{seq}" << QStringList();
    QTest::newRow("math.random after replicate_commands")
        << script("redis.replicate_commands()\nredis.call('ZADD', KEYS[1], ARGV[1], ARGV[1] .. math.random())")
        << defaultArgs << QStringList();
    QTest::newRow("math.random alone") << script("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1] .. math.random())")
                                       << defaultArgs << names({"member-random-pre7"});
    QTest::newRow("math.randomseed beside a unique member")
        << script("math.randomseed(42)\nredis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])") << defaultArgs
        << names({"randomseed"});
    QTest::newRow("TIME in microseconds concatenated")
        << QByteArray("local t = redis.call('TIME')\nlocal now = t[1] * 1000000 + t[2]\n"
                      "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - ARGV[1] * 1000)\n"
                      "redis.call('ZADD', KEYS[1], now, now .. '')\nredis.call('PEXPIRE', KEYS[1], ARGV[1])")
        << "{window}" << names({"lossy-time", "member-is-time", "write-after-time"});
    QTest::newRow("TIME parts joined as text: exact, still the time")
        << QByteArray("local t = redis.call('TIME')\nredis.call('ZREMRANGEBYSCORE', KEYS[1], 0, t[1] - ARGV[1])\n"
                      "redis.call('ZADD', KEYS[1], t[1], t[1] .. t[2])\nredis.call('EXPIRE', KEYS[1], ARGV[1])")
        << "{window_s}" << names({"member-is-time", "write-after-time"});
    QTest::newRow("microseconds into a log line only")
        << QByteArray("local now = tonumber(ARGV[1])\n"
                      "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - ARGV[2] * 1000)\n"
                      "redis.log(redis.LOG_NOTICE, 'at ' .. now)\n"
                      "redis.call('ZADD', KEYS[1], now, ARGV[4])\n"
                      + expire)
        << "{now_us} {window} {limit} {uuid}" << names({"lossy-time"});
    QTest::newRow("EXPIRE with the window in seconds is right")
        << QByteArray("local window = tonumber(ARGV[2])\n" + trim
                      + "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                        "redis.call('EXPIRE', KEYS[1], math.ceil(window / 1000))")
        << defaultArgs << QStringList();
    QTest::newRow("EXPIREAT with a time in ms") << QByteArray(trim
                                                              + "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                                                                "redis.call('EXPIREAT', KEYS[1], ARGV[1] + ARGV[2])")
                                                << defaultArgs << names({"expire-in-ms"});
    QTest::newRow("PEXPIREAT with a time in seconds")
        << QByteArray(trim
                      + "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                        "redis.call('PEXPIREAT', KEYS[1], ARGV[1] + ARGV[2])")
        << "{now_s} {window_s} {limit} {uuid}" << names({"pexpire-in-seconds"});
    QTest::newRow("seconds minus milliseconds") << script("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])")
                                                << "{now_s} {window} {limit} {uuid}" << names({"unit-mismatch"});
    QTest::newRow("scores in seconds, bound in ms")
        << QByteArray("redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[2] - ARGV[3])\n"
                      "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                      "redis.call('PEXPIRE', KEYS[1], ARGV[3])")
        << "{now_s} {now} {window} {uuid}" << names({"unit-mismatch"});
    QTest::newRow("never trims") << QByteArray("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                                               "local n = redis.call('ZCARD', KEYS[1])\n"
                                               + expire + "return n")
                                 << defaultArgs << names({"never-trims"});
    QTest::newRow("ZCOUNT over every score is ZCARD")
        << QByteArray("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                      "local n = redis.call('ZCOUNT', KEYS[1], '-inf', '+inf')\n"
                      + expire + "return n")
        << defaultArgs << names({"never-trims"});
    QTest::newRow("ZCOUNT of the window needs no trim")
        << QByteArray("local n = redis.call('ZCOUNT', KEYS[1], ARGV[1] - ARGV[2], '+inf')\n"
                      "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                      + expire + "return n")
        << defaultArgs << QStringList();
    QTest::newRow("expiry before ZADD") << QByteArray(trim + expire + "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])")
                                        << defaultArgs << names({"expire-before-add"});
    QTest::newRow("no expiry") << QByteArray(trim + "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])") << defaultArgs
                               << names({"no-expiry"});
    QTest::newRow("ARGV beyond the call template")
        << script("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[5])") << defaultArgs << names({"argv-missing"});
    QTest::newRow("KEYS beyond the call template")
        << script("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\nredis.call('INCR', KEYS[2])") << defaultArgs
        << names({"keys-missing"});
    const QByteArray add("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n");
    QTest::newRow("a fixed key name") << script(QByteArray(add) + "redis.call('SET', 'victim', 'x')") << defaultArgs
                                      << names({"foreign-key"});
    QTest::newRow("a prefix in front of KEYS[1]")
        << script("local k = 'prefix:' .. KEYS[1]\nredis.call('ZADD', k, ARGV[1], ARGV[4])") << defaultArgs
        << names({"foreign-key", "no-expiry"});
    // Issue 18: named from the caller's key, but not passed: a failure on Redis Cluster.
    QTest::newRow("a suffix after KEYS[1] is a key the caller does not pass")
        << script(QByteArray(add) + "redis.call('INCR', KEYS[1] .. ':seq')\nredis.call('SET', KEYS[1] .. ARGV[4], 1)")
        << defaultArgs << names({"undeclared-key"});
    QTest::newRow("a key from ARGV") << script(QByteArray(add) + "redis.call('INCR', ARGV[4])") << defaultArgs
                                     << names({"foreign-key"});
    QTest::newRow("string.format after the key, and before it")
        << script(QByteArray(add)
                  + "redis.call('INCR', string.format('%s:hits', KEYS[1]))\n"
                    "redis.call('INCR', string.format('rl:%s', KEYS[1]))")
        << defaultArgs << names({"foreign-key", "undeclared-key"});
    QTest::newRow("the whole database") << script(QByteArray(add) + "redis.call('FLUSHDB')") << defaultArgs
                                        << names({"foreign-key"});
    QTest::newRow("a second key among several")
        << script(QByteArray(add) + "redis.call('DEL', KEYS[1] .. ':x', 'global')") << defaultArgs
        << names({"foreign-key", "undeclared-key"});
    QTest::newRow("ZUNIONSTORE with numkeys")
        << script(QByteArray(add) + "redis.call('ZUNIONSTORE', KEYS[1] .. ':u', 2, KEYS[1], 'all')") << defaultArgs
        << names({"foreign-key", "undeclared-key"});
    QTest::newRow("a key the doctor cannot follow is left alone")
        << script(QByteArray(add) + "local t = {}\nredis.call('INCR', t.key)") << defaultArgs << QStringList();
    QTest::newRow("comments and strings are not code")
        << script("--[[ redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1]) ]]\n"
                  "-- redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1])\n"
                  "local doc = [==[ZADD key now now]==]\n"
                  "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])")
        << defaultArgs << QStringList();
    QTest::newRow("three digits of a random number: 1,000 values")
        << QByteArray("redis.replicate_commands()\nredis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])\n"
                      "redis.call('ZADD', KEYS[1], ARGV[1], string.sub(tostring(math.random()), 3, 5))\n"
                      "redis.call('PEXPIRE', KEYS[1], ARGV[2])")
        << "{now} {window}" << names({"member-random-few"});
    QTest::newRow("a random number packed into a 4-byte float")
        << QByteArray("redis.replicate_commands()\nredis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])\n"
                      "redis.call('ZADD', KEYS[1], ARGV[1], struct.pack('f', math.random()))\n"
                      "redis.call('PEXPIRE', KEYS[1], ARGV[2])")
        << "{now} {window}" << names({"member-random-few"});
    QTest::newRow("a random number packed into 8 bytes: no finding")
        << QByteArray("redis.replicate_commands()\nredis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])\n"
                      "redis.call('ZADD', KEYS[1], ARGV[1], struct.pack('d', math.random()))\n"
                      "redis.call('PEXPIRE', KEYS[1], ARGV[2])")
        << "{now} {window}" << QStringList();
    QTest::newRow("a bucket's tokens are its limit, not a request's id")
        << QByteArray("local tokens = tonumber(ARGV[1])\n"
                      "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[2] - 1000)\n"
                      "local count = redis.call('ZCARD', KEYS[1])\nif count >= tokens then return 0 end\n"
                      "redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])\nredis.call('PEXPIRE', KEYS[1], 1000)\nreturn 1")
        << "{limit} {now} {uuid}" << QStringList();
    // Notes for managed services: a script that takes no key in KEYS, a write after TIME.
    // Issue 45: ARGV[1] is {key}, the key KEYS passes too (StackExchange.Redis sends both): declared.
    QTest::newRow("keys taken from ARGV, passed in KEYS as well: clean")
        << QByteArray("redis.call('ZREMRANGEBYSCORE', ARGV[1], 0, ARGV[2] - 1000)\n"
                      "redis.call('ZADD', ARGV[1], ARGV[2], ARGV[3])\nredis.call('PEXPIRE', ARGV[1], 1000)")
        << "{key} {now} {uuid}" << QStringList();
    QTest::newRow("keys taken from ARGV, not passed in KEYS: called without KEYS")
        << QByteArray("redis.call('ZREMRANGEBYSCORE', ARGV[1], 0, ARGV[2] - 1000)\n"
                      "redis.call('ZADD', ARGV[1], ARGV[2], ARGV[3])\nredis.call('PEXPIRE', ARGV[1], 1000)")
        << "{key}:log {now} {uuid}" << names({"foreign-key", "no-keys"});
    QTest::newRow("a key in KEYS: no note")
        << script("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])") << defaultArgs << QStringList();
    QTest::newRow("redis.replicate_commands() before TIME: no note")
        << QByteArray("redis.replicate_commands()\nlocal t = redis.call('TIME')\n"
                      "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, t[1] - 60)\n"
                      "redis.call('ZADD', KEYS[1], t[1], ARGV[1])\nredis.call('EXPIRE', KEYS[1], 60)")
        << "{uuid}" << QStringList();
    QTest::newRow("TIME only read after the writes: no note")
        << QByteArray("redis.call('ZADD', KEYS[1], ARGV[1], ARGV[2])\nredis.call('PEXPIRE', KEYS[1], 1000)\n"
                      "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - 1000)\n"
                      "return redis.call('TIME')")
        << "{now} {uuid}" << QStringList();
    // Lua's own compiler names the error; the doctor still reads the lines after it.
    QTest::newRow("a syntax error, and a finding after it")
        << script("local x = = 3\nredis.call('ZADD', KEYS[1], ARGV[1], ARGV[1])") << defaultArgs
        << names({"member-is-time", "syntax-error"});
}

void TestScriptDoctor::snippets()
{
    QFETCH(QByteArray, source);
    QFETCH(QString, args);
    QFETCH(QStringList, expected);
    QCOMPARE(codes(ScriptDoctor::examine(source, callWith(args))), sorted(expected));
}

// Issue 33: a member is unique when any part of it is unique per request; its time part may then
// be coarse (a note), but it is not the error of a member made of the time alone.
void TestScriptDoctor::membersAreJudgedByTheirUniquePart_data()
{
    QTest::addColumn<QByteArray>("member"); // a Lua expression; now is ARGV[1] as a number
    QTest::addColumn<QString>("keys");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("code"); // the findings on the ZADD's member, sorted, empty for none
    QTest::addColumn<int>("severity"); // ScriptFinding::Severity of each
    const int info = int(ScriptFinding::Severity::Info);
    const int error = int(ScriptFinding::Severity::Error);
    const QString one = QStringLiteral("{key}");
    const QString us = QStringLiteral("{now_us} 60000000 {uuid}");
    QTest::newRow("microseconds through tostring, with the request id")
        << QByteArray("tostring(now) .. '-' .. ARGV[3]") << one << us << "lossy-time" << info;
    QTest::newRow("microseconds through tostring alone")
        << QByteArray("tostring(now)") << one << us << "lossy-time member-is-time" << error;
    QTest::newRow("the request id first, then the time")
        << QByteArray("ARGV[3] .. ':' .. now") << one << us << "lossy-time" << info;
    QTest::newRow("a per-request key as the member") << QByteArray("KEYS[2]") << QStringLiteral("{key} {key}:{uuid}")
                                                     << QStringLiteral("{now} 60000") << QString() << 0;
    QTest::newRow("a per-request sequence in a key") << QByteArray("KEYS[2]") << QStringLiteral("{key} {key}:r{seq}")
                                                     << QStringLiteral("{now} 60000") << QString() << 0;
    QTest::newRow("a fixed second key as the member") << QByteArray("KEYS[2]") << QStringLiteral("{key} {key}:seq")
                                                      << QStringLiteral("{now} 60000") << "member-is-constant" << error;
}

void TestScriptDoctor::membersAreJudgedByTheirUniquePart()
{
    QFETCH(QByteArray, member);
    QFETCH(QString, keys);
    QFETCH(QString, args);
    QFETCH(QString, code);
    QFETCH(int, severity);
    const QByteArray source = "local now = tonumber(ARGV[1])\n"
                              "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - tonumber(ARGV[2]))\n"
                              "redis.call('ZADD', KEYS[1], now, "
        + member
        + ")\n"
          "redis.call('PEXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2]) / 1000))\n";
    const ScriptExamination examination = ScriptDoctor::examine(source, callWith(args, keys));
    QStringList onMember;
    for (const ScriptFinding& finding : examination.findings) {
        if (finding.line != 3)
            continue;
        onMember << finding.code;
        QCOMPARE(int(finding.severity), severity);
    }
    onMember.sort();
    QCOMPARE(onMember.join(QLatin1Char(' ')), code);
}

void TestScriptDoctor::everyFindingSaysWhatToChange()
{
    const QDir corpus(sourcePath(QStringLiteral("tests/doctor-corpus")));
    QVERIFY(corpus.exists());
    const QStringList files = corpus.entryList({QStringLiteral("*.lua")});
    QVERIFY2(files.size() >= 8, "the corpus has 8 to 12 scripts");
    int findings = 0;
    for (const QString& file : files) {
        const ScriptExamination examination
            = ScriptDoctor::examine(corpusScript(file), CallTemplate::zsetlabConvention());
        for (const ScriptFinding& finding : examination.findings) {
            ++findings;
            QVERIFY2(finding.line > 0, qPrintable(file));
            QVERIFY2(!finding.title.isEmpty() && !finding.explanation.isEmpty() && !finding.suggestion.isEmpty(),
                     qPrintable(file + QLatin1Char(':') + finding.code));
            QVERIFY2(!finding.excerpt.isEmpty(), qPrintable(file + QLatin1Char(':') + finding.code));
        }
    }
    QVERIFY(findings > 0);
}

// Issue 18: what fails on Redis Cluster. Every key a script touches must be passed in KEYS, and
// the keys of one call must share a slot; appKey is a key as the application passes it for {key}.
void TestScriptDoctor::keysOnACluster_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("keys");
    QTest::addColumn<QString>("appKey"); // empty: not given
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<QString>("explanationPart"); // in the first expected finding
    QTest::addColumn<QString>("suggestionPart");
    const QByteArray log = "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])\n"
                           "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                           "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n";
    const QByteArray counter = log
        + "local counter = KEYS[1] .. ':seq'\n"
          "redis.call('INCR', counter)\n"
          "redis.call('PEXPIRE', counter, ARGV[2])\n";
    const QByteArray twoKeys = log + "redis.call('INCR', KEYS[2])\nredis.call('PEXPIRE', KEYS[2], ARGV[2])\n";
    const QByteArray sequence = LimiterCatalog::builtin("sequence")->script.source();
    const QString one = QStringLiteral("{key}");
    const QString withCounter = QStringLiteral("{key} {key}:seq");

    QTest::newRow("a key built from KEYS[1] with a suffix")
        << counter << one << QString() << names({"undeclared-key@5"})
        << "\"Script attempted to access a non local key in a cluster node\""
        << "--keys \"{key} {key}:seq\"";
    QTest::newRow("a built key, and the services that refuse it on one server")
        << counter << one << QString() << names({"undeclared-key@5"}) << "Dragonfly by default"
        << "--keys \"{key} {key}:seq\"";
    QTest::newRow("the same: one finding, naming the other lines")
        << counter << one << QString() << names({"undeclared-key@5"}) << "Other lines that touch it: 6."
        << "a hash tag in the caller's key keeps KEYS[1] .. ':seq' in the same slot";
    QTest::newRow("a literal key") << log + "redis.call('GET', 'config')\n"
                                   << one << QString() << names({"foreign-key@4"}) << "the fixed name 'config'"
                                   << "rl:{user42} and rl:{user42}:other";
    QTest::newRow("a literal key, and the services that refuse it on one server")
        << log + "redis.call('GET', 'config')\n"
        << one << QString() << names({"foreign-key@4"}) << "Redis Cloud's clustered databases"
        << "rl:{user42} and rl:{user42}:other";
    QTest::newRow("a key from ARGV") << log + "redis.call('GET', ARGV[4])\n"
                                     << one << QString() << names({"foreign-key@4"})
                                     << "ARGV[4], an argument, not a key"
                                     << "one hash tag";
    QTest::newRow("declared keys only") << twoKeys << withCounter << QString() << QStringList() << QString()
                                        << QString();
    QTest::newRow("sequence.lua: built, and passed as KEYS[2] as well")
        << sequence << withCounter << QString() << QStringList() << QString() << QString();
    QTest::newRow("sequence.lua called with KEYS[1] only")
        << sequence << one << QString() << names({"undeclared-key@24"}) << "Other lines that touch it: 32."
        << "then read KEYS[2] instead of building it";
    QTest::newRow("string.format names the key the call passes")
        << log + "redis.call('INCR', string.format('%s:hits', KEYS[1]))\n"
        << QStringLiteral("{key} {key}:hits") << QString() << QStringList() << QString() << QString();
    QTest::newRow("a built key, the application's key has a hash tag")
        << counter << one << QStringLiteral("rl:{user42}") << names({"undeclared-key@5"})
        << "With the key rl:{user42} it is rl:{user42}:seq: the same hash tag, so the same slot (14710)"
        << "--keys \"{key} {key}:seq\"";
    QTest::newRow("a built key, the application's key has none")
        << counter << one << QStringLiteral("rl:user42") << names({"undeclared-key@5"})
        << "it is rl:user42:seq, in slot 14325, while rl:user42 is in slot 8710"
        << "one hash tag";
    QTest::newRow("two keys in two slots: CROSSSLOT")
        << twoKeys << withCounter << QStringLiteral("rl:user42") << names({"cross-slot@4"})
        << "KEYS[1] = rl:user42 (slot 8710), KEYS[2] = rl:user42:seq (slot 14325)"
        << "a hash tag in the key the application passes is enough";
    QTest::newRow("two keys, one hash tag")
        << twoKeys << withCounter << QStringLiteral("rl:{user42}") << QStringList() << QString() << QString();
    QTest::newRow("sequence.lua's counter passed as KEYS[2], in another slot")
        << sequence << withCounter << QStringLiteral("rl:user42") << names({"cross-slot@24"})
        << "\"CROSSSLOT Keys in request don't hash to the same slot\""
        << "rl:{user42} and rl:{user42}:seq";
    // Redis refuses the call before the script runs, whether the script reads KEYS[2] or not.
    QTest::newRow("a second key passed and never read")
        << log << withCounter << QStringLiteral("rl:user42") << names({"cross-slot@1"}) << "CROSSSLOT"
        << "one hash tag";
    QTest::newRow("one hash tag in the template")
        << twoKeys << QStringLiteral("{key}{{t}} {key}{{t}}:seq") << QStringLiteral("rl:user42") << QStringList()
        << QString() << QString();
    QTest::newRow("two hash tags in the template")
        << twoKeys << QStringLiteral("{key}{{a}} {key}{{b}}") << QStringLiteral("rl:user42") << names({"cross-slot@4"})
        << "KEYS[1] = rl:user42{a}"
        << "one hash tag";
    QTest::newRow("the application key's tag comes first")
        << twoKeys << QStringLiteral("{key}{{a}} {key}{{b}}") << QStringLiteral("rl:{user42}") << QStringList()
        << QString() << QString();
    QTest::newRow("one key: no slots to compare")
        << log << one << QStringLiteral("rl:user42") << QStringList() << QString() << QString();
}

void TestScriptDoctor::keysOnACluster()
{
    QFETCH(QByteArray, source);
    QFETCH(QString, keys);
    QFETCH(QString, appKey);
    QFETCH(QStringList, expected);
    QFETCH(QString, explanationPart);
    QFETCH(QString, suggestionPart);
    const ScriptExamination examination = ScriptDoctor::examine(source, callWith(defaultArgs, keys), appKey.toUtf8());
    QCOMPARE(found(examination), sorted(expected));
    QCOMPARE(examination.hasProblem(), !expected.isEmpty());
    if (expected.isEmpty())
        return;
    const QString code = expected.first().section(QLatin1Char('@'), 0, 0);
    const auto finding = std::find_if(examination.findings.begin(), examination.findings.end(),
                                      [&code](const ScriptFinding& f) { return f.code == code; });
    QCOMPARE(finding->severity, ScriptFinding::Severity::Warning);
    QVERIFY2(finding->explanation.contains(explanationPart), qPrintable(finding->explanation));
    QVERIFY2(finding->suggestion.contains(suggestionPart), qPrintable(finding->suggestion));
}

void TestScriptDoctor::gradesATimeMemberByItsClock_data()
{
    QTest::addColumn<QByteArray>("member"); // Lua for the member; t = redis.call('TIME'), now = ARGV[1]
    QTest::addColumn<QString>("args");
    QTest::addColumn<ScriptFinding::Severity>("severity");
    QTest::addColumn<QString>("explanationPart");
    using S = ScriptFinding::Severity;
    QTest::newRow("the caller's milliseconds: error")
        << QByteArray("now") << "{now} {window}" << S::Error << "same millisecond";
    QTest::newRow("the server's milliseconds: error")
        << QByteArray("t[1] * 1000 + math.floor(t[2] / 1000)") << "{now} {window}" << S::Error << "same millisecond";
    QTest::newRow("the server's microseconds as text: a note")
        << QByteArray("t[1] .. string.format('%06d', t[2])") << "{now} {window}" << S::Info << "clock that steps back";
    QTest::newRow("the server's seconds and microseconds joined: a note")
        << QByteArray("t[1] .. '.' .. t[2]") << "{now} {window}" << S::Info << "never get the same member";
    // Redis writes a number argument of redis.call with every digit; Lua's own .. keeps 14.
    QTest::newRow("the server's milliseconds with the microsecond fraction: a note")
        << QByteArray("t[1] * 1000 + t[2] / 1000") << "{now} {window}" << S::Info << "never get the same member";
    QTest::newRow("the same made text with ..: error, in 100 us steps")
        << QByteArray("(t[1] * 1000 + t[2] / 1000) .. ''") << "{now} {window}" << S::Error << "100-microsecond step";
    QTest::newRow("the caller's microseconds: a warning")
        << QByteArray("ARGV[1]") << "{now_us} {window}" << S::Warning << "Two app servers";
}

void TestScriptDoctor::gradesATimeMemberByItsClock()
{
    QFETCH(QByteArray, member);
    QFETCH(QString, args);
    QFETCH(ScriptFinding::Severity, severity);
    QFETCH(QString, explanationPart);
    const QByteArray source = "local t = redis.call('TIME')\nlocal now = tonumber(ARGV[1])\n"
                              "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - ARGV[2])\n"
                              "redis.call('ZADD', KEYS[1], now, "
        + member + ")\nredis.call('PEXPIRE', KEYS[1], ARGV[2])\n";
    const ScriptExamination examination = ScriptDoctor::examine(source, callWith(args));
    const auto finding = std::find_if(examination.findings.begin(), examination.findings.end(),
                                      [](const ScriptFinding& f) { return f.code == QLatin1String("member-is-time"); });
    QVERIFY2(finding != examination.findings.end(), qPrintable(found(examination).join(QLatin1Char(' '))));
    QCOMPARE(finding->severity, severity);
    QVERIFY2(finding->explanation.contains(explanationPart), qPrintable(finding->explanation));
    if (severity == ScriptFinding::Severity::Info || explanationPart.contains(QLatin1String("micro")))
        QVERIFY2(!finding->explanation.contains(QLatin1String("millisecond")), qPrintable(finding->explanation));
}

void TestScriptDoctor::compilesWithLua_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<int>("line"); // 0: compiles
    QTest::addColumn<QString>("titlePart");
    QTest::newRow("zsetlab's own script") << LimiterCatalog::builtin("sequence")->script.source() << 0 << "";
    QTest::newRow("an operator missing its operand")
        << QByteArray("local key = KEYS[1]\nlocal n = 1 +\nreturn n\n") << 3 << "cannot compile";
    QTest::newRow("an if without end") << QByteArray("if true then\n  return 1\n") << 3 << "cannot compile";
    QTest::newRow("Lua 5.4 syntax Redis does not know")
        << QByteArray("local limit <const> = 5\nreturn limit\n") << 1 << "cannot compile";
    QTest::newRow("binary data") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0", 18) << 1 << "not a Lua script";
    QTest::newRow("precompiled bytecode") << QByteArray("\x1bLuaQ\0\x01\x04", 9) << 1 << "compiled Lua";
    QTest::newRow("an escape sequence in code")
        << QByteArray("redis.call('SET', KEYS[1], 1)\nlocal x = \x1b[2J\n") << 2 << "cannot compile";
}

void TestScriptDoctor::compilesWithLua()
{
    QFETCH(QByteArray, source);
    QFETCH(int, line);
    QFETCH(QString, titlePart);
    const ScriptExamination examination = ScriptDoctor::examine(source);
    QCOMPARE(examination.compiles, line == 0);
    const auto syntax = std::find_if(examination.findings.begin(), examination.findings.end(),
                                     [](const ScriptFinding& f) { return f.code == QLatin1String("syntax-error"); });
    QCOMPARE(syntax != examination.findings.end(), line > 0);
    if (line == 0)
        return;
    QCOMPARE(syntax->line, line);
    QCOMPARE(syntax->severity, ScriptFinding::Severity::Error);
    QVERIFY2(syntax->title.contains(titlePart), qPrintable(syntax->title));
    QVERIFY(examination.hasProblem());
}

void TestScriptDoctor::namesTheKeysTheScriptDerives()
{
    const ScriptExamination sequence = ScriptDoctor::examine(LimiterCatalog::builtin("sequence")->script.source());
    QCOMPARE(sequence.keySuffixes, QList<QByteArray> {":seq"});
    const ScriptExamination twoKeys = ScriptDoctor::examine("local k = KEYS[1]\n"
                                                            "redis.call('INCR', k .. ':hits')\n"
                                                            "redis.call('SET', KEYS[1] .. \":last\", ARGV[1])\n");
    QCOMPARE(twoKeys.keySuffixes, (QList<QByteArray> {":hits", ":last"}));
}

void TestScriptDoctor::noticesWhoComparesTheLimit_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("args");
    QTest::addColumn<bool>("readsLimit");
    QTest::newRow("zsetlab's own: the caller compares")
        << LimiterCatalog::builtin("now")->script.source() << defaultArgs << false;
    QTest::newRow("check then add compares")
        << corpusScript(QStringLiteral("check-then-add-zcount.lua")) << "{now} {window} {limit}" << true;
    QTest::newRow("limit read but not compared")
        << corpusScript(QStringLiteral("seconds-timestamps.lua")) << "{now_s} {window_s} {limit}" << false;
    QTest::newRow("compared under another name")
        << corpusScript(QStringLiteral("window-first-sequence.lua")) << "{window} {limit} {now} {seq}" << true;
}

void TestScriptDoctor::noticesWhoComparesTheLimit()
{
    QFETCH(QByteArray, source);
    QFETCH(QString, args);
    QFETCH(bool, readsLimit);
    QCOMPARE(ScriptDoctor::examine(source, callWith(args)).readsLimit, readsLimit);
}

void TestScriptDoctor::suggestsArgumentsFromWhatTheScriptDoes_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("suggested"); // empty: no template-mismatch finding
    const QByteArray clearBefore = "local now = tonumber(ARGV[1])\nlocal clear_before = tonumber(ARGV[2])\n"
                                   "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, clear_before)\n"
                                   "redis.call('ZADD', KEYS[1], now, ARGV[3])\n"
                                   "redis.call('PEXPIRE', KEYS[1], 60000)\n";
    QTest::newRow("the window's start, given") << clearBefore << "{now} {now-window} {uuid}" << QString();
    QTest::newRow("the window's start, given the window")
        << clearBefore << "{now} {window} {uuid}" << QStringLiteral("{now} {now-window} {uuid}");
    // Its name says a time; EXPIRE says a duration in seconds.
    const QByteArray timeframe = "local limit = tonumber(ARGV[1])\nlocal timeframe = tonumber(ARGV[2])\n"
                                 "local now = tonumber(ARGV[3])\n"
                                 "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - timeframe)\n"
                                 "if redis.call('ZCARD', KEYS[1]) >= limit then return 0 end\n"
                                 "redis.call('ZADD', KEYS[1], now, ARGV[4])\n"
                                 "redis.call('EXPIRE', KEYS[1], timeframe)\nreturn 1\n";
    QTest::newRow("a window in seconds that its name calls a time")
        << timeframe << "{now} {window} {limit} {uuid}" << QStringLiteral("{limit} {window_s} {now_s} {uuid}");
}

void TestScriptDoctor::suggestsArgumentsFromWhatTheScriptDoes()
{
    QFETCH(QByteArray, source);
    QFETCH(QString, args);
    QFETCH(QString, suggested);
    const ScriptExamination examination = ScriptDoctor::examine(source, callWith(args));
    QStringList suggestions;
    for (const ScriptFinding& finding : examination.findings) {
        if (finding.code == QLatin1String("template-mismatch"))
            suggestions << finding.suggestion;
    }
    if (suggested.isEmpty()) {
        QVERIFY2(suggestions.isEmpty(), qPrintable(suggestions.join(QLatin1Char('\n'))));
        return;
    }
    QVERIFY(!suggestions.isEmpty());
    for (const QString& suggestion : std::as_const(suggestions))
        QVERIFY2(suggestion.contains(QStringLiteral("--args \"%1\"").arg(suggested)), qPrintable(suggestion));
}

QTEST_GUILESS_MAIN(TestScriptDoctor)
#include "tst_scriptdoctor.moc"
