#include "runsarea.h"

#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "runview.h"
#include "transportbar.h"
#include "widgets/framedsplitter.h"

#include <QEvent>
#include <QScopedValueRollback>
#include <QSplitter>
#include <QVBoxLayout>

RunsArea::RunsArea(RunModel* left, RunModel* right, QWidget* parent)
    : QWidget(parent)
    , m_leftRun(left)
    , m_rightRun(right)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_splitter = new FramedSplitter(Qt::Horizontal, this); // the lesson frames the runs
    m_left = new RunView(left, m_splitter);
    m_right = new RunView(right, m_splitter);
    m_left->setObjectName(QStringLiteral("LeftRun"));
    m_right->setObjectName(QStringLiteral("RightRun"));
    m_splitter->addWidget(m_left);
    m_splitter->addWidget(m_right);
    m_right->hide();
    m_right->installEventFilter(this); // compare mode on or off
    // The right side is always the second of two: the left's legends name its marks too.
    m_right->counts()->setLegendShown(false);
    m_right->timeline()->setViewport(m_left->timeline()->viewport()); // compare mode zooms both sides at once
    // Side by side, both show the same chart and their figures in line.
    connect(m_left, &RunView::chartShown, m_right, &RunView::showChart);
    connect(m_right, &RunView::chartShown, m_left, &RunView::showChart);
    m_left->alignFiguresWith(m_right);
    m_right->alignFiguresWith(m_left);
    m_shared = new TransportBar(left->cursor(), this, this);
    m_shared->setObjectName(QStringLiteral("SharedTransportBar"));
    m_shared->setKeysEnabled(false); // each view's keys step its own run, and the other follows
    m_shared->hide();
    layout->addWidget(m_splitter, 1);
    layout->addWidget(m_shared);
    for (RunModel* run : {left, right})
        connect(run, &RunModel::recordingChanged, this, &RunsArea::arrangeBars);
    // A low screen: the caption goes over each timeline, as with a bar of each side's own.
    connect(m_left, &RunView::chartsShareAPlaceChanged, m_shared, &TransportBar::setCompact);
    connect(left->cursor(), &RunCursor::positionChanged, this, [this] { follow(m_leftRun, m_rightRun); });
    connect(right->cursor(), &RunCursor::positionChanged, this, [this] { follow(m_rightRun, m_leftRun); });
}

qint64 RunsArea::timelineArea() const
{
    qint64 area = 0;
    for (const RunView* run : {m_left, m_right})
        if (run->timeline()->isVisible())
            area += qint64(run->timeline()->width()) * run->timeline()->height();
    return area;
}

void RunsArea::keepTimelinesAtLeast(qint64 area)
{
    const int runs = m_right->isVisible() ? 2 : 1;
    for (RunView* run : {m_left, m_right})
        run->setTimelineAtLeast(area / runs);
}

bool RunsArea::stepsTogether() const
{
    // Decided by the mode, not by which side's run ended first: a bar that showed for the left
    // alone, then gave way to the shared one, would shake the window between the two ends.
    return m_sameRequests && !m_right->isHidden();
}

void RunsArea::setSameRequests(bool same)
{
    m_sameRequests = same;
    arrangeBars();
}

void RunsArea::arrangeBars()
{
    const bool together = stepsTogether();
    m_shared->setVisible(together && m_leftRun->hasRecording());
    for (RunView* view : {m_left, m_right})
        view->setOwnControls(!together);
    follow(m_leftRun, m_rightRun);
}

void RunsArea::follow(RunModel* leader, RunModel* follower)
{
    if (m_following || !stepsTogether() || !leader->hasRecording() || !follower->hasRecording())
        return;
    const QScopedValueRollback<bool> following(m_following, true);
    RunCursor* cursor = follower->cursor();
    cursor->setPosition(std::min(leader->cursor()->position(), cursor->requests() - 1));
}

bool RunsArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_right && (event->type() == QEvent::Show || event->type() == QEvent::Hide))
        arrangeBars();
    return QWidget::eventFilter(watched, event);
}
