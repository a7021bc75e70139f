// TimelineView's replay cursor: where a replay stands, and what it has not reached yet.

#include "results/timelinescale.h"
#include "timelineview.h"
#include "timelineviewport.h"
#include "widgets/palette.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

double TimelineView::stackCell(const QRectF& rect, const TimelineScale& scale) const
{
    return std::min({scale.pixelsPerMs() * 0.8, 22.0, rect.height() - 2});
}

void TimelineView::setReplayCursor(qint64 now, int rankInMillisecond, int lane)
{
    const Cursor cursor {m_model.millisecondOf(now), std::max(rankInMillisecond, 0),
                         std::clamp(lane, 0, std::max(m_model.laneCount() - 1, 0))};
    const std::optional<Cursor> before = m_cursor;
    m_cursor = cursor;
    // Out of sight: the visible span moves to it, the zoom stays (and the whole view is drawn).
    const TimelineRange range = m_viewport->range();
    if (double(cursor.ms) < range.fromMs || double(cursor.ms + 1) > range.toMs) {
        const double span = range.span();
        const double from = double(cursor.ms) + 0.5 - span / 2;
        setVisibleRange(from, from + span);
        update();
    } else if (!before) {
        update(); // what comes after the cursor is dimmed from now on
    } else {
        // A step: only the columns between the two places change, where the dimming starts and
        // the marks go (a whole 1920-pixel repaint a step is what a replay cannot afford).
        update(cursorMoveRect(*before, cursor) | captionRect(m_replayCaption));
    }
}

void TimelineView::setReplayCaption(const QString& caption)
{
    if (caption == m_replayCaption)
        return;
    const QRect before = captionRect(m_replayCaption);
    m_replayCaption = caption;
    if (m_cursor)
        update(before | captionRect(m_replayCaption));
}

QRect TimelineView::cursorMoveRect(const Cursor& from, const Cursor& to) const
{
    const QRectF area = plotArea();
    const TimelineScale scale = this->scale();
    // Beside its millisecond's column the cursor draws its ring (at most 22 * 0.62 px from the
    // centre) and its line, with the pen's width: the margin holds both.
    const double margin = 16.0 + cursorPenWidth();
    const double left = std::min(scale.xOf(double(from.ms)), scale.xOf(double(to.ms))) - margin;
    const double right = std::max(scale.xOf(double(from.ms + 1)), scale.xOf(double(to.ms + 1))) + margin;
    return QRectF(left, area.top() - 4, right - left, area.height() + 8).toAlignedRect();
}

// The band drawCursor() writes the caption on, a pixel wider for its antialiased edge.
QRect TimelineView::captionRect(const QString& caption) const
{
    if (caption.isEmpty())
        return {};
    const QRectF area = plotArea();
    const QFontMetrics metrics(font());
    const QString text = metrics.elidedText(caption, Qt::ElideRight, int(area.width()) - 8);
    return QRectF(area.left(), area.top(), metrics.horizontalAdvance(text) + 8, metrics.height() + 4)
        .toAlignedRect()
        .adjusted(-1, -1, 1, 1);
}

double TimelineView::cursorPenWidth() const
{
    return std::max(2.0, fontMetrics().height() / 8.0);
}

void TimelineView::clearReplayCursor()
{
    if (!m_cursor)
        return;
    m_cursor.reset();
    update();
}

QColor TimelineView::dimColour() const
{
    QColor dim = palette().color(QPalette::Base);
    dim.setAlphaF(0.75);
    return dim;
}

double TimelineView::cursorRight(const QRectF& area, const TimelineScale& scale) const
{
    return std::min(scale.xOf(double(m_cursor->ms + 1)), area.right());
}

void TimelineView::dimAfterCursor(QPainter& painter, const QRectF& area, const TimelineScale& scale)
{
    const double right = cursorRight(area, scale);
    if (right < area.right())
        painter.fillRect(QRectF(right, area.top(), area.right() - right, area.height()), dimColour());
}

// The same dimming, copied from a dimmed picture of the layer kept beside it: a step of the cursor
// costs a copy of pixels, not a blend of most of the plot (a few milliseconds at 1920 px). Its
// left edge falls on a whole pixel.
void TimelineView::blitDimmedAfterCursor(QPainter& painter, const QRectF& area, const TimelineScale& scale)
{
    if (m_dimmedLayer.isNull()) {
        m_dimmedLayer = m_layer.copy();
        QPainter dimmed(&m_dimmedLayer);
        dimmed.setRenderHint(QPainter::Antialiasing, true);
        dimmed.fillRect(area, dimColour());
    }
    const int left = int(std::lround(cursorRight(area, scale)));
    const int right = int(std::ceil(area.right()));
    if (left >= right)
        return;
    const QRect target(QPoint(left, int(std::floor(area.top()))), QPoint(right - 1, int(std::ceil(area.bottom())) - 1));
    const qreal ratio = m_dimmedLayer.devicePixelRatio();
    painter.drawPixmap(target, m_dimmedLayer,
                       QRectF(target.topLeft() * ratio, QSizeF(target.size()) * ratio).toAlignedRect());
}

void TimelineView::drawCursor(QPainter& painter, const QRectF& area, const TimelineScale& scale)
{
    const Cursor& cursor = *m_cursor;
    const double left = std::max(scale.xOf(double(cursor.ms)), area.left());
    const double right = std::min(scale.xOf(double(cursor.ms + 1)), area.right());
    const QColor dim = dimColour();
    painter.save();
    painter.setClipRect(area.adjusted(0, -2, 0, 0));
    // What the replay has not reached: the milliseconds after the cursor's (dimAfterCursor()),
    // and...
    const QRectF lane = isMultiLane() ? laneRect(cursor.lane).adjusted(0, 3, 0, -3) : area;
    const double centre = scale.xOf(double(cursor.ms) + 0.5);
    QPen pen(Palette::attention, cursorPenWidth());
    double lineEnd = area.bottom(); // the line stops above the request's ring: the marks stay readable
    if (scale.drawsStacks()) {
        // ...and the marks of its own millisecond above this request's.
        const double cell = stackCell(lane, scale);
        const double top = lane.bottom() - (cursor.rank + 1) * cell;
        if (top > lane.top())
            painter.fillRect(QRectF(left, lane.top(), right - left, top - lane.top()), dim);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        const double r = cell * 0.62;
        if (top + cell / 2 > lane.top()) {
            painter.drawEllipse(QPointF(centre, top + cell / 2), r, r);
            lineEnd = top + cell / 2 - r;
        }
    }
    painter.setPen(pen);
    if (lineEnd > area.top())
        painter.drawLine(QPointF(centre, area.top()), QPointF(centre, lineEnd));
    if (!m_replayCaption.isEmpty()) {
        // On the plot's top line, on a band of the background: readable over the marks.
        const QFontMetrics metrics(font());
        const QString text = metrics.elidedText(m_replayCaption, Qt::ElideRight, int(area.width()) - 8);
        const QRectF band(area.left(), area.top(), metrics.horizontalAdvance(text) + 8, metrics.height() + 4);
        QColor background = palette().color(QPalette::Base);
        background.setAlphaF(0.9);
        painter.fillRect(band, background);
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(band, Qt::AlignCenter, text);
    }
    painter.restore();
}
