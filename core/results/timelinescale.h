#pragma once

// TimelineScale: the mapping between a timeline's time and its x, and the visible range.

#include <QtGlobal>

#include <optional>

// A visible stretch of a timeline, in ms since its origin.
struct TimelineRange
{
    double fromMs = 0;
    double toMs = 20;
    double span() const { return toMs - fromMs; }
    bool operator==(const TimelineRange& other) const { return fromMs == other.fromMs && toMs == other.toMs; }

    // All of [firstMs, lastMs + 1) with a margin of 2 % each side, at least 10 ms wide.
    static TimelineRange fit(qint64 firstMs, qint64 lastMs);
    // Zoomed by factor (below 1 zooms in) around anchorMs; empty when narrower than 2 ms or
    // wider than 10^9 ms.
    std::optional<TimelineRange> zoomed(double anchorMs, double factor) const;
    // Moved by `ms`.
    TimelineRange shifted(double ms) const { return {fromMs + ms, toMs + ms}; }
};

// Where a millisecond of a timeline lands on screen and back, and the steps a view draws at a
// zoom: one mapping for every timeline view, tested without a window.
class TimelineScale
{
public:
    // Below this many pixels per ms, a view draws columns instead of one mark per request.
    static constexpr double minStackPixelsPerMs = 10;
    static constexpr double minColumnPixels = 3;

    TimelineScale(const TimelineRange& range, double left, double width);

    double xOf(double ms) const { return m_left + (ms - m_range.fromMs) * pixelsPerMs(); }
    double msAt(double x) const { return m_range.fromMs + (x - m_left) / pixelsPerMs(); }
    // The whole millisecond under x.
    qint64 millisecondAt(double x) const;
    double pixelsPerMs() const { return m_width / m_range.span(); }
    bool drawsStacks() const { return pixelsPerMs() >= minStackPixelsPerMs; }
    // Zoomed out: whole milliseconds per column, a 1-2-5 step, each column at least 3 px wide.
    qint64 millisecondsPerColumn() const;
    // The first column's start (a multiple of the column width) and how many columns cover the range.
    double firstColumnMs() const;
    int columnCount() const;
    // A grid line every ms when they are 6 px apart or more, else every labelStepMs().
    double gridStepMs() const;
    // Tick labels about 70 px apart, on a 1-2-5 step.
    double labelStepMs() const;
    // A drag of dx pixels, as ms to move the range by (dragging right shows earlier times).
    double dragMs(double dxPixels) const { return -dxPixels / pixelsPerMs(); }

    // The smallest 1, 2 or 5 times a power of ten that is at least `raw`.
    static double niceStep(double raw);

private:
    TimelineRange m_range;
    double m_left;
    double m_width;
};
