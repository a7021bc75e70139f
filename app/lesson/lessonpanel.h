#pragma once

#include "algorithmcomparison.h"
#include "burstsummary.h"
#include "experimentplan.h"
#include "taskthread.h"

#include <QHash>
#include <QWidget>

#include <functional>

class FireControl;
class LimiterExperiment;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTextBrowser;
class RunView;
class ServerSession;
class ZsetPanel;

// The parts of the window the lesson uses: it fires through FireControl (never through the Burst
// panel, whose settings stay the user's), reads what ran from the experiment, and points at the
// views that show it.
struct LessonStage
{
    ServerSession* session = nullptr;
    LimiterExperiment* experiment = nullptr;
    FireControl* fireControl = nullptr;
    RunView* left = nullptr; // the first run's view
    QWidget* runs = nullptr; // both runs, in compare mode
    ZsetPanel* zset = nullptr;
    std::function<void(const QString& limiterId)> showScript;
    std::function<void(QWidget*)> spotlight;
    // The user's own traffic (the Burst panel's plan): the window and rate "the price of the fix"
    // is measured at. Unset: a 1000 ms window at 1 request per ms.
    std::function<BurstPlan()> traffic;
};

// The guided lesson: one step at a time, each with a short text and, where it fits, an action
// that does the step against the real server and points at the part of the window that shows
// the result. The result line is read back from the server and the log, never scripted.
class LessonPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LessonPanel(LessonStage stage, QWidget* parent = nullptr);

    int stepCount() const;
    int currentStep() const { return m_step; }
    void goToStep(int index);
    void next();
    void back();
    // Runs the current step's action; actionFinished() when its result is shown.
    void runAction();
    bool hasAction() const;
    QString stepTitle() const;
    // The catalog id of the limiter the current step's text is about and its action fires
    // (empty: the step fires nothing).
    QString stepLimiter() const;
    // The current step shows what the step before it fired, so that step must run first.
    bool buildsOnPreviousStep() const;
    QString resultText() const;

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

    // "The price of the fix": the traffic it measures at (the user's window and rate, one user's
    // window full of requests in one millisecond, the limit that many), and what it measured.
    static ComparisonPlan pricePlan(const BurstPlan& traffic);
    // The comparison "the price of the fix" ran last (empty before it ran).
    const ComparisonResult& priceOfTheFix() const { return m_price->result(); }

signals:
    void actionFinished();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // Scrolls the panel's scroll area (if any) to the result.
    void bringResultIntoView();
    bool m_showResult = false; // a run just finished: its result is kept in view
    // A prediction to ask for before the action; its answer is what the action measured.
    struct Question
    {
        QString prompt = {}; // empty: no question
        QStringList choices = {}; // empty: a number
    };
    struct Step
    {
        QString title;
        QString body; // rich text
        QString actionLabel; // empty: nothing to run
        std::function<void()> action;
        QString limiter; // the limiter the text names and the action fires
        Question question = {};
        bool buildsOnPrevious = false; // shows what the step before fired
    };
    QVector<Step> steps();
    void showStep();
    void retranslate();
    void applyFonts();
    // Shows a step's result: a function, so that a language change makes the line again.
    // `answer` answers the step's question: a number, or a choice's index.
    void finish(std::function<QString()> result, QWidget* spotlight, qint64 answer = -1);
    void showQuestion(const Step& step);
    // Fires a plan and calls `then` when every run has ended.
    void fire(const ExperimentPlan& plan, std::function<void()> then);
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
    static QString describeRun(const Ran& ran, bool withCounts);
    // "request id, e.g. member abc:3": which limiter ran, shown with a member it wrote.
    static QString whatRan(const Ran& ran);

    LessonStage m_stage;
    int m_step = 0;
    QLabel* m_counter = nullptr;
    QLabel* m_title = nullptr;
    QTextBrowser* m_body = nullptr;
    QLabel* m_result = nullptr;
    QPushButton* m_action = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
    QCheckBox* m_askFirst = nullptr;
    QWidget* m_question = nullptr;
    QLabel* m_prompt = nullptr;
    QLabel* m_guessLabel = nullptr;
    QSpinBox* m_guessNumber = nullptr;
    QComboBox* m_guessChoice = nullptr;
    bool m_asksFirst = true;
    QHash<int, qint64> m_guesses; // by step
    QHash<int, qint64> m_answers; // by step, once run
    std::function<QString()> m_resultOf;
    TaskThread m_thread; // reads the lesson's facts (TTL) off the GUI thread
    AlgorithmComparison* m_price = nullptr; // measures "the price of the fix" off the GUI thread
    void measurePrice();
    static QString describePrice(const ComparisonResult& result);
};
