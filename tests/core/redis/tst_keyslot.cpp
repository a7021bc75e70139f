// The hash slot of a key as Redis Cluster computes it. The expected slots are the ones Redis
// itself documents or asserts (the CLUSTER KEYSLOT page, the cluster spec, Redis's own cluster
// tests); no server is needed: the test redis-server does not run in cluster mode.
#include "redis/keyslot.h"

#include <QtTest>

class TestKeySlot : public QObject
{
    Q_OBJECT
private slots:
    void crc16_data();
    void crc16();
    void tableMatchesTheBitwiseCrc();
    void hashTag_data();
    void hashTag();
    void slot_data();
    void slot();
    void keysThatShareASlot_data();
    void keysThatShareASlot();
};

void TestKeySlot::crc16_data()
{
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<int>("crc");
    // The cluster spec's check value for its CRC16 (XMODEM).
    QTest::newRow("the spec's test vector") << QByteArray("123456789") << 0x31C3;
    QTest::newRow("nothing") << QByteArray() << 0;
    QTest::newRow("one byte") << QByteArray("A") << 0x58E5;
    QTest::newRow("a zero byte") << QByteArray(1, '\0') << 0;
    QTest::newRow("bytes above 0x7f") << QByteArray("\xff\x80", 2) << 0x9277;
}

void TestKeySlot::crc16()
{
    QFETCH(QByteArray, data);
    QFETCH(int, crc);
    QCOMPARE(int(KeySlot::crc16(data)), crc);
}

// The table is made at compile time; the plain bit-by-bit CRC of the spec says what it must give.
void TestKeySlot::tableMatchesTheBitwiseCrc()
{
    auto bitwise = [](const QByteArray& data) {
        quint16 crc = 0;
        for (const char c : data) {
            crc ^= quint16(quint8(c) << 8);
            for (int bit = 0; bit < 8; ++bit)
                crc = (crc & 0x8000) ? quint16((crc << 1) ^ 0x1021) : quint16(crc << 1);
        }
        return crc;
    };
    QByteArray data;
    for (int byte = 0; byte < 256; ++byte) {
        const QByteArray one(1, char(byte));
        QCOMPARE(KeySlot::crc16(one), bitwise(one));
        data += char(byte);
        QCOMPARE(KeySlot::crc16(data), bitwise(data));
    }
}

void TestKeySlot::hashTag_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("tag"); // empty: the whole key is hashed
    // The cluster spec's examples.
    QTest::newRow("a tag in front") << QByteArray("{user1000}.following") << QByteArray("user1000");
    QTest::newRow("only the first tag counts") << QByteArray("foo{bar}{zap}") << QByteArray("bar");
    QTest::newRow("an empty first pair: the whole key") << QByteArray("foo{}{bar}") << QByteArray();
    QTest::newRow("a brace inside the tag") << QByteArray("foo{{bar}}zap") << QByteArray("{bar");
    // And the edges of the rule.
    QTest::newRow("no braces") << QByteArray("rl:user42") << QByteArray();
    QTest::newRow("a { without a } after it") << QByteArray("rl:{user42") << QByteArray();
    QTest::newRow("a } before the {") << QByteArray("a}{b") << QByteArray();
    QTest::newRow("a } before the tag") << QByteArray("a}{b}") << QByteArray("b");
    QTest::newRow("only {}") << QByteArray("{}") << QByteArray();
    QTest::newRow("a tag at the end") << QByteArray("rl:{user42}") << QByteArray("user42");
    QTest::newRow("a suffix after the tag") << QByteArray("rl:{user42}:seq") << QByteArray("user42");
    QTest::newRow("zsetlab's run key") << QByteArray("zsetlab:{run:20261201-120000-ab12}:seq")
                                       << QByteArray("run:20261201-120000-ab12");
    QTest::newRow("an empty key") << QByteArray() << QByteArray();
}

void TestKeySlot::hashTag()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, tag);
    QCOMPARE(KeySlot::hashTag(key), tag);
}

void TestKeySlot::slot_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<int>("slot");
    // CLUSTER KEYSLOT's documented examples.
    QTest::newRow("somekey") << QByteArray("somekey") << 11058;
    QTest::newRow("foo{hash_tag}") << QByteArray("foo{hash_tag}") << 2515;
    QTest::newRow("bar{hash_tag}") << QByteArray("bar{hash_tag}") << 2515;
    QTest::newRow("{user1}.following") << QByteArray("{user1}.following") << 8106;
    QTest::newRow("a long random key") << QByteArray("8xjx7vWrfPq54mKfFD3Y1CcjjofpnAcQ") << 5458;
    // Redis's own cluster tests (tests/unit/cluster: "foo slot", "bar slot", "slot 0").
    QTest::newRow("foo") << QByteArray("foo") << 12182;
    QTest::newRow("bar") << QByteArray("bar") << 5061;
    QTest::newRow("a key in slot 0") << QByteArray("key_977613") << 0;
    QTest::newRow("its tag in slot 0") << QByteArray("{key_977613}-foo") << 0;
    // The test vector: 0x31C3 = 12739 < 16384.
    QTest::newRow("123456789") << QByteArray("123456789") << 12739;
    // A CRC above 16383 keeps its low 14 bits: 0xAF96 % 16384.
    QTest::newRow("the modulo") << QByteArray("foo") << (0xAF96 % 16384);
    QTest::newRow("an empty key") << QByteArray() << 0;
}

void TestKeySlot::slot()
{
    QFETCH(QByteArray, key);
    QFETCH(int, slot);
    QCOMPARE(KeySlot::of(key), slot);
    QVERIFY(slot >= 0 && slot < KeySlot::slotCount);
}

void TestKeySlot::keysThatShareASlot_data()
{
    QTest::addColumn<QByteArray>("a");
    QTest::addColumn<QByteArray>("b");
    QTest::addColumn<bool>("shared");
    QTest::newRow("the spec's followers and following")
        << QByteArray("{user1000}.following") << QByteArray("{user1000}.followers") << true;
    QTest::newRow("a limiter's key and its counter, tagged")
        << QByteArray("rl:{user42}") << QByteArray("rl:{user42}:seq") << true;
    QTest::newRow("the same, untagged") << QByteArray("rl:user42") << QByteArray("rl:user42:seq") << false;
    QTest::newRow("the tag hashes like the bare word") << QByteArray("rl:{user42}") << QByteArray("user42") << true;
    QTest::newRow("an empty pair hashes the whole key") << QByteArray("foo{}{bar}") << QByteArray("bar") << false;
    QTest::newRow("a brace inside the tag") << QByteArray("foo{{bar}}zap") << QByteArray("{bar") << true;
}

void TestKeySlot::keysThatShareASlot()
{
    QFETCH(QByteArray, a);
    QFETCH(QByteArray, b);
    QFETCH(bool, shared);
    QCOMPARE(KeySlot::of(a) == KeySlot::of(b), shared);
}

QTEST_GUILESS_MAIN(TestKeySlot)
#include "tst_keyslot.moc"
