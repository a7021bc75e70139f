#include "lessonplace.h"

#include "charts/timelineview.h"
#include "lessonfigure.h"
#include "lessonpanel.h"
#include "lessonstage.h"
#include "run/numberspanel.h"
#include "run/runview.h"
#include "run/zsetpanel.h"
#include "widgets/screenfit.h"
#include "widgets/spotlight.h"
#include "widgets/verticalscrollarea.h"

#include <QDockWidget>
#include <QMainWindow>
#include <QStackedWidget>

LessonPlace::LessonPlace(const Parts& parts, const LessonServices& services)
    : QObject(parts.window)
    , m_parts(parts)
{
    m_lesson = new Lesson(services, this);
    m_figure = new LessonFigure(m_lesson, parts.runsPlace);
    m_figure->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored); // the runs' room, no more
    parts.runsPlace->addWidget(m_figure);
    connect(m_lesson, &Lesson::changed, this, [this] {
        // The runs, until a step's result is a figure (the script, a TTL, the memory).
        if (!LessonFigure::draws(m_lesson->spotlight()))
            m_parts.runsPlace->setCurrentWidget(m_parts.runsPage);
        coverAnswer();
    });
    LessonViews views;
    views.left = parts.left;
    views.runs = parts.runs;
    views.zset = parts.zset;
    views.figure = m_figure;
    m_spotlight = new Spotlight(parts.window);
    const QList<QWidget*> lit {
        parts.runs, parts.left->numbers(), parts.left->timeline(), parts.left->countsFrame(), parts.zset, m_figure};
    for (QWidget* part : lit)
        m_spotlight->reserve(part);
    views.spotlight = [this](QWidget* part) { pointAt(part); };
    m_panel = new LessonPanel(m_lesson, views, parts.window);
    m_dock = new QDockWidget(parts.window);
    m_dock->setObjectName(QStringLiteral("LessonDock"));
    m_dock->setWidget(new VerticalScrollArea(m_panel, m_dock));
    parts.window->addDockWidget(Qt::LeftDockWidgetArea, m_dock);
    parts.window->tabifyDockWidget(parts.tabWith, m_dock);
    m_panel->setInFront(false);
    // The clicker's keys stay the lesson's while a result it pointed at covers it (a low screen).
    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (m_panel) // not while the window deletes the dock and the panel in it
            m_panel->setInFront(visible || m_covered);
        coverAnswer();
    });
    // The window may move the ZSET panel into the lesson's tabs after a step pointed at it (its
    // fit comes after the step's result): it takes the runs' place then, still in sight.
    connect(parts.zsetDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible && m_spotlight->lit() == m_parts.zset && !m_zsetLent && m_screenFit && m_dock
            && m_dock->isVisible() && m_screenFit->isDockMoved()) {
            lendZsetToRuns(true);
            m_spotlight->light(nullptr); // lit again in its new place: brought to the front, framed
            m_spotlight->light(m_parts.zset);
        }
    });
    retranslate();
}

void LessonPlace::coverAnswer()
{
    // A step about the ZSET (how many requests wrote the member) would find its answer in the
    // Writes column of an earlier run: hidden until Redis answered, or the lesson is put away.
    const bool asking = m_dock && m_dock->isVisible() && m_lesson->asksFirst() && m_lesson->hasQuestion()
        && m_lesson->stepShows() == Lesson::Spotlight::Zset && !m_lesson->hasAnswered();
    m_parts.zset->setWritesHidden(asking);
}

LessonPlace::~LessonPlace()
{
    // The dock hides as the window's destructor deletes it (before or after this place).
    if (m_dock)
        m_dock->disconnect(this);
}

void LessonPlace::setFit(ScreenFit* screenFit, std::function<void()> fitWindow)
{
    m_screenFit = screenFit;
    m_fitWindow = std::move(fitWindow);
}

void LessonPlace::retranslate()
{
    m_dock->setWindowTitle(tr("Lesson"));
}

void LessonPlace::show()
{
    m_dock->show();
    m_dock->raise();
}

LessonStage* LessonPlace::stage() const
{
    return m_stage.data();
}

void LessonPlace::present()
{
    if (!m_stage) {
        m_stage = new LessonStage(m_lesson, m_parts.window);
        connect(m_stage, &LessonStage::leaveRequested, this, [this] {
            m_stage->hide();
            m_parts.window->raise();
            m_parts.window->activateWindow();
            show();
        });
    }
    m_stage->present(m_parts.window);
}

void LessonPlace::lendZsetToRuns(bool lend)
{
    if (lend == m_zsetLent)
        return;
    m_zsetLent = lend;
    ZsetPanel* zset = m_parts.zset;
    if (lend) {
        QWidget* panel = m_parts.zsetArea->takeWidget(); // out of its dock, whose tab goes with it
        panel->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored); // the runs' room, no more
        m_parts.runsPlace->addWidget(panel);
        m_parts.zsetDock->hide();
        return;
    }
    m_parts.runsPlace->setCurrentWidget(m_parts.runsPage);
    m_parts.runsPlace->removeWidget(zset);
    zset->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    m_parts.zsetArea->setWidget(zset);
    m_parts.zsetDock->show();
    if (!m_dock->visibleRegion().isEmpty() || m_dock->isVisible())
        m_dock->raise(); // back in the tabs, behind the lesson
}

void LessonPlace::pointAt(QWidget* part)
{
    if (!m_dock || !m_screenFit) { // the lesson panel shows its first step while the window is being made
        m_spotlight->light(part);
        return;
    }
    if (part == m_spotlight->lit())
        return; // shown already (the lesson asks again as its text changes)
    if (part && !m_covered && m_fitWindow)
        m_fitWindow();
    // The ZSET table in the lesson's tabs would cover the lesson and its result line: it takes the
    // runs' place instead, as wide as the window allows, for as long as the step points at it.
    if (part == m_parts.zset && !m_zsetLent && m_screenFit->isDockMoved() && m_dock->isVisible())
        lendZsetToRuns(true);
    else if (part != m_parts.zset)
        lendZsetToRuns(false);
    const bool lessonShown = !m_dock->visibleRegion().isEmpty();
    m_spotlight->light(part);
    if (part && lessonShown && m_dock->visibleRegion().isEmpty()) {
        m_covered = true;
        m_panel->setInFront(true);
    } else if (!part && m_covered) {
        m_covered = false;
        show();
    }
}
