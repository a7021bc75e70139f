#pragma once

// LessonPanel, the widget that shows a Lesson, and LessonViews, the parts of the window it points at.

#include <QWidget>

#include <functional>
#include <utility>

class GuessBox;
class Lesson;
class LessonFigure;
class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class RunView;
class ZsetPanel;

// The parts of the window a lesson's result points at (Lesson::Spotlight).
struct LessonViews
{
    RunView* left = nullptr; // the first run's view: its timeline, figures and counts chart
    QWidget* runs = nullptr; // both runs, in compare mode
    ZsetPanel* zset = nullptr;
    LessonFigure* figure = nullptr; // the script, the TTL, the memory: in the runs' place
    // Marks one of the parts above until the next call (nullptr: none) and brings it into view.
    std::function<void(QWidget*)> spotlight;
};

// Shows a Lesson: the step's setup, the question and the class's guess, the action's button, then
// Redis's answer and only then the explanation; Back and Next. What the lesson says and does is the
// Lesson's; the panel asks it, shows what it answers, and points at the one part of the window that
// shows the result.
class LessonPanel : public QWidget
{
    Q_OBJECT
public:
    LessonPanel(Lesson* lesson, LessonViews views, QWidget* parent = nullptr);

    Lesson* lesson() const { return m_lesson; }
    // The window's keys for the lesson (PageDown, PageUp, ".", "B" or "b", Enter) work while it is
    // in front, wherever the focus is (the class's guess included, which takes digits only); a
    // text field of another panel keeps its letters. Behind another panel's tab they are that
    // panel's.
    // Next and Back as the clicker sends them (PageDown, PageUp, ".", "B"): a window the lesson
    // opens (the script) takes them too, so that the clicker goes on working over it.
    QList<QAction*> clickerKeys() const { return m_keys.mid(0, 2); }
    void setInFront(bool inFront);
    // Wide enough for lines a class reads at a glance, the same for every step: the panel does
    // not jump from step to step.
    QSize minimumSizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void showStep();
    void showQuestion();
    void focusGuess();
    void retranslate();
    void applyFonts();
    // A result came in: point at what shows it, and keep it in view.
    void showResult();
    // Scrolls the panel's scroll area (if any) to the result.
    void bringResultIntoView();
    QWidget* spotlightTarget() const;
    void createKeys();
    void goNext();
    void goBack();
    void doStep();
    void keepFocusInLesson();

    Lesson* m_lesson;
    LessonViews m_views;
    QList<QAction*> m_keys;
    bool m_actionHadFocus = false;
    int m_shownStep = -1; // the step whose guess took the focus when it came
    bool m_showResult = false; // a run just finished: its result is kept in view
    QLabel* m_counter = nullptr;
    QLabel* m_title = nullptr;
    QLabel* m_setup = nullptr; // before Redis answered
    QLabel* m_explanation = nullptr; // after

    QLabel* m_result = nullptr;
    QPushButton* m_action = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
    QCheckBox* m_askFirst = nullptr;
    QWidget* m_question = nullptr;
    QLabel* m_prompt = nullptr;
    QLabel* m_guessLabel = nullptr;
    GuessBox* m_guessNumber = nullptr;
    QComboBox* m_guessChoice = nullptr;
};
