#include "watch/monitorline.h"

#include <QtTest>

class TestMonitorLine : public QObject
{
    Q_OBJECT
private slots:
    void parsesLines_data();
    void parsesLines();
    void refusesBadLines_data();
    void refusesBadLines();
    void commandIsUpperCase();
    void reusesOneLineForMany();
    void readsValkeysUnescapedQuotes();
};

void TestMonitorLine::parsesLines_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<qint64>("timeUs");
    QTest::addColumn<int>("db");
    QTest::addColumn<QByteArray>("source");
    QTest::addColumn<QList<QByteArray>>("arguments");

    QTest::newRow("evalsha from a unix socket")
        << QByteArray(R"(1796103280.421510 [0 unix:/tmp/s.sock] "EVALSHA" "15be1f" "1" "rl:user1" "1710000000000")")
        << Q_INT64_C(1796103280421510) << 0 << QByteArray("unix:/tmp/s.sock")
        << QList<QByteArray> {"EVALSHA", "15be1f", "1", "rl:user1", "1710000000000"};
    QTest::newRow("script's own command")
        << QByteArray(R"(1796103280.421543 [0 lua] "ZREMRANGEBYSCORE" "rl:user1" "0" "1709999999000")")
        << Q_INT64_C(1796103280421543) << 0 << QByteArray("lua")
        << QList<QByteArray> {"ZREMRANGEBYSCORE", "rl:user1", "0", "1709999999000"};
    QTest::newRow("tcp client in db 3") << QByteArray(R"(1.000001 [3 127.0.0.1:50412] "ZADD" "rl:py" "1" "1")")
                                        << Q_INT64_C(1000001) << 3 << QByteArray("127.0.0.1:50412")
                                        << QList<QByteArray> {"ZADD", "rl:py", "1", "1"};
    QTest::newRow("ipv6 client") << QByteArray(R"(1796103280.000000 [15 [::1]:6379] "ping")")
                                 << Q_INT64_C(1796103280000000) << 15 << QByteArray("[::1]:6379")
                                 << QList<QByteArray> {"ping"};
    QTest::newRow("quotes and backslashes") << QByteArray(R"(5.5 [0 lua] "SET" "a\"b\\" "\\\"")") << Q_INT64_C(5500000)
                                            << 0 << QByteArray("lua") << QList<QByteArray> {"SET", "a\"b\\", "\\\""};
    QTest::newRow("control characters") << QByteArray(R"(5.000005 [0 lua] "ZADD" "k" "1" "\n\r\t\a\b")")
                                        << Q_INT64_C(5000005) << 0 << QByteArray("lua")
                                        << QList<QByteArray> {"ZADD", "k", "1", "\n\r\t\a\b"};
    QTest::newRow("binary member with hex escapes")
        << QByteArray(R"(7.000000 [0 unix:/s] "zadd" "k" "1" "x\x01\x00\xff\xc3\xa9y")") << Q_INT64_C(7000000) << 0
        << QByteArray("unix:/s") << QList<QByteArray> {"zadd", "k", "1", QByteArray("x\x01\x00\xff\xc3\xa9y", 7)};
    QTest::newRow("upper case hex") << QByteArray(R"(7.0 [0 lua] "\xAB")") << Q_INT64_C(7000000) << 0
                                    << QByteArray("lua") << QList<QByteArray> {QByteArray("\xab")};
    QTest::newRow("empty argument") << QByteArray(R"(8.000001 [0 lua] "ZADD" "k" "1" "")") << Q_INT64_C(8000001) << 0
                                    << QByteArray("lua") << QList<QByteArray> {"ZADD", "k", "1", ""};
    QTest::newRow("spaces inside an argument")
        << QByteArray(R"(8.000001 [0 lua] "eval" "return 1 " "0")") << Q_INT64_C(8000001) << 0 << QByteArray("lua")
        << QList<QByteArray> {"eval", "return 1 ", "0"};
    QTest::newRow("with its line end") << QByteArray("9.000002 [1 lua] \"ZCARD\" \"k\"\r\n") << Q_INT64_C(9000002) << 1
                                       << QByteArray("lua") << QList<QByteArray> {"ZCARD", "k"};
    QTest::newRow("redacted auth") << QByteArray(R"x(9.000002 [0 127.0.0.1:1] "auth" "(redacted)")x")
                                   << Q_INT64_C(9000002) << 0 << QByteArray("127.0.0.1:1")
                                   << QList<QByteArray> {"auth", "(redacted)"};
}

void TestMonitorLine::parsesLines()
{
    QFETCH(QByteArray, line);
    QFETCH(qint64, timeUs);
    QFETCH(int, db);
    QFETCH(QByteArray, source);
    QFETCH(QList<QByteArray>, arguments);
    MonitorLine parsed;
    QString error;
    QVERIFY2(MonitorLine::parse(line, &parsed, &error), qPrintable(error));
    QCOMPARE(parsed.timeUs, timeUs);
    QCOMPARE(parsed.db, db);
    QCOMPARE(parsed.source, source);
    QCOMPARE(parsed.arguments, arguments);
    QCOMPARE(parsed.fromScript(), source == "lua");
}

void TestMonitorLine::refusesBadLines_data()
{
    QTest::addColumn<QByteArray>("line");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("empty") << QByteArray() << "not a line of Redis's MONITOR";
    QTest::newRow("OK reply") << QByteArray("OK") << "not a line of Redis's MONITOR";
    QTest::newRow("no tag") << QByteArray(R"(1.0 "ZADD")") << "not a line of Redis's MONITOR";
    QTest::newRow("tag not closed") << QByteArray(R"(1.0 [0 lua "ZADD")") << "not a line of Redis's MONITOR";
    QTest::newRow("db not a number") << QByteArray(R"(1.0 [x lua] "ZADD")") << "not a line of Redis's MONITOR";
    QTest::newRow("no source") << QByteArray(R"(1.0 [0 ] "ZADD")") << "not a line of Redis's MONITOR";
    QTest::newRow("time without fraction digits") << QByteArray(R"(1. [0 lua] "ZADD")") << "not a line";
    QTest::newRow("no command") << QByteArray("1.0 [0 lua] ") << "names no command";
    QTest::newRow("unquoted argument") << QByteArray(R"(1.0 [0 lua] ZADD)") << "does not start with a quote";
    QTest::newRow("cut off inside an argument") << QByteArray(R"(1.0 [0 lua] "ZADD" "ab)") << "no closing quote";
    QTest::newRow("cut off after a backslash") << QByteArray(R"(1.0 [0 lua] "ZADD" "ab\)") << "bad escape";
    QTest::newRow("short hex escape") << QByteArray(R"(1.0 [0 lua] "\x4")") << "bad escape";
    QTest::newRow("not hex") << QByteArray(R"(1.0 [0 lua] "\xzz")") << "bad escape";
    QTest::newRow("unknown escape") << QByteArray(R"(1.0 [0 lua] "\q")") << "bad escape";
    QTest::newRow("arguments glued together") << QByteArray(R"(1.0 [0 lua] "a""b")") << "not followed by a space";
    QTest::newRow("nul bytes") << QByteArray("1.0 [0 lua] \"a\"\0\"b\"", 19) << "not followed by a space";
}

void TestMonitorLine::refusesBadLines()
{
    QFETCH(QByteArray, line);
    QFETCH(QString, messagePart);
    MonitorLine parsed;
    parsed.db = 42;
    QString error;
    QVERIFY(!MonitorLine::parse(line, &parsed, &error));
    QVERIFY2(error.contains(messagePart), qPrintable(error));
    QCOMPARE(parsed.db, 42); // untouched on failure
    QVERIFY(!MonitorLine::parse(line, nullptr, nullptr));
}

void TestMonitorLine::commandIsUpperCase()
{
    MonitorLine parsed;
    QVERIFY(MonitorLine::parse(R"(1.0 [0 lua] "zRemRangeByScore" "k" "0" "1")", &parsed));
    QCOMPARE(parsed.command(), QByteArray("ZREMRANGEBYSCORE"));
    QCOMPARE(MonitorLine().command(), QByteArray());
}

// A watch parses every line into one MonitorLine and reuses its buffers: each parse must give the
// line's own fields whatever came before, and leave copies taken of an earlier line as they were.
void TestMonitorLine::reusesOneLineForMany()
{
    const QList<QByteArray> lines {
        R"(1.000001 [0 unix:/tmp/app.sock] "EVALSHA" "15be1f" "1" "rl:user1" "1710000000000" "1000")",
        R"(1.000002 [0 lua] "ZREMRANGEBYSCORE" "rl:user1" "0" "1709999999000")",
        R"(1.000003 [0 lua] "ZADD" "rl:user1" "1710000000000" "1710000000000")",
        R"(1.000004 [0 lua] "ZCARD" "rl:user1")",
        R"(1.000005 [2 127.0.0.1:50412] "ZADD" "rl:a\"b" "1" "x\x01y")",
        R"(1.000006 [0 lua] "EXPIRE" "rl:user1" "1000")",
        R"(1.000007 [0 lua] "ZADD" "rl:user1" "1710000000000" "1710000000000")",
    };
    MonitorLine reused;
    QMap<qsizetype, MonitorLine> kept;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray& line = lines.at(i);
        MonitorLine fresh;
        QVERIFY(MonitorLine::parse(line, &fresh));
        QVERIFY(MonitorLine::parse(line, &reused));
        QCOMPARE(reused.timeUs, fresh.timeUs);
        QCOMPARE(reused.db, fresh.db);
        QCOMPARE(reused.source, fresh.source);
        QCOMPARE(reused.arguments, fresh.arguments);
        if (i % 2 == 0) // shares the buffers the next parse would otherwise write into
            kept.insert(i, reused);
        // A failed parse leaves the line as it was.
        QVERIFY(!MonitorLine::parse(R"(1.0 [0 lua] "ZADD" "cut)", &reused));
        QCOMPARE(reused.arguments, fresh.arguments);
    }
    for (auto it = kept.cbegin(); it != kept.cend(); ++it) {
        MonitorLine fresh;
        QVERIFY(MonitorLine::parse(lines.at(it.key()), &fresh));
        QCOMPARE(it->source, fresh.source);
        QCOMPARE(it->arguments, fresh.arguments);
    }
}

// Valkey 8.1.1 (Debian 13) writes quotes and backslashes as they are (valkey-io/valkey#2035): these
// lines are what it printed for SCRIPT LOAD and ECHO of the arguments below.
void TestMonitorLine::readsValkeysUnescapedQuotes()
{
    const QByteArray script = "1796318237.631224 [0 unix:/tmp/vk/s.sock] \"SCRIPT\" \"LOAD\" "
                              "\"return \"a\\\"b\" -- \\xc3\\xa9 \\t x\"";
    MonitorLine parsed;
    QVERIFY(!MonitorLine::parse(script, &parsed)); // not as Redis escapes a line
    QString error;
    QVERIFY2(MonitorLine::parse(script, &parsed, &error, true), qPrintable(error));
    QCOMPARE(parsed.arguments, (QList<QByteArray> {"SCRIPT", "LOAD", "return \"a\\\"b\" -- \xc3\xa9 \t x"}));
    const QByteArray echo = "1796318237.640095 [0 unix:/tmp/vk/s.sock] \"ECHO\" \"q\"u\\o\\x01te\"";
    QVERIFY2(MonitorLine::parse(echo, &parsed, &error, true), qPrintable(error));
    QCOMPARE(parsed.arguments, (QList<QByteArray> {"ECHO", "q\"u\\o\x01te"}));
    // A line Redis escapes reads as before, and one cut off is still refused.
    QVERIFY(MonitorLine::parse("5.5 [0 lua] \"SET\" \"a\\\"b\\\\\" \"\\\\\\\"\"", &parsed, &error, true));
    QCOMPARE(parsed.arguments, (QList<QByteArray> {"SET", "a\"b\\", "\\\""}));
    QVERIFY(!MonitorLine::parse("1.0 [0 lua] \"ZADD\" \"ab", &parsed, &error, true));
}

QTEST_APPLESS_MAIN(TestMonitorLine)
#include "tst_monitorline.moc"
