#pragma once

#include "results/timelinemodel.h"

#include <QPixmap>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <optional>

class TimelineScale;
class TimelineViewport;

// The timeline of a burst, in one lane or in one lane per app server: x = the `now` of each
// request (ms since the run started, so a clock 40 ms ahead shows 40 ms to the right). Each
// millisecond of a lane is a stack: a filled square for the request whose member survived, hollow
// diamonds for the requests that only overwrote it, circles for replies that did not say, crosses
// for failures. Zoomed out, milliseconds merge into columns (solid = stored, hatched =
// overwritten). Wheel zooms around the cursor, dragging pans, double-click fits, hovering lists
// the requests, clicking selects the millisecond's member. Fed by the engine's batches (values);
// views that share a TimelineViewport zoom and pan together.
class TimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    // Starts over for a new run: one unnamed lane, or a lane per name (a request goes to the lane
    // of its connection); originMs: the wall-clock ms drawn as 0 (-1: the run's own start).
    void reset(const QStringList& laneNames = {}, qint64 originMs = -1);
    // New names for the lanes there are (after a language change); keeps the requests.
    void renameLanes(const QStringList& names);
    void addBatch(const RequestBatch& batch);
    void clear();
    const TimelineModel& model() const { return m_model; }
    QStringList laneNames() const { return m_laneNames; }

    // Shares the visible range with other views (the default is a viewport of its own).
    void setViewport(TimelineViewport* viewport);
    TimelineViewport* viewport() const { return m_viewport; }
    void fitAll();
    void setVisibleRange(double fromMs, double toMs);
    double visibleFrom() const;
    double visibleTo() const;

    void setTitle(const QString& title);
    // The x axis is Redis's clock when each write ran (a watch), not the limiter's `now` (a burst).
    void setServerClock(bool on);
    bool isServerClock() const { return m_serverClock; }
    // A replay's cursor: the request whose `now` is given, the rank-th (0-based) of its
    // millisecond in its lane. Its millisecond is marked, what came after it is dimmed, and the
    // view pans to it when it is out of sight. clearReplayCursor(): the whole run, as it ended.
    void setReplayCursor(qint64 now, int rankInMillisecond, int lane = 0);
    void clearReplayCursor();
    bool hasReplayCursor() const { return m_cursor.has_value(); }
    // A line about the cursor's request drawn at the top of the plot (when no other place shows
    // it: a low screen); empty: none.
    void setReplayCaption(const QString& caption);
    QString replayCaption() const { return m_replayCaption; }
    // The text shown while there is nothing to draw (a function: it follows the language).
    void setPlaceholder(std::function<QString()> text);
    // Where the marks go; the margins hold the title, the legend, the lane names, the tick labels
    // and the axis captions, and grow with the font.
    QRectF plotArea() const;
    TimelineScale scale() const;
    // Where "tallest N requests" is written over the columns (empty when the view draws stacks):
    // a line the columns leave free.
    QRectF tallestLabelRect() const;

    QSize sizeHint() const override;
    // High enough for the y caption along the plot, wide enough for a few tick labels.
    QSize minimumSizeHint() const override;

signals:
    // A millisecond was clicked; member is the survivor's ZSET member (empty if none survived).
    void millisecondClicked(qint64 ms, const QByteArray& member);

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
    bool isMultiLane() const { return m_model.laneCount() > 1; }
    QRectF laneRect(int lane) const;
    int laneAt(double y) const;
    void drawAxes(QPainter& painter, const QRectF& area, const TimelineScale& scale);
    void drawLaneLabels(QPainter& painter);
    void drawStacks(QPainter& painter, int lane, const QRectF& rect, const TimelineScale& scale);
    void drawColumns(QPainter& painter, const std::vector<TimelineModel::Column>& columns, const QRectF& rect,
                     const TimelineScale& scale, int tallest);
    void drawLegend(QPainter& painter, const QRectF& area);
    QString tooltipAt(const QPoint& pos) const;
    // The replay cursor's marks; what comes after it is dimmed first, by dimAfterCursor() (an SVG,
    // a print) or blitDimmedAfterCursor() (the screen).
    void drawCursor(QPainter& painter, const QRectF& area, const TimelineScale& scale);
    void dimAfterCursor(QPainter& painter, const QRectF& area, const TimelineScale& scale);
    void blitDimmedAfterCursor(QPainter& painter, const QRectF& area, const TimelineScale& scale);
    QColor dimColour() const;
    double cursorRight(const QRectF& area, const TimelineScale& scale) const;
    // Everything but the replay cursor: the background, axes, marks and legend.
    void drawLayer(QPainter& painter, const QRectF& area, const TimelineScale& scale);
    // Something the layer shows changed: it is drawn again on the next paint.
    void changed();
    double stackCell(const QRectF& rect, const TimelineScale& scale) const;

    struct Cursor
    {
        qint64 ms = 0;
        int rank = 0;
        int lane = 0;
    };
    // What a step of the cursor from one place to another repaints, and where a caption's band is.
    QRect cursorMoveRect(const Cursor& from, const Cursor& to) const;
    QRect captionRect(const QString& caption) const;
    double cursorPenWidth() const;
    std::optional<Cursor> m_cursor;
    QString m_replayCaption;

    // The layer as last drawn, and what it was drawn from: a replay moving its cursor blits it and
    // draws the cursor over it, rather than every column again (thousands of fills a frame).
    struct LayerKey
    {
        quint64 revision = 0;
        QSize size;
        qreal pixelRatio = 0;
        double fromMs = 0;
        double toMs = 0;
        qint64 palette = 0;
        int colorGroup = 0; // active, inactive, disabled: the same palette draws differently
        QString font;
        bool operator==(const LayerKey& other) const;
    };
    LayerKey layerKey() const;
    QPixmap m_layer;
    LayerKey m_layerKey;
    QPixmap m_dimmedLayer; // m_layer with its plot dimmed, made at the first cursor it is drawn with
    // The rotated caption's need, measured once per font and language: layouts ask for the
    // minimum size on every refresh of a live run, and wrapping the caption costs text shaping.
    mutable QString m_captionMeasuredFor;
    mutable int m_captionNeed = 0;
    quint64 m_revision = 1;

    TimelineModel m_model;
    QStringList m_laneNames;
    TimelineViewport* m_viewport = nullptr;
    TimelineViewport* m_ownViewport = nullptr;
    QString m_title;
    bool m_serverClock = false;
    std::function<QString()> m_placeholder;
    QPoint m_dragStart;
    double m_dragFromMs = 0;
    bool m_dragging = false;
    bool m_dragged = false;
};
