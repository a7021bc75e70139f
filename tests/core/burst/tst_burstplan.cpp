#include "burst/burstplan.h"

#include <QtTest>

#include <set>

class TestBurstPlan : public QObject
{
    Q_OBJECT
private slots:
    void parsesPacing_data();
    void parsesPacing();
    void refusesBadPlans_data();
    void refusesBadPlans();
    void schedulesEvenly();
    void schedulesPoissonRepeatably();
    void poissonHasItsMeanRate();
};

void TestBurstPlan::parsesPacing_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("normalised");
    QTest::newRow("burst") << "burst" << true << "burst";
    QTest::newRow("interval") << "interval:250" << true << "interval:250";
    QTest::newRow("poisson") << "Poisson:2.5" << true << "poisson:2.5";
    QTest::newRow("interval zero") << "interval:0" << false << "";
    QTest::newRow("interval text") << "interval:fast" << false << "";
    QTest::newRow("poisson negative") << "poisson:-1" << false << "";
    QTest::newRow("unknown") << "steady" << false << "";
}

void TestBurstPlan::parsesPacing()
{
    QFETCH(QString, text);
    QFETCH(bool, valid);
    QFETCH(QString, normalised);
    Pacing pacing;
    QString error;
    QCOMPARE(Pacing::parse(text, &pacing, &error), valid);
    if (valid)
        QCOMPARE(pacing.toString(), normalised);
    else
        QVERIFY2(error.startsWith(QLatin1String("pace:")), qPrintable(error));
}

void TestBurstPlan::refusesBadPlans_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<int>("value");
    QTest::newRow("no requests") << "requests" << 0;
    QTest::newRow("too many connections") << "connections" << 1000;
    QTest::newRow("pipeline zero") << "pipeline" << 0;
    QTest::newRow("window zero") << "window" << 0;
    QTest::newRow("negative limit") << "limit" << -1;
}

void TestBurstPlan::refusesBadPlans()
{
    QFETCH(QString, field);
    QFETCH(int, value);
    BurstPlan plan;
    QVERIFY(plan.validate().isEmpty());
    if (field == QLatin1String("requests"))
        plan.requests = value;
    else if (field == QLatin1String("connections"))
        plan.connections = value;
    else if (field == QLatin1String("pipeline"))
        plan.pipeline = value;
    else if (field == QLatin1String("window"))
        plan.windowMs = value;
    else
        plan.limit = value;
    const QString error = plan.validate();
    QVERIFY2(error.startsWith(field), qPrintable(error));
    QVERIFY2(error.contains(QString::number(value)), qPrintable(error));
}

void TestBurstPlan::schedulesEvenly()
{
    BurstPlan plan;
    plan.requests = 9;
    QVERIFY(Pacing::parse(QStringLiteral("interval:250"), &plan.pacing, nullptr));
    const auto offsets = plan.scheduleMicros();
    QCOMPARE(offsets.size(), size_t(9));
    QCOMPARE(offsets[0], 0);
    QCOMPARE(offsets[4], 1000);
    QCOMPARE(offsets[8], 2000);
    plan.pacing = Pacing();
    for (const qint64 offset : plan.scheduleMicros())
        QCOMPARE(offset, 0);
}

void TestBurstPlan::schedulesPoissonRepeatably()
{
    BurstPlan plan;
    plan.requests = 1000;
    QVERIFY(Pacing::parse(QStringLiteral("poisson:2"), &plan.pacing, nullptr));
    plan.seed = 42;
    const auto first = plan.scheduleMicros();
    QCOMPARE(plan.scheduleMicros(), first);
    QVERIFY(std::is_sorted(first.begin(), first.end()));
    plan.seed = 43;
    QVERIFY(plan.scheduleMicros() != first);
}

void TestBurstPlan::poissonHasItsMeanRate()
{
    BurstPlan plan;
    plan.requests = 20000;
    QVERIFY(Pacing::parse(QStringLiteral("poisson:4"), &plan.pacing, nullptr));
    const auto offsets = plan.scheduleMicros();
    const double spanMs = double(offsets.back()) / 1000.0;
    const double rate = double(offsets.size() - 1) / spanMs;
    QVERIFY2(std::abs(rate - 4.0) < 0.2, qPrintable(QString::number(rate)));
}

QTEST_GUILESS_MAIN(TestBurstPlan)
#include "tst_burstplan.moc"
