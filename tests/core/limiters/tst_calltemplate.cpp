// CallTemplate: how --keys and --args are written (placeholders, sums, division, literals) and what
// one call expands them to.
#include "limiters/calltemplate.h"

#include <QtTest>

namespace {
const QString defaultArgs = CallTemplate::defaultArgs();
} // namespace

class TestCallTemplate : public QObject
{
    Q_OBJECT
private slots:
    void templatesParse_data();
    void templatesParse();
    void templatesExpand_data();
    void templatesExpand();
};

void TestCallTemplate::templatesParse_data()
{
    QTest::addColumn<QString>("keys");
    QTest::addColumn<QString>("args");
    QTest::addColumn<int>("argCount"); // -1: refused
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("zsetlab's convention") << "{key}" << defaultArgs << 4 << "";
    QTest::newRow("seconds, no id") << "{key}"
                                    << "{now_s} {window_s} {limit}" << 3 << "";
    QTest::newRow("no arguments at all") << "{key}"
                                         << "" << 0 << "";
    QTest::newRow("two keys, literals, quotes, braces") << "{key} {key}:seq"
                                                        << "\"a b\" '{now}' x{{y}} req-{seq}" << 4 << "";
    QTest::newRow("unknown placeholder") << "{key}"
                                         << "{time} {window}" << -1 << "{time} is not a placeholder";
    QTest::newRow("a key outside zsetlab:") << "rate:{key}" << defaultArgs << -1 << "must start with {key}";
    QTest::newRow("no key") << "" << defaultArgs << -1 << "at least one key";
    QTest::newRow("unclosed brace") << "{key}"
                                    << "{now" << -1 << "not closed";
    QTest::newRow("stray closing brace") << "{key}"
                                         << "now}" << -1 << "without its {";
    QTest::newRow("the window's start") << "{key}"
                                        << "{now} {now-window} {now_s-window_s+1} {limit-1}" << 4 << "";
    QTest::newRow("milliseconds minus seconds") << "{key}"
                                                << "{now-window_s}" << -1 << "mixes units";
    QTest::newRow("arithmetic on an id") << "{key}"
                                         << "{now-uuid}" << -1 << "can be added and subtracted";
    QTest::newRow("an operator without its operand") << "{key}"
                                                     << "{now-}" << -1 << "is not a placeholder";
    QTest::newRow("a number beyond 64 bits") << "{key}"
                                             << "{now+99999999999999999999}" << -1 << "is out of range";
    QTest::newRow("a number that would overflow the sum") << "{key}"
                                                          << "{now_us+9000000000000000000}" << -1 << "is out of range";
    QTest::newRow("a large number in range") << "{key}"
                                             << "{now_us+1000000000000}" << 1 << "";
    QTest::newRow("a number first") << "{key}"
                                    << "{5-now}" << -1 << "start with a placeholder";
    QTest::newRow("unclosed quote") << "{key}"
                                    << "'{now} {window}" << -1 << "not closed";
    // Issue 33: what apps compute.
    QTest::newRow("division, nanoseconds and an empty argument")
        << "{key} {key}:{now/window}"
        << "{now/window} '' {now_ns} {now_s/60*60} \"\"" << 5 << "";
    QTest::newRow("division by zero") << "{key}"
                                      << "{now/0}" << -1 << "divides by zero";
    QTest::newRow("two placeholders multiplied") << "{key}"
                                                 << "{now*window}" << -1 << "multiply by whole numbers only";
    QTest::newRow("seconds divided by milliseconds") << "{key}"
                                                     << "{now_s/window}" << -1 << "mixes units";
    QTest::newRow("an empty key") << "{key} ''" << defaultArgs << -1 << "must start with {key}";
}

void TestCallTemplate::templatesParse()
{
    QFETCH(QString, keys);
    QFETCH(QString, args);
    QFETCH(int, argCount);
    QFETCH(QString, messagePart);
    CallTemplate call;
    QString error;
    const bool parsed = CallTemplate::parse(keys, args, &call, &error);
    QCOMPARE(parsed, argCount >= 0);
    if (parsed)
        QCOMPARE(call.argCount(), argCount);
    else
        QVERIFY2(error.contains(messagePart), qPrintable(error));
}

void TestCallTemplate::templatesExpand_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<QByteArray>("expanded");
    QTest::newRow("now in ms") << "{now}" << QByteArray("1710000000123");
    QTest::newRow("now in seconds") << "{now_s}" << QByteArray("1710000000");
    QTest::newRow("now in microseconds") << "{now_us}" << QByteArray("1710000000123456");
    QTest::newRow("window in ms") << "{window}" << QByteArray("1500");
    QTest::newRow("window in seconds, rounded up") << "{window_s}" << QByteArray("2");
    QTest::newRow("limit") << "{limit}" << QByteArray("5");
    QTest::newRow("uuid") << "{uuid}" << QByteArray("u-1");
    QTest::newRow("sequence in a literal") << "req-{seq}" << QByteArray("req-7");
    QTest::newRow("key with a suffix") << "{key}:seq" << QByteArray("zsetlab:k:seq");
    QTest::newRow("escaped braces") << "{{x}}" << QByteArray("{x}");
    QTest::newRow("the window's start in ms") << "{now-window}" << QByteArray("1709999998623");
    QTest::newRow("the window's start in seconds") << "{now_s-window_s}" << QByteArray("1709999998");
    QTest::newRow("now plus a number") << "{now+1000}" << QByteArray("1710000001123");
    QTest::newRow("limit minus one, in a literal") << "max={limit-1}" << QByteArray("max=4");
    QTest::newRow("the window's number") << "{now/window}" << QByteArray("1140000000");
    QTest::newRow("a fixed window's key") << "{key}:{now_s/window_s}" << QByteArray("zsetlab:k:855000000");
    QTest::newRow("now in nanoseconds") << "{now_ns}" << QByteArray("1710000000123456000");
    QTest::newRow("division binds first") << "{now-window/2}" << QByteArray("1709999999373");
    QTest::newRow("the minute's start in seconds") << "{now_s/60*60}" << QByteArray("1710000000");
    QTest::newRow("an empty argument") << "''" << QByteArray("");
    QTest::newRow("window in microseconds") << "{window_us}" << QByteArray("1500000");
    QTest::newRow("the window's start in nanoseconds") << "{now_ns-window_ns}" << QByteArray("1709999998623456000");
}

void TestCallTemplate::templatesExpand()
{
    QFETCH(QString, token);
    QFETCH(QByteArray, expanded);
    CallTemplate call;
    QString error;
    QVERIFY2(CallTemplate::parse(CallTemplate::defaultKeys(), token, &call, &error), qPrintable(error));
    CallValues values;
    values.key = "zsetlab:k";
    values.nowMicros = 1710000000123456;
    values.windowMs = 1500;
    values.limit = 5;
    values.seq = 7;
    values.uuid = "u-1";
    QCOMPARE(call.expandArgs(values), RedisArgs {expanded});
    QCOMPARE(call.expandKeys(values), RedisArgs {"zsetlab:k"});
}

QTEST_GUILESS_MAIN(TestCallTemplate)
#include "tst_calltemplate.moc"
