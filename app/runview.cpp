#include "runview.h"

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

void RunView::start(int requests, qint64 limit, qint64 originMs)
{
    m_writes.reset();
    m_latest = BurstSummary();
    m_numbers->clear();
    m_counts->start(requests, limit);
    m_counts->setLive(true);
    m_timeline->reset({}, originMs);
    m_dirty = false;
    m_refresh.start();
}

void RunView::addBatch(const RequestBatch& batch)
{
    m_timeline->addBatch(batch);
    m_writes.add(batch);
    if (batch.counted)
        m_counts->addCounted(*batch.counted);
    m_latest = batch.summary;
    m_dirty = true;
}

void RunView::refreshSlowViews()
{
    if (!m_dirty)
        return;
    m_dirty = false;
    ++m_refreshes;
    m_counts->refresh();
    m_numbers->showSummary(m_latest);
}

void RunView::finish(const BurstSummary& summary)
{
    m_refresh.stop();
    m_counts->setLive(false);
    m_dirty = true;
    m_latest = summary;
    refreshSlowViews();
}

void RunView::clear()
{
    m_refresh.stop();
    m_writes.reset();
    m_numbers->clear();
    m_counts->clear();
    m_timeline->clear();
}
