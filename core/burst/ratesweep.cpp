#include "ratesweep.h"

#include <QThread>

RateSweep::RateSweep(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<SweepPoint>();
    connect(&m_engine, &BurstEngine::recordsAvailable, this,
            [this](int finished, int total) { emit progress(m_index, finished, total); });
    connect(&m_engine, &BurstEngine::finished, this, &RateSweep::onBurstFinished);
}

RateSweep::~RateSweep() = default;

bool RateSweep::start(const RedisEndpoint& endpoint, const SweepPlan& plan, const ConnectOptions& options)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_running) {
        m_planError = tr("A sweep is already running: stop it first.");
        return false;
    }
    m_planError = plan.validate();
    if (!m_planError.isEmpty())
        return false;
    m_endpoint = endpoint;
    m_options = options;
    m_result = SweepResult();
    m_result.plan = plan;
    m_index = -1;
    m_stopRequested = false;
    m_running = true;
    startPoint(0);
    return true;
}

void RateSweep::stop()
{
    if (!m_running)
        return;
    m_stopRequested = true;
    m_engine.stop();
}

void RateSweep::startPoint(int index)
{
    if (m_stopRequested) {
        m_result.stopped = true;
        return end();
    }
    m_index = index;
    if (!m_engine.start(m_endpoint, m_result.plan.planAt(index), m_options)) {
        m_result.failure = {BurstFailure::Kind::Plan, m_engine.planError(), 0};
        emit failed(m_result.failure.message);
        return end();
    }
    emit pointStarted(index, m_result.plan.ratesPerMs.value(index));
}

void RateSweep::onBurstFinished(const BurstSummary& summary)
{
    if (!m_running)
        return;
    m_result.serverVersion = summary.serverVersion;
    if (summary.failure.isFailure()) {
        m_result.failure = summary.failure;
        emit failed(summary.failure.message);
        return end();
    }
    if (summary.stopped) { // a point cut short would not be comparable with the others
        m_result.stopped = true;
        return end();
    }
    const SweepPoint point = SweepPoint::measure(m_result.plan, m_index, summary, m_engine.log());
    m_result.points << point;
    emit pointFinished(point);
    const int next = m_index + 1;
    if (next >= m_result.plan.ratesPerMs.size())
        return end();
    if (m_stopRequested) {
        m_result.stopped = true;
        return end();
    }
    // Queued: the engine is still inside its own finished() signal.
    QMetaObject::invokeMethod(
        this, [this, next] { startPoint(next); }, Qt::QueuedConnection);
}

void RateSweep::end()
{
    m_running = false;
    emit finished();
}
