#pragma once

#include "lesson/lesson.h"

#include <QWidget>

class BarFigure;
class CodeEditor;
class QLabel;
class QStackedWidget;

// What a lesson step shows in the runs' place when no run shows it: the article's script with its
// four steps marked (step 1), the key's TTL against the window (step 9), the memory per user of
// each algorithm (step 10). Drawn from the Lesson's own figures, never typed in.
class LessonFigure : public QWidget
{
    Q_OBJECT
public:
    explicit LessonFigure(const Lesson* lesson, QWidget* parent = nullptr);

    // The parts a figure shows (the others are the runs' and the ZSET table's).
    static bool draws(Lesson::Spotlight part);
    // Shows the figure of the lesson's current result; false when it has none.
    bool showResult();

    CodeEditor* script() const { return m_script; }
    // The article's script as the class sees it before any step ran: the code and the first
    // sentence of each step's comment; the comments that tell what goes wrong are left out.
    static QString scriptForTheClass(const QString& source);
    // The 1-based lines of `shown` (scriptForTheClass()) that belong to a step: the ZADD's step in
    // *add, the three others in *steps.
    static void markScript(const QString& shown, QList<int>* steps, QList<int>* add);
    // The 1-based lines the script marks: each step's comment and its Redis call.
    QList<int> markedLines() const { return m_marked; }
    BarFigure* expiry() const { return m_expiry; }
    BarFigure* price() const { return m_price; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void showScript();
    void showExpiry();
    void showPrice();

    const Lesson* m_lesson;
    QStackedWidget* m_pages = nullptr;
    QWidget* m_scriptPage = nullptr;
    QLabel* m_scriptTitle = nullptr;
    CodeEditor* m_script = nullptr;
    BarFigure* m_expiry = nullptr;
    BarFigure* m_price = nullptr;
    QList<int> m_marked;
};
