#include "burst/planmodel.h"
#include "charts/timelineview.h"
#include "lesson/lesson.h"
#include "lesson/lessonfigure.h"
#include "lesson/lessonpanel.h"
#include "limiters/limitercatalog.h"
#include "mainwindow.h"
#include "redis/serversession.h"
#include "run/numberspanel.h"
#include "run/runview.h"
#include "run/zsetmodel.h"
#include "run/zsetpanel.h"
#include "script/codeeditor.h"
#include "testredis.h"
#include "testsettings.h"
#include "widgets/spotlight.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractScrollArea>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableView>
#include <QTextEdit>
#include <QWheelEvent>
#include <QtTest>

#include <cmath>
#include <limits>
#include <set>

class TestLesson : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void navigates();
    void everyStepDoesWhatItSays();
    void everyStepFiresTheLimiterItNames();
    void guessFirstSetsTheClassAgainstRedis();
    void resultComesIntoView();
    void priceOfTheFixIsMeasuredOnRedis();
    void theWholeLessonByClickerKeys();
    void keysFollowTheFocus();
    void oneFramePointsAtEachResult();

private:
    void runStep(int step);
    const BurstSummary summary(LimiterExperiment::Side side = LimiterExperiment::Left) const
    {
        return m_window->experiment()->engine(side).summary();
    }
    std::unique_ptr<MainWindow> m_window;
    Lesson* m_lesson = nullptr;
    LessonPanel* m_panel = nullptr;
};

void TestLesson::initTestCase()
{
    TestSettings::keepToThisRun();
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1400, 860);
    m_window->show();
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    m_window->connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
    m_lesson = m_window->lesson();
    m_panel = m_window->lessonPanel();
}

// On a low screen the lesson panel scrolls: after the step's action, its result (and the class's
// guess beside Redis's answer) is scrolled into view, not left below the fold.
void TestLesson::resultComesIntoView()
{
    m_lesson->setAsksFirst(true);
    m_window->showLesson();
    QFont large = m_panel->font();
    large.setPointSizeF(large.pointSizeF() * 1.6);
    m_panel->setFont(large);
    m_window->resize(1400, 520);
    auto* result = m_panel->findChild<QLabel*>(QStringLiteral("LessonResult"));
    QVERIFY(result);
    m_lesson->goToStep(1);
    QVERIFY(m_lesson->hasQuestion());
    runStep(1);
    QTRY_VERIFY(!result->visibleRegion().isEmpty());
    const QRect shown = result->visibleRegion().boundingRect();
    const QWidget* viewport = result->parentWidget()->parentWidget(); // the scroll area's viewport
    QVERIFY2(shown.height() >= std::min(result->height(), viewport->height()) - 1, // all of it, if it can be
             qPrintable(QStringLiteral("%1 of %2 px in view").arg(shown.height()).arg(result->height())));
    m_panel->setFont(QFont());
    m_window->resize(1400, 860);
}

void TestLesson::cleanupTestCase()
{
    m_window.reset();
}

void TestLesson::navigates()
{
    QVERIFY(m_lesson->stepCount() >= 7);
    m_lesson->goToStep(0);
    QCOMPARE(m_lesson->currentStep(), 0);
    m_lesson->back();
    QCOMPARE(m_lesson->currentStep(), 0);
    m_lesson->next();
    QCOMPARE(m_lesson->currentStep(), 1);
    m_lesson->goToStep(1000);
    QCOMPARE(m_lesson->currentStep(), m_lesson->stepCount() - 1);
}

void TestLesson::runStep(int step)
{
    m_lesson->goToStep(step);
    QVERIFY(m_lesson->hasAction());
    QSignalSpy finished(m_lesson, &Lesson::actionFinished);
    m_lesson->runAction();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QVERIFY(!m_lesson->resultText().isEmpty());
}

void TestLesson::everyStepDoesWhatItSays()
{
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));

    // 1. The script in the runs' place, its four steps marked: each step's Redis call among them.
    runStep(0);
    auto* figure = m_window->findChild<LessonFigure*>();
    QVERIFY(figure && figure->isVisible());
    QVERIFY(figure->script()->isVisible());
    const QStringList lines = figure->script()->toPlainText().split(QLatin1Char('\n'));
    QStringList calls;
    for (const int line : figure->markedLines())
        if (lines.value(line - 1).contains(QLatin1String("redis.call")))
            calls << lines.value(line - 1).section(QLatin1Char('\''), 1, 1);
    QCOMPARE(calls,
             QStringList({QStringLiteral("ZREMRANGEBYSCORE"), QStringLiteral("ZADD"), QStringLiteral("ZCARD"),
                          QStringLiteral("EXPIRE")}));
    // ... and nothing in it gives later steps' answers away: the file's comments say that the same
    // millisecond makes the same member (steps 2, 3) and that EXPIRE counts seconds (step 9).
    const QString shown = figure->script()->toPlainText();
    const QString file = QString::fromUtf8(LimiterCatalog::builtin("now")->script.source());
    for (const char* answer : {"same member", "overwritten", "does not grow", "1000 times", "seconds", "THE BUG"}) {
        QVERIFY2(file.contains(QLatin1String(answer)), answer); // still said in the file itself
        QVERIFY2(!shown.contains(QLatin1String(answer)), answer);
    }
    for (const char* step : {"-- 1. Remove the requests that have left the window.", "-- 2. Add this request.",
                             "-- 3. Count the requests in the window.", "-- 4. Let an idle key expire."})
        QVERIFY2(shown.contains(QLatin1String(step)), step);

    // 2. Three requests in one millisecond: three sent, one member, count 1, 1, 1.
    runStep(1);
    QCOMPARE(summary().sent, 3);
    QCOMPARE(summary().stored, 1);
    const QByteArray key = m_window->experiment()->engine(LimiterExperiment::Left).key();
    QCOMPARE(redis.command({"ZCARD", key}).toInteger(), 1LL);
    const RequestLog& log = m_window->experiment()->engine(LimiterExperiment::Left).log();
    for (int i = 0; i < 3; ++i)
        QCOMPARE(log.count(i), 1);
    QCOMPARE(log.added(0), 1);
    QCOMPARE(log.added(1), 0);
    QCOMPARE(log.added(2), 0);
    QVERIFY2(m_lesson->resultText().contains(QLatin1String("counts returned: 1, 1, 1")),
             qPrintable(m_lesson->resultText()));
    if (qEnvironmentVariableIsSet("ZSETLAB_SCREENSHOT")) { // to look at the lesson as a class sees it
        m_window->showLesson();
        QVERIFY(m_window->grab().save(qEnvironmentVariable("ZSETLAB_SCREENSHOT")));
    }

    // 3. The member and its writes: the table selects it. Until Redis answered, the table keeps
    // step 2's member but not its writes: they are the answer the class is asked for.
    m_lesson->goToStep(2);
    QVERIFY(m_lesson->asksFirst() && !m_lesson->hasAnswered());
    QVERIFY(m_window->zsetPanel()->view()->isColumnHidden(ZsetModel::WritesColumn));
    runStep(2);
    QVERIFY(!m_window->zsetPanel()->view()->isColumnHidden(ZsetModel::WritesColumn));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->zsetPanel()->view()->selectionModel()->hasSelection(), 10000);
    QVERIFY2(m_lesson->resultText().contains(QLatin1String("3 request")), qPrintable(m_lesson->resultText()));

    // 4. Three connections: still one member, no race.
    runStep(3);
    QCOMPARE(summary().sent, 30);
    QCOMPARE(summary().stored, 1);
    QCOMPARE(summary().errors, 0);

    // 5. A limit of 5: all 20 admitted, 15 beyond the limit.
    runStep(4);
    QCOMPARE(summary().admitted, 20);
    QCOMPARE(summary().admittedOverLimit, 15);

    // 6. The fix, side by side on the same timestamps.
    runStep(5);
    QVERIFY(m_window->experiment()->isCompare());
    QCOMPARE(summary(LimiterExperiment::Left).stored, 1);
    QCOMPARE(summary(LimiterExperiment::Right).stored, 20);
    QCOMPARE(summary(LimiterExperiment::Right).admittedOverLimit, 0);
    QCOMPARE(summary(LimiterExperiment::Right).admitted, 5);

    // 7. math.random(): what this server does.
    runStep(6);
    QCOMPARE(summary().stored, m_window->session()->server().reseedsLuaRandomPerCall() ? 1 : 100);

    // 8. Microseconds merged by %.14g: distinct timestamps, fewer members.
    runStep(7);
    const RequestLog& micro = m_window->experiment()->engine(LimiterExperiment::Left).log();
    std::set<qint64> distinct;
    for (int i = 0; i < micro.size(); ++i)
        distinct.insert(micro.now(i));
    QCOMPARE(summary().errors, 0);
    QVERIFY2(qint64(distinct.size()) > summary().stored,
             qPrintable(QStringLiteral("%1 timestamps, %2 stored").arg(distinct.size()).arg(summary().stored)));

    // 9. EXPIRE with a millisecond window: the key lives 1000 s.
    runStep(8);
    const qint64 ttl
        = redis.command({"PTTL", m_window->experiment()->engine(LimiterExperiment::Left).key()}).toInteger();
    QVERIFY2(ttl > 900 * 1000, qPrintable(QString::number(ttl)));
    QVERIFY2(m_lesson->resultText().contains(QLocale().toString(1000) + QStringLiteral(" s")),
             qPrintable(m_lesson->resultText()));
}

// Each step's text names a limiter (its stepLimiter()); what ran must be that one, as the summary
// says and as the members that landed in the ZSET show: a lesson step once fired the request-id
// limiter while its text and its result line explained math.random().
void TestLesson::everyStepFiresTheLimiterItNames()
{
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    // What the members of each limiter look like (a request id is "<run tag>:<n>").
    const QHash<QString, QRegularExpression> shapes {
        {QStringLiteral("now"), QRegularExpression(QStringLiteral("^\\d{13}$"))},
        {QStringLiteral("request-id"), QRegularExpression(QStringLiteral("^[0-9a-z]+:\\d+$"))},
        {QStringLiteral("random"), QRegularExpression(QStringLiteral("^\\d{13}-0\\.\\d+$"))},
        {QStringLiteral("sequence"), QRegularExpression(QStringLiteral("^\\d{13}-\\d+$"))},
        {QStringLiteral("microseconds"), QRegularExpression(QStringLiteral("^req:1\\.\\d+e\\+15$"))},
    };
    int checked = 0;
    for (int step = 0; step < m_lesson->stepCount(); ++step) {
        m_lesson->goToStep(step);
        const QString named = m_lesson->stepLimiter();
        if (named.isEmpty())
            continue;
        QVERIFY2(shapes.contains(named), qPrintable(named));
        runStep(step);
        LimiterExperiment* experiment = m_window->experiment();
        const auto side = experiment->isCompare() ? LimiterExperiment::Right : LimiterExperiment::Left;
        const BurstEngine& engine = experiment->engine(side);
        QCOMPARE(engine.plan().limiter->id, named);
        QCOMPARE(engine.summary().limiter, named);
        const RedisReply members = redis.command({"ZRANGE", engine.key(), "0", "-1"});
        QVERIFY2(!members.elements().empty(), engine.key().constData());
        for (const RedisReply& member : members.elements())
            QVERIFY2(shapes.value(named).match(member.text()).hasMatch(),
                     qPrintable(QStringLiteral("step %1 (%2): member %3").arg(step + 1).arg(named, member.text())));
        // The result line says which limiter ran, with one of its members.
        QVERIFY2(m_lesson->resultText().contains(engine.plan().limiter->displayName()),
                 qPrintable(m_lesson->resultText()));
        ++checked;
    }
    QVERIFY(checked >= 6);
}

// Guess first: each question's answer is what Redis did, read here from Redis itself, and the
// result line sets it beside the class's guess; switched off, no question and no comparison.
void TestLesson::guessFirstSetsTheClassAgainstRedis()
{
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    m_lesson->setAsksFirst(true);
    int asked = 0;
    for (int step = 0; step < m_lesson->stepCount(); ++step) {
        m_lesson->goToStep(step);
        if (!m_lesson->hasQuestion())
            continue;
        const QString question = m_lesson->questionText();
        QVERIFY(m_lesson->hasAction());
        QCOMPARE(m_lesson->answer(), qint64(-1)); // nothing run yet
        QVERIFY(m_lesson->guessVersusAnswer().isEmpty());
        const qint64 guess = m_lesson->questionChoices().isEmpty() ? 7 : 0;
        m_lesson->setGuess(guess);
        runStep(step);
        QCOMPARE(m_lesson->guess(), guess);
        const qint64 answer = m_lesson->answer();
        QVERIFY2(answer >= 0, qPrintable(question));

        LimiterExperiment* experiment = m_window->experiment();
        const auto side = experiment->isCompare() ? LimiterExperiment::Right : LimiterExperiment::Left;
        const BurstEngine& engine = experiment->engine(side);
        if (question.contains(QLatin1String("sliding log"))) {
            // The price of the fix: one member per request of the user's window, all admitted.
            const ComparisonResult& price = m_lesson->priceOfTheFix();
            QVERIFY(!price.algorithms.isEmpty());
            QCOMPARE(price.algorithms.first().id, QStringLiteral("sliding-log"));
            QCOMPARE(answer, price.algorithms.first().admitted);
            QCOMPARE(answer, qint64(Lesson::pricePlan(m_window->planModel()->plan().burst).burst.requests));
        } else if (question.contains(QLatin1String("How many members"))) {
            QCOMPARE(answer, redis.command({"ZCARD", engine.key()}).toInteger());
        } else if (question.contains(QLatin1String("admit"))) {
            const RequestLog& log = engine.log();
            qint64 admitted = 0;
            for (int i = 0; i < log.size(); ++i)
                admitted += log.isDone(i) && !log.isFailed(i) && log.count(i) <= engine.plan().limit ? 1 : 0;
            QCOMPARE(answer, admitted);
        } else if (question.contains(QLatin1String("wrote it"))) {
            const RequestLog& log = engine.log();
            const QByteArray member
                = redis.command({"ZRANGE", engine.key(), "0", "0"}).elements().at(0).text().toUtf8();
            qint64 writers = 0;
            for (int i = 0; i < log.size(); ++i)
                writers += log.member(i) == member ? 1 : 0;
            QCOMPARE(answer, writers);
        } else if (question.contains(QLatin1String("EXPIRE"))) {
            const qint64 ttl = redis.command({"PTTL", engine.key()}).toInteger();
            // About 1 second, 1 minute, 17 minutes, 17 hours: the TTL's nearest.
            QVERIFY(ttl > 0);
            QCOMPARE(answer, ttl <= 10'000 ? 0 : ttl <= 300'000 ? 1 : ttl <= 4 * 3'600'000 ? 2 : 3);
        } else {
            QFAIL(qPrintable(QStringLiteral("a question this test cannot check against Redis: ") + question));
        }
        const QString compared = m_lesson->guessVersusAnswer();
        const QStringList choices = m_lesson->questionChoices();
        auto said = [&choices](qint64 value) {
            return choices.isEmpty() ? QLocale().toString(value) : choices.at(int(value));
        };
        QVERIFY2(compared.contains(QStringLiteral("Class: ") + said(guess)), qPrintable(compared));
        QVERIFY2(compared.contains(QStringLiteral("Redis: ") + said(answer)), qPrintable(compared));
        QVERIFY2(compared.contains(guess == answer ? QLatin1String("right") : QLatin1String("not what")),
                 qPrintable(compared));
        ++asked;
    }
    QVERIFY(asked >= 6);

    // Off: the same step asks nothing and compares nothing, and the setting is kept.
    m_lesson->setAsksFirst(false);
    QVERIFY(m_lesson->guessVersusAnswer().isEmpty());
    QVERIFY(!m_panel->findChild<QSpinBox*>()->isVisible());
    QVERIFY(!m_panel->findChild<QComboBox*>()->isVisible());
    QVERIFY(!QSettings().value(QStringLiteral("lesson/askFirst")).toBool());
    m_lesson->setAsksFirst(true);
}

// The last step measures what the fix costs at the user's window and rate: a sliding log of one
// member per request, against algorithms that keep a counter or two, read with MEMORY USAGE.
void TestLesson::priceOfTheFixIsMeasuredOnRedis()
{
    // The user's traffic: 0.5 requests per ms over a 2000 ms window, a log of 1000 members.
    const ExperimentPlan before = m_window->planModel()->plan();
    m_window->planModel()->edit([](ExperimentPlan& plan) {
        plan.burst.windowMs = 2000;
        plan.burst.pacing.kind = Pacing::Kind::Poisson;
        plan.burst.pacing.perMs = 0.5;
    });
    const int step = m_lesson->stepCount() - 1;
    m_lesson->goToStep(step);
    QVERIFY2(m_lesson->stepTitle().contains(QLatin1String("price")), qPrintable(m_lesson->stepTitle()));
    QVERIFY(m_lesson->stepLimiter().isEmpty()); // it fires the comparison, not the Burst panel's run
    runStep(step);

    const ComparisonResult& price = m_lesson->priceOfTheFix();
    QVERIFY2(!price.failure.isFailure(), qPrintable(price.failure.message));
    QCOMPARE(price.plan.burst.windowMs, 2000);
    QCOMPARE(price.plan.burst.requests, 1000);
    QCOMPARE(price.algorithms.size(), 5);
    const AlgorithmTally& log = price.algorithms.first();
    QCOMPARE(log.id, QStringLiteral("sliding-log"));
    QCOMPARE(log.admitted, 1000); // one member per request: every one admitted, none trimmed
    QCOMPARE(log.keys, 1);
    QCOMPARE(m_lesson->answer(), 1000);
    // Tens of bytes per member, and far more than any of the cheaper algorithms.
    const double perMember = log.memoryBytesPerKey / double(log.admitted);
    QVERIFY2(perMember > 20 && perMember < 200, qPrintable(QString::number(perMember)));
    const QString text = m_lesson->resultText();
    QVERIFY2(text.contains(QLocale().toString(qint64(std::llround(log.memoryBytesPerKey))) + QLatin1String(" bytes")),
             qPrintable(text));
    QVERIFY2(text.contains(QLocale().toString(1000) + QLatin1String(" members")), qPrintable(text));
    qint64 least = std::numeric_limits<qint64>::max();
    qint64 most = 0;
    for (int i = 1; i < price.algorithms.size(); ++i) {
        const AlgorithmTally& cheaper = price.algorithms.at(i);
        QVERIFY2(cheaper.memoryBytesPerKey > 0 && cheaper.memoryBytesPerKey * 10 < log.memoryBytesPerKey,
                 qPrintable(cheaper.id));
        least = std::min(least, qint64(std::llround(cheaper.memoryBytesPerKey)));
        most = std::max(most, qint64(std::llround(cheaper.memoryBytesPerKey)));
    }
    // The cheaper four in one span (the chart beside names each).
    QVERIFY2(text.contains(QLocale().toString(least) + QLatin1String(" to ") + QLocale().toString(most)),
             qPrintable(text));

    // The same kind of key, made here: MEMORY USAGE of a ZSET of 1000 members of the same shape
    // (member = a request id) is what the lesson reported, within the estimate's sampling.
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    QVERIFY(redis.command({"EXISTS", log.runKey}).toInteger() == 0); // the lesson left no key behind
    const QByteArray key = TestRedis::uniqueKey("price");
    RedisArgs zadd {"ZADD", key};
    for (int i = 0; i < 1000; ++i) {
        zadd << QByteArray::number(1'700'000'000'000LL) << log.runKey.right(8) + ':' + QByteArray::number(i);
    }
    QCOMPARE(redis.command(zadd).toInteger(), 1000);
    const qint64 bytes = redis.command({"MEMORY", "USAGE", key, "SAMPLES", "0"}).toInteger();
    redis.command({"DEL", key});
    QVERIFY2(std::abs(double(bytes) - log.memoryBytesPerKey) < 0.2 * double(bytes),
             qPrintable(QStringLiteral("here %1, the lesson %2").arg(bytes).arg(log.memoryBytesPerKey)));
    m_window->planModel()->setPlan(before);
}

// Issue #30: a presenter's clicker sends PageDown (Next) and, on some models, "." and "B"; Enter
// does the step. The whole lesson goes through with those keys alone, each step's action run, its
// result read from Redis, and the focus never left on Back (a second key would go back a step).
void TestLesson::theWholeLessonByClickerKeys()
{
    m_lesson->setAsksFirst(true);
    m_window->showLesson();
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    m_lesson->goToStep(0);
    // The focus elsewhere, as after a click on the timeline.
    m_window->runView(LimiterExperiment::Left)->timeline()->setFocus();
    QCOMPARE(QApplication::focusWidget(), m_window->runView(LimiterExperiment::Left)->timeline());
    auto* back = m_panel->findChildren<QPushButton*>().at(1);
    for (int step = 0; step < m_lesson->stepCount(); ++step) {
        QCOMPARE(m_lesson->currentStep(), step);
        if (m_lesson->hasAction()) {
            QSignalSpy finished(m_lesson, &Lesson::actionFinished);
            QVERIFY2(QApplication::focusWidget(), qPrintable(QStringLiteral("step %1: no focus").arg(step + 1)));
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
            const QString focused = QString::fromLatin1(QApplication::focusWidget()->metaObject()->className());
            QTRY_VERIFY2_WITH_TIMEOUT(
                finished.count() == 1,
                qPrintable(QStringLiteral("step %1: Enter in %2 did not do the step").arg(step + 1).arg(focused)),
                60000);
            QVERIFY2(!m_lesson->resultText().isEmpty(), qPrintable(QString::number(step)));
            QVERIFY(QApplication::focusWidget() != back);
            QVERIFY2(QApplication::focusWidget() == m_panel || m_panel->isAncestorOf(QApplication::focusWidget()),
                     QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "none");
        }
        if (step + 1 < m_lesson->stepCount())
            QTest::keyClick(QApplication::focusWidget(), step % 2 ? Qt::Key_PageDown : Qt::Key_Period);
    }
    QCOMPARE(m_lesson->currentStep(), m_lesson->stepCount() - 1);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageDown); // the last step stays
    QCOMPARE(m_lesson->currentStep(), m_lesson->stepCount() - 1);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_PageUp);
    QCOMPARE(m_lesson->currentStep(), m_lesson->stepCount() - 2);
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_B);
    QCOMPARE(m_lesson->currentStep(), m_lesson->stepCount() - 3);
}

// The keys are the lesson's only while it is in front; the arrows only once the focus is in it;
// Tab leaves the ZSET table in one press; the wheel does not change a guess it passes over.
void TestLesson::keysFollowTheFocus()
{
    m_window->showLesson();
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    m_lesson->goToStep(3);
    m_panel->findChildren<QPushButton*>().last()->setFocus(); // Next
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
    QCOMPARE(m_lesson->currentStep(), 4);
    // Step 5 asks first: its guess took the focus, where the arrows move the text cursor.
    QVERIFY(qobject_cast<QSpinBox*>(QApplication::focusWidget()));
    m_panel->findChildren<QPushButton*>().constLast()->setFocus(); // Next again, as a click on it
    QTest::keyClick(QApplication::focusWidget(), Qt::Key_Left);
    QCOMPARE(m_lesson->currentStep(), 3);

    // Behind the Burst tab, PageDown is not the lesson's.
    m_window->findChild<QDockWidget*>(QStringLiteral("BurstDock"))->raise();
    QTRY_VERIFY(m_panel->visibleRegion().isEmpty());
    QTest::keyClick(m_window.get(), Qt::Key_PageDown);
    QCOMPARE(m_lesson->currentStep(), 3);
    QTest::keyClick(m_window.get(), Qt::Key_L, Qt::ControlModifier); // View > Show the Lesson
    QTRY_VERIFY(!m_panel->visibleRegion().isEmpty());
    QTest::keyClick(m_window.get(), Qt::Key_PageDown);
    QCOMPARE(m_lesson->currentStep(), 4);

    // One Tab stop for the ZSET table: the next Tab is out of it.
    QTableView* table = m_window->zsetPanel()->view();
    table->setFocus(Qt::TabFocusReason);
    QVERIFY(table->hasFocus());
    QTest::keyClick(table, Qt::Key_Tab);
    QVERIFY2(QApplication::focusWidget() != table,
             QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "none");

    // The wheel over the class's guess, without the focus: the guess stays.
    m_lesson->goToStep(1);
    auto* guess = m_panel->findChild<QSpinBox*>();
    QVERIFY(guess && guess->isVisible());
    guess->setValue(5);
    m_panel->findChildren<QPushButton*>().last()->setFocus();
    QWheelEvent wheel(QPointF(5, 5), guess->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, -120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(guess, &wheel);
    QCOMPARE(guess->value(), 5);
    QCOMPARE(m_lesson->guess(), 5);
    guess->setFocus();
    QWheelEvent focused(QPointF(5, 5), guess->mapToGlobal(QPointF(5, 5)), QPoint(), QPoint(0, -120), Qt::NoButton,
                        Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(guess, &focused);
    QCOMPARE(guess->value(), 4); // with the focus, the wheel is the field's
    guess->setValue(-1);
}

// Issue #30: the "look here" frames piled up over text. One frame, around the part that shows the
// step's result, inside that part's own margin (no text of the part or a neighbour under it),
// brought into view, kept until the step changes, and gone with it.
void TestLesson::oneFramePointsAtEachResult()
{
    m_window->showLesson();
    Spotlight* spotlight = m_window->spotlight();
    auto visibleFrames = [this] {
        int shown = 0;
        for (QWidget* frame : m_window->findChildren<QWidget*>(QStringLiteral("SpotlightFrame")))
            shown += frame->isVisible() ? 1 : 0;
        return shown;
    };
    for (int step = 0; step < m_lesson->stepCount(); ++step) {
        m_lesson->goToStep(step);
        QCOMPARE(spotlight->lit(), nullptr);
        QCOMPARE(visibleFrames(), 0);
        if (!m_lesson->hasAction())
            continue;
        runStep(step);
        if (m_lesson->spotlight() == Lesson::Spotlight::None) {
            QCOMPARE(visibleFrames(), 0);
            continue;
        }
        QWidget* part = spotlight->lit();
        QVERIFY2(part, qPrintable(QString::number(step + 1)));
        QCOMPARE(visibleFrames(), 1);
        // A scroll area (the counts chart) is covered by its own viewport: that is what shows.
        auto* scrolled = qobject_cast<QAbstractScrollArea*>(part);
        QWidget* shown = scrolled ? scrolled->viewport() : part;
        QTRY_VERIFY2(!shown->visibleRegion().isEmpty(),
                     qPrintable(QStringLiteral("step %1: the part is hidden").arg(step + 1)));
        if (m_lesson->spotlight() == Lesson::Spotlight::Zset)
            QCOMPARE(part, static_cast<QWidget*>(m_window->zsetPanel()));
        if (m_lesson->spotlight() == Lesson::Spotlight::Numbers)
            QCOMPARE(part, static_cast<QWidget*>(m_window->runView(LimiterExperiment::Left)->numbers()));
        // The frame lies in the part's margin: the part's children keep inside its contents.
        const QRect frame = spotlight->frameRect();
        QVERIFY(part->rect().contains(frame));
        QVERIFY2(!part->contentsRect().contains(frame.topLeft()),
                 qPrintable(QStringLiteral("step %1: the frame %2,%3 is drawn over the contents of %4 (%5,%6 %7x%8)")
                                .arg(step + 1)
                                .arg(frame.x())
                                .arg(frame.y())
                                .arg(QString::fromLatin1(part->metaObject()->className()))
                                .arg(part->contentsRect().x())
                                .arg(part->contentsRect().y())
                                .arg(part->contentsRect().width())
                                .arg(part->contentsRect().height())));
        // Once laid out: a part that moved to the runs' place for the step is laid out there after.
        auto intoMargin = [part]() -> QString {
            for (QWidget* child : part->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
                if (child->isVisible() && child->objectName() != QLatin1String("SpotlightFrame")
                    && !part->contentsRect().contains(child->geometry()))
                    return QString::fromLatin1(child->metaObject()->className());
            return {};
        };
        QTRY_VERIFY2(
            intoMargin().isEmpty(),
            qPrintable(QStringLiteral("step %1: %2 reaches into the frame's margin").arg(step + 1).arg(intoMargin())));
        // No text of another part under it.
        const QRect area(part->mapTo(m_window.get(), QPoint(0, 0)), part->size());
        for (QWidget* widget : m_window->findChildren<QWidget*>()) {
            const bool text = qobject_cast<QLabel*>(widget) || qobject_cast<QAbstractButton*>(widget)
                || qobject_cast<QAbstractItemView*>(widget) || qobject_cast<QTextEdit*>(widget);
            if (!text || !widget->isVisible() || widget->visibleRegion().isEmpty() || part->isAncestorOf(widget)
                || widget->isAncestorOf(part) || widget->window() != m_window.get())
                continue;
            const QRect where(widget->mapTo(m_window.get(), QPoint(0, 0)), widget->size());
            QVERIFY2(!where.intersects(area),
                     qPrintable(
                         QStringLiteral("step %1: the frame covers %2 \"%3\"")
                             .arg(step + 1)
                             .arg(QString::fromLatin1(widget->metaObject()->className()))
                             .arg(qobject_cast<QLabel*>(widget) ? qobject_cast<QLabel*>(widget)->text() : QString())));
        }
    }
    m_lesson->goToStep(0);
    QCOMPARE(visibleFrames(), 0);
}

QTEST_MAIN(TestLesson)
#include "tst_lesson.moc"
