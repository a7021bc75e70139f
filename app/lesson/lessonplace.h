#pragma once

#include "lesson/lesson.h"
#include "lessonpanel.h"

#include <QDockWidget>
#include <QObject>
#include <QPointer>

#include <functional>

class LessonFigure;
class LessonStage;

class QMainWindow;
class QScrollArea;
class QStackedWidget;
class RunView;
class ScreenFit;
class Spotlight;
class ZsetPanel;

// The lesson in the main window: its panel in a dock tabbed with the Burst panel, the figure a step
// shows in the runs' place, and the spotlight on the part that shows a step's result. On a low
// screen a part sharing the lesson's tabs first gets its own place back if there is room; if not,
// it is shown over the lesson until the step changes, and the ZSET table takes the runs' place
// instead, so the lesson's result line stays in sight.
class LessonPlace : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        QMainWindow* window = nullptr;
        QStackedWidget* runsPlace = nullptr; // the runs, a step's figure or the lent ZSET table
        QWidget* runsPage = nullptr; // the runs' page in it
        QWidget* runs = nullptr; // both runs, in compare mode
        RunView* left = nullptr;
        ZsetPanel* zset = nullptr;
        QScrollArea* zsetArea = nullptr; // the ZSET panel's place in its dock
        QDockWidget* zsetDock = nullptr;
        QDockWidget* tabWith = nullptr; // the dock the lesson shares a place with (the Burst panel's)
    };
    LessonPlace(const Parts& parts, const LessonServices& services);
    ~LessonPlace() override;

    // Once the window arranges its docks: whether the ZSET dock went into the lesson's tabs, and
    // how to fit the window again before pointing.
    void setFit(ScreenFit* screenFit, std::function<void()> fitWindow);
    void retranslate();

    Lesson* lesson() const { return m_lesson; }
    LessonPanel* panel() const { return m_panel; }
    Spotlight* spotlight() const { return m_spotlight; }
    QDockWidget* dock() const { return m_dock; }

    // Brings the lesson's dock to the front: the clicker's keys are the lesson's from then on.
    void show();
    // The lesson on its stage, full screen on the window's screen; Esc brings the workbench back
    // with the lesson in front, holding the same runs.
    void present();
    LessonStage* stage() const;
    // The ZSET panel in the runs' place (a step about it, on a screen where its dock shares the
    // lesson's tabs), or back in its dock.
    void lendZsetToRuns(bool lend);

private:
    // Marks the part of the window that shows the lesson's result (nullptr: none).
    void coverAnswer();
    void pointAt(QWidget* part);

    Parts m_parts;
    Lesson* m_lesson = nullptr;
    LessonFigure* m_figure = nullptr;
    QPointer<LessonPanel> m_panel;
    Spotlight* m_spotlight = nullptr; // the lesson's "look here"
    QPointer<QDockWidget> m_dock;
    QPointer<LessonStage> m_stage; // made when first presented
    ScreenFit* m_screenFit = nullptr;
    std::function<void()> m_fitWindow;
    bool m_covered = false; // the spotlight raised a dock over the lesson's tab
    bool m_zsetLent = false; // the ZSET panel shows in the runs' place
};
