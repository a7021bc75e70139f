#pragma once

#include "lesson/lesson.h"
#include "lesson/lessonrecord.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <QStringList>
#include <QVector>

class QPainter;

// One lesson step as the class sees it on a projector, drawn for the size of its frame: the step's
// title; on the left its text (the setup, or once Redis answered the explanation), the question
// and the class's guess; on the right the one picture the step is about, with Redis's answer as
// large figures above it and the result line (or the request the class steps through) under it.
// Text sizes follow the frame's height, never the amount of text, so a picture exported at any
// size looks like the stage. The window (LessonStage), the handout, the step pictures and the
// step animations all paint through this class.
class StageScene
{
public:
    // A figure of Redis's answer: "5" over "admitted". chart: the chart it belongs to (-1: all).
    struct Figure
    {
        QString value;
        QString caption;
        int chart = -1;
        bool attention = false; // the figure the question asked about
    };
    // Everything the scene shows, as values in the language of the moment (see stageStateOf()).
    struct State
    {
        int step = 1; // 1-based
        int steps = 1;
        QString title;
        QString bodyHtml; // the setup, or the explanation once answered
        QString question; // empty: the step asks nothing
        QStringList choices; // empty: the answer is a number
        qint64 guess = -1; // a number, or a choice's index; -1 none
        bool answered = false;
        bool running = false;
        QString verdict; // "Class: 3 · Redis: 1 · …"; empty before the answer or without a guess
        QString actionLabel; // what Enter does (shown before the answer)
        QString result; // the result line (or the reason nothing ran)
        Lesson::Spotlight picture = Lesson::Spotlight::None;
        LessonRecord record;
        QString script; // the step's script, for a Script picture
        QList<int> scriptSteps; // 1-based lines marked as a step of the script
        QList<int> scriptAdd; // the lines of the step the lesson is about
        QVector<Figure> figures;
        QStringList runTitles; // over each chart: the limiter that ran
        int cursor = -1; // the request the class looks at (0-based); -1: none
        QString caption; // what that request did
        QByteArray pointedMember; // a member to mark in the table
        double textScale = 1.0; // below 1 when the step's longest text needs it (same before and after)
    };

    // What was drawn where, for the tests: every text with its box and pixel size.
    enum class Role {
        Title,
        Counter,
        Body,
        Question,
        Choice,
        Guess,
        Verdict,
        Figure,
        Result,
        Caption,
        Action,
        AxisTitle,
        Tick,
        Legend,
        Code,
        TableHeader,
        TableCell,
        BarLabel,
        BarValue,
        FigureTitle
    };
    struct Label
    {
        Role role;
        QString text;
        QRectF rect;
        double pixelSize = 0;
        int chart = -1; // the chart a chart label belongs to (-1: all charts of the picture)
    };

    StageScene(const State& state, QSizeF size);

    // Draws the scene into (0, 0, size); the labels are known afterwards.
    void paint(QPainter* painter);
    const QList<Label>& labels() const { return m_labels; }
    // The scene's body text size in pixels, and how many charts (with axes) it drew.
    double textPixelSize() const { return m_text; }
    int charts() const { return m_charts; }
    // Where the step's picture is drawn (known after paint()).
    QRectF pictureRect() const { return m_pictureRect; }
    // False when some text did not fit its room (it was cut): the state needs a smaller textScale.
    bool fits() const { return m_fits; }
    // The texts that did not fit (for a message).
    QStringList cut() const { return m_cut; }
    // The largest textScale (of a few steps down from 1) at which every state fits `size`.
    static double fittingScale(QList<State> states, QSizeF size);

    static QColor ink() { return {20, 20, 20}; }
    static QColor paper() { return {255, 255, 255}; }

private:
    QFont font(double scale = 1.0, bool bold = false) const;
    QFont codeFont() const;
    void add(Role role, const QString& text, const QRectF& rect, const QFont& font, int chart = -1);
    // Text in `rect`, wrapped; returns the height used. Cut (m_fits false) when it does not fit.
    double drawText(QPainter* p, Role role, const QString& text, const QRectF& rect, const QFont& font,
                    int flags = Qt::AlignLeft | Qt::AlignTop, const QColor& colour = ink(), int chart = -1);
    double drawRichText(QPainter* p, const QString& html, const QRectF& rect);
    void drawLeft(QPainter* p, QRectF rect);
    void drawRight(QPainter* p, QRectF rect);
    double drawFigures(QPainter* p, const QRectF& rect, int chart);
    void drawWaiting(QPainter* p, const QRectF& rect);
    // An axis of a chart: from min to max, numbered in whole steps from firstTick (y: from 0).
    struct Axis
    {
        double min = 0;
        double max = 1;
        double firstTick = 0;
        QString title;
    };
    // Where a chart's values are drawn.
    struct Plot
    {
        QRectF area; // empty: no room
        Axis x, y;
        double xAt(double v) const { return area.left() + (v - x.min) / std::max(x.max - x.min, 1e-9) * area.width(); }
        double yAt(double v) const
        {
            return area.bottom() - (v - y.min) / std::max(y.max - y.min, 1e-9) * area.height();
        }
    };
    // The pictures (stagepicture.cpp).
    // Both axes in `rect`, with their numbers and titles; the plot's area is what is left.
    Plot drawAxes(QPainter* p, const QRectF& rect, const Axis& x, const Axis& y, int chart);
    // Step 2's picture: each request at its millisecond, stacked, a filled square for the one that
    // made the member, a hollow diamond for each that only overwrote it.
    void drawTimeline(QPainter* p, const QRectF& rect, const LessonRecord::Run& run);
    void drawPicture(QPainter* p, const QRectF& rect);
    void drawCounts(QPainter* p, const QRectF& rect, const LessonRecord::Run& run, int chart);
    // counts: the truth and count lines too, not only the marks.
    double drawLegend(QPainter* p, const QRectF& rect, const LessonRecord::Run& run, int chart, bool counts);
    void drawMembers(QPainter* p, const QRectF& rect);
    void drawBars(QPainter* p, const QRectF& rect);
    void drawScript(QPainter* p, const QRectF& rect);

    State m_state;
    QSizeF m_size;
    double m_text = 20; // px
    double m_margin = 24;
    int m_charts = 0;
    bool m_fits = true;
    QStringList m_cut;
    QList<Label> m_labels;
    QRectF m_pictureRect;
};

// The scene's state for where `lesson` is now, with request `cursor` of its run looked at.
StageScene::State stageStateOf(const Lesson& lesson, int cursor = -1);
// The text scale of the lesson's current step at `size`: the largest at which the step's setup with
// its question, and its explanation with a verdict, both fit. The same before and after the
// action, so the text never shrinks when Redis answers.
double stageTextScale(const Lesson& lesson, QSizeF size);
// How many requests a step's run lets the class step through (0: none).
int stageRequests(const StageScene::State& state);
int stageRequests(const Lesson& lesson);
