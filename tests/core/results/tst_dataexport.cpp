#include "burst/burstengine.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "results/dataexport.h"
#include "results/memberwrites.h"
#include "testredis.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

class TestDataExport : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void requestLogCsvRoundTrips();
    void requestLogJsonRoundTrips();
    void summaryJsonIsTheCliObject();
    void summaryCsvHasOneRow();
    void zsetSnapshotRoundTrips();
    void quotesCsvFields_data();
    void quotesCsvFields();

private:
    BurstEngine m_engine;
    BurstSummary m_summary;
    MemberWrites m_writes; // from the engine's batches, as the window keeps it
    RedisConnection m_redis;
};

void TestDataExport::initTestCase()
{
    QVERIFY(TestRedis::connect(m_redis));
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("random"); // members with a dash and a dot: text, not derived
    plan.clock = ClockKind::Schedule;
    QVERIFY(Pacing::parse(QStringLiteral("interval:300"), &plan.pacing, nullptr));
    plan.requests = 300;
    plan.limit = 20;
    plan.windowMs = 10;
    plan.keepKey = true;
    QSignalSpy finished(&m_engine, &BurstEngine::finished);
    connect(&m_engine, &BurstEngine::batchAvailable, this, [this](const RequestBatch& batch) { m_writes.add(batch); });
    QVERIFY(m_engine.start(TestRedis::endpoint(), plan));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    m_summary = finished.at(0).at(0).value<BurstSummary>();
}

void TestDataExport::cleanupTestCase()
{
    ZsetKeys::deleteRunKeys(m_redis, m_engine.key());
}

void TestDataExport::requestLogCsvRoundTrips()
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(DataExport::writeRequestLogCsv(m_engine.log(), &buffer));
    QList<QStringList> rows;
    QVERIFY(DataExport::parseCsv(buffer.data(), &rows));
    QCOMPARE(rows.size(), 301);
    const QStringList header = rows.takeFirst();
    QCOMPARE(header.first(), QStringLiteral("id"));
    const RequestLog& log = m_engine.log();
    for (int i = 0; i < rows.size(); ++i) {
        const QStringList& row = rows[i];
        QCOMPARE(row.size(), header.size());
        QCOMPARE(row[header.indexOf(QStringLiteral("id"))].toInt(), i);
        QCOMPARE(row[header.indexOf(QStringLiteral("now"))].toLongLong(), log.now(i));
        QCOMPARE(row[header.indexOf(QStringLiteral("count"))].toLongLong(), log.count(i));
        QCOMPARE(row[header.indexOf(QStringLiteral("truth"))].toLongLong(), log.truth(i));
        QCOMPARE(row[header.indexOf(QStringLiteral("added"))].toInt(), log.added(i));
        QCOMPARE(row[header.indexOf(QStringLiteral("member"))].toUtf8(), log.member(i));
    }
}

void TestDataExport::requestLogJsonRoundTrips()
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(DataExport::writeRequestLogJson(m_engine.log(), &buffer));
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(buffer.data(), &error).object();
    QCOMPARE(error.error, QJsonParseError::NoError);
    QCOMPARE(json.value(QLatin1String("schema")).toString(), QStringLiteral("zsetlab.requests/1"));
    const QJsonArray requests = json.value(QLatin1String("requests")).toArray();
    QCOMPARE(requests.size(), 300);
    const RequestLog& log = m_engine.log();
    for (int i = 0; i < requests.size(); ++i) {
        const QJsonObject request = requests[i].toObject();
        QCOMPARE(request.value(QLatin1String("now")).toDouble(), double(log.now(i)));
        QCOMPARE(request.value(QLatin1String("member")).toString().toUtf8(), log.member(i));
        QCOMPARE(request.value(QLatin1String("admitted_over_limit")).toBool(), log.isAdmittedOverLimit(i));
    }
}

void TestDataExport::summaryJsonIsTheCliObject()
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(DataExport::writeSummaryJson(m_summary, &buffer));
    QCOMPARE(QJsonDocument::fromJson(buffer.data()).object(), m_summary.toJson());
}

void TestDataExport::summaryCsvHasOneRow()
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(DataExport::writeSummaryCsv(m_summary, &buffer));
    QList<QStringList> rows;
    QVERIFY(DataExport::parseCsv(buffer.data(), &rows));
    QCOMPARE(rows.size(), 2);
    const QStringList& header = rows[0];
    QCOMPARE(rows[1][header.indexOf(QStringLiteral("stored"))].toLongLong(), m_summary.stored);
    QCOMPARE(rows[1][header.indexOf(QStringLiteral("strategy"))], QStringLiteral("random"));
}

void TestDataExport::zsetSnapshotRoundTrips()
{
    QVector<ZsetEntry> members;
    QString error;
    QVERIFY2(DataExport::readZset(m_redis, m_engine.key(), &members, &error), qPrintable(error));
    QCOMPARE(qint64(members.size()), m_summary.finalCount);
    const MemberWrites& writes = m_writes;

    QBuffer csv;
    csv.open(QIODevice::WriteOnly);
    QVERIFY(DataExport::writeZsetCsv(m_engine.key(), members, &writes, &csv));
    QList<QStringList> rows;
    QVERIFY(DataExport::parseCsv(csv.data(), &rows));
    QCOMPARE(rows.size(), members.size() + 1);
    for (int i = 0; i < members.size(); ++i) {
        QCOMPARE(rows[i + 1][1].toUtf8(), members[i].member);
        QCOMPARE(rows[i + 1][2], ZsetReader::formatScore(members[i].score));
        QCOMPARE(rows[i + 1][3].toInt(), 1);
    }

    QBuffer json;
    json.open(QIODevice::WriteOnly);
    QVERIFY(DataExport::writeZsetJson(m_engine.key(), members, &writes, &json));
    const QJsonObject object = QJsonDocument::fromJson(json.data()).object();
    QCOMPARE(object.value(QLatin1String("key")).toString().toUtf8(), m_engine.key());
    const QJsonArray array = object.value(QLatin1String("members")).toArray();
    QCOMPARE(array.size(), members.size());
    QCOMPARE(array.last().toObject().value(QLatin1String("member")).toString().toUtf8(), members.last().member);
}

void TestDataExport::quotesCsvFields_data()
{
    QTest::addColumn<QString>("field");
    QTest::newRow("plain") << "1710000000000";
    QTest::newRow("comma") << "a,b";
    QTest::newRow("quote") << "say \"hi\"";
    QTest::newRow("newline") << "two\nlines";
    QTest::newRow("unicode") << QStringLiteral("thành viên");
}

void TestDataExport::quotesCsvFields()
{
    QFETCH(QString, field);
    const QByteArray line = DataExport::csvField(field) + ',' + DataExport::csvField(QStringLiteral("x")) + "\r\n";
    QList<QStringList> rows;
    QVERIFY(DataExport::parseCsv(line, &rows));
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows[0], (QStringList {field, QStringLiteral("x")}));
}

QTEST_GUILESS_MAIN(TestDataExport)
#include "tst_dataexport.moc"
