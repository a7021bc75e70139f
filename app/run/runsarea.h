#pragma once

#include <QWidget>

class QSplitter;
class RunModel;
class RunView;
class TransportBar;

// The runs' place: one run, or two side by side (compare mode). Two runs of the same timestamps
// are stepped together under one transport bar as wide as both (a projector's narrow halves have
// no room for two bars of every control); a what-if, whose right side starts later, keeps a bar
// on each side.
class RunsArea : public QWidget
{
    Q_OBJECT
public:
    RunsArea(RunModel* left, RunModel* right, QWidget* parent = nullptr);

    QSplitter* splitter() const { return m_splitter; }
    RunView* left() const { return m_left; }
    RunView* right() const { return m_right; }
    // The bar under both runs (shown while they are stepped together and there is a run to step).
    TransportBar* sharedTransport() const { return m_shared; }
    bool stepsTogether() const;
    // The timelines on screen, in pixels: the window's main view.
    qint64 timelineArea() const;
    // The timelines together at least `area` (each its share): larger than a side panel in front,
    // the counts chart going into a tab beside the timeline if need be.
    void keepTimelinesAtLeast(qint64 area);
    // Both sides replay the same requests (compare mode): they step together. Off (a what-if):
    // each side has its own bar.
    void setSameRequests(bool same);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void arrangeBars();
    void follow(RunModel* leader, RunModel* follower);

    RunModel* m_leftRun;
    RunModel* m_rightRun;
    QSplitter* m_splitter = nullptr;
    RunView* m_left = nullptr;
    RunView* m_right = nullptr;
    TransportBar* m_shared = nullptr;
    bool m_sameRequests = true;
    bool m_following = false; // one cursor moves the other: not back again
};
