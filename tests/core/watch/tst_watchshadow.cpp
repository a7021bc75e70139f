#include "watch/watchshadow.h"

#include <QCryptographicHash>
#include <QtTest>

namespace {
// MONITOR's quoting (sdscatrepr) of one argument.
QByteArray quoted(const QByteArray& argument)
{
    QByteArray out("\"");
    for (const char c : argument) {
        switch (c) {
        case '\\':
            out += "\\\\";
            break;
        case '"':
            out += "\\\"";
            break;
        case '\n':
            out += "\\n";
            break;
        default:
            if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) > 126)
                out += "\\x" + QByteArray::number(static_cast<unsigned char>(c), 16).rightJustified(2, '0');
            else
                out += c;
        }
    }
    return out + '"';
}

// Turns the rows' shorthand into MONITOR lines: "[@MS] WHO ARG..." where WHO is c (a client at
// 127.0.0.1:5000), d (another client, 127.0.0.1:6000) or l (a script's own command); a line
// without @MS comes one millisecond after the one before. Arguments are separated by spaces.
QList<QByteArray> monitorLines(const QStringList& shorthand)
{
    QList<QByteArray> lines;
    qint64 ms = 1700000000000;
    for (const QString& row : shorthand) {
        QList<QByteArray> words = row.toUtf8().split(' ');
        if (words.first().startsWith('@'))
            ms = words.takeFirst().mid(1).toLongLong();
        else
            ++ms;
        const QByteArray who = words.takeFirst();
        const QByteArray source = who == "l" ? "lua" : who == "d" ? "127.0.0.1:6000" : "127.0.0.1:5000";
        QByteArray line = QByteArray::number(ms / 1000) + '.'
            + QByteArray::number((ms % 1000) * 1000).rightJustified(6, '0') + " [0 " + source + ']';
        for (const QByteArray& word : words)
            line += ' ' + quoted(word);
        lines.append(line);
    }
    return lines;
}

QStringList shorthand(std::initializer_list<const char*> rows)
{
    QStringList list;
    for (const char* row : rows)
        list << QString::fromUtf8(row);
    return list;
}

QString membersText(const ZsetShadow* shadow)
{
    if (!shadow)
        return QStringLiteral("(not watched)");
    QStringList parts;
    for (const auto& [member, score] : shadow->members())
        parts << QString::fromUtf8(member) + QLatin1Char(':') + QString::number(score);
    return parts.join(QLatin1Char(' '));
}
} // namespace

class TestWatchShadow : public QObject
{
    Q_OBJECT
private slots:
    void replaysCommands_data();
    void replaysCommands();
    void keyFirstSeenMidStream_data();
    void keyFirstSeenMidStream();
    void groupsScriptsAndNamesSources();
    void linesThatSwitchKeysAndSourcesLandOnTheirOwn();
    void plainPipelineIsOneRequestPerZadd();
    void followsOnlyMatchingKeysAndDatabase();
    void recordsAreBoundedWithADroppedCount();
    void keysAreBounded();
    void verdictNamesTheFix();
    void keyPatternsFollowRedisGlobs_data();
    void keyPatternsFollowRedisGlobs();
    void badLinesAreCountedNotFatal();
    void binaryMembers();
    void recordsSayWhatLeftTheSetAndWhen();
    void asksOnceForScriptsItNeverSaw();
    void aKeysCopyIsBounded();
    void allCopiesTogetherAreBounded();
    void scriptBodiesAreBounded();
};

void TestWatchShadow::replaysCommands_data()
{
    QTest::addColumn<QStringList>("lines");
    QTest::addColumn<QString>("members");
    QTest::addColumn<int>("zadds");
    QTest::addColumn<int>("overwrites");
    QTest::addColumn<int>("trueCount");

    QTest::newRow("ZADD new members") << shorthand({"c ZADD k 1 a 2 b", "c ZADD k 3 c"}) << "a:1 b:2 c:3" << 3 << 0
                                      << 3;
    QTest::newRow("ZADD now now overwrites")
        << shorthand({"c ZADD k 5 5", "c ZADD k 5 5", "c ZADD k 6 6"}) << "5:5 6:6" << 3 << 1 << 3;
    QTest::newRow("ZADD existing member, new score")
        << shorthand({"c ZADD k 1 a", "c ZADD k 9 a"}) << "a:9" << 2 << 1 << 2;
    QTest::newRow("ZADD NX keeps the score, still an overwrite")
        << shorthand({"c ZADD k 1 a", "c ZADD k NX 9 a 2 b"}) << "a:1 b:2" << 3 << 1 << 3;
    QTest::newRow("ZADD XX skips a new member") << shorthand({"c ZADD k XX 1 a"}) << "" << 1 << 0 << 0;
    QTest::newRow("ZADD XX updates") << shorthand({"c ZADD k 1 a", "c zadd k xx 4 a"}) << "a:4" << 2 << 1 << 2;
    QTest::newRow("ZADD GT lower score kept") << shorthand({"c ZADD k 5 a", "c ZADD k GT 3 a"}) << "a:5" << 2 << 1 << 2;
    QTest::newRow("ZADD GT higher score taken")
        << shorthand({"c ZADD k 5 a", "c ZADD k GT 7 a"}) << "a:7" << 2 << 1 << 2;
    QTest::newRow("ZADD LT") << shorthand({"c ZADD k 5 a", "c ZADD k LT 7 a", "c ZADD k LT 2 a"}) << "a:2" << 3 << 2
                             << 3;
    QTest::newRow("ZADD GT adds new members") << shorthand({"c ZADD k GT 1 a"}) << "a:1" << 1 << 0 << 1;
    QTest::newRow("ZADD CH") << shorthand({"c ZADD k CH 1 a", "c ZADD k CH 1 a"}) << "a:1" << 2 << 1 << 2;
    QTest::newRow("ZADD INCR") << shorthand({"c ZADD k INCR 2 a", "c ZADD k INCR 3 a"}) << "a:5" << 2 << 1 << 2;
    QTest::newRow("ZADD refused: NX and XX") << shorthand({"c ZADD k NX XX 1 a"}) << "" << 0 << 0 << 0;
    QTest::newRow("ZADD refused: GT and NX") << shorthand({"c ZADD k GT NX 1 a"}) << "" << 0 << 0 << 0;
    QTest::newRow("ZADD refused: GT and LT") << shorthand({"c ZADD k GT LT 1 a"}) << "" << 0 << 0 << 0;
    QTest::newRow("ZADD refused: INCR with two pairs") << shorthand({"c ZADD k INCR 1 a 2 b"}) << "" << 0 << 0 << 0;
    QTest::newRow("ZADD refused: a bad score") << shorthand({"c ZADD k 1 a x b"}) << "" << 0 << 0 << 0;
    QTest::newRow("ZADD refused: odd arguments") << shorthand({"c ZADD k 1 a 2"}) << "" << 0 << 0 << 0;
    QTest::newRow("ZADD infinite scores")
        << shorthand({"c ZADD k -inf a +inf b inf c"}) << "a:-inf b:inf c:inf" << 3 << 0 << 3;
    QTest::newRow("ZINCRBY") << shorthand({"c ZINCRBY k 2 a", "c ZINCRBY k 2.5 a"}) << "a:4.5" << 0 << 0 << 0;
    QTest::newRow("ZREM") << shorthand({"c ZADD k 1 a 2 b 3 c", "c ZREM k a c x"}) << "b:2" << 3 << 0 << 1;
    QTest::newRow("ZREMRANGEBYSCORE inclusive")
        << shorthand({"c ZADD k 1 a 2 b 3 c 4 d", "c ZREMRANGEBYSCORE k 2 3"}) << "a:1 d:4" << 4 << 0 << 2;
    QTest::newRow("ZREMRANGEBYSCORE exclusive")
        << shorthand({"c ZADD k 1 a 2 b 3 c 4 d", "c ZREMRANGEBYSCORE k (1 (4"}) << "a:1 d:4" << 4 << 0 << 2;
    QTest::newRow("ZREMRANGEBYSCORE -inf +inf")
        << shorthand({"c ZADD k 1 a 2 b", "c ZREMRANGEBYSCORE k -inf +inf"}) << "" << 2 << 0 << 0;
    QTest::newRow("ZREMRANGEBYSCORE -inf to a time")
        << shorthand({"c ZADD k 1 a 2 b 3 c", "c zremrangebyscore k -inf 2"}) << "c:3" << 3 << 0 << 1;
    QTest::newRow("ZREMRANGEBYSCORE min above max")
        << shorthand({"c ZADD k 1 a 2 b", "c ZREMRANGEBYSCORE k 2 1"}) << "a:1 b:2" << 2 << 0 << 2;
    QTest::newRow("ZREMRANGEBYSCORE after overwrites: truth counts each request")
        << shorthand({"c ZADD k 5 5", "c ZADD k 5 5", "c ZADD k 6 6", "c ZREMRANGEBYSCORE k 0 4"}) << "5:5 6:6" << 3
        << 1 << 3;
    QTest::newRow("ZREMRANGEBYRANK") << shorthand({"c ZADD k 1 a 2 b 3 c 4 d", "c ZREMRANGEBYRANK k 1 -2"}) << "a:1 d:4"
                                     << 4 << 0 << -1;
    QTest::newRow("ZREMRANGEBYRANK past the end")
        << shorthand({"c ZADD k 1 a 2 b", "c ZREMRANGEBYRANK k 5 9"}) << "a:1 b:2" << 2 << 0 << 2;
    QTest::newRow("ZREMRANGEBYRANK everything")
        << shorthand({"c ZADD k 1 a 2 b", "c ZREMRANGEBYRANK k 0 -1"}) << "" << 2 << 0 << 0;
    QTest::newRow("ZREMRANGEBYLEX") << shorthand({"c ZADD k 0 a 0 b 0 c 0 d", "c ZREMRANGEBYLEX k [b (d"}) << "a:0 d:0"
                                    << 4 << 0 << -1;
    QTest::newRow("ZREMRANGEBYLEX - +") << shorthand({"c ZADD k 0 a 0 b", "c ZREMRANGEBYLEX k - +"}) << "" << 2 << 0
                                        << -1;
    QTest::newRow("ZPOPMIN") << shorthand({"c ZADD k 1 a 2 b 3 c", "c ZPOPMIN k"}) << "b:2 c:3" << 3 << 0 << 2;
    QTest::newRow("ZPOPMIN with count") << shorthand({"c ZADD k 1 a 2 b 3 c", "c ZPOPMIN k 2"}) << "c:3" << 3 << 0 << 1;
    QTest::newRow("ZPOPMAX with count") << shorthand({"c ZADD k 1 a 2 b 3 c", "c ZPOPMAX k 5"}) << "" << 3 << 0 << 0;
    QTest::newRow("DEL") << shorthand({"c ZADD k 1 a", "c DEL other k"}) << "" << 1 << 0 << 0;
    QTest::newRow("UNLINK") << shorthand({"c ZADD k 1 a", "c UNLINK k"}) << "" << 1 << 0 << 0;
    QTest::newRow("RENAME away") << shorthand({"c ZADD k 1 a", "c RENAME k k2"}) << "" << 1 << 0 << 0;
    QTest::newRow("RENAME here") << shorthand({"c ZADD k2 1 a", "c ZADD k 7 z", "c RENAME k2 k"}) << "a:1" << 1 << 0
                                 << 1;
    QTest::newRow("RENAMENX onto an existing key does nothing")
        << shorthand({"c ZADD k2 1 a", "c ZADD k 7 z", "c RENAMENX k2 k"}) << "z:7" << 1 << 0 << 1;
    QTest::newRow("EXPIRE passed: empty when next touched")
        << shorthand({"@1000 c ZADD k 1 a", "@1001 c EXPIRE k 1", "@2002 c ZADD k 2 a"}) << "a:2" << 2 << 0 << 1;
    QTest::newRow("EXPIRE not yet passed")
        << shorthand({"@1000 c ZADD k 1 a", "@1001 c EXPIRE k 1", "@2001 c ZADD k 2 a"}) << "a:2" << 2 << 1 << 2;
    QTest::newRow("PEXPIRE passed") << shorthand({"@1000 c ZADD k 1 a", "@1000 c PEXPIRE k 5", "@1006 c ZADD k 1 a"})
                                    << "a:1" << 2 << 0 << 1;
    QTest::newRow("EXPIREAT passed") << shorthand({"@1000 c ZADD k 1 a", "@1000 c EXPIREAT k 2", "@2001 c ZADD k 1 a"})
                                     << "a:1" << 2 << 0 << 1;
    QTest::newRow("PEXPIREAT passed") << shorthand(
        {"@1000 c ZADD k 1 a", "@1000 c PEXPIREAT k 1500", "@1501 c ZADD k 1 a"})
                                      << "a:1" << 2 << 0 << 1;
    QTest::newRow("PERSIST keeps the key")
        << shorthand({"@1000 c ZADD k 1 a", "@1000 c PEXPIRE k 5", "@1001 c PERSIST k", "@9000 c ZADD k 1 a"}) << "a:1"
        << 2 << 1 << 2;
    QTest::newRow("EXPIRE 0 deletes at once") << shorthand({"c ZADD k 1 a", "c EXPIRE k 0"}) << "" << 1 << 0 << 0;
    QTest::newRow("EXPIRE NX keeps the first deadline")
        << shorthand({"@1000 c ZADD k 1 a", "@1000 c PEXPIRE k 5", "@1000 c PEXPIRE k 100 NX", "@1006 c ZADD k 1 a"})
        << "a:1" << 2 << 0 << 1;
    QTest::newRow("EXPIRE XX without a deadline does nothing")
        << shorthand({"@1000 c ZADD k 1 a", "@1000 c PEXPIRE k 5 XX", "@1006 c ZADD k 1 a"}) << "a:1" << 2 << 1 << 2;
    QTest::newRow("EXPIRE GT lengthens") << shorthand(
        {"@1000 c ZADD k 1 a", "@1000 c PEXPIRE k 5", "@1000 c PEXPIRE k 100 GT", "@1006 c ZADD k 1 a"})
                                         << "a:1" << 2 << 1 << 2;
    QTest::newRow("EXPIRE LT shortens") << shorthand(
        {"@1000 c ZADD k 1 a", "@1000 c PEXPIRE k 100", "@1000 c PEXPIRE k 5 LT", "@1006 c ZADD k 1 a"})
                                        << "a:1" << 2 << 0 << 1;
    QTest::newRow("EXPIRE on a key that is gone does nothing") << shorthand(
        {"@1000 c ZADD k 1 a", "@1000 c DEL k", "@1000 c PEXPIRE k 5", "@1006 c ZADD k 1 a", "@1007 c ZADD k 1 a"})
                                                               << "a:1" << 3 << 1 << 2;
    QTest::newRow("FLUSHALL") << shorthand({"c ZADD k 1 a", "c FLUSHALL"}) << "" << 1 << 0 << 0;
    QTest::newRow("script commands replay the same") << shorthand(
        {"c EVALSHA abc 1 k 5", "l ZREMRANGEBYSCORE k 0 4", "l ZADD k 5 5", "l ZCARD k", "l EXPIRE k 1000",
         "c EVALSHA abc 1 k 5", "l ZREMRANGEBYSCORE k 0 4", "l ZADD k 5 5", "l ZCARD k", "l EXPIRE k 1000"})
                                                     << "5:5" << 2 << 1 << 2;
}

void TestWatchShadow::replaysCommands()
{
    QFETCH(QStringList, lines);
    QFETCH(QString, members);
    QFETCH(int, zadds);
    QFETCH(int, overwrites);
    QFETCH(int, trueCount);
    WatchShadow shadow;
    shadow.setKnownState(0, "k", {}); // read before the first line: empty
    shadow.setKnownState(0, "k2", {});
    for (const QByteArray& line : monitorLines(lines))
        QVERIFY2(shadow.feed(line), line.constData());
    QCOMPARE(membersText(shadow.members(0, "k")), members);
    const WatchedKey key = shadow.figures(0, "k");
    QCOMPARE(key.zadds, qint64(zadds));
    QCOMPARE(key.overwrites, qint64(overwrites));
    QCOMPARE(key.size, qint64(shadow.members(0, "k")->size()));
    QCOMPARE(key.trueCount, qint64(trueCount));
    QVERIFY(key.stateKnown);
}

void TestWatchShadow::keyFirstSeenMidStream_data()
{
    QTest::addColumn<QStringList>("lines");
    QTest::addColumn<bool>("known");
    QTest::addColumn<int>("trueCount");
    QTest::newRow("ZADD alone") << shorthand({"c ZADD k 100 100"}) << false << -1;
    QTest::newRow("a trim below what the watch saw")
        << shorthand({"c ZADD k 100 100", "c ZREMRANGEBYSCORE k 0 99"}) << false << -1;
    QTest::newRow("a trim past the first score seen makes it known")
        << shorthand({"c ZADD k 100 100", "c ZADD k 200 200", "c ZREMRANGEBYSCORE k 0 150"}) << true << 1;
    QTest::newRow("a trim from -inf") << shorthand({"c ZADD k 100 100", "c ZREMRANGEBYSCORE k -inf 100"}) << true << 0;
    QTest::newRow("a trim from above 0 does not")
        << shorthand({"c ZADD k 100 100", "c ZREMRANGEBYSCORE k 50 200"}) << false << -1;
    QTest::newRow("DEL makes it known") << shorthand({"c ZADD k 100 100", "c DEL k", "c ZADD k 1 a"}) << true << 1;
    QTest::newRow("expiry makes it known")
        << shorthand({"@1000 c ZADD k 1 a", "@1000 c PEXPIRE k 5", "@1006 c ZADD k 1 a"}) << true << 1;
}

void TestWatchShadow::keyFirstSeenMidStream()
{
    QFETCH(QStringList, lines);
    QFETCH(bool, known);
    QFETCH(int, trueCount);
    WatchShadow shadow;
    for (const QByteArray& line : monitorLines(lines))
        QVERIFY(shadow.feed(line));
    const WatchedKey key = shadow.figures(0, "k");
    QCOMPARE(key.stateKnown, known);
    QCOMPARE(key.trueCount, qint64(trueCount));
    const QList<WatchShadow::KeyName> toRead = shadow.takeKeysToRead();
    QCOMPARE(toRead.size(), 1);
    QCOMPARE(toRead.first().key, QByteArray("k"));
    QVERIFY(shadow.takeKeysToRead().isEmpty());
}

void TestWatchShadow::groupsScriptsAndNamesSources()
{
    WatchShadow shadow;
    shadow.setKnownState(0, "k", {});
    const QStringList lines = shorthand({
        "c EVAL return_1 1 k", // EVAL of a script whose body is "return_1"
        "l ZADD k 5 5", "l ZCARD k", "c EVALSHA ABCDEF 1 k", "l ZREMRANGEBYSCORE k 0 1", "l ZADD k 5 5", "l ZADD k 6 6",
        "c ZCARD k", // a plain read is not a request
        "d ZADD k 5 5", // a plain ZADD is one
    });
    for (const QByteArray& line : monitorLines(lines))
        QVERIFY(shadow.feed(line));
    const WatchedKey key = shadow.figures(0, "k");
    QCOMPARE(key.requests, 3);
    QCOMPARE(key.zadds, 4);
    QCOMPARE(key.overwrites, 2);
    QCOMPARE(key.overwritesOfTime, 2);
    QCOMPARE(key.sources.size(), 3);
    const QByteArray evalSha = QCryptographicHash::hash("return_1", QCryptographicHash::Sha1).toHex();
    QCOMPARE(key.sources.at(0).kind, WatchSource::Kind::Script);
    QCOMPARE(key.sources.at(0).id, evalSha);
    QCOMPARE(key.sources.at(0).requests, 1);
    QCOMPARE(key.sources.at(0).overwrites, 0);
    QCOMPARE(key.sources.at(1).id, QByteArray("abcdef"));
    QCOMPARE(key.sources.at(1).requests, 1);
    QCOMPARE(key.sources.at(1).overwrites, 1);
    QCOMPARE(key.sources.at(2).kind, WatchSource::Kind::Client);
    QCOMPARE(key.sources.at(2).id, QByteArray("127.0.0.1:6000"));
    QCOMPARE(key.sources.at(2).overwrites, 1);
    QCOMPARE(shadow.scriptBody(evalSha), QByteArray("return_1"));
    QCOMPARE(shadow.snapshot().scriptCalls, 2);
}

// The shadow remembers the key and the source of the line before (most lines repeat them): lines
// that switch between keys, databases and scripts must still be counted where they belong.
void TestWatchShadow::linesThatSwitchKeysAndSourcesLandOnTheirOwn()
{
    WatchShadow shadow;
    shadow.setKnownState(0, "k", {});
    shadow.setKnownState(0, "j", {});
    shadow.setKnownState(1, "k", {});
    const QList<QByteArray> lines {
        R"(1.000001 [0 127.0.0.1:5000] "EVALSHA" "aaaa" "1" "k")",
        R"(1.000001 [0 lua] "ZADD" "k" "1" "1")",
        R"(1.000002 [0 127.0.0.1:5000] "EVALSHA" "bbbb" "1" "k")",
        R"(1.000002 [0 lua] "ZADD" "k" "1" "1")",
        R"(1.000003 [0 127.0.0.1:5000] "EVALSHA" "aaaa" "2" "j" "k")",
        R"(1.000003 [0 lua] "ZADD" "j" "2" "2")",
        R"(1.000003 [0 lua] "ZADD" "k" "2" "2")",
        R"(1.000004 [1 127.0.0.1:5000] "EVALSHA" "aaaa" "1" "k")",
        R"(1.000004 [1 lua] "ZADD" "k" "3" "3")",
        R"(1.000005 [0 127.0.0.1:6000] "ZADD" "k" "4" "4")",
        R"(1.000006 [0 127.0.0.1:5000] "EVALSHA" "bbbb" "1" "k")",
        R"(1.000006 [0 lua] "ZADD" "k" "4" "4")",
    };
    for (const QByteArray& line : lines)
        QVERIFY(shadow.feed(line));

    const WatchedKey k = shadow.figures(0, "k");
    QCOMPARE(k.requests, 5);
    QCOMPARE(k.zadds, 5);
    QCOMPARE(k.overwrites, 2);
    QCOMPARE(k.size, 3);
    QCOMPARE(k.sources.size(), 3);
    QCOMPARE(k.sources.at(0).id, QByteArray("aaaa"));
    QCOMPARE(k.sources.at(0).requests, 2);
    QCOMPARE(k.sources.at(0).overwrites, 0);
    QCOMPARE(k.sources.at(1).id, QByteArray("bbbb"));
    QCOMPARE(k.sources.at(1).requests, 2);
    QCOMPARE(k.sources.at(1).overwrites, 2);
    QCOMPARE(k.sources.at(2).kind, WatchSource::Kind::Client);
    QCOMPARE(k.sources.at(2).id, QByteArray("127.0.0.1:6000"));
    QCOMPARE(k.sources.at(2).requests, 1);
    QCOMPARE(k.sources.at(2).overwrites, 0);

    const WatchedKey j = shadow.figures(0, "j");
    QCOMPARE(j.requests, 1);
    QCOMPARE(j.size, 1);
    QCOMPARE(j.sources.size(), 1);
    QCOMPARE(j.sources.first().id, QByteArray("aaaa"));

    const WatchedKey otherDb = shadow.figures(1, "k");
    QCOMPARE(otherDb.requests, 1);
    QCOMPARE(otherDb.size, 1);
    QCOMPARE(membersText(shadow.members(1, "k")), QStringLiteral("3:3"));
    QCOMPARE(membersText(shadow.members(0, "k")), QStringLiteral("1:1 2:2 4:4"));
}

void TestWatchShadow::plainPipelineIsOneRequestPerZadd()
{
    // The client-side limiter many apps write: trim, ZADD now now, ZCARD, EXPIRE, no Lua.
    WatchShadow shadow;
    shadow.setKnownState(0, "rl:py", {});
    QStringList lines;
    for (int i = 0; i < 10; ++i) {
        const QString now = QString::number(1000 + i / 4); // four requests per millisecond
        lines << QStringLiteral("@%1 c ZREMRANGEBYSCORE rl:py 0 %2").arg(now, QString::number(now.toInt() - 1000))
              << QStringLiteral("@%1 c ZADD rl:py %1 %1").arg(now) << QStringLiteral("@%1 c ZCARD rl:py").arg(now)
              << QStringLiteral("@%1 c PEXPIRE rl:py 1000").arg(now);
    }
    for (const QByteArray& line : monitorLines(lines))
        QVERIFY(shadow.feed(line));
    const WatchedKey key = shadow.figures(0, "rl:py");
    QCOMPARE(key.requests, 10);
    QCOMPARE(key.overwrites, 7);
    QCOMPARE(key.distinctMembers, 3);
    QCOMPARE(key.size, 3);
    QCOMPARE(key.trueCount, 10);
    QCOMPARE(key.sources.size(), 1);
    QCOMPARE(key.sources.first().id, QByteArray("127.0.0.1:5000"));
    QVERIFY2(key.verdict().contains(QLatin1String("7 of 10 requests overwrote a member: the member is the time")),
             qPrintable(key.verdict()));

    // Each ZADD's record carries what the ZCARD after it counted and the true count: the timeline's
    // counts chart draws these two.
    const QVector<WatchRecord> records = shadow.snapshot().keys.first().records;
    QCOMPARE(records.size(), 10);
    const qint64 counted[] = {1, 1, 1, 1, 2, 2, 2, 2, 3, 3};
    for (int i = 0; i < 10; ++i) {
        QCOMPARE(records.at(i).sizeAfter, counted[i]);
        QCOMPARE(records.at(i).truthAfter, qint64(i + 1));
    }
}

void TestWatchShadow::followsOnlyMatchingKeysAndDatabase()
{
    WatchShadow shadow({KeyPattern("rl:*"), KeyPattern("limit:[ab]")}, 2);
    QVERIFY(shadow.watches(2, "rl:x"));
    QVERIFY(shadow.watches(2, "limit:a"));
    QVERIFY(!shadow.watches(2, "limit:c"));
    QVERIFY(!shadow.watches(0, "rl:x"));
    QVERIFY(shadow.feed("1.0 [2 lua] \"ZADD\" \"rl:x\" \"1\" \"1\""));
    QVERIFY(shadow.feed("1.0 [0 lua] \"ZADD\" \"rl:y\" \"1\" \"1\""));
    QVERIFY(shadow.feed("1.0 [2 lua] \"ZADD\" \"other\" \"1\" \"1\""));
    QVERIFY(shadow.feed("1.0 [2 lua] \"SET\" \"rl:string\" \"1\""));
    const WatchSnapshot snapshot = shadow.snapshot();
    QCOMPARE(snapshot.keys.size(), 1);
    QCOMPARE(snapshot.keys.first().key, QByteArray("rl:x"));
    QCOMPARE(snapshot.keys.first().db, 2);
    QCOMPARE(snapshot.commandsSeen, 4);
}

void TestWatchShadow::recordsAreBoundedWithADroppedCount()
{
    WatchShadow::Limits limits;
    limits.recordsPerKey = 5;
    WatchShadow shadow({}, -1, limits);
    shadow.setKnownState(0, "k", {});
    QStringList lines;
    for (int i = 0; i < 8; ++i)
        lines << QStringLiteral("c ZADD k %1 %1").arg(i / 2);
    for (const QByteArray& line : monitorLines(lines))
        QVERIFY(shadow.feed(line));
    WatchSnapshot first = shadow.snapshot();
    QCOMPARE(first.keys.first().records.size(), 5);
    QCOMPARE(first.keys.first().droppedRecords, 3);
    QCOMPARE(first.keys.first().records.at(0).outcome, WatchRecord::Outcome::Stored);
    QCOMPARE(first.keys.first().records.at(1).outcome, WatchRecord::Outcome::Overwrote);
    QCOMPARE(first.keys.first().records.at(1).member, QByteArray("0"));
    // Each snapshot hands on only the records since the one before.
    QVERIFY(shadow.feed(monitorLines(shorthand({"@1800000000000 c ZADD k 9 9"})).first()));
    const WatchSnapshot second = shadow.snapshot();
    QCOMPARE(second.keys.first().records.size(), 1);
    QCOMPARE(second.keys.first().records.first().timeUs, Q_INT64_C(1800000000000000));
    QCOMPARE(second.keys.first().zadds, 9);
}

void TestWatchShadow::keysAreBounded()
{
    WatchShadow::Limits limits;
    limits.keys = 3;
    WatchShadow shadow({}, -1, limits);
    for (int i = 0; i < 5; ++i)
        QVERIFY(shadow.feed(monitorLines({QStringLiteral("c ZADD k%1 1 a").arg(i)}).first()));
    const WatchSnapshot snapshot = shadow.snapshot();
    QCOMPARE(snapshot.keys.size(), 3);
    QCOMPARE(snapshot.droppedKeys, 2);
}

void TestWatchShadow::verdictNamesTheFix()
{
    WatchSnapshot none;
    QVERIFY(none.verdict().contains(QLatin1String("--pattern")));
    WatchedKey good;
    good.requests = 9870;
    QVERIFY2(good.verdict().contains(QLatin1String("None of")), qPrintable(good.verdict()));
    WatchedKey bad;
    bad.requests = 9870;
    bad.overwrites = 3412;
    bad.overwritesOfTime = 3412;
    QVERIFY(bad.verdict().contains(QLatin1String("the member is the time")));
    QVERIFY(bad.verdict().contains(QLatin1String("Use a unique member")));
    bad.overwritesOfTime = 0;
    QVERIFY(!bad.verdict().contains(QLatin1String("the member is the time")));
    QVERIFY(bad.verdict().contains(QLatin1String("Use a unique member")));
}

void TestWatchShadow::keyPatternsFollowRedisGlobs_data()
{
    QTest::addColumn<QByteArray>("pattern");
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<bool>("matches");
    QTest::newRow("star") << QByteArray("rl:*") << QByteArray("rl:user1") << true;
    QTest::newRow("star matches nothing") << QByteArray("rl:*") << QByteArray("rl:") << true;
    QTest::newRow("star elsewhere") << QByteArray("rl:*") << QByteArray("xrl:1") << false;
    QTest::newRow("lone star, empty key") << QByteArray("*") << QByteArray() << true;
    QTest::newRow("two stars") << QByteArray("*:*:x") << QByteArray("a:b:c:x") << true;
    QTest::newRow("question mark") << QByteArray("u?") << QByteArray("u1") << true;
    QTest::newRow("question mark needs a byte") << QByteArray("u?") << QByteArray("u") << false;
    QTest::newRow("set") << QByteArray("u[12]") << QByteArray("u2") << true;
    QTest::newRow("set misses") << QByteArray("u[12]") << QByteArray("u3") << false;
    QTest::newRow("negated set") << QByteArray("u[^12]") << QByteArray("u3") << true;
    QTest::newRow("range") << QByteArray("u[a-c]") << QByteArray("ub") << true;
    QTest::newRow("reversed range") << QByteArray("u[c-a]") << QByteArray("ub") << true;
    QTest::newRow("escaped star") << QByteArray("a\\*") << QByteArray("a*") << true;
    QTest::newRow("escaped star is no wildcard") << QByteArray("a\\*") << QByteArray("ab") << false;
    QTest::newRow("escaped bracket in a set") << QByteArray("[\\]]") << QByteArray("]") << true;
    QTest::newRow("unclosed set") << QByteArray("a[b") << QByteArray("ab") << true;
    QTest::newRow("case matters") << QByteArray("RL:*") << QByteArray("rl:1") << false;
    QTest::newRow("binary") << QByteArray("k\x01*") << QByteArray("k\x01\xff") << true;
    QTest::newRow("many stars") << QByteArray(2000, '*') + 'x' << QByteArray(50, 'a') << false;
}

void TestWatchShadow::keyPatternsFollowRedisGlobs()
{
    QFETCH(QByteArray, pattern);
    QFETCH(QByteArray, key);
    QFETCH(bool, matches);
    QCOMPARE(KeyPattern(pattern).matches(key), matches);
}

void TestWatchShadow::badLinesAreCountedNotFatal()
{
    WatchShadow shadow;
    QVERIFY(!shadow.feed("OK"));
    QVERIFY(!shadow.feed("1.0 [0 lua] \"ZADD\" \"k"));
    QVERIFY(shadow.feed("1.0 [0 lua] \"ZADD\""));
    QVERIFY(shadow.feed("1.0 [0 lua] \"ZREMRANGEBYSCORE\" \"k\" \"x\" \"1\""));
    QVERIFY(shadow.feed("1.0 [0 lua] \"ZPOPMIN\" \"k\" \"-3\""));
    const WatchSnapshot snapshot = shadow.snapshot();
    QCOMPARE(snapshot.droppedLines, 2);
    QCOMPARE(snapshot.commandsSeen, 3);
}

void TestWatchShadow::binaryMembers()
{
    WatchShadow shadow;
    shadow.setKnownState(0, QByteArray("k\xff", 2), {});
    const QByteArray member("a\"b\\\n\x00\x01", 7);
    const QList<QByteArray> lines = monitorLines({QStringLiteral("c ZADD X 1 X"), QStringLiteral("c ZADD X 1 X")});
    for (QByteArray line : lines) {
        line.replace(QByteArray("\"X\" \"1\" \"X\""), QByteArray(QByteArray("\"k\\xff\" \"1\" ") + quoted(member)));
        QVERIFY2(shadow.feed(line), line.constData());
    }
    const WatchedKey key = shadow.figures(0, QByteArray("k\xff", 2));
    QCOMPARE(key.overwrites, 1);
    QCOMPARE(shadow.members(0, QByteArray("k\xff", 2))->contains(member), true);
}

// Each ZADD record carries what left the set before it (removedBefore) and what its own script
// call removed after it (removedAfter), so that a recording knows the set after every request.
void TestWatchShadow::recordsSayWhatLeftTheSetAndWhen()
{
    WatchShadow shadow;
    shadow.setKnownState(0, "k", {{"old", 1}, {"older", 0}});
    auto text = [](const std::vector<WatchMember>& members) {
        QStringList parts;
        for (const auto& [member, score] : members)
            parts << QString::fromUtf8(member) + QLatin1Char(':') + QString::number(score);
        return parts.join(QLatin1Char(' '));
    };
    auto feed = [&shadow](std::initializer_list<const char*> rows) {
        for (const QByteArray& line : monitorLines(shorthand(rows)))
            QVERIFY(shadow.feed(line));
    };
    // A sliding log that trims before it writes.
    feed({"c EVALSHA aa 1 k", "l ZREMRANGEBYSCORE k 0 0", "l ZADD k 10 a"});
    // The call may go on: its record waits.
    WatchSnapshot snapshot = shadow.snapshot();
    QCOMPARE(snapshot.keys.size(), 1);
    QCOMPARE(snapshot.keys.first().records.size(), 0);
    QCOMPARE(text(snapshot.keys.first().preexisting), QStringLiteral("older:0 old:1"));
    // One that writes, then takes its member back when over the limit, and trims after.
    feed({"c EVALSHA bb 1 k", "l ZADD k 11 b", "l ZCARD k", "l ZREM k b", "l ZREMRANGEBYSCORE k 0 1"});
    // A plain client's ZADD, then a delete by another.
    feed({"d ZADD k 12 c", "c ZREM k a", "d ZADD k 13 a"});
    snapshot = shadow.snapshot(true, true);
    const QVector<WatchRecord>& records = snapshot.keys.first().records;
    QCOMPARE(records.size(), 4);
    QCOMPARE(text(records.at(0).removedBefore), QStringLiteral("older:0"));
    QCOMPARE(text(records.at(0).removedAfter), QString());
    QCOMPARE(records.at(0).sizeAfter, 2); // old, a
    QCOMPARE(text(records.at(1).removedBefore), QString());
    QCOMPARE(text(records.at(1).removedAfter), QStringLiteral("b:11 old:1"));
    QCOMPARE(records.at(1).sizeAfter, 3); // what its ZCARD counted
    QCOMPARE(text(records.at(2).removedAfter), QString()); // a plain command: its own request
    QCOMPARE(text(records.at(3).removedBefore), QStringLiteral("a:10"));
    QCOMPARE(records.at(3).outcome, WatchRecord::Outcome::Stored);
    QVERIFY(snapshot.keys.first().preexisting.empty()); // handed on once
    QCOMPARE(membersText(shadow.members(0, "k")), QStringLiteral("c:12 a:13"));
}

// An EVALSHA of a script loaded before the watch: its SHA1 is asked for once (Valkey 8 answers
// SCRIPT SHOW), and a body is kept only when it is the script of that SHA1.
void TestWatchShadow::asksOnceForScriptsItNeverSaw()
{
    WatchShadow shadow;
    const QByteArray body = "return redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1])";
    const QByteArray sha = QCryptographicHash::hash(body, QCryptographicHash::Sha1).toHex();
    const QByteArray loaded = "return 1";
    const QByteArray loadedSha = QCryptographicHash::hash(loaded, QCryptographicHash::Sha1).toHex();
    const QList<QByteArray> lines = monitorLines({
        QStringLiteral("c SCRIPT LOAD return_1"),
        QStringLiteral("c EVALSHA %1 1 k 5").arg(QString::fromLatin1(sha.toUpper())),
        QStringLiteral("l ZADD k 5 5"),
        QStringLiteral("c EVALSHA %1 1 k 6").arg(QString::fromLatin1(sha)),
        QStringLiteral("l ZADD k 6 6"),
    });
    for (QByteArray line : lines)
        QVERIFY(shadow.feed(line.replace("return_1", "return 1")));
    QCOMPARE(shadow.takeScriptsToRead(), QList<QByteArray> {sha}); // once, in lower case
    QVERIFY(shadow.takeScriptsToRead().isEmpty());
    QVERIFY(!shadow.scriptShas().contains(sha));
    shadow.setScriptBody(sha, "return 2"); // not its body
    QVERIFY(!shadow.scriptShas().contains(sha));
    shadow.setScriptBody(sha, body);
    QCOMPARE(shadow.scriptBody(sha), body);
    QCOMPARE(shadow.scriptBody(loadedSha), loaded);
}

// Issue #44: a key's member copy had no bound (6M distinct members: 1.28 GB; members of 1 MB:
// 557 MB in 20 s). Past the bound the key is followed no further, and the snapshot says so.
void TestWatchShadow::aKeysCopyIsBounded()
{
    WatchShadow::Limits limits;
    limits.membersPerKey = 100;
    WatchShadow shadow({}, -1, limits);
    for (int i = 0; i < 150; ++i)
        QVERIFY(shadow.feed(monitorLines({QStringLiteral("c ZADD big %1 m%1").arg(i)}).first()));
    QVERIFY(shadow.feed(monitorLines({QStringLiteral("c ZADD small 1 a")}).first()));
    QVERIFY(shadow.feed(monitorLines({QStringLiteral("c ZADD small 2 a")}).first()));
    const WatchSnapshot snapshot = shadow.snapshot();
    QCOMPARE(snapshot.cappedKeys, 1);
    QCOMPARE(snapshot.keys.size(), 2);
    const WatchedKey& big = snapshot.keys.at(0);
    QCOMPARE(big.key, QByteArray("big"));
    QVERIFY(big.capped);
    QCOMPARE(big.requests, 101); // counted until its copy passed the bound, not after
    QCOMPARE(big.size, 101);
    QCOMPARE(shadow.members(0, "big")->size(), 0); // its memory given back
    const WatchedKey& small = snapshot.keys.at(1);
    QVERIFY(!small.capped);
    QCOMPARE(small.overwrites, 1); // the others are followed as before
    QVERIFY(big.toJson().value(QLatin1String("capped")).toBool());

    // Members of a megabyte each reach the bound of bytes long before the bound of members.
    WatchShadow::Limits bytes;
    bytes.memberBytes = 8 << 20;
    WatchShadow large({}, -1, bytes);
    const QByteArray huge(1 << 20, 'x');
    for (int i = 0; i < 20; ++i)
        large.feed(
            monitorLines({QStringLiteral("c ZADD k %1 %2").arg(i).arg(QString::fromLatin1(huge) + QString::number(i))})
                .first());
    QCOMPARE(large.snapshot().cappedKeys, 1);
}

void TestWatchShadow::allCopiesTogetherAreBounded()
{
    WatchShadow::Limits limits;
    limits.memberBytes = 100 * (ZsetShadow::bytesPerMember + 4);
    WatchShadow shadow({}, -1, limits);
    for (int i = 0; i < 80; ++i) // the larger key
        QVERIFY(shadow.feed(monitorLines({QStringLiteral("c ZADD a %1 m%1").arg(i, 3, 10, QLatin1Char('0'))}).first()));
    for (int i = 0; i < 30; ++i) // the one that passes the bound of all copies
        QVERIFY(shadow.feed(monitorLines({QStringLiteral("c ZADD b %1 m%1").arg(i, 3, 10, QLatin1Char('0'))}).first()));
    const WatchSnapshot snapshot = shadow.snapshot();
    QCOMPARE(snapshot.cappedKeys, 1);
    QVERIFY(snapshot.keys.at(0).capped); // the largest went
    QVERIFY(!snapshot.keys.at(1).capped);
    QCOMPARE(snapshot.keys.at(1).size, 30);
}

// Issue #44: up to 64 bodies of up to 64 MiB each (SCRIPT SHOW) reached 1.09 GB.
void TestWatchShadow::scriptBodiesAreBounded()
{
    WatchShadow::Limits limits;
    limits.scriptBytes = 1024;
    limits.scriptBytesInAll = 3000;
    WatchShadow shadow({}, -1, limits);
    const QByteArray tooLong = "return '" + QByteArray(2000, 'x') + "'";
    const QByteArray tooLongSha = QCryptographicHash::hash(tooLong, QCryptographicHash::Sha1).toHex();
    QVERIFY(
        shadow.feed(monitorLines({QStringLiteral("c EVALSHA %1 1 k 5").arg(QString::fromLatin1(tooLongSha))}).first()));
    QCOMPARE(shadow.takeScriptsToRead(), QList<QByteArray> {tooLongSha});
    shadow.setScriptBody(tooLongSha, tooLong);
    QVERIFY(shadow.scriptShas().isEmpty());
    // A server that tells a body past the bound is asked no more (each would cost its transfer).
    const QByteArray other(40, 'a');
    QVERIFY(shadow.feed(monitorLines({QStringLiteral("c EVALSHA %1 1 k 6").arg(QString::fromLatin1(other))}).first()));
    QVERIFY(shadow.takeScriptsToRead().isEmpty());
    for (int i = 0; i < 4; ++i) { // 900 bytes each: three fit in 3000
        const QByteArray body = "return " + QByteArray::number(i) + " --" + QByteArray(890, 'y');
        shadow.setScriptBody(QCryptographicHash::hash(body, QCryptographicHash::Sha1).toHex(), body);
    }
    QCOMPARE(shadow.scriptShas().size(), 3);
    QCOMPARE(shadow.snapshot().scriptsNotKept, 2);
}

QTEST_APPLESS_MAIN(TestWatchShadow)
#include "tst_watchshadow.moc"
