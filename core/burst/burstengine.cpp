#include "burstengine.h"

#include "burstrun.h"
#include "limiters/zsetkeys.h"

#include <QRandomGenerator>
#include <QThread>

#include <algorithm>

namespace {
constexpr int collectIntervalMs = 30;
}

BurstEngine::BurstEngine(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<BurstSummary>();
    qRegisterMetaType<RequestBatch>();
    m_collectTimer.setInterval(collectIntervalMs);
    connect(&m_collectTimer, &QTimer::timeout, this, &BurstEngine::collect);
}

BurstEngine::~BurstEngine()
{
    m_run.reset(); // stops and joins the threads
}

bool BurstEngine::start(const RedisEndpoint& endpoint, const BurstPlan& plan, const ConnectOptions& options)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_run) {
        m_planError = tr("A burst is already running: stop it first.");
        return false;
    }
    m_planError = plan.validate();
    if (!m_planError.isEmpty())
        return false;

    m_plan = plan;
    m_key = plan.key.isEmpty() ? ZsetKeys::freshRunKey() : plan.key;
    const QByteArray runTag = QByteArray::number(QRandomGenerator::global()->generate() & 0xffffffu, 36);
    m_runTag = runTag;
    // A fresh log: the last run's may live on in its recording (sharedLog()).
    m_log = std::make_shared<RequestLog>();
    if (plan.keepLog) {
        m_log->reset(plan.requests, plan.windowInNowUnits(), plan.limit, runTag);
    } else {
        // The truth then forgets old nows: allow for connections whose clocks are set apart.
        qint64 earliest = 0;
        qint64 latest = 0;
        for (int c = 0; c < plan.connectionCount(); ++c) {
            earliest = std::min(earliest, plan.clockOffsetMs(c));
            latest = std::max(latest, plan.clockOffsetMs(c));
        }
        m_log->reset(plan.requests, plan.windowInNowUnits(), plan.limit, runTag, RequestLog::Retention::TotalsOnly,
                     plan.windowInNowUnits() + (latest - earliest) * plan.nowUnitsPerMs());
    }
    m_log->setUsers(plan.users);
    m_summary = BurstSummary();
    m_summary.limiter = plan.limiter->id;
    m_summary.key = m_key;
    m_summary.clock = clockName(plan.clock);
    m_summary.pacing = plan.pacing.toString();
    m_summary.requests = plan.requests;
    m_summary.limit = plan.limit;
    m_startMs = 0;
    m_connectionDown = false;

    m_run = std::make_unique<BurstRun>(endpoint, options, plan, m_key, runTag);
    m_run->start(this, "onRunEnded");
    m_collectTimer.start();
    emit started(m_key);
    return true;
}

void BurstEngine::stop()
{
    if (m_run)
        m_run->requestStop();
}

void BurstEngine::collect()
{
    if (!m_run)
        return;
    auto records = std::make_shared<std::vector<RequestRecord>>();
    m_run->takeRecords(records.get());
    if (m_startMs == 0)
        m_startMs = m_run->startWallMs();
    if (!records->empty()) {
        const int countedBefore = m_log->truthPrefix();
        m_log->add(*records);
        m_summary.takeCountsFrom(*m_log, false);
        m_summary.reconnects = m_run->reconnects();
        m_summary.keysLeft = QVector<LeftKey>(m_run->keysLeft().begin(), m_run->keysLeft().end());
        if (m_log->keepsRequests()) { // a log of totals only has nothing for views to draw
            RequestBatch batch = emptyBatch();
            auto counted = std::make_shared<std::vector<CountedRequest>>();
            counted->reserve(size_t(m_log->truthPrefix() - countedBefore));
            for (int i = countedBefore; i < m_log->truthPrefix(); ++i)
                counted->push_back(m_log->counted(i));
            batch.finished = std::move(records);
            batch.counted = std::move(counted);
            batch.summary = m_summary;
            emit batchAvailable(batch);
        }
        emit recordsAvailable(m_log->finished(), m_log->requests());
    }
    reportOutage();
}

void BurstEngine::reportOutage()
{
    const bool down = m_run->lanesDown() > 0;
    if (down == m_connectionDown)
        return;
    m_connectionDown = down;
    if (down) {
        m_reconnectsAtLoss = m_run->reconnects();
        emit connectionLost(m_run->outage());
    } else if (m_run->reconnects() > m_reconnectsAtLoss) {
        emit connectionRestored();
    }
}

void BurstEngine::onRunEnded()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_run || m_ending)
        return;
    m_ending = true;
    m_collectTimer.stop();
    collect();
    m_startMs = m_run->startWallMs();
    m_summary.serverVersion = m_run->serverVersion();
    m_summary.serverName = m_run->serverName();
    m_summary.serverOwnVersion = m_run->serverOwnVersion();
    m_summary.durationMs = m_run->durationMs();
    m_summary.takeCountsFrom(*m_log);
    m_summary.finalCount = m_run->finalCount();
    m_summary.membersAtEnd = m_run->membersAtEnd();
    for (int u = 0; u < m_summary.perUser.size(); ++u) {
        UserResult& user = m_summary.perUser[u];
        user.key = m_plan.userKey(m_key, u);
        user.node = m_run->userNodes().size() > size_t(u) ? m_run->userNodes()[size_t(u)] : QString();
        if (m_run->userFinalCounts().size() > size_t(u)) {
            user.finalCount = m_run->userFinalCounts()[size_t(u)];
            user.membersAtEnd = m_run->userMembers()[size_t(u)];
        }
    }
    m_summary.failure = m_run->failure();
    m_summary.stopped
        = m_run->stopRequested() && !m_summary.failure.isFailure() && m_log->finished() < m_log->requests();
    m_summary.reconnects = m_run->reconnects();
    m_summary.keysLeft = QVector<LeftKey>(m_run->keysLeft().begin(), m_run->keysLeft().end());
    m_summary.sandbox = m_run->sandboxing();
    m_summary.serverMemory = m_run->serverMemory();
    m_connectionDown = false;
    // The run's end is told in an event of its own: with the last batch and the summary above, what
    // the views do at the end (the recording, the figures) would not fit in one frame at
    // 1,000,000 requests. The burst counts as running until then.
    QMetaObject::invokeMethod(this, &BurstEngine::announceEnd, Qt::QueuedConnection);
}

void BurstEngine::announceEnd()
{
    if (!m_ending)
        return;
    m_ending = false;
    m_run.reset();
    if (m_summary.failure.isFailure())
        emit failed(m_summary.failure.message);
    emit finished(m_summary);
}

RequestBatch BurstEngine::emptyBatch() const
{
    RequestBatch batch;
    batch.runTag = m_runTag;
    batch.startWallMs = m_startMs;
    batch.nowUnitsPerMs = m_plan.nowUnitsPerMs();
    batch.limit = m_plan.limit;
    batch.requests = m_plan.requests;
    return batch;
}

RequestBatch BurstEngine::batchOfUser(int user) const
{
    RequestBatch batch = emptyBatch();
    batch.summary = m_summary;
    auto records = std::make_shared<std::vector<RequestRecord>>();
    auto counted = std::make_shared<std::vector<CountedRequest>>();
    const int users = std::max(1, m_log->users());
    for (int i = std::clamp(user, 0, users - 1); i < m_log->size(); i += users) {
        if (!m_log->isDone(i))
            continue;
        records->push_back(m_log->record(i));
        if (i < m_log->truthPrefix())
            counted->push_back(m_log->counted(i));
    }
    batch.finished = std::move(records);
    batch.counted = std::move(counted);
    return batch;
}

std::shared_ptr<const std::vector<qint64>> BurstEngine::recordedNows() const
{
    auto nows = std::make_shared<std::vector<qint64>>();
    if (!m_log->keepsRequests())
        return nows;
    nows->reserve(static_cast<size_t>(m_log->truthPrefix()));
    for (int i = 0; i < m_log->truthPrefix(); ++i)
        nows->push_back(m_log->now(i));
    return nows;
}
