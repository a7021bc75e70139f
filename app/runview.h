#pragma once

#include "burstsummary.h"
#include "memberwrites.h"

#include <QTimer>
#include <QWidget>

class BurstEngine;
class CountsChart;
class NumbersPanel;
class QLabel;
class TimelineView;

// Everything about one burst: its figures, its timeline and its counts chart, kept up to date
// from its engine at a steady rate while it runs. Compare mode shows two side by side.
class RunView : public QWidget
{
    Q_OBJECT
public:
    explicit RunView(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    // A burst started on `engine`: views follow it from now on. originMs: the wall-clock ms shown
    // as 0 on the timeline (default: the burst's own start); compare mode aligns both sides.
    void follow(const BurstEngine* engine, qint64 originMs = -1);
    void onRecords();
    void onFinished(const BurstSummary& summary);
    void clear();

    const MemberWrites& writes() const { return m_writes; }
    TimelineView* timeline() const { return m_timeline; }
    CountsChart* counts() const { return m_counts; }
    NumbersPanel* numbers() const { return m_numbers; }
    const BurstEngine* engine() const { return m_engine; }
    int refreshes() const { return m_refreshes; }

protected:
    void changeEvent(QEvent* event) override;

signals:
    void millisecondClicked(qint64 ms, const QByteArray& member);

private:
    void refreshSlowViews();

    const BurstEngine* m_engine = nullptr;
    qint64 m_originMs = -1;
    MemberWrites m_writes;
    QLabel* m_title = nullptr;
    NumbersPanel* m_numbers = nullptr;
    TimelineView* m_timeline = nullptr;
    CountsChart* m_counts = nullptr;
    QTimer m_refresh; // the chart and figures: 25 times a second, not per batch
    bool m_dirty = false;
    int m_refreshes = 0;
};
