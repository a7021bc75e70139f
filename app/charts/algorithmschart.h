#pragma once

#include "algorithms/algorithmcomparison.h"

#include <QChartView>
#include <QVector>

#include <optional>

class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

// Accuracy against memory: one point per algorithm, at the bytes one user's keys held (x, log
// scale) and the share of requests it decided otherwise than the exact sliding log (y: admitted
// over the limit plus refused under it). Each point is labelled with the algorithm's id and has
// its own Okabe-Ito colour and marker shape, so the chart also reads in grey.
class AlgorithmsChart : public QChartView
{
    Q_OBJECT
public:
    explicit AlgorithmsChart(QWidget* parent = nullptr);

    void clear();
    void addTally(const AlgorithmTally& tally);
    void setTallies(const QVector<AlgorithmTally>& tallies);

    // The point an algorithm is drawn at: (bytes per user key, wrong decisions in % of its
    // requests); null when it has none (no memory measured).
    static std::optional<QPointF> pointOf(const AlgorithmTally& tally);
    // One series per algorithm drawn, named by its id, in the order they came.
    QList<QScatterSeries*> points() const { return m_points; }
    // The label that names an algorithm: its id, or the ids of the points close to it.
    QString labelOf(const QString& id) const;
    QLogValueAxis* memoryAxis() const { return m_x; }
    QValueAxis* wrongAxis() const { return m_y; }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void applyLook();
    void retranslate();
    void fitAxes();
    void label();
    QFont labelFont() const;

    QVector<AlgorithmTally> m_tallies;
    QList<QScatterSeries*> m_points;
    QLogValueAxis* m_x = nullptr;
    QValueAxis* m_y = nullptr;
};
