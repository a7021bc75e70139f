// Issue 45, part 3: rules that read a line in its context. Each row is a reading the doctor once
// got wrong on a script written for it (tests/doctor-corpus/), with the wrong reading named: the
// row fails if it comes back. The last rows are what the reading missed: a member that takes few
// values because its time part repeats.
#include "doctor/scriptdoctor.h"
#include "limiters/calltemplate.h"
#include "sourcetree.h"

#include <QFile>
#include <QtTest>

namespace {
QByteArray corpusScript(const QString& name)
{
    QFile file(sourcePath(QStringLiteral("tests/doctor-corpus/") + name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing corpus script %s", qPrintable(name));
    return file.readAll();
}

CallTemplate callWith(const QString& keys, const QString& args)
{
    CallTemplate call;
    QString error;
    if (!CallTemplate::parse(keys, args, &call, &error))
        qFatal("bad template in the test: %s", qPrintable(error));
    return call;
}

QStringList codes(const ScriptExamination& examination)
{
    QStringList list;
    for (const ScriptFinding& finding : examination.findings)
        list << finding.code;
    list.sort();
    list.removeDuplicates();
    return list;
}

QString listed(const ScriptExamination& examination)
{
    QStringList lines;
    for (const ScriptFinding& finding : examination.findings)
        lines << QStringLiteral("line %1 %2: %3").arg(finding.line).arg(finding.code, finding.title);
    return lines.join(QLatin1Char('\n'));
}

const QString defaultKeys = CallTemplate::defaultKeys();
const QString defaultArgs = CallTemplate::defaultArgs();
} // namespace

class TestDoctorContext : public QObject
{
    Q_OBJECT
private slots:
    void falseReadingsStayAway_data();
    void falseReadingsStayAway();
    void theContextStillCounts_data();
    void theContextStillCounts();
    void aMemberOfARepeatingTimeSaysHowManyValues();
};

void TestDoctorContext::falseReadingsStayAway_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("keys");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QString>("wrongCode"); // the finding the wrong reading gave
    QTest::addColumn<QString>("wrongTitle"); // and its words
    QTest::addColumn<QStringList>("expected"); // what the reading gives now
    QTest::newRow("a callback's parameters named KEYS and ARGV are no globals")
        << "library-keys-argv-params.lua" << defaultKeys << defaultArgs << "function-reads-keys"
        << "KEYS is nil in a function" << QStringList();
    QTest::newRow("ZREMRANGEBYLEX trims, ZLEXCOUNT counts")
        << "lex-trim-count.lua" << defaultKeys << defaultArgs << "never-trims"
        << "Nothing removes the entries older than the window" << QStringList();
    QTest::newRow("a debug ZCARD before the trim is not the decision's count")
        << "debug-count-before-trim.lua" << defaultKeys << defaultArgs << "count-before-trim"
        << "The script counts before removing expired entries" << QStringList();
    QTest::newRow("keys in KEYS and ARGV (StackExchange.Redis): declared")
        << "keys-in-keys-and-argv.lua" << defaultKeys << "{limit} {now} {window} {key} {uuid}"
        << "foreign-key"
        << "ZREMRANGEBYSCORE uses a key the caller does not pass in KEYS" << QStringList();
    QTest::newRow("keys in KEYS and ARGV (StackExchange.Redis): called with KEYS")
        << "keys-in-keys-and-argv.lua" << defaultKeys << "{limit} {now} {window} {key} {uuid}"
        << "no-keys"
        << "The script is called without KEYS" << QStringList();
    QTest::newRow("a rules registry's index in a library is no log")
        << "library-rules-registry.lua"
        << "{key} {key}:rules {key}:rules:index"
        << "{now} {uuid}"
        << "member-is-constant"
        << "The ZSET member is the same for every call" << QStringList();
    QTest::newRow("a rules registry's index is meant to stay") << "library-rules-registry.lua"
                                                               << "{key} {key}:rules {key}:rules:index"
                                                               << "{now} {uuid}"
                                                               << "no-expiry"
                                                               << "The ZSET never expires" << QStringList();
    QTest::newRow("optional arguments with defaults are not missing")
        << "optional-args-defaults.lua" << defaultKeys << defaultArgs << "argv-missing"
        << "ARGV[5] is not in the call template" << QStringList();
}

void TestDoctorContext::falseReadingsStayAway()
{
    QFETCH(QString, file);
    QFETCH(QString, keys);
    QFETCH(QString, args);
    QFETCH(QString, wrongCode);
    QFETCH(QString, wrongTitle);
    QFETCH(QStringList, expected);
    const ScriptExamination examination = ScriptDoctor::examine(corpusScript(file), callWith(keys, args));
    for (const ScriptFinding& finding : examination.findings)
        QVERIFY2(finding.code != wrongCode && finding.title != wrongTitle,
                 qPrintable(QStringLiteral("the wrong reading is back: ") + finding.title));
    QVERIFY2(codes(examination) == expected, qPrintable(listed(examination)));
    QVERIFY(!examination.countsWrong());
    QVERIFY(!examination.hasWarnings());
}

// The same rules still find what they are for when the context is not there.
void TestDoctorContext::theContextStillCounts_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QString>("keys");
    QTest::addColumn<QString>("args");
    QTest::addColumn<QStringList>("expected");
    const QByteArray expire = "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n";
    QTest::newRow("ZLEXCOUNT over everything, nothing trimmed: never-trims")
        << QByteArray("redis.call('ZADD', KEYS[1], 0, ARGV[1] .. ':' .. ARGV[4])\n"
                      "local n = redis.call('ZLEXCOUNT', KEYS[1], '-', '+')\n"
                      + expire + "return n")
        << defaultKeys << defaultArgs << QStringList {QStringLiteral("never-trims")};
    QTest::newRow("the only count before the trim: count-before-trim")
        << QByteArray("local n = redis.call('ZCARD', KEYS[1])\n"
                      "redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])\n"
                      "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                      + expire + "return n")
        << defaultKeys << defaultArgs << QStringList {QStringLiteral("count-before-trim")};
    QTest::newRow("a key in ARGV that KEYS does not pass: foreign, and called without KEYS")
        << QByteArray("redis.call('ZREMRANGEBYSCORE', ARGV[1], 0, ARGV[2] - 1000)\n"
                      "redis.call('ZADD', ARGV[1], ARGV[2], ARGV[3])\nredis.call('PEXPIRE', ARGV[1], 1000)")
        << defaultKeys << "{key}:other {now} {uuid}"
        << QStringList {QStringLiteral("foreign-key"), QStringLiteral("no-keys")};
    QTest::newRow("an argument read without a default: missing")
        << QByteArray("redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])\n"
                      "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4] .. tonumber(ARGV[5]))\n"
                      + expire)
        << defaultKeys << defaultArgs << QStringList {QStringLiteral("argv-missing")};
    QTest::newRow("a log's constant member, its score the time: member-is-constant")
        << QByteArray("redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])\n"
                      "redis.call('ZADD', KEYS[1], ARGV[1], 'request')\n"
                      + expire)
        << defaultKeys << defaultArgs << QStringList {QStringLiteral("member-is-constant")};
    QTest::newRow("KEYS read in a callback whose parameters are keys, args: function-reads-keys")
        << QByteArray("#!lua name=lib\nredis.register_function('f', function(keys, args)\n"
                      "  redis.call('ZADD', KEYS[1], args[1], args[4])\n  redis.call('PEXPIRE', keys[1], 1000)\n"
                      "  redis.call('ZREMRANGEBYSCORE', keys[1], 0, args[1] - 1000)\nend)\n")
        << defaultKeys << defaultArgs << QStringList {QStringLiteral("function-reads-keys")};
}

void TestDoctorContext::theContextStillCounts()
{
    QFETCH(QByteArray, source);
    QFETCH(QString, keys);
    QFETCH(QString, args);
    QFETCH(QStringList, expected);
    const ScriptExamination examination = ScriptDoctor::examine(source, callWith(keys, args));
    QVERIFY2(codes(examination) == expected, qPrintable(listed(examination)));
}

// Missed by reading before: the member is the millisecond within the second and a permit's
// index, 1,000 values, and the reading says so.
void TestDoctorContext::aMemberOfARepeatingTimeSaysHowManyValues()
{
    const ScriptExamination examination
        = ScriptDoctor::examine(corpusScript(QStringLiteral("member-ms-of-second-index.lua")),
                                callWith(defaultKeys, QStringLiteral("{window} {limit} 1")));
    const auto member = std::find_if(examination.findings.cbegin(), examination.findings.cend(),
                                     [](const ScriptFinding& f) { return f.code == QLatin1String("member-is-time"); });
    QVERIFY2(member != examination.findings.cend(), qPrintable(listed(examination)));
    QCOMPARE(member->severity, ScriptFinding::Severity::Error);
    QCOMPARE(member->line, 28);
    QVERIFY2(member->title.contains(QLatin1String("1,000 values")), qPrintable(member->title));
    QVERIFY2(member->explanation.contains(QLatin1String("same millisecond")), qPrintable(member->explanation));
    QVERIFY(examination.countsWrong());
    QCOMPARE(examination.clock, ScriptExamination::Clock::ServerTime);

    // The same member built from the caller's ms: now % 1000 repeats every second.
    const QByteArray callers = "local now = tonumber(ARGV[1])\n"
                               "redis.call('ZREMRANGEBYSCORE', KEYS[1], 0, now - ARGV[2])\n"
                               "redis.call('ZADD', KEYS[1], now, (now % 1000) .. '-' .. 7)\n"
                               "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n";
    const ScriptExamination modulo = ScriptDoctor::examine(callers, callWith(defaultKeys, defaultArgs));
    QCOMPARE(codes(modulo), QStringList {QStringLiteral("member-is-time")});
    QVERIFY2(modulo.findings.first().title.contains(QLatin1String("1,000 values")),
             qPrintable(modulo.findings.first().title));
    // With the whole time beside it, it no longer repeats: the plain member-is-time of a timestamp.
    const QByteArray whole = QByteArray(callers).replace("(now % 1000) .. '-' .. 7", "now .. '-' .. (now % 1000)");
    const ScriptExamination timestamp = ScriptDoctor::examine(whole, callWith(defaultKeys, defaultArgs));
    QCOMPARE(codes(timestamp), QStringList {QStringLiteral("member-is-time")});
    QVERIFY(!timestamp.findings.first().title.contains(QLatin1String("values")));
}

QTEST_GUILESS_MAIN(TestDoctorContext)
#include "tst_doctorcontext.moc"
