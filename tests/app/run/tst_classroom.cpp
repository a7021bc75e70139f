#include "burst/planmodel.h"
#include "charts/countschart.h"
#include "lesson/lesson.h"
#include "lesson/lessonpanel.h"
#include "mainwindow.h"
#include "redis/serversession.h"
#include "run/burstpanel.h"
#include "run/numberspanel.h"
#include "run/runmodel.h"
#include "run/runview.h"
#include "run/zsetmodel.h"
#include "run/zsetpanel.h"
#include "testredis.h"
#include "testsettings.h"
#include "widgets/language.h"

#include <QChart>
#include <QLineEdit>
#include <QSpinBox>
#include <QStatusBar>
#include <QValueAxis>
#include <QtTest>

// What a class sees must be true: figures that the replies cannot tell say so, numbers read as
// the language writes them, and big figures never lose digits.
class TestClassroom : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void aCountOnlyScriptShowsUnknownNotLost();
    void bigFiguresNeverClip_data();
    void bigFiguresNeverClip();
    void numbersFollowTheLanguage();
    void aStoppedBurstSaysSo();
    void compareModeSaysBothSides();
    void theCountsChartFitsItsData();
    void theLessonLeavesTheBurstSettingsAlone();
    void theZsetTableOutlivesTheKey();
    void theZsetTableSaysWhereTrimmedMembersWent();

private:
    void connectWindow();
    void fireAndWait(const ExperimentPlan& plan);
    std::unique_ptr<MainWindow> m_window;
};

void TestClassroom::initTestCase()
{
    TestSettings::keepToThisRun();
    TestRedis::server();
}

void TestClassroom::init()
{
    Language::set(QStringLiteral("en"));
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1400, 860);
    m_window->show();
}

void TestClassroom::cleanup()
{
    m_window.reset();
    Language::set(QStringLiteral("en"));
}

void TestClassroom::connectWindow()
{
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    m_window->connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
}

void TestClassroom::fireAndWait(const ExperimentPlan& plan)
{
    m_window->planModel()->setPlan(plan);
    QSignalSpy done(m_window->experiment(), &LimiterExperiment::allFinished);
    m_window->fire();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
}

void TestClassroom::aCountOnlyScriptShowsUnknownNotLost()
{
    // Check, then add; replies the count only. 10 of 200 get in, and nothing says which.
    const LimiterScript script = LimiterScript::fromSource(
        QStringLiteral("check-then-add.lua"),
        "local count = redis.call('ZCARD', KEYS[1])\n"
        "if tonumber(ARGV[3]) > 0 and count >= tonumber(ARGV[3]) then return count + 1 end\n"
        "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
        "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
        "return count + 1\n");
    connectWindow();
    m_window->planModel()->useCustomLimiter(LimiterCatalog::custom(script));
    ExperimentPlan plan = m_window->planModel()->plan();
    plan.burst.requests = 200;
    plan.burst.limit = 10;
    plan.burst.windowMs = 60000;
    plan.burst.clock = ClockKind::Frozen;
    fireAndWait(plan);
    const BurstSummary summary = m_window->experiment()->engine(LimiterExperiment::Left).summary();
    QCOMPARE(summary.sent, 200);
    QCOMPARE(summary.addedUnknown, 200);
    QCOMPARE(summary.membersAtEnd, 10); // what Redis itself says: ZCARD
    QCOMPARE(summary.toJson().value(QLatin1String("stored")), QJsonValue(QJsonValue::Null));
    QCOMPARE(summary.toJson().value(QLatin1String("members_at_end")).toInt(), 10);
    NumbersPanel* numbers = m_window->runView(LimiterExperiment::Left)->numbers();
    for (const char* figure : {"stored", "lost", "overwritten"})
        QCOMPARE(numbers->figure(QLatin1String(figure)), QStringLiteral("unknown"));
    QCOMPARE(numbers->figure(QStringLiteral("sent")), QStringLiteral("200"));
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QLatin1String("10 member")),
             qPrintable(m_window->statusBar()->currentMessage()));
    // The ZSET table does not claim how many requests wrote a member.
    ZsetModel* model = m_window->zsetPanel()->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 10, 10000);
    model->index(0, 0).data();
    QTRY_COMPARE_WITH_TIMEOUT(model->index(0, ZsetModel::WritesColumn).data().toString(), QStringLiteral("?"), 5000);
}

void TestClassroom::bigFiguresNeverClip_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<bool>("compact");
    QTest::newRow("one run, narrow") << 420 << false;
    QTest::newRow("compare mode, narrow") << 300 << true;
}

void TestClassroom::bigFiguresNeverClip()
{
    QFETCH(int, width);
    QFETCH(bool, compact);
    NumbersPanel panel;
    panel.setCompact(compact);
    BurstSummary summary;
    summary.sent = 23170700;
    summary.stored = 231707;
    summary.lost = 22938993;
    summary.overwritten = 22938993;
    summary.limit = 10;
    summary.admittedOverLimit = 23170690;
    panel.resize(width, 200);
    panel.show();
    panel.showSummary(summary);
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QCOMPARE(panel.figure(QStringLiteral("stored")), QStringLiteral("231,707")); // every digit
    QVERIFY(panel.figuresFit());
    panel.resize(2400, 200); // and back to full size when there is room
    QTRY_COMPARE(panel.figurePointSize(), panel.font().pointSizeF() * (compact ? 2.0 : 2.6));
    QVERIFY(panel.figuresFit());
}

void TestClassroom::numbersFollowTheLanguage()
{
    connectWindow();
    ExperimentPlan plan = m_window->planModel()->plan();
    plan.burst.requests = 1500;
    plan.burst.clock = ClockKind::Frozen;
    plan.burst.windowMs = 1000;
    fireAndWait(plan);
    QSpinBox* requests = m_window->burstPanel()->findChild<QSpinBox*>();
    QCOMPARE(requests->text(), QStringLiteral("1,500"));
    NumbersPanel* numbers = m_window->runView(LimiterExperiment::Left)->numbers();
    QCOMPARE(numbers->figure(QStringLiteral("sent")), QStringLiteral("1,500"));
    QVERIFY(Language::set(QStringLiteral("vi")));
    QTRY_COMPARE(requests->text(), QStringLiteral("1.500")); // an open window's fields too
    QTRY_COMPARE(numbers->figure(QStringLiteral("sent")), QStringLiteral("1.500"));
    const QList<QSpinBox*> fields = m_window->burstPanel()->findChildren<QSpinBox*>();
    QVERIFY(std::any_of(fields.begin(), fields.end(),
                        [](QSpinBox* field) { return field->text() == QStringLiteral("1.000 ms"); }));
    QVERIFY2(numbers->findChildren<QLabel*>().size() > 5, "the figures' captions");
    bool percent = false;
    for (QLabel* label : numbers->findChildren<QLabel*>())
        percent |= label->text().contains(QStringLiteral("99,9\u00a0%")); // a space that does not break
    QVERIFY(percent); // 1,499 of 1,500 lost, with a decimal comma
    // The counts chart's axis numbers too.
    const QChart* chart = m_window->runView(LimiterExperiment::Left)->counts()->chart();
    QCOMPARE(chart->locale().decimalPoint(), QStringLiteral(","));
    QVERIFY(chart->localizeNumbers());
}

void TestClassroom::aStoppedBurstSaysSo()
{
    connectWindow();
    ExperimentPlan plan = m_window->planModel()->plan();
    plan.burst.requests = 5'000'000;
    plan.burst.clock = ClockKind::Frozen;
    m_window->planModel()->setPlan(plan);
    QSignalSpy done(m_window->experiment(), &LimiterExperiment::allFinished);
    m_window->fire();
    QTRY_VERIFY_WITH_TIMEOUT(m_window->experiment()->engine(LimiterExperiment::Left).log().finished() > 2000, 30000);
    m_window->stop();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 10000);
    const QString status = m_window->statusBar()->currentMessage();
    QVERIFY2(status.startsWith(QLatin1String("Stopped:")), qPrintable(status));
    const qint64 sent = m_window->experiment()->engine(LimiterExperiment::Left).summary().sent;
    QVERIFY2(status.contains(QLocale().toString(sent)), qPrintable(status)); // 12,345: grouped
}

// Issue #30: compare mode's status bar gave the fix's figures alone ("200 sent, 200 stored, 0
// lost") while the left side lost most of its requests.
void TestClassroom::compareModeSaysBothSides()
{
    connectWindow();
    ExperimentPlan plan = m_window->planModel()->plan();
    plan.burst.requests = 200;
    plan.burst.clock = ClockKind::Frozen;
    plan.compare = true;
    fireAndWait(plan);
    const BurstSummary left = m_window->experiment()->engine(LimiterExperiment::Left).summary();
    const BurstSummary right = m_window->experiment()->engine(LimiterExperiment::Right).summary();
    QVERIFY(left.lost > 0);
    QCOMPARE(right.lost, 0);
    const QString status = m_window->statusBar()->currentMessage();
    const QString leftPart = QStringLiteral("%1: 200 sent, %2 stored, %3 lost")
                                 .arg(m_window->run(LimiterExperiment::Left)->title())
                                 .arg(left.stored)
                                 .arg(left.lost);
    const QString rightPart
        = QStringLiteral("%1: 200 sent, 200 stored, 0 lost").arg(m_window->run(LimiterExperiment::Right)->title());
    QVERIFY2(status.startsWith(QLatin1String("Done: ")) && status.contains(leftPart) && status.contains(rightPart),
             qPrintable(status));
}

void TestClassroom::theCountsChartFitsItsData()
{
    CountsChart chart;
    chart.resize(600, 300);
    chart.show();
    // Empty: whole-number ticks.
    QCOMPARE(chart.yAxis()->max(), 10.0);
    QCOMPARE(chart.yAxis()->tickCount(), 6); // 0, 2, 4, 6, 8, 10
    // Five requests in one millisecond with a limit of 3: truth climbs 1..5, the count stays 1.
    chart.start(5, 3);
    std::vector<CountedRequest> counted;
    for (quint32 i = 0; i < 5; ++i)
        counted.push_back({i, 1, qint64(i) + 1, false, i >= 3});
    chart.addCounted(counted);
    chart.refresh();
    QVERIFY2(chart.yAxis()->max() >= 5 && chart.yAxis()->max() <= 6, qPrintable(QString::number(chart.yAxis()->max())));
    QCOMPARE(chart.xAxis()->max(), 4.0); // the last request, not one past it
    // One mark per request admitted beyond the limit, at that request, on the limit line.
    QCOMPARE(chart.beyondLimitMarks(), (QList<QPointF> {QPointF(3, 3), QPointF(4, 3)}));

    // Issue #30: 2,000 requests beyond a limit of 5 merged into one black band of marks. Marks
    // stay more than a mark apart on the screen (six pixels wide at least), and still span the
    // requests beyond.
    chart.start(2000, 5);
    counted.clear();
    for (quint32 i = 0; i < 2000; ++i)
        counted.push_back({i, 1, qint64(i) + 1, false, i >= 5});
    chart.addCounted(counted);
    chart.refresh();
    const QList<QPointF> marks = chart.beyondLimitMarks();
    QVERIFY2(marks.size() >= 10, qPrintable(QString::number(marks.size())));
    const double pixelsPerRequest = chart.chart()->plotArea().width() / chart.xAxis()->max();
    for (qsizetype k = 1; k < marks.size(); ++k)
        QVERIFY2((marks[k].x() - marks[k - 1].x()) * pixelsPerRequest >= 1.2 * 6 - 0.5, // marks are 6 px at least
                 qPrintable(QStringLiteral("marks %1 and %2 are %3 px apart")
                                .arg(marks[k - 1].x())
                                .arg(marks[k].x())
                                .arg((marks[k].x() - marks[k - 1].x()) * pixelsPerRequest)));
    QCOMPARE(marks.first().x(), 5.0);
    QVERIFY(marks.last().x() > 1900);

    // Issue #43: the lesson's 15 requests beyond a limit of 5 were drawn as 8 marks. Few requests
    // on a narrow chart: smaller marks, one per request.
    chart.start(20, 5);
    counted.clear();
    for (quint32 i = 0; i < 20; ++i)
        counted.push_back({i, 1, qint64(i) + 1, false, i >= 5});
    chart.addCounted(counted);
    chart.refresh();
    QCOMPARE(chart.beyondLimitMarks().size(), 15);
}

void TestClassroom::theLessonLeavesTheBurstSettingsAlone()
{
    connectWindow();
    ExperimentPlan mine = m_window->planModel()->plan();
    mine.burst.requests = 321;
    mine.burst.limit = 4;
    mine.burst.clock = ClockKind::SystemUs;
    m_window->planModel()->setPlan(mine);
    const QJsonObject before = mine.toJson();
    Lesson* lesson = m_window->lesson();
    lesson->goToStep(1); // three requests in one millisecond: frozen clock, no limit
    QSignalSpy finished(lesson, &Lesson::actionFinished);
    lesson->runAction();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
    QCOMPARE(m_window->experiment()->engine(LimiterExperiment::Left).summary().sent, 3);
    QCOMPARE(m_window->planModel()->plan().toJson(), before); // the Burst panel still has the user's plan
    // The result line is made again in the new language.
    const QString english = lesson->resultText();
    QVERIFY(Language::set(QStringLiteral("vi")));
    QTRY_VERIFY(lesson->resultText() != english);
    QVERIFY2(lesson->resultText().contains(QStringLiteral("đã gửi")), qPrintable(lesson->resultText()));
}

void TestClassroom::theZsetTableOutlivesTheKey()
{
    // A unique member's limiter PEXPIREs its key after one window: the table keeps what the burst
    // left, says when it was taken, and that the key has expired since.
    connectWindow();
    ExperimentPlan plan = m_window->planModel()->plan();
    plan.burst.limiter = LimiterCatalog::builtin("request-id");
    plan.burst.requests = 200;
    plan.burst.clock = ClockKind::Frozen;
    plan.burst.windowMs = 300;
    fireAndWait(plan);
    const QByteArray key = m_window->experiment()->engine(LimiterExperiment::Left).key();
    ZsetPanel* panel = m_window->zsetPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->key() != key, 10000); // the copy, not the live key
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    QTRY_COMPARE_WITH_TIMEOUT(redis.command({"EXISTS", key}).toInteger(), 0LL, 5000); // expired
    panel->refresh();
    QTRY_VERIFY2_WITH_TIMEOUT(panel->note().contains(QLatin1String("expired")), qPrintable(panel->note()), 5000);
    QVERIFY(panel->note().contains(QLatin1String("when the burst ended")));
    // Filtering after the key is gone still finds the members.
    auto* filter = panel->findChild<QLineEdit*>();
    filter->setText(QStringLiteral(":1"));
    ZsetModel* model = panel->model();
    QTRY_VERIFY_WITH_TIMEOUT(model->rowCount() > 10, 5000); // :1, :10..:19, :100..:199
    filter->clear();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 200, 5000);
    // Reset deletes the copy with the burst's keys.
    const QByteArray copy = panel->key();
    m_window->reset();
    QTRY_COMPARE_WITH_TIMEOUT(redis.command({"EXISTS", copy}).toInteger(), 0LL, 5000);
}

void TestClassroom::theZsetTableSaysWhereTrimmedMembersWent()
{
    connectWindow();
    ExperimentPlan plan = m_window->planModel()->plan();
    plan.burst.limiter = LimiterCatalog::builtin("request-id");
    plan.burst.requests = 1000;
    plan.burst.clock = ClockKind::Schedule;
    QVERIFY(Pacing::parse(QStringLiteral("interval:1000"), &plan.burst.pacing, nullptr)); // 1 per ms
    plan.burst.windowMs = 100;
    fireAndWait(plan);
    ZsetPanel* panel = m_window->zsetPanel();
    const QByteArray key = m_window->experiment()->engine(LimiterExperiment::Left).key();
    QTRY_VERIFY_WITH_TIMEOUT(panel->key() != key, 10000);
    auto trimmedNote = [panel]() -> QLabel* { // looked for again until the snapshot has been read
        for (QLabel* label : panel->findChildren<QLabel*>())
            if (label->text().contains(QLatin1String("member")) && label->text().contains(QLatin1String("trimmed")))
                return label;
        return nullptr;
    };
    QTRY_VERIFY_WITH_TIMEOUT(trimmedNote(), 5000);
    QLabel* count = trimmedNote();
    QVERIFY2(count->text().contains(QLatin1String("1,000 requests stored a member")), qPrintable(count->text()));
    QVERIFY2(count->text().contains(QLatin1String("100 ms")), qPrintable(count->text()));
}

QTEST_MAIN(TestClassroom)
#include "tst_classroom.moc"
