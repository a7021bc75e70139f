#include "burst/scenario.h"
#include "sourcetree.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

class TestScenario : public QObject
{
    Q_OBJECT
private slots:
    void roundTrips();
    void readsTheShippedScenarios_data();
    void readsTheShippedScenarios();
    void namesTheBadField_data();
    void namesTheBadField();
    void reportsFilesThatCannotBeRead();
    void savesOnlyOverARegularFile();
};

void TestScenario::roundTrips()
{
    Scenario scenario;
    scenario.title = QStringLiteral("Three app servers");
    scenario.description = QStringLiteral("One of them 40 ms ahead");
    scenario.language = QStringLiteral("vi");
    scenario.experiment.compare = true;
    scenario.experiment.fix = LimiterCatalog::builtin("sequence");
    scenario.experiment.burst.requests = 1234;
    scenario.experiment.burst.connections = 3;
    scenario.experiment.burst.pipeline = 4;
    QVERIFY(Pacing::parse(QStringLiteral("poisson:2.5"), &scenario.experiment.burst.pacing, nullptr));
    scenario.experiment.burst.clock = ClockKind::Schedule;
    scenario.experiment.burst.windowMs = 250;
    scenario.experiment.burst.limit = 42;
    scenario.experiment.burst.seed = 99;
    scenario.experiment.burst.clockOffsetsMs = {0, 0, 40};
    scenario.timelineMs = std::make_pair(-5.0, 60.0);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("s.json"));
    QString error;
    QVERIFY2(scenario.save(path, &error), qPrintable(error));
    Scenario loaded;
    QVERIFY2(Scenario::load(path, &loaded, &error), qPrintable(error));
    QCOMPARE(loaded.toJson(), scenario.toJson());
    QCOMPARE(loaded.experiment.burst.pacing.toString(), QStringLiteral("poisson:2.5"));
    QCOMPARE(loaded.experiment.burst.clockOffsetsMs, (QVector<qint64> {0, 0, 40}));
    QCOMPARE(loaded.timelineMs->second, 60.0);
    QCOMPARE(loaded.experiment.fix->id, QStringLiteral("sequence"));
}

void TestScenario::readsTheShippedScenarios_data()
{
    QTest::addColumn<QString>("path");
    const QDir dir(sourcePath(QStringLiteral("resources/scenarios")));
    const QStringList files = dir.entryList({QStringLiteral("*.json")});
    QVERIFY(files.size() >= 4);
    for (const QString& file : files)
        QTest::newRow(qPrintable(file)) << dir.filePath(file);
}

void TestScenario::readsTheShippedScenarios()
{
    QFETCH(QString, path);
    Scenario scenario;
    QString error;
    QVERIFY2(Scenario::load(path, &scenario, &error), qPrintable(error));
    QVERIFY(!scenario.title.isEmpty());
    QVERIFY(!scenario.description.isEmpty());
}

void TestScenario::namesTheBadField_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");
    const QByteArray head = R"({"schema":"zsetlab.scenario/1",)";
    QTest::newRow("not json") << QByteArray("{\"schema\": ") << "Not valid JSON at character";
    QTest::newRow("a list") << QByteArray("[1,2]") << "Expected a JSON object";
    QTest::newRow("no schema") << QByteArray(R"({"plan":{}})")
                               << "schema: expected \"zsetlab.scenario/1\", got nothing";
    QTest::newRow("future schema") << QByteArray(R"({"schema":"zsetlab.scenario/9","plan":{}})")
                                   << "made by another version";
    QTest::newRow("no plan") << head + R"("title":"x"})"
                             << "plan: missing";
    QTest::newRow("recording not base64") << head + R"("plan":{},"recording":"%%%"})"
                                          << "recording: expected a replay file's bytes in base64";
    QTest::newRow("recording a number") << head + R"("plan":{},"recording":3})"
                                        << "recording: expected a replay file's bytes in base64";
    QTest::newRow("plan not an object") << head + R"("plan":3})"
                                        << "plan: expected an object";
    QTest::newRow("requests text") << head + R"("plan":{"requests":"many"}})"
                                   << "plan.requests: expected a whole number from 1 to 50000000, got \"many\"";
    QTest::newRow("requests fraction") << head + R"("plan":{"requests":1.5}})"
                                       << "plan.requests: expected a whole number";
    QTest::newRow("requests zero") << head + R"("plan":{"requests":0}})"
                                   << "plan.requests";
    QTest::newRow("unknown strategy")
        << head + R"("plan":{"strategy":"uuid"}})"
        << "plan.strategy: expected one of now, request-id, random, sequence, microseconds, fixed-window, sliding-log, "
           "sliding-log-now, sliding-counter, token-bucket, gcra, list-log, got \"uuid\"";
    QTest::newRow("bad pace") << head + R"("plan":{"pace":"steady"}})"
                              << "plan.pace: expected burst, interval:MICROS, poisson:PER_MS or bursts:N@MS";
    QTest::newRow("bad clock") << head + R"("plan":{"clock":"sundial"}})"
                               << "plan.clock";
    QTest::newRow("negative limit") << head + R"("plan":{"limit":-1}})"
                                    << "plan.limit";
    QTest::newRow("offsets not a list") << head + R"("plan":{"clock_offsets_ms":40}})"
                                        << "plan.clock_offsets_ms: expected a list";
    QTest::newRow("compare not a bool") << head + R"("compare":"yes","plan":{}})"
                                        << "compare: expected true or false, got \"yes\"";
    QTest::newRow("unique strategy now") << head + R"("unique_strategy":"now","plan":{}})"
                                         << "unique_strategy: expected one of request-id, random, sequence";
    QTest::newRow("language") << head + R"("language":"fr","plan":{}})"
                              << "language: expected \"en\" or \"vi\"";
    QTest::newRow("view range backwards") << head + R"("plan":{},"view":{"timeline_ms":[10,5]}})"
                                          << "view.timeline_ms";
}

void TestScenario::namesTheBadField()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    Scenario scenario;
    scenario.title = QStringLiteral("untouched");
    QString error;
    QVERIFY(!Scenario::fromJson(json, &scenario, &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QCOMPARE(scenario.title, QStringLiteral("untouched")); // nothing half-applied
}

void TestScenario::reportsFilesThatCannotBeRead()
{
    Scenario scenario;
    QString error;
    QVERIFY(!Scenario::load(QStringLiteral("/nonexistent/scenario.json"), &scenario, &error));
    QVERIFY2(error.contains(QLatin1String("/nonexistent/scenario.json")), qPrintable(error));
    QTemporaryDir dir;
    QFile binary(dir.filePath(QStringLiteral("corrupt.json")));
    QVERIFY(binary.open(QIODevice::WriteOnly));
    binary.write(QByteArray("\x89PNG\r\n\x1a\n\0\0garbage", 17));
    binary.close();
    QVERIFY(!Scenario::load(binary.fileName(), &scenario, &error));
    QVERIFY2(error.contains(QLatin1String("corrupt.json")) && error.contains(QLatin1String("Not valid JSON")),
             qPrintable(error));
}

// Issue #44: files were written through links and over FIFOs and devices.
void TestScenario::savesOnlyOverARegularFile()
{
    QTemporaryDir dir;
    const QString target = dir.filePath(QStringLiteral("someone-elses.json"));
    QFile precious(target);
    QVERIFY(precious.open(QIODevice::WriteOnly) && precious.write("precious") == 8);
    precious.close();
    const QString link = dir.filePath(QStringLiteral("link.json"));
    QVERIFY(QFile::link(target, link));
    Scenario scenario;
    QString error;
    QVERIFY(!scenario.save(link, &error));
    QVERIFY2(error.contains(QLatin1String("symbolic link")), qPrintable(error));
    QVERIFY(precious.open(QIODevice::ReadOnly));
    QCOMPARE(precious.readAll(), QByteArray("precious"));
    const QString saved = dir.filePath(QStringLiteral("saved.json"));
    QVERIFY2(scenario.save(saved, &error), qPrintable(error));
    QVERIFY2(Scenario::load(saved, &scenario, &error), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestScenario)
#include "tst_scenario.moc"
