#pragma once

#include <QStringList>
#include <QWidget>

#include <map>
#include <vector>

class RequestLog;

// The timeline of a burst with several simulated app servers, one lane per server: x = the `now`
// each request carried (ms since the burst started, so a clock 40 ms ahead shows 40 ms to the
// right), and in each lane per millisecond a filled square for a request that created its member
// and a hollow diamond for one that only overwrote an existing member. A diamond in one lane
// under a square in another is a collision across servers. Zoomed out, milliseconds merge into
// columns of a few pixels (solid = stored, hatched = overwritten): requests are counted per
// millisecond and per column, never drawn one item per request. Wheel zooms, dragging pans,
// double-click fits, hovering lists the millisecond.
class ClientLanes : public QWidget
{
    Q_OBJECT
public:
    struct Cell
    {
        int stored = 0;
        int overwritten = 0;
        int failed = 0; // failed, or the script did not say whether it added
        int requests() const { return stored + overwritten + failed; }
    };

    explicit ClientLanes(QWidget* parent = nullptr);

    // One lane per name (the log's connection c goes to lane c); clears the requests.
    void setLanes(const QStringList& names);
    // New names for the lanes there are (after a language change); keeps the requests.
    void renameLanes(const QStringList& names);
    // The `now` (in ms) drawn as 0.
    void setOrigin(qint64 originMs);
    void addRequests(const RequestLog& log, const std::vector<quint32>& ids);
    void clear();
    void fitAll();
    void setVisibleRange(double fromMs, double toMs);
    double visibleFrom() const { return m_fromMs; }
    double visibleTo() const { return m_toMs; }

    int laneCount() const { return int(m_lanes.size()); }
    const std::map<qint64, Cell>& lane(int index) const { return m_lanes.at(size_t(index)); }
    // Totals of a lane over all its milliseconds.
    Cell laneTotal(int index) const;
    bool isEmpty() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {320, 160}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    QRectF plotArea() const;
    QRectF laneRect(int lane) const;
    double xOf(double ms) const;
    double msAt(double x) const;
    int laneAt(double y) const;
    qint64 millisecondsPerColumn() const;
    void drawAxis(QPainter& painter, const QRectF& area);
    void drawLaneLabels(QPainter& painter);
    void drawMarks(QPainter& painter, int lane, const QRectF& rect);
    void drawColumns(QPainter& painter, int lane, const QRectF& rect, qint64 perColumn, int tallest);
    int tallestColumn(qint64 perColumn) const;
    void drawLegend(QPainter& painter, const QRectF& area);
    QString tooltipAt(const QPoint& pos) const;

    QStringList m_names;
    std::vector<std::map<qint64, Cell>> m_lanes;
    qint64 m_originMs = 0;
    double m_fromMs = 0;
    double m_toMs = 20;
    bool m_followLive = true; // keep every request in view until the user zooms or pans
    QPoint m_dragStart;
    double m_dragFromMs = 0;
    bool m_dragging = false;
};
