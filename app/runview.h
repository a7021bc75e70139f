#pragma once

#include "burstsummary.h"
#include "memberwrites.h"
#include "requestbatch.h"

#include <QTimer>
#include <QWidget>

class CountsChart;
class NumbersPanel;
class QLabel;
class TimelineView;

// Everything about one run: its figures, its timeline and its counts chart, fed with the engine's
// batches (values) and redrawn at a steady rate while it runs. Compare mode shows two side by side.
class RunView : public QWidget
{
    Q_OBJECT
public:
    explicit RunView(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    // A run of `requests` requests against `limit` started: the views start over. originMs: the
    // wall-clock ms drawn as 0 on the timeline (-1: the run's own start); compare mode aligns both
    // sides.
    void start(int requests, qint64 limit, qint64 originMs = -1);
    void addBatch(const RequestBatch& batch);
    void finish(const BurstSummary& summary);
    void clear();

    const MemberWrites& writes() const { return m_writes; }
    TimelineView* timeline() const { return m_timeline; }
    CountsChart* counts() const { return m_counts; }
    NumbersPanel* numbers() const { return m_numbers; }
    int refreshes() const { return m_refreshes; }

protected:
    void changeEvent(QEvent* event) override;

signals:
    void millisecondClicked(qint64 ms, const QByteArray& member);

private:
    void refreshSlowViews();

    MemberWrites m_writes;
    BurstSummary m_latest; // the figures of the last batch
    QLabel* m_title = nullptr;
    NumbersPanel* m_numbers = nullptr;
    TimelineView* m_timeline = nullptr;
    CountsChart* m_counts = nullptr;
    QTimer m_refresh; // the chart and figures: 25 times a second, not per batch
    bool m_dirty = false;
    int m_refreshes = 0;
};
