#pragma once

#include <QTimer>
#include <QWidget>

class CountsChart;
class NumbersPanel;
class QLabel;
class QSpinBox;
class QSplitter;
class QTabBar;
struct RequestBatch;
class RunModel;
class TimelineView;
class TransportBar;

// One run on screen: its figures, its timeline and its counts chart, all drawn from the run's
// model (RunModel: its batches while it runs, redrawn at a steady rate, then its recording at the
// cursor). Compare mode shows two side by side. When the two charts do not fit one above the
// other (a projector's low screen, large text), they share the place as two tabs.
class RunView : public QWidget
{
    Q_OBJECT
public:
    explicit RunView(RunModel* run, QWidget* parent = nullptr);

    RunModel* run() const { return m_run; }
    TimelineView* timeline() const { return m_timeline; }
    CountsChart* counts() const { return m_counts; }
    // The counts chart with a margin around it (what a lesson's frame marks).
    QWidget* countsFrame() const { return m_countsFrame; }
    NumbersPanel* numbers() const { return m_numbers; }
    TransportBar* transport() const { return m_transport; }
    int refreshes() const { return m_refreshes; }
    bool chartsShareAPlace() const { return m_stacked; }
    // The charts share a place (tabs) also when, stacked, the timeline would get less than this
    // many pixels: the window keeps the timeline its largest view. 0: only when too low.
    void setTimelineAtLeast(qint64 area);
    // Brings the counts chart into view (its tab, when the charts share a place).
    void showCounts();
    // The chart in front when they share a place: 0 the timeline, 1 the counts.
    void showChart(int index);
    // Side by side with `other` (compare mode): the figures take the same height on both sides,
    // so that the charts below start on one line.
    void alignFiguresWith(RunView* other);
    // A picture of the run (an animation's frame, a handout): the replay's controls never show.
    void setForPictures(bool forPictures);
    // Its own replay controls, or none (a bar under both runs steps it).
    void setOwnControls(bool own);
    // As low as the charts in tabs allow.
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

signals:
    void millisecondClicked(qint64 ms, const QByteArray& member);
    // The user asked for another user's requests (the run model shows them once given).
    void userChosen(int user);
    // The chart brought to the front (0 the timeline, 1 the counts), when the charts share a place.
    void chartShown(int index);
    // The charts went into tabs (a low screen), or back one above the other.
    void chartsShareAPlaceChanged(bool sharing);

private:
    void onStarted();
    void onBatch(const RequestBatch& shown);
    void onFinished();
    void onUserChanged(int user);
    void onCleared();
    void onRecordingChanged(bool any);
    void showControls();
    void onCursorMoved(int request);
    void onTitleChanged(const QString& title);
    void refreshSlowViews();
    void arrangeCharts();
    void retranslate();
    int countsNeed() const;
    int transportNeed(bool compact) const;
    int chartsNeed() const;
    void showCharts();
    void restartCharts();
    void showUserFigures();
    int figuresNeed() const;
    void alignFigures();

    RunModel* m_run = nullptr;
    QLabel* m_title = nullptr;
    QWidget* m_userRow = nullptr;
    QLabel* m_userLabel = nullptr;
    QSpinBox* m_userBox = nullptr;
    QLabel* m_userFigures = nullptr;
    NumbersPanel* m_numbers = nullptr;
    TimelineView* m_timeline = nullptr;
    CountsChart* m_counts = nullptr;
    QWidget* m_countsFrame = nullptr;
    QSplitter* m_splitter = nullptr;
    QTabBar* m_chartTabs = nullptr;
    bool m_stacked = false;
    bool m_forPictures = false;
    bool m_ownControls = true;
    RunView* m_partner = nullptr;
    int m_minimumHeightSeen = -1;
    qint64 m_timelineAtLeast = 0;
    TransportBar* m_transport = nullptr;
    QTimer m_refresh; // the chart and figures: 25 times a second, not per batch
    bool m_dirty = false;
    int m_refreshes = 0;
};
