#pragma once

#include "results/requestbatch.h"

#include <QChartView>

#include <vector>

class QAreaSeries;
class QGraphicsLineItem;
class QLineSeries;
class QScatterSeries;
class QValueAxis;

// What Redis counted against what really happened: x = request order; the true number of
// requests in the window, the count the script returned, and the limit. The gap between truth
// and count is shaded; each request admitted beyond the limit is a mark on the limit line (a
// column's first, when requests are decimated). Points are decimated per pixel column, so a
// million requests draw as fast as a thousand. The y axis fits the data, in whole-number steps.
class CountsChart : public QChartView
{
    Q_OBJECT
public:
    explicit CountsChart(QWidget* parent = nullptr);

    // A new run of `requests` requests against `limit` (0: none).
    void start(int requests, qint64 limit);
    // Requests whose truth became known, in id order (from the engine's batches).
    void addCounted(const std::vector<CountedRequest>& counted);
    // Draws what was added (call at a steady rate during a burst, not per batch).
    void refresh();
    void clear();
    // While a burst streams in, draw without antialiasing: the shaded area costs tens of ms per
    // frame otherwise, and the GUI must stay fluid. The final picture is antialiased.
    void setLive(bool live);
    // Beside a chart that shows the same legend (compare mode's right side): none, and narrower.
    void setLegendShown(bool shown);
    int plottedPoints() const;
    // A replay's cursor: a line at request `request` (0-based); -1: none.
    void setReplayCursor(int request);
    int replayCursor() const { return m_cursorAt; }
    // Where the cursor is drawn, in the chart's coordinates (null when none is shown).
    QLineF replayCursorLine() const;
    // What is drawn, for tests: the "> limit" marks (x, y) and the y axis.
    QList<QPointF> beyondLimitMarks() const;
    QValueAxis* yAxis() const { return m_y; }
    QValueAxis* xAxis() const { return m_x; }

protected:
    void changeEvent(QEvent* event) override;
    int minimumChartWidth() const;
    void resizeEvent(QResizeEvent* event) override;

private:
    // Per-column extremes, kept incrementally: a refresh reads only the requests that arrived
    // since the last one, and columns merge in pairs as the burst grows (so a million requests
    // cost what a thousand do).
    struct Column
    {
        int first = 0;
        qint64 truthMin = -1, truthMax = -1, countMin = -1, countMax = -1;
        int truthMinAt = 0, truthMaxAt = 0, countMinAt = 0, countMaxAt = 0;
        int overLimitAt = -1; // the first request of the column admitted beyond the limit
    };
    // An axis from 0 to max in at most about `steps` whole-number steps of 1, 2 or 5 times a
    // power of ten.
    static void fitAxis(QValueAxis* axis, double max, int steps);
    // Both axes to the data's range, with as many steps as the plot has room for.
    void fitAxes();
    void absorb(const CountedRequest& request);
    static Column merged(const Column& a, const Column& b);
    // The chart's theme, fonts and series colours from the widget's palette and font.
    void applyLook();
    void retranslate();
    // The y axis's title runs along the axis while it fits, else it moves above the plot: Qt
    // Charts would cut it short ("in the wi…") on a low chart.
    void placeAxisTitle();
    void placeCursor();

    bool m_started = false;
    int m_requests = 0;
    qint64 m_limitValue = 0;
    QLineSeries* m_truth = nullptr;
    QLineSeries* m_counted = nullptr;
    QLineSeries* m_limit = nullptr;
    QLineSeries* m_gapUpper = nullptr;
    QLineSeries* m_gapLower = nullptr;
    QAreaSeries* m_gap = nullptr;
    QScatterSeries* m_overLimit = nullptr;
    QGraphicsLineItem* m_cursor = nullptr;
    int m_cursorAt = -1;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
    std::vector<Column> m_columns;
    int m_perColumn = 1;
    int m_absorbed = 0;
    qint64 m_top = 1;
    double m_xRangeFor = 10; // the x range was set for this many requests
    double m_yRangeFor = 10; // and the y range for this top
    bool m_fittingAxes = false;
};
