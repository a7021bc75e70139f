#include "runview.h"

#include "burstengine.h"
#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "numberspanel.h"

#include <QEvent>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

RunView::RunView(QWidget* parent)
    : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(this);
    m_title->setAlignment(Qt::AlignCenter);
    m_title->hide();
    m_numbers = new NumbersPanel(this);
    m_timeline = new TimelineView(this);
    m_counts = new CountsChart(this);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_timeline);
    splitter->addWidget(m_counts);
    m_counts->setMinimumHeight(200);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({420, 340});
    splitter->setChildrenCollapsible(false);
    layout->addWidget(m_title);
    layout->addWidget(m_numbers);
    layout->addWidget(splitter, 1);

    QEvent fontChange(QEvent::FontChange);
    changeEvent(&fontChange); // the title's font
    m_refresh.setObjectName(QStringLiteral("RunViewRefresh"));
    m_refresh.setInterval(40); // 25 refreshes a second
    connect(&m_refresh, &QTimer::timeout, this, &RunView::refreshSlowViews);
    connect(m_timeline, &TimelineView::millisecondClicked, this, &RunView::millisecondClicked);
}

void RunView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::FontChange)
        return;
    QFont titleFont = font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
}

void RunView::setTitle(const QString& title)
{
    m_title->setText(title);
    m_title->setVisible(!title.isEmpty());
    m_numbers->setCompact(!title.isEmpty()); // titled: one of two side by side
}

void RunView::follow(const BurstEngine* engine, qint64 originMs)
{
    m_engine = engine;
    m_originMs = originMs;
    m_writes.reset();
    m_numbers->clear();
    m_counts->setLog(&engine->log());
    m_counts->setLive(true);
    m_timeline->setLog(&engine->log(), 0, engine->plan().nowUnitsPerMs());
    m_dirty = false;
    m_refresh.start();
}

void RunView::onRecords()
{
    if (!m_engine)
        return;
    // The timeline's origin is the burst's start on the wall clock, known once requests flow.
    if (m_timeline->buckets().isEmpty()) {
        const qint64 originMs = m_originMs >= 0 ? m_originMs : m_engine->startMs();
        m_timeline->setLog(&m_engine->log(), originMs * m_engine->plan().nowUnitsPerMs(),
                           m_engine->plan().nowUnitsPerMs());
    }
    m_timeline->addRequests(m_engine->lastBatch());
    m_writes.add(m_engine->log(), m_engine->lastBatch());
    m_dirty = true;
}

void RunView::refreshSlowViews()
{
    if (!m_engine || !m_dirty)
        return;
    m_dirty = false;
    ++m_refreshes;
    m_counts->refresh();
    m_numbers->showSummary(m_engine->summary());
}

void RunView::onFinished(const BurstSummary& summary)
{
    m_refresh.stop();
    m_counts->setLive(false);
    m_dirty = true;
    refreshSlowViews();
    m_numbers->showSummary(summary);
    m_timeline->fitAll();
}

void RunView::clear()
{
    m_refresh.stop();
    m_engine = nullptr;
    m_writes.reset();
    m_numbers->clear();
    m_counts->clear();
    m_timeline->clear();
}
