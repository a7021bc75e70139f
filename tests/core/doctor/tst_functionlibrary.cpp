// Redis Functions libraries: read without running (FunctionLibrary), checked function by function
// (ScriptDoctor), and what the reading says held against the real server's FUNCTION LOAD and FCALL.

#include "doctor/functionlibrary.h"
#include "doctor/scriptdoctor.h"
#include "sourcetree.h"
#include "testredis.h"

#include <QFile>
#include <QtTest>

namespace {
QByteArray corpus(const char* name)
{
    QFile file(sourcePath(QStringLiteral("tests/doctor-corpus/") + QLatin1String(name)));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", name);
    return file.readAll();
}

// "code@line" (with "/function" when a finding names one), sorted.
QStringList codes(const ScriptExamination& examination)
{
    QStringList list;
    for (const ScriptFinding& finding : examination.findings) {
        QString entry = finding.code + QLatin1Char('@') + QString::number(finding.line);
        if (!finding.function.isEmpty())
            entry += QLatin1Char('/') + QString::fromUtf8(finding.function);
        list << entry;
    }
    list.sort();
    return list;
}

QStringList names(std::initializer_list<const char*> items)
{
    QStringList list;
    for (const char* item : items)
        list << QString::fromUtf8(item);
    list.sort();
    return list;
}

QByteArray lineOf(const QByteArray& text, int line)
{
    return text.split('\n').value(line - 1);
}

const QByteArray now = "1700000000000";
} // namespace

class TestFunctionLibrary : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void readsBothFormsOfRegistration();
    void readingFormKeepsEveryLine();
    void findingsNameTheirFunction();
    void oneFunctionOnly();
    void whatOnlyALibraryGetsWrong_data();
    void whatOnlyALibraryGetsWrong();
    void evalFormCountsAsFcallDoes();
    void evalScriptsAreNotLibraries();
    void manyFunctionsAreReadUpToABound();

private:
    RedisConnection m_connection;
    QByteArray m_loaded; // the library a test loaded, deleted after it
};

void TestFunctionLibrary::initTestCase()
{
    QVERIFY(TestRedis::connect(m_connection));
}

void TestFunctionLibrary::cleanup()
{
    if (!m_loaded.isEmpty())
        m_connection.command({"FUNCTION", "DELETE", m_loaded});
    m_loaded.clear();
}

void TestFunctionLibrary::readsBothFormsOfRegistration()
{
    const QByteArray source = corpus("library-now-and-unique.lua");
    const FunctionLibrary library = FunctionLibrary::read(source);
    QVERIFY(library.isLibrary());
    QCOMPARE(library.name(), QByteArray("ratelimit"));
    QCOMPARE(library.engine(), QByteArray("lua"));
    QCOMPARE(library.functionNames(), QByteArray("limit_now, limit_unique"));

    const LibraryFunction* inPlace = library.function("limit_now");
    QVERIFY(inPlace);
    QVERIFY(inPlace->callbackName.isEmpty());
    QCOMPARE(inPlace->keysParameter, QByteArray("keys"));
    QCOMPARE(inPlace->argsParameter, QByteArray("args"));
    QVERIFY(lineOf(source, inPlace->line).contains("redis.register_function('limit_now'"));
    QCOMPARE(lineOf(source, inPlace->lastLine), QByteArray("end)"));

    const LibraryFunction* named = library.function("limit_unique");
    QVERIFY(named);
    QCOMPARE(named->callbackName, QByteArray("unique_limiter"));
    QCOMPARE(named->flags, QList<QByteArray>({"allow-stale"}));
    QVERIFY(lineOf(source, named->firstLine).contains("local function unique_limiter(keys, args)"));
    QCOMPARE(lineOf(source, named->lastLine), QByteArray("end"));

    // What the server reads: the same library and functions.
    const RedisReply loaded = m_connection.command({"FUNCTION", "LOAD", source});
    QVERIFY2(!loaded.isError(), qPrintable(loaded.text()));
    m_loaded = "ratelimit";
    QCOMPARE(loaded.bytes(), library.name());
    const RedisReply list = m_connection.command({"FUNCTION", "LIST", "LIBRARYNAME", "ratelimit"});
    QList<QByteArray> served;
    const RedisReply& entry = list.elements()[size_t(0)];
    for (int i = 0; i + 1 < int(entry.elements().size()); i += 2) {
        if (entry.elements()[size_t(i)].bytes() != "functions")
            continue;
        const RedisReply& functions = entry.elements()[size_t(i) + 1];
        for (int f = 0; f < int(functions.elements().size()); ++f) {
            const RedisReply& fields = functions.elements()[size_t(f)];
            for (int j = 0; j + 1 < int(fields.elements().size()); j += 2) {
                if (fields.elements()[size_t(j)].bytes() == "name")
                    served << fields.elements()[size_t(j) + 1].bytes();
            }
        }
    }
    std::sort(served.begin(), served.end());
    QCOMPARE(served, QList<QByteArray>({"limit_now", "limit_unique"}));
}

void TestFunctionLibrary::readingFormKeepsEveryLine()
{
    const QByteArray source = corpus("library-now-and-unique.lua");
    const FunctionLibrary library = FunctionLibrary::read(source);
    for (const LibraryFunction& function : library.functions()) {
        const QByteArray reading = library.readingForm(function);
        QCOMPARE(reading.count('\n'), source.count('\n'));
        // The body in place, its parameters as KEYS and ARGV; the registrations gone.
        const int zadd = function.name == "limit_now" ? 41 : 27;
        QVERIFY2(lineOf(reading, zadd).contains("redis.call('ZADD', key, now,"), lineOf(reading, zadd).constData());
        QVERIFY(!reading.contains("register_function"));
        QVERIFY(!reading.contains("keys[1]"));
        QVERIFY(reading.contains("local key = KEYS[1]"));
    }
    const QByteArray eval = library.evalForm("limit_now");
    QCOMPARE(eval.count('\n'), source.count('\n') + 2); // the call at the end
    for (int line = 2; line <= source.count('\n'); ++line) {
        if (!lineOf(source, line).contains("register_function"))
            QCOMPARE(lineOf(eval, line), lineOf(source, line));
    }
}

void TestFunctionLibrary::findingsNameTheirFunction()
{
    const QByteArray source = corpus("library-now-and-unique.lua");
    const ScriptExamination examination = ScriptDoctor::examine(source);
    QVERIFY(examination.isLibrary);
    QVERIFY(examination.compiles);
    QCOMPARE(examination.library, QByteArray("ratelimit"));
    QCOMPARE(examination.functions, QList<QByteArray>({"limit_now", "limit_unique"}));
    // Only the function that keeps the time as its member; no syntax error at the #! line.
    QCOMPARE(codes(examination), names({"member-is-time@41/limit_now"}));
    const ScriptFinding& finding = examination.findings.first();
    QCOMPARE(finding.excerpt, QStringLiteral("redis.call('ZADD', key, now, now)"));
    // It speaks of the function's own parameters.
    QVERIFY2(finding.suggestion.contains(QLatin1String("args[4]")), qPrintable(finding.suggestion));
    QVERIFY2(!finding.suggestion.contains(QLatin1String("ARGV[")), qPrintable(finding.suggestion));
}

void TestFunctionLibrary::oneFunctionOnly()
{
    const QByteArray source = corpus("library-now-and-unique.lua");
    const ScriptExamination unique
        = ScriptDoctor::examine(source, CallTemplate::zsetlabConvention(), {}, "limit_unique");
    QCOMPARE(unique.examinedFunction, QByteArray("limit_unique"));
    QCOMPARE(codes(unique), QStringList());
    const ScriptExamination timed = ScriptDoctor::examine(source, CallTemplate::zsetlabConvention(), {}, "limit_now");
    QCOMPARE(codes(timed), names({"member-is-time@41/limit_now"}));
}

void TestFunctionLibrary::whatOnlyALibraryGetsWrong_data()
{
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QStringList>("expected");
    // What the real server does with it: FUNCTION LOAD fails with this text, or (when empty) loads
    // it and FCALL of `call` fails with it; nothing at all when both are empty.
    QTest::addColumn<QByteArray>("loadError");
    QTest::addColumn<QByteArray>("callError");
    const QByteArray body = "function(keys, args)\n"
                            "  redis.call('ZREMRANGEBYSCORE', keys[1], 0, args[1] - args[2])\n"
                            "  redis.call('ZADD', keys[1], args[1], args[4])\n"
                            "  redis.call('PEXPIRE', keys[1], args[2])\n"
                            "  return redis.call('ZCARD', keys[1])\n"
                            "end)\n";
    QTest::newRow("no #! line") << "redis.register_function('limit', " + body << names({"library-metadata@1"})
                                << QByteArray("Missing library metadata") << QByteArray();
    QTest::newRow("no name") << "#!lua\nredis.register_function('limit', " + body << names({"library-metadata@1"})
                             << QByteArray("Library name was not given") << QByteArray();
    QTest::newRow("another engine") << "#!js name=t1\nredis.register_function('limit', " + body
                                    << names({"library-metadata@1"}) << QByteArray("Engine") << QByteArray();
    QTest::newRow("no function") << QByteArray("#!lua name=t2\nlocal x = 1\n") << names({"library-empty@1"})
                                 << QByteArray("No functions registered") << QByteArray();
    QTest::newRow("a syntax error, on the line Lua names")
        << QByteArray("#!lua name=t3\nredis.register_function('limit', function(keys, args)\n  local x =\nend)\n")
        << names({"syntax-error@4"}) << QByteArray("user_function:4") << QByteArray();
    QTest::newRow("KEYS read in a function")
        << QByteArray("#!lua name=t4\nredis.register_function('limit', function(keys, args)\n"
                      "  redis.call('ZADD', KEYS[1], args[1], args[4])\n  redis.call('PEXPIRE', keys[1], args[2])\n"
                      "  return redis.call('ZREMRANGEBYSCORE', keys[1], 0, args[1] - args[2])\nend)\n")
        << names({"function-reads-keys@3/limit"}) << QByteArray() << QByteArray("'KEYS'");
    QTest::newRow("a write under no-writes")
        << QByteArray("#!lua name=t5\nredis.register_function{function_name = 'limit', flags = {'no-writes'},\n"
                      "  callback = function(keys, args)\n"
                      "    redis.call('ZREMRANGEBYSCORE', keys[1], 0, args[1] - args[2])\n"
                      "    redis.call('ZADD', keys[1], args[1], args[4])\n"
                      "    redis.call('PEXPIRE', keys[1], args[2])\n"
                      "    return 1\n  end}\n")
        << names({"function-no-writes@4/limit", "function-no-writes@5/limit", "function-no-writes@6/limit"})
        << QByteArray() << QByteArray("Write commands are not allowed");
}

void TestFunctionLibrary::whatOnlyALibraryGetsWrong()
{
    QFETCH(QByteArray, source);
    QFETCH(QStringList, expected);
    QFETCH(QByteArray, loadError);
    QFETCH(QByteArray, callError);
    const ScriptExamination examination = ScriptDoctor::examine(source);
    QVERIFY(examination.isLibrary);
    QCOMPARE(codes(examination), expected);
    for (const ScriptFinding& finding : examination.findings)
        QVERIFY2(!finding.explanation.isEmpty() && !finding.suggestion.isEmpty(), qPrintable(finding.code));
    // A library FUNCTION LOAD refuses is one nothing can run.
    QCOMPARE(examination.compiles, loadError.isEmpty());

    const RedisReply loaded = m_connection.command({"FUNCTION", "LOAD", source});
    if (!loadError.isEmpty()) {
        QVERIFY(loaded.isServerError());
        QVERIFY2(loaded.bytes().contains(loadError), loaded.bytes().constData());
        return;
    }
    QVERIFY2(!loaded.isError(), qPrintable(loaded.text()));
    m_loaded = loaded.bytes();
    const QByteArray key = TestRedis::uniqueKey("function");
    const RedisReply called = m_connection.command({"FCALL", "limit", "1", key, now, "60000", "5", "a"});
    m_connection.command({"DEL", key});
    QVERIFY(called.isServerError());
    QVERIFY2(called.bytes().contains(callError), called.bytes().constData());
}

void TestFunctionLibrary::evalFormCountsAsFcallDoes()
{
    // The debugger and bursts run a function as an EVAL script: it must do what FCALL does.
    const QByteArray source = corpus("library-now-and-unique.lua");
    const FunctionLibrary library = FunctionLibrary::read(source);
    const RedisReply loaded = m_connection.command({"FUNCTION", "LOAD", source});
    QVERIFY2(!loaded.isError(), qPrintable(loaded.text()));
    m_loaded = "ratelimit";
    for (const LibraryFunction& function : library.functions()) {
        const QByteArray viaFcall = TestRedis::uniqueKey("fcall");
        const QByteArray viaEval = TestRedis::uniqueKey("eval");
        const QByteArray eval = library.evalForm(function.name);
        QStringList fcallReplies;
        QStringList evalReplies;
        for (int i = 0; i < 8; ++i) {
            // Four calls in one millisecond, then four in the next, with a limit of 5.
            const QByteArray at = QByteArray::number(now.toLongLong() + i / 4);
            const QByteArray id = "req-" + QByteArray::number(i);
            fcallReplies << m_connection.command({"FCALL", function.name, "1", viaFcall, at, "60000", "5", id})
                                .toDisplayString();
            evalReplies << m_connection.command({"EVAL", eval, "1", viaEval, at, "60000", "5", id}).toDisplayString();
        }
        QCOMPARE(evalReplies, fcallReplies);
        const RedisReply a = m_connection.command({"ZRANGE", viaFcall, "0", "-1", "WITHSCORES"});
        const RedisReply b = m_connection.command({"ZRANGE", viaEval, "0", "-1", "WITHSCORES"});
        QVERIFY(!a.elements().empty());
        QCOMPARE(b.elements().size(), a.elements().size());
        for (size_t i = 0; i < a.elements().size(); ++i)
            QCOMPARE(b.elements()[size_t(i)].bytes(), a.elements()[size_t(i)].bytes());
        // The two functions differ: the time as member keeps 2, the request id 5.
        QCOMPARE(int(a.elements().size()) / 2, function.name == "limit_now" ? 2 : 5);
        m_connection.command({"DEL", viaFcall, viaEval});
    }
}

void TestFunctionLibrary::evalScriptsAreNotLibraries()
{
    const QByteArray eval = "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\nreturn 1\n";
    QVERIFY(!FunctionLibrary::read(eval).isLibrary());
    QVERIFY(!ScriptDoctor::examine(eval).isLibrary);
    // Valkey's name for the redis table, in an EVAL script too: read as redis.call, and flagged.
    const QByteArray valkey = "server.call('ZREMRANGEBYSCORE', KEYS[1], 0, ARGV[1] - ARGV[2])\n"
                              "server.call('ZADD', KEYS[1], ARGV[1], ARGV[1])\n"
                              "server.call('PEXPIRE', KEYS[1], ARGV[2])\nreturn 1\n";
    QCOMPARE(codes(ScriptDoctor::examine(valkey)), names({"member-is-time@2", "server-global@1"}));
    const RedisReply ran = m_connection.command({"EVAL", valkey, "1", TestRedis::uniqueKey("valkey"), now, "60000"});
    if (m_connection.server().name == QLatin1String("valkey"))
        QVERIFY2(!ran.isError(), qPrintable(ran.text()));
    else // Redis 7 and 8
        QVERIFY2(ran.bytes().contains("nonexistent global variable 'server'"), ran.bytes().constData());
}

// A library is read once per function: a file that registers a great many is read up to a bound,
// and says so, instead of taking minutes.
void TestFunctionLibrary::manyFunctionsAreReadUpToABound()
{
    QByteArray source = "#!lua name=many\n";
    for (int i = 0; i < 200; ++i)
        source += "redis.register_function('f" + QByteArray::number(i)
            + "', function(keys, args) redis.call('ZREMRANGEBYSCORE', keys[1], 0, args[1] - args[2]) "
              "redis.call('ZADD', keys[1], args[1], args[1]) redis.call('PEXPIRE', keys[1], args[2]) end)\n";
    const ScriptExamination examination = ScriptDoctor::examine(source);
    QCOMPARE(examination.functions.size(), 200);
    int times = 0;
    int unread = 0;
    for (const ScriptFinding& finding : examination.findings) {
        times += finding.code == QLatin1String("member-is-time");
        if (finding.code == QLatin1String("unread")) {
            ++unread;
            QVERIFY2(finding.explanation.contains(QLatin1String("registers 200 functions")),
                     qPrintable(finding.explanation));
        }
    }
    QCOMPARE(unread, 1);
    QVERIFY(times > 0 && times < 200);
    // One function by its name is read whatever its place.
    const ScriptExamination last = ScriptDoctor::examine(source, CallTemplate::zsetlabConvention(), {}, "f199");
    QCOMPARE(last.findings.size(), 1);
    QCOMPARE(last.findings.first().function, QByteArray("f199"));
}

QTEST_GUILESS_MAIN(TestFunctionLibrary)
#include "tst_functionlibrary.moc"
