#pragma once

#include "burstplan.h"
#include "taskthread.h"

#include <QWidget>

#include <functional>

class MainWindow;
class QLabel;
class QPushButton;
class QTextBrowser;

// The guided lesson: one step at a time, each with a short text and, where it fits, an action
// that does the step against the real server and points at the part of the window that shows
// the result. The result line is read back from the server and the log, never scripted.
class LessonPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LessonPanel(MainWindow* window);

    int stepCount() const;
    int currentStep() const { return m_step; }
    void goToStep(int index);
    void next();
    void back();
    // Runs the current step's action; actionFinished() when its result is shown.
    void runAction();
    bool hasAction() const;
    QString stepTitle() const;
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
    };
    QVector<Step> steps();
    void showStep();
    void retranslate();
    void finish(const QString& result, QWidget* spotlight);
    // Fires a plan from the window and calls `then` when every run has ended.
    void fire(const BurstPlan& plan, bool compare, MemberStrategy unique, std::function<void()> then);
    BurstPlan lessonPlan(MemberStrategy strategy, int requests, qint64 limit) const;
    QString describeRun(bool withCounts) const;

    MainWindow* m_window;
    int m_step = 0;
    QLabel* m_counter = nullptr;
    QLabel* m_title = nullptr;
    QTextBrowser* m_body = nullptr;
    QLabel* m_result = nullptr;
    QPushButton* m_action = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
    QString m_resultText;
    TaskThread m_thread; // reads the lesson's facts (TTL) off the GUI thread
};
