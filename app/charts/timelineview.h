#pragma once

#include "timelinebuckets.h"

#include <QWidget>

class RequestLog;

// The timeline of a burst: x = the `now` of each request (ms since the burst started). Each
// millisecond is a stack: the request whose member survived (filled square) under the requests
// that only overwrote it (hollow diamonds), so colour is not the only cue. Zoomed out, columns of
// several milliseconds become bars (solid = stored, hatched = overwritten). Wheel zooms around
// the cursor, dragging pans, hovering shows the requests, clicking selects a millisecond.
class TimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);

    // The log to draw (owned by the burst engine) and the `now` drawn as 0 ms.
    void setLog(const RequestLog* log, qint64 origin, qint64 unitsPerMs);
    void addRequests(const std::vector<quint32>& ids);
    void clear();
    // Shows every millisecond that has requests.
    void fitAll();
    // Visible range in ms.
    void setVisibleRange(double fromMs, double toMs);
    double visibleFrom() const { return m_fromMs; }
    double visibleTo() const { return m_toMs; }
    const TimelineBuckets& buckets() const { return m_buckets; }
    void setTitle(const QString& title);
    // Where the marks go; the margins around it hold the title, the legend, the tick labels and
    // the axis captions, and grow with the font.
    QRectF plotArea() const;

    QSize sizeHint() const override { return {640, 260}; }
    QSize minimumSizeHint() const override { return {240, 140}; }

signals:
    // A millisecond was clicked; member is the survivor's ZSET member (empty if none survived).
    void millisecondClicked(qint64 ms, const QByteArray& member);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    qint64 millisecondsPerColumn() const;
    double xOf(double ms) const;
    double msAt(double x) const;
    QString tooltipFor(qint64 ms) const;
    void drawAxes(QPainter& painter, const QRectF& area);
    void drawStacks(QPainter& painter, const QRectF& area);
    void drawColumns(QPainter& painter, const QRectF& area);
    void drawLegend(QPainter& painter, const QRectF& area);

    const RequestLog* m_log = nullptr;
    TimelineBuckets m_buckets;
    QString m_title;
    double m_fromMs = 0;
    double m_toMs = 20;
    bool m_followLive = true; // keep the newest milliseconds in view until the user zooms or pans
    QPoint m_dragStart;
    double m_dragFromMs = 0;
    bool m_dragging = false;
    bool m_dragged = false;
};
