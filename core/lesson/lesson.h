#pragma once

#include "algorithms/algorithmcomparison.h"
#include "base/taskthread.h"
#include "burst/experimentplan.h"
#include "lessonrecord.h"
#include "results/burstsummary.h"

#include <QHash>
#include <QObject>
#include <QStringList>

#include <functional>

class LimiterExperiment;
class ServerSession;

// What the lesson needs of the program around it: the server, the experiment that fires and keeps
// the runs, how to fire a plan (the window asks before firing at a server that is not local), and
// the user's own traffic, which "the price of the fix" is measured at.
struct LessonServices
{
    ServerSession* session = nullptr;
    LimiterExperiment* experiment = nullptr;
    // Starts a plan on the experiment; false, with *error, when it did not start.
    std::function<bool(const ExperimentPlan& plan, QString* error)> fire;
    // Unset: a 1000 ms window at 1 request per ms.
    std::function<BurstPlan()> traffic;
};

// The guided lesson, without a window: its steps (a short text and, where it fits, an action that
// does the step against the real server), where the class is, the class's guesses and what Redis
// answered. A result line is read back from the server and the log, never scripted; its text is
// made in the language of the moment each time it is asked for. LessonPanel shows a Lesson and
// points at the part of the window that its Spotlight names; the headless export drives one.
class Lesson : public QObject
{
    Q_OBJECT
public:
    // The part of the window that shows a step's result: the one its explanation names.
    enum class Spotlight {
        None,
        Script, // the script the lesson is about, its four steps marked
        Timeline, // the first run's timeline
        Numbers, // the first run's figures
        Counts, // the first run's counts chart
        Runs, // both runs, in compare mode
        Zset, // the ZSET table
        Expiry, // the key's TTL against the window
        Price, // the memory per user of each algorithm
    };
    // How the step texts name a part ("the counts chart"; a sentence may capitalize it), in the
    // current language.
    static QString partName(Spotlight part);

    explicit Lesson(LessonServices services, QObject* parent = nullptr);
    ~Lesson() override;

    int stepCount() const;
    int currentStep() const { return m_step; }
    void goToStep(int index);
    void next();
    void back();

    QString stepTitle() const;
    // Rich text. The setup says what is about to happen and never what Redis will answer; the
    // explanation says why it answered so, and is shown only once it has (hasAnswered()).
    QString stepSetup() const;
    QString stepExplanation() const;
    // What the lesson shows now: the setup, or once Redis answered, the explanation.
    QString stepBody() const { return hasAnswered() ? stepExplanation() : stepSetup(); }
    // The part of the window the step's explanation names and its result is shown in.
    Spotlight stepShows() const;
    QString actionLabel() const; // empty: the step runs nothing
    bool hasAction() const;
    // The catalog id of the limiter the step's text is about and its action fires (empty: the step
    // fires nothing).
    QString stepLimiter() const;

    // Runs the current step's action; actionFinished() when its result is known. Not connected:
    // the result says so and nothing runs.
    void runAction();
    bool isRunning() const { return m_running; }
    // The step's result (or, while it runs, where it runs), in the current language; empty before.
    QString resultText() const;
    // The step's action ran to its end and Redis answered (not: not connected, failed to fire).
    bool hasAnswered() const { return !m_running && m_answered; }
    // Where the window shows the result, and the member it points at (step 3), once the step ran.
    Spotlight spotlight() const { return m_spotlight; }
    // What the step's action left, as values (empty before it answered): what the stage draws.
    const LessonRecord& record() const { return m_record; }
    QByteArray pointedMember() const { return m_pointedMember; }

    // Guess first: before a step's action, the class predicts its outcome; after it, guess and
    // Redis's answer show side by side. Off, the questions hide.
    bool asksFirst() const { return m_asksFirst; }
    void setAsksFirst(bool on);
    bool hasQuestion() const;
    QString questionText() const;
    QStringList questionChoices() const; // empty: the answer is a number
    // The class's guess for the current step: a number, or a choice's index; -1: none.
    void setGuess(qint64 guess);
    qint64 guess() const { return m_guesses.value(m_step, -1); }
    // What Redis answered, once the step ran; -1 before.
    qint64 answer() const { return m_answers.value(m_step, -1); }
    // "Class: 3 · Redis: 1", in the current language; empty before the step ran or without a guess.
    QString guessVersusAnswer() const;
    // Redis's answer alone, as the question's words say it ("1", "about 17 minutes"); empty before.
    QString answerText() const;

    // What step 9 read: the window its burst used and the key's TTL (-2: no key, -1: none).
    struct Expiry
    {
        qint64 windowMs = 0;
        qint64 ttlMs = -3; // -3: not read
    };
    Expiry expiry() const { return m_expiry; }

    // "The price of the fix": the traffic it measures at (the user's window and rate, one user's
    // window full of requests in one millisecond, the limit that many), and what it measured.
    static ComparisonPlan pricePlan(const BurstPlan& traffic);
    // The comparison "the price of the fix" ran last (empty before it ran).
    const ComparisonResult& priceOfTheFix() const { return m_price->result(); }

signals:
    // The step, its result, the guess or the asking changed: show it again.
    void changed();
    void actionFinished();

private:
    // A prediction to ask for before the action; its answer is what the action measured.
    struct Question
    {
        QString prompt = {}; // empty: no question
        QStringList choices = {}; // empty: a number
    };
    struct Step
    {
        QString title;
        QString setup; // rich text: what is about to happen, no result
        QString explanation; // rich text: why Redis answered as it did; names the part `shows`
        QString actionLabel; // empty: nothing to run
        std::function<void()> action;
        QString limiter; // the limiter the text names and the action fires
        Question question = {};
        Spotlight shows = Spotlight::None; // where the window shows the result
    };
    QVector<Step> steps();
    Step expiryStep();
    Step priceStep();
    Step step() const; // the current one
    // Reads the TTL of the key step 9 wrote, off the caller's thread, and finishes the step.
    void readExpiry();
    // Keeps a step's result: a function, so that a language change makes the line again.
    // `answer` answers the step's question: a number, or a choice's index. The window shows it in
    // the part the step names.
    void finish(std::function<QString()> result, qint64 answer = -1);
    // The current step's record, read from what its action ran.
    LessonRecord recordOfStep() const;
    // The action could not run or fire: says why; nothing is shown as answered.
    void refuse(std::function<QString()> reason);
    // Fires a plan and calls `then` when every run has ended.
    void fire(const ExperimentPlan& plan, const std::function<void()>& then);
    static ExperimentPlan lessonPlan(const char* limiter, int requests, qint64 limit);
    // What one side ran, kept with the result line that tells it.
    struct Ran
    {
        LimiterRef limiter;
        BurstSummary summary;
        QByteArray member; // one member it wrote
        QList<qint64> counts; // the first requests' counts
        QList<int> added; // and ZADD's replies
    };
    Ran ran(int side) const;
    // How many successful requests of the first run wrote `member`.
    int writesOf(const QByteArray& member) const;
    static QString describeRun(const Ran& ran, bool withCounts);
    // "request id, e.g. member abc:3": which limiter ran, shown with a member it wrote.
    static QString whatRan(const Ran& ran);
    void measurePrice();
    static QString describePrice(const ComparisonResult& result);

    LessonServices m_services;
    int m_step = 0;
    bool m_asksFirst = true;
    bool m_running = false;
    QString m_runningOn; // while running: the server's address
    QHash<int, qint64> m_guesses; // by step
    QHash<int, qint64> m_answers; // by step, once run
    std::function<QString()> m_resultOf;
    bool m_answered = false;
    Expiry m_expiry;
    Spotlight m_spotlight = Spotlight::None;
    QByteArray m_pointedMember;
    LessonRecord m_record;
    TaskThread m_thread; // reads the lesson's facts (TTL) off the caller's thread
    AlgorithmComparison* m_price = nullptr; // measures "the price of the fix" off the caller's thread
};
