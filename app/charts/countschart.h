#pragma once

#include <QChartView>

class QAreaSeries;
class QLineSeries;
class QScatterSeries;
class QValueAxis;
class RequestLog;

// What Redis counted against what really happened: x = request order; the true number of
// requests in the window, the count the script returned, and the limit. The gap between truth
// and count is shaded; requests admitted beyond the limit are marked along the bottom.
// Points are decimated per pixel column, so a million requests draw as fast as a thousand.
class CountsChart : public QChartView
{
    Q_OBJECT
public:
    explicit CountsChart(QWidget* parent = nullptr);

    void setLog(const RequestLog* log);
    // Re-reads the log (call at a steady rate during a burst, not per batch).
    void refresh();
    void clear();
    void setTitle(const QString& title);
    int plottedPoints() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    // The chart's theme, fonts and series colours from the widget's palette and font.
    void applyLook();
    void retranslate();

    const RequestLog* m_log = nullptr;
    QLineSeries* m_truth = nullptr;
    QLineSeries* m_counted = nullptr;
    QLineSeries* m_limit = nullptr;
    QLineSeries* m_gapUpper = nullptr;
    QLineSeries* m_gapLower = nullptr;
    QAreaSeries* m_gap = nullptr;
    QScatterSeries* m_overLimit = nullptr;
    QValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};
