#pragma once

#include "burstsummary.h"
#include "experimentplan.h"
#include "taskthread.h"

#include <QWidget>

#include <functional>

class FireControl;
class LimiterExperiment;
class QLabel;
class QPushButton;
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
    QString resultText() const;

signals:
    void actionFinished();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Step
    {
        QString title;
        QString body; // rich text
        QString actionLabel; // empty: nothing to run
        std::function<void()> action;
        QString limiter; // the limiter the text names and the action fires
    };
    QVector<Step> steps();
    void showStep();
    void retranslate();
    // Shows a step's result: a function, so that a language change makes the line again.
    void finish(std::function<QString()> result, QWidget* spotlight);
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
    std::function<QString()> m_resultOf;
    TaskThread m_thread; // reads the lesson's facts (TTL) off the GUI thread
};
