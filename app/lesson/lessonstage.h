#pragma once

#include "stagescene.h"

#include <QWidget>

class Lesson;
class QLabel;
class QLineEdit;
class QPushButton;

// The lesson presented: a window of its own, full screen on a projector, that shows one step at
// a time as StageScene draws it, and nothing of the workbench. Keys: PageDown/PageUp and "."/B
// between steps, digits for the guess (the first digit after coming to a step starts a new one),
// 1-4 for a choice, Enter plays the step, Left/Right step through its run, Esc back to the
// workbench, which shows the same runs. Every control under the picture is reachable with Tab
// and has a focus ring a back row can see.
class LessonStage : public QWidget
{
    Q_OBJECT
public:
    explicit LessonStage(Lesson* lesson, QWidget* parent = nullptr);

    Lesson* lesson() const { return m_lesson; }
    // Full screen on `screenOf`'s screen (or as it is, when the platform has none to fill).
    void present(QWidget* screenOf);
    // The request of the step's run the class looks at (-1: none).
    int cursor() const { return m_cursor; }
    // The scene as it is drawn now, at the canvas's size.
    StageScene scene() const;
    QWidget* canvas() const { return m_canvas; }
    QSize canvasSize() const;
    double textScale() const { return m_textScale; }

signals:
    // Esc: the workbench comes back.
    void leaveRequested();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

private:
    // Handles a stage key wherever the focus is on the stage; false: not one.
    bool handleKey(QKeyEvent* event);
    void typeDigit(int digit);
    void goTo(int step);
    void play();
    void moveCursor(int by);
    void showStep();
    void fitText();
    void applyFonts();
    void retranslate();

    Lesson* m_lesson;
    QWidget* m_canvas = nullptr;
    QWidget* m_bar = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_next = nullptr;
    QLabel* m_guessLabel = nullptr;
    QLineEdit* m_guess = nullptr;
    QList<QPushButton*> m_choices;
    QPushButton* m_play = nullptr;
    QPushButton* m_earlier = nullptr;
    QPushButton* m_later = nullptr;
    QPushButton* m_leave = nullptr;
    int m_cursor = -1;
    int m_shownStep = -1;
    bool m_freshGuess = true; // the next digit starts a new guess
    double m_textScale = 1.0;
    QSize m_scaledFor; // the canvas size m_textScale was found for
};
