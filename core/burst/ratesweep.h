#pragma once

#include "burstengine.h"
#include "sweeppoint.h"

#include <QObject>

// Measures the stored fraction over a list of arrival rates: one burst per rate, one after the
// other through a BurstEngine, each on a fresh key. Asynchronous like BurstEngine: start()
// returns at once, pointFinished() follows each rate, finished() comes once at the end (after
// failed() when a point failed, and after stop(): a point cut short is left out).
// Lives in, and is used from, one thread with an event loop.
class RateSweep : public QObject
{
    Q_OBJECT
public:
    explicit RateSweep(QObject* parent = nullptr);
    ~RateSweep() override;

    // False, with planError(), when the plan is invalid or a sweep is running.
    bool start(const RedisEndpoint& endpoint, const SweepPlan& plan, const ConnectOptions& options = {});
    // No further rates; the running burst stops within 200 ms.
    void stop();
    bool isRunning() const { return m_running; }
    QString planError() const { return m_planError; }

    const SweepPlan& plan() const { return m_result.plan; }
    // The points measured so far; all of them after finished().
    const QVector<SweepPoint>& points() const { return m_result.points; }
    const SweepResult& result() const { return m_result; }
    // The index of the rate being measured (-1 before the first).
    int currentIndex() const { return m_index; }
    // The burst of the current point, for a live view of its requests (its log lasts until the
    // next point starts).
    const BurstEngine& engine() const { return m_engine; }

signals:
    void pointStarted(int index, double ratePerMs);
    // Requests finished so far in the current point.
    void progress(int index, int finished, int total);
    void pointFinished(const SweepPoint& point);
    void failed(const QString& message);
    void finished();

private:
    void startPoint(int index);
    void onBurstFinished(const BurstSummary& summary);
    void end();

    BurstEngine m_engine;
    RedisEndpoint m_endpoint;
    ConnectOptions m_options;
    SweepResult m_result;
    QString m_planError;
    int m_index = -1;
    bool m_running = false;
    bool m_stopRequested = false;
};
