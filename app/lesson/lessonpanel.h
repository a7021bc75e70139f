#pragma once

// LessonPanel, the widget that shows a Lesson, and LessonViews, the parts of the window it points at.

#include <QWidget>

#include <functional>

class Lesson;
class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTextBrowser;
class RunView;
class ZsetPanel;

// The parts of the window a lesson's result points at (Lesson::Spotlight).
struct LessonViews
{
    RunView* left = nullptr; // the first run's view
    QWidget* runs = nullptr; // both runs, in compare mode
    ZsetPanel* zset = nullptr;
    // Marks one of the parts above until the next call (nullptr: none) and brings it into view.
    std::function<void(QWidget*)> spotlight;
};

// Shows a Lesson: the step's text, the class's guess, the action's button and its result, Back
// and Next. What the lesson says and does is the Lesson's; the panel asks it, shows what it
// answers, and points at the part of the window that shows the result.
class LessonPanel : public QWidget
{
    Q_OBJECT
public:
    LessonPanel(Lesson* lesson, LessonViews views, QWidget* parent = nullptr);

    Lesson* lesson() const { return m_lesson; }
    // The window's keys for the lesson (PageDown, PageUp, ".", "B", Enter) work while it is in
    // front; behind another panel's tab they are that panel's.
    // Next and Back as the clicker sends them (PageDown, PageUp, ".", "B"): a window the lesson
    // opens (the script) takes them too, so that the clicker goes on working over it.
    QList<QAction*> clickerKeys() const { return m_keys.mid(0, 2); }
    void setInFront(bool inFront);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void showStep();
    void showQuestion();
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
    bool m_showResult = false; // a run just finished: its result is kept in view
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
};
