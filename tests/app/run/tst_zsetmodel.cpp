#include "results/memberwrites.h"
#include "run/zsetmodel.h"
#include "testredis.h"

#include <QAbstractItemModelTester>
#include <QtTest>

class TestZsetModel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void pagesInRowsOnDemand();
    void showsScoresAsExactIntegers();
    void filtersByScoreRange();
    void filtersByMemberText();
    void followsAGrowingZset();
    void reportsAKeyOfAnotherType();
    void formatsScores_data();
    void formatsScores();

private:
    ZsetQuery queryOf(const QByteArray& key) const
    {
        ZsetQuery query;
        query.key = key;
        return query;
    }
    RedisConnection m_redis;
    QByteArray m_key; // 1000 members m0000..m0999 with scores 1710000000000 + i
};

void TestZsetModel::initTestCase()
{
    QVERIFY(TestRedis::connect(m_redis));
    m_key = TestRedis::uniqueKey("table");
    RedisArgs add {"ZADD", m_key};
    for (int i = 0; i < 1000; ++i)
        add << QByteArray::number(1710000000000LL + i)
            << QByteArray("m") + QByteArray::number(i).rightJustified(4, '0');
    QCOMPARE(m_redis.command(add).toInteger(), 1000);
}

void TestZsetModel::cleanupTestCase()
{
    m_redis.command({"DEL", m_key});
}

void TestZsetModel::pagesInRowsOnDemand()
{
    ZsetReader reader;
    reader.setEndpoint(TestRedis::endpoint(), {});
    ZsetModel model(&reader);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setQuery(queryOf(m_key));
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1000, 5000);
    // Not loaded yet: a placeholder, and a request for its page.
    QCOMPARE(model.index(750, ZsetModel::MemberColumn).data().toString(), QStringLiteral("…"));
    QTRY_COMPARE_WITH_TIMEOUT(model.index(750, ZsetModel::MemberColumn).data().toString(), QStringLiteral("m0750"),
                              5000);
    QCOMPARE(model.index(750, ZsetModel::RankColumn).data().toInt(), 750);
    QCOMPARE(model.index(799, ZsetModel::MemberColumn).data().toString(), QStringLiteral("m0799")); // same page
}

void TestZsetModel::showsScoresAsExactIntegers()
{
    ZsetReader reader;
    reader.setEndpoint(TestRedis::endpoint(), {});
    ZsetModel model(&reader);
    model.setQuery(queryOf(m_key));
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1000, 5000);
    model.index(3, 0).data();
    QTRY_COMPARE_WITH_TIMEOUT(model.index(3, ZsetModel::ScoreColumn).data().toString(), QStringLiteral("1710000000003"),
                              5000);
}

void TestZsetModel::filtersByScoreRange()
{
    ZsetReader reader;
    reader.setEndpoint(TestRedis::endpoint(), {});
    ZsetModel model(&reader);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ZsetQuery query = queryOf(m_key);
    query.minScore = 1710000000100.0;
    query.maxScore = 1710000000149.0;
    model.setQuery(query);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 50, 5000);
    model.index(0, 0).data();
    QTRY_COMPARE_WITH_TIMEOUT(model.index(0, ZsetModel::MemberColumn).data().toString(), QStringLiteral("m0100"), 5000);
    QCOMPARE(model.index(49, ZsetModel::MemberColumn).data().toString(), QStringLiteral("m0149"));
    // The rank is the member's ZRANK in the whole ZSET, not its row under the filter.
    QCOMPARE(model.index(0, ZsetModel::RankColumn).data().toInt(), 100);
    QCOMPARE(model.index(49, ZsetModel::RankColumn).data().toInt(),
             int(m_redis.command({"ZRANK", m_key, "m0149"}).toInteger()));
}

void TestZsetModel::filtersByMemberText()
{
    ZsetReader reader;
    reader.setEndpoint(TestRedis::endpoint(), {});
    ZsetModel model(&reader);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ZsetQuery query = queryOf(m_key);
    query.memberContains = QStringLiteral("99"); // m0099, m0199, ..., m0990..m0999
    model.setQuery(query);
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 19, 5000);
    model.index(0, 0).data();
    QTRY_COMPARE_WITH_TIMEOUT(model.index(0, ZsetModel::MemberColumn).data().toString(), QStringLiteral("m0099"), 5000);
    QCOMPARE(model.index(18, ZsetModel::MemberColumn).data().toString(), QStringLiteral("m0999"));
    for (int row : {0, 1, 18}) { // under a filter too, the rank is the member's ZRANK
        const QByteArray member = model.index(row, ZsetModel::MemberColumn).data().toString().toUtf8();
        QCOMPARE(model.index(row, ZsetModel::RankColumn).data().toLongLong(),
                 m_redis.command({"ZRANK", m_key, member}).toInteger());
    }
    QCOMPARE(model.index(1, ZsetModel::RankColumn).data().toInt(), 199);
    // Glob characters are taken literally.
    query.memberContains = QStringLiteral("*");
    model.setQuery(query);
    QTRY_VERIFY_WITH_TIMEOUT(model.isSettled(), 5000);
    QCOMPARE(model.rowCount(), 0);
}

void TestZsetModel::followsAGrowingZset()
{
    const QByteArray key = TestRedis::uniqueKey("growing");
    ZsetReader reader;
    reader.setEndpoint(TestRedis::endpoint(), {});
    ZsetModel model(&reader);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    MemberWrites writes;
    model.setWrites(&writes);
    m_redis.command({"ZADD", key, "1", "a", "2", "b"});
    model.setQuery(queryOf(key));
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2, 5000);
    m_redis.command({"ZADD", key, "0", "first", "3", "c"});
    model.refresh();
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 4, 5000);
    model.index(0, 0).data();
    QTRY_COMPARE_WITH_TIMEOUT(model.index(0, ZsetModel::MemberColumn).data().toString(), QStringLiteral("first"), 5000);
    QCOMPARE(model.index(0, ZsetModel::WritesColumn).data().toInt(), 0); // not written by a burst
    m_redis.command({"ZREM", key, "first", "a", "b"});
    model.refresh();
    QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1, 5000);
    m_redis.command({"DEL", key});
}

void TestZsetModel::reportsAKeyOfAnotherType()
{
    const QByteArray key = TestRedis::uniqueKey("hash");
    m_redis.command({"HSET", key, "f", "v"});
    ZsetReader reader;
    reader.setEndpoint(TestRedis::endpoint(), {});
    ZsetModel model(&reader);
    QSignalSpy failed(&model, &ZsetModel::readFailed);
    model.setQuery(queryOf(key));
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
    QVERIFY2(failed.at(0).at(0).toString().contains(QLatin1String("not a sorted set")),
             qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(m_redis.command({"HGET", key, "f"}).text(), QStringLiteral("v"));
    m_redis.command({"DEL", key});
}

void TestZsetModel::formatsScores_data()
{
    QTest::addColumn<QByteArray>("score");
    QTest::addColumn<QString>("shown");
    QTest::newRow("ms integer") << QByteArray("1710000000000") << QStringLiteral("1710000000000");
    QTest::newRow("scientific") << QByteArray("1.71e+12") << QStringLiteral("1710000000000");
    QTest::newRow("microseconds") << QByteArray("1.710000000000123e+15") << QStringLiteral("1710000000000123");
    QTest::newRow("fraction") << QByteArray("0.5") << QStringLiteral("0.500000");
}

void TestZsetModel::formatsScores()
{
    QFETCH(QByteArray, score);
    QFETCH(QString, shown);
    QCOMPARE(ZsetReader::formatScore(score), shown);
}

QTEST_MAIN(TestZsetModel)
#include "tst_zsetmodel.moc"
