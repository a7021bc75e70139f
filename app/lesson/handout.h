#pragma once

#include <QImage>
#include <QList>
#include <QString>
#include <QStringList>

// A printed handout of the lesson (`zsetlab --lesson all --export-pdf FILE`): per step a question
// page, which asks without answering, then an answer page with what Redis said and the picture of
// the part of the window that shows it. No menus, status bar or server address: only the lesson.
class Handout
{
public:
    struct Step
    {
        int number = 0; // 1-based
        int count = 0;
        QString title;
        QString setupHtml; // on the question page: what is about to happen, never its result
        QString explanationHtml; // on the answer page, after what Redis answered
        QString question; // empty: the step asks nothing
        QStringList choices;
        QString result; // what Redis answered (the result line)
        QString guessVersusAnswer; // empty unless the class's guess was entered
        QImage picture; // the result as the window showed it; null: none
    };
    // A page as text, for the tests: what a reader finds on it.
    struct Page
    {
        int step = 0;
        bool answer = false;
        QString text;
        bool hasPicture = false;
    };

    void add(const Step& step) { m_steps << step; }
    bool isEmpty() const { return m_steps.isEmpty(); }
    // Writes the PDF (A4, through a temporary file: a failure leaves an older file as it was).
    bool write(const QString& path, QString* error) const;
    QList<Page> pages() const;

private:
    // Nothing ran (no result, no picture): the step is its text alone.
    static bool hasAnswerPage(const Step& step) { return !step.result.isEmpty() || !step.picture.isNull(); }
    QString questionHtml(const Step& step) const;
    QString answerHtml(const Step& step) const;

    QList<Step> m_steps;
};
