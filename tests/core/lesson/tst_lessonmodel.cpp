// The lesson without a window: a Lesson driven step by step against the private server, with
// each answer read back from Redis itself. No widget is made (QTEST_GUILESS_MAIN).
#include "burst/limiterexperiment.h"
#include "lesson/lesson.h"
#include "redis/serversession.h"
#include "testredis.h"

#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <memory>

class TestLessonModel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void walksTheStepsWithoutAWindow();
    void threeRequestsInOneMillisecond();
    void theMemberWasWrittenThreeTimes_data();
    void theMemberWasWrittenThreeTimes();
    void microsecondsAreTheSameEveryRun();
    void expiryReadFromTheServer();
    void notConnectedSaysSoAndRunsNothing();
    void noSetupOrQuestionGivesItsAnswerAway_data();
    void noSetupOrQuestionGivesItsAnswerAway();

private:
    // Runs the current step's action and waits for its result.
    bool run();
    qint64 zcard(const QByteArray& key);

    ServerSession m_session;
    std::unique_ptr<LimiterExperiment> m_experiment;
    std::unique_ptr<Lesson> m_lesson;
};

void TestLessonModel::initTestCase()
{
    QVERIFY(TestRedis::server().isRunning());
    QSignalSpy connected(&m_session, &ServerSession::connected);
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    m_session.connectTo(request);
    QTRY_COMPARE_WITH_TIMEOUT(connected.count(), 1, 5000);
}

void TestLessonModel::init()
{
    m_experiment = std::make_unique<LimiterExperiment>();
    m_experiment->setServer(m_session.endpoint(), m_session.options());
    LessonServices services;
    services.session = &m_session;
    services.experiment = m_experiment.get();
    services.fire = [this](const ExperimentPlan& plan, QString* error) {
        const bool fired = m_experiment->fire(plan);
        if (!fired)
            *error = m_experiment->error();
        return fired;
    };
    m_lesson = std::make_unique<Lesson>(services);
}

void TestLessonModel::cleanup()
{
    m_lesson.reset();
    m_experiment.reset(); // deletes the keys it made
}

bool TestLessonModel::run()
{
    QSignalSpy finished(m_lesson.get(), &Lesson::actionFinished);
    m_lesson->runAction();
    return finished.count() == 1 || finished.wait(30000);
}

qint64 TestLessonModel::zcard(const QByteArray& key)
{
    RedisConnection connection;
    return TestRedis::connect(connection) ? connection.command({"ZCARD", key}).toInteger() : -1;
}

void TestLessonModel::walksTheStepsWithoutAWindow()
{
    QSignalSpy changed(m_lesson.get(), &Lesson::changed);
    QCOMPARE(m_lesson->stepCount(), 10);
    QCOMPARE(m_lesson->currentStep(), 0);
    m_lesson->back();
    QCOMPARE(m_lesson->currentStep(), 0);
    m_lesson->next();
    QCOMPARE(m_lesson->currentStep(), 1);
    QVERIFY(changed.count() >= 2);
    m_lesson->goToStep(1000);
    QCOMPARE(m_lesson->currentStep(), 9);
    for (int step = 0; step < m_lesson->stepCount(); ++step) {
        m_lesson->goToStep(step);
        QVERIFY2(!m_lesson->stepTitle().isEmpty(), qPrintable(QString::number(step)));
        QVERIFY(!m_lesson->stepSetup().isEmpty());
        QCOMPARE(m_lesson->stepBody(), m_lesson->stepSetup()); // the explanation waits for Redis
        // The explanation names the part of the window that shows the result.
        const QString part = Lesson::partName(m_lesson->stepShows());
        QVERIFY2(!part.isEmpty() && m_lesson->stepExplanation().contains(part, Qt::CaseInsensitive),
                 qPrintable(QStringLiteral("step %1 names no %2").arg(step + 1).arg(part)));
        QCOMPARE(m_lesson->hasAction(), !m_lesson->actionLabel().isEmpty());
        QVERIFY(m_lesson->resultText().isEmpty()); // nothing ran
        QCOMPARE(m_lesson->answer(), qint64(-1));
    }
}

void TestLessonModel::threeRequestsInOneMillisecond()
{
    m_lesson->goToStep(1);
    QCOMPARE(m_lesson->stepLimiter(), QStringLiteral("now"));
    QVERIFY(m_lesson->hasQuestion());
    m_lesson->setGuess(3);
    QVERIFY(run());
    const BurstEngine& engine = m_experiment->engine(LimiterExperiment::Left);
    QCOMPARE(engine.summary().sent, 3);
    const qint64 held = zcard(engine.key());
    QCOMPARE(held, qint64(1)); // what Redis holds
    QCOMPARE(m_lesson->answer(), held); // is the lesson's answer
    QVERIFY2(m_lesson->resultText().contains(QLatin1String("counts returned: 1, 1, 1; ZADD replied: 1, 0, 0")),
             qPrintable(m_lesson->resultText()));
    QCOMPARE(m_lesson->spotlight(), Lesson::Spotlight::Timeline);
    QVERIFY(m_lesson->hasAnswered());
    QCOMPARE(m_lesson->stepBody(), m_lesson->stepExplanation());
    QVERIFY2(m_lesson->guessVersusAnswer().contains(QLatin1String("not what the class expected")),
             qPrintable(m_lesson->guessVersusAnswer()));
    m_lesson->setGuess(1);
    QVERIFY(m_lesson->guessVersusAnswer().contains(QLatin1String("the class was right")));
    m_lesson->setAsksFirst(false);
    QVERIFY(m_lesson->guessVersusAnswer().isEmpty());
}

void TestLessonModel::theMemberWasWrittenThreeTimes_data()
{
    QTest::addColumn<bool>("afterStep2");
    QTest::newRow("after step 2") << true;
    QTest::newRow("cold, step 3 alone") << false;
}

// Step 3 run on its own says what it says after step 2: it fires step 2's burst itself.
void TestLessonModel::theMemberWasWrittenThreeTimes()
{
    QFETCH(bool, afterStep2);
    if (afterStep2) {
        m_lesson->goToStep(1);
        QVERIFY(run());
    }
    m_lesson->goToStep(2);
    QVERIFY(run());
    RedisConnection connection;
    QVERIFY(TestRedis::connect(connection));
    const RedisReply members
        = connection.command({"ZRANGE", m_experiment->engine(LimiterExperiment::Left).key(), "0", "-1"});
    QCOMPARE(members.elements().size(), size_t(1));
    QCOMPARE(m_lesson->pointedMember(), members.elements().at(0).bytes()); // the member Redis holds
    QCOMPARE(m_lesson->answer(), qint64(3)); // written by the 3 requests
    QCOMPARE(m_lesson->spotlight(), Lesson::Spotlight::Zset);
}

// Step 8 fires a fixed schedule: its premise (300 different microseconds) holds, and its answer
// is the same in every run, so that a printed handout and the live class agree.
void TestLessonModel::microsecondsAreTheSameEveryRun()
{
    const int step = 7;
    QList<qint64> answers;
    for (int run = 0; run < 2; ++run) {
        m_lesson->goToStep(step);
        QVERIFY(this->run());
        QVERIFY(m_lesson->hasAnswered());
        const LessonRecord& record = m_lesson->record();
        QCOMPARE(record.runs.size(), 1);
        QCOMPARE(record.runs.first().requests.size(), 300);
        QSet<qint64> distinct;
        qint64 first = record.runs.first().requests.first().now;
        qint64 last = first;
        for (const LessonRecord::Request& request : record.runs.first().requests) {
            distinct.insert(request.now);
            first = std::min(first, request.now);
            last = std::max(last, request.now);
        }
        QCOMPARE(distinct.size(), 300); // the question's premise
        QVERIFY2(last - first < 1000, qPrintable(QString::number(last - first))); // within one millisecond
        // What the record says the ZSET holds is what Redis holds.
        const qint64 members = zcard(m_experiment->engine(LimiterExperiment::Left).key());
        QCOMPARE(qint64(record.members.size()), members);
        QVERIFY2(members > 1 && members < 300, qPrintable(QString::number(members)));
        QCOMPARE(m_lesson->answer(), members);
        answers << m_lesson->answer();
    }
    QCOMPARE(answers.at(0), answers.at(1));
}

void TestLessonModel::expiryReadFromTheServer()
{
    const int step = 8;
    m_lesson->goToStep(step);
    QVERIFY2(m_lesson->questionText().contains(QLatin1String("EXPIRE")), qPrintable(m_lesson->questionText()));
    QCOMPARE(m_lesson->questionChoices().size(), 4);
    QVERIFY(run());
    RedisConnection connection;
    QVERIFY(TestRedis::connect(connection));
    const qint64 pttl = connection.command({"PTTL", m_experiment->engine(LimiterExperiment::Left).key()}).toInteger();
    QVERIFY2(pttl > 900'000 && pttl <= 1'000'000, qPrintable(QString::number(pttl))); // EXPIRE 1000: seconds
    QCOMPARE(m_lesson->answer(), qint64(2)); // "about 17 minutes"
    QCOMPARE(m_lesson->answerText(), m_lesson->questionChoices().at(2));
    // What the figure draws: the window the burst used and the TTL Redis gave the key.
    QCOMPARE(m_lesson->expiry().windowMs, 1000);
    QVERIFY(std::abs(m_lesson->expiry().ttlMs - pttl) < 5000);
    QVERIFY2(m_lesson->resultText().contains(QLatin1String("1,000 s"))
                 || m_lesson->resultText().contains(QLatin1String("1000 s")),
             qPrintable(m_lesson->resultText()));
}

void TestLessonModel::notConnectedSaysSoAndRunsNothing()
{
    ServerSession offline;
    LimiterExperiment experiment;
    LessonServices services;
    services.session = &offline;
    services.experiment = &experiment;
    bool fired = false;
    services.fire = [&fired](const ExperimentPlan&, QString*) { return fired = true; };
    Lesson lesson(services);
    lesson.goToStep(1);
    QSignalSpy finished(&lesson, &Lesson::actionFinished);
    lesson.runAction();
    QCOMPARE(finished.count(), 1);
    QVERIFY(!fired);
    QVERIFY2(lesson.resultText().contains(QLatin1String("Not connected")), qPrintable(lesson.resultText()));
    QCOMPARE(lesson.answer(), qint64(-1));
    // Nothing answered: no explanation, no part pointed at.
    QVERIFY(!lesson.hasAnswered());
    QCOMPARE(lesson.stepBody(), lesson.stepSetup());
    QCOMPARE(lesson.spotlight(), Lesson::Spotlight::None);
}

// What a class reads before it guesses (the setup, the title, the question) says what is about to
// happen and never what Redis will answer; the explanation, after, does. Each row names a claim
// that an earlier text made before its question (issue #43).
void TestLessonModel::noSetupOrQuestionGivesItsAnswerAway_data()
{
    QTest::addColumn<int>("step");
    QTest::addColumn<QString>("claim");
    QTest::newRow("2: the diamonds and the one row") << 1 << QStringLiteral("hollow diamond");
    QTest::newRow("2: ZADD replied 0") << 1 << QStringLiteral("replied 0");
    QTest::newRow("3: ZADD replied 1, 0, 0") << 2 << QStringLiteral("replies <b>0</b>");
    QTest::newRow("3: the three requests wrote it") << 2 << QStringLiteral("three requests");
    QTest::newRow("4: no race happened") << 3 << QStringLiteral("no race");
    QTest::newRow("5: never passes 1") << 4 << QStringLiteral("never passes 1");
    QTest::newRow("5: the burst goes through") << 4 << QStringLiteral("goes through");
    QTest::newRow("6: refuses from the sixth") << 5 << QStringLiteral("sixth");
    QTest::newRow("7: the reseeded generator") << 6 << QStringLiteral("reseed");
    QTest::newRow("7: Redis 7 keeps one generator") << 6 << QStringLiteral("keeps one generator");
    QTest::newRow("8: 14 significant digits") << 7 << QStringLiteral("14 significant digits");
    QTest::newRow("8: the members do not differ") << 7 << QStringLiteral("the members do not");
    QTest::newRow("9: 1000 s") << 8 << QStringLiteral("1000 s");
    QTest::newRow("9: EXPIRE takes seconds") << 8 << QStringLiteral("takes seconds");
    QTest::newRow("10: one member per request") << 9 << QStringLiteral("one member per admitted request");
}

void TestLessonModel::noSetupOrQuestionGivesItsAnswerAway()
{
    QFETCH(int, step);
    QFETCH(QString, claim);
    m_lesson->goToStep(step);
    QVERIFY(m_lesson->hasQuestion());
    const QString before = m_lesson->stepTitle() + QLatin1Char(' ') + m_lesson->stepSetup() + QLatin1Char(' ')
        + m_lesson->questionText() + QLatin1Char(' ') + m_lesson->questionChoices().join(QLatin1Char(' '));
    QVERIFY2(!before.contains(claim, Qt::CaseInsensitive), qPrintable(before));
    QVERIFY2(m_lesson->stepExplanation().contains(claim, Qt::CaseInsensitive), qPrintable(m_lesson->stepExplanation()));
}

QTEST_GUILESS_MAIN(TestLessonModel)
#include "tst_lessonmodel.moc"
