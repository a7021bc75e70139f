#pragma once

#include "stagescene.h"

#include <QList>
#include <QString>

// A printed handout of the lesson (`zsetlab --lesson all --export-pdf FILE`): per step a question
// page, the stage as the class sees it before Redis answers, then an answer page, the stage after.
// Drawn by StageScene, as vector text: what is printed is what the class saw on the projector.
class Handout
{
public:
    struct Step
    {
        StageScene::State question; // before the answer: the setup, the question, no result
        StageScene::State answer; // after it; not answered: the step ran nothing, no answer page
    };
    // A page as text, for the tests: what a reader finds on it.
    struct Page
    {
        int step = 0;
        bool answer = false;
        QString text;
        bool hasPicture = false; // the step's picture (a chart, the ZSET, bars, the script)
    };
    // The scene's size on a page: 16:9, as a projector's.
    static constexpr QSizeF sceneSize {1600, 900};

    void add(const Step& step) { m_steps << step; }
    bool isEmpty() const { return m_steps.isEmpty(); }
    // Writes the PDF (A4 landscape, through a temporary file: a failure leaves an older file as it
    // was).
    bool write(const QString& path, QString* error) const;
    QList<Page> pages() const;

private:
    static bool hasAnswerPage(const Step& step) { return step.answer.answered || !step.answer.result.isEmpty(); }
    // The page's footer: which step, and whether it is the question or the answer.
    static QString footer(const StageScene::State& state, bool answer);

    QList<Step> m_steps;
};
