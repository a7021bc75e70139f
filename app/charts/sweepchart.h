#pragma once

#include "burst/sweeppoint.h"

#include <QChartView>

class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

// The collision curve: stored share against arrival rate (log scale). The theory for member = now
// as lines, the Poisson curve (1 - e^-L) / L and the even-spacing curve d = 1/L, plus 100 % for
// unique members; the measured points as markers over them, and the share admitted beyond the
// limit as a second kind of marker when the sweep has a limit. Each series has its own colour
// (Okabe-Ito) and its own line style or marker shape, so the chart also reads in grey.
class SweepChart : public QChartView
{
    Q_OBJECT
public:
    explicit SweepChart(QWidget* parent = nullptr);

    // A new sweep: clears the points and fits the x axis to its rates; the theory that matches
    // the sweep's pacing is drawn stronger than the other.
    void setPlan(const SweepPlan& plan);
    void addPoint(const SweepPoint& point);
    void clear();

    QLineSeries* poissonTheory() const { return m_poisson; }
    QLineSeries* evenTheory() const { return m_even; }
    QLineSeries* uniqueTheory() const { return m_unique; }
    QScatterSeries* measured() const { return m_stored; }
    QScatterSeries* overLimit() const { return m_overLimit; }
    QLogValueAxis* rateAxis() const { return m_x; }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    // The chart's theme, fonts and series colours from the widget's palette and font.
    void applyLook();
    void retranslate();
    void sampleTheory(double fromRate, double toRate);

    SweepPacing m_pacing = SweepPacing::Poisson;
    bool m_withLimit = false;
    QLineSeries* m_poisson = nullptr;
    QLineSeries* m_even = nullptr;
    QLineSeries* m_unique = nullptr;
    QScatterSeries* m_stored = nullptr;
    QScatterSeries* m_overLimit = nullptr;
    QLogValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};
