#pragma once

#include "burstsummary.h"
#include "memberwrites.h"
#include "requestbatch.h"

#include <QTimer>
#include <QWidget>

#include <memory>

class CountsChart;
class NumbersPanel;
class QLabel;
class QSpinBox;
class QSplitter;
class QTabBar;
class Recording;
class ReplayPlayer;
class TimelineView;
class TransportBar;

// Everything about one run: its figures, its timeline and its counts chart, fed with the engine's
// batches (values) and redrawn at a steady rate while it runs. Compare mode shows two side by side.
// When the two charts do not fit one above the other (a projector's low screen, large text), they
// share the place as two tabs.
class RunView : public QWidget
{
    Q_OBJECT
public:
    explicit RunView(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    QString title() const;
    // A run of `requests` requests against `limit` started: the views start over. originMs: the
    // wall-clock ms drawn as 0 on the timeline (-1: the run's own start); compare mode aligns both
    // sides.
    // users > 1: the timeline, the counts and the writes show one user at a time (user()),
    // chosen beside them; the figures stay the run's.
    void start(int requests, qint64 limit, qint64 originMs = -1, int users = 1);
    void addBatch(const RequestBatch& batch);
    // The user shown (0 .. users-1), -1 when the run has one user.
    int user() const { return m_users > 1 ? m_user : -1; }
    // Starts the views of the chosen user over from its requests so far.
    void showUser(const RequestBatch& soFar);
    void finish(const BurstSummary& summary);
    void clear();
    // The run, recorded, to step through: the transport bar appears under the timeline, its
    // cursor at the last request. Null: none (a new run starts without one).
    void setRecording(std::shared_ptr<const Recording> recording);
    // Draws a recorded run that no engine ran here (an opened replay file), then setRecording().
    void showRecording(std::shared_ptr<const Recording> recording);
    ReplayPlayer* player() const { return m_player; }
    TransportBar* transport() const { return m_transport; }
    // True once the cursor was moved: the views show the state at it, not the run's end.
    bool isReplaying() const { return m_replaying; }

    const MemberWrites& writes() const { return m_writes; }
    TimelineView* timeline() const { return m_timeline; }
    CountsChart* counts() const { return m_counts; }
    NumbersPanel* numbers() const { return m_numbers; }
    int refreshes() const { return m_refreshes; }
    bool chartsShareAPlace() const { return m_stacked; }
    // The charts share a place (tabs) also when, stacked, the timeline would get less than this
    // many pixels: the window keeps the timeline its largest view. 0: only when too low.
    void setTimelineAtLeast(qint64 area);
    // Brings the counts chart into view (its tab, when the charts share a place).
    void showCounts();
    // As low as the charts in tabs allow.
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

signals:
    void millisecondClicked(qint64 ms, const QByteArray& member);
    void userChosen(int user);
    // The replay's cursor moved to request (0-based).
    void replayMoved(int request);

private:
    void refreshSlowViews();
    void arrangeCharts();
    void retranslate();
    int countsNeed() const;
    int transportNeed() const;
    int chartsNeed() const;
    void showCharts();
    void restartCharts();
    void showUserFigures();
    void showReplayPosition(int request);

    MemberWrites m_writes;
    BurstSummary m_latest; // the figures of the last batch
    QLabel* m_title = nullptr;
    QWidget* m_userRow = nullptr;
    QLabel* m_userLabel = nullptr;
    QSpinBox* m_userBox = nullptr;
    QLabel* m_userFigures = nullptr;
    int m_users = 1;
    int m_user = 0;
    int m_requests = 0;
    qint64 m_limit = 0;
    qint64 m_originMs = -1;
    NumbersPanel* m_numbers = nullptr;
    TimelineView* m_timeline = nullptr;
    CountsChart* m_counts = nullptr;
    QSplitter* m_splitter = nullptr;
    QTabBar* m_chartTabs = nullptr;
    bool m_stacked = false;
    qint64 m_timelineAtLeast = 0;
    ReplayPlayer* m_player = nullptr;
    TransportBar* m_transport = nullptr;
    bool m_replaying = false;
    bool m_showingRecording = false; // the recording's own batch is being drawn
    bool m_settingRecording = false;
    QTimer m_refresh; // the chart and figures: 25 times a second, not per batch
    bool m_dirty = false;
    int m_refreshes = 0;
};
