#include "runcontroller.h"

#include "limiters/zsetkeys.h"
#include "replay/replayfork.h"
#include "runcursor.h"
#include "runmodel.h"

#include <QDateTime>

#include <algorithm>

RunController::RunController(LimiterExperiment* experiment, QObject* parent)
    : QObject(parent)
    , m_experiment(experiment)
{
    for (RunModel*& run : m_runs)
        run = new RunModel(this);
    connect(m_experiment, &LimiterExperiment::runStarted, this, &RunController::onRunStarted);
    connect(m_experiment, &LimiterExperiment::runFinished, this, &RunController::onRunFinished);
    connect(m_experiment, &LimiterExperiment::allFinished, this, &RunController::allFinished);
    connect(m_experiment, &LimiterExperiment::snapshotTaken, this, &RunController::onSnapshotTaken);
    for (const Side side : {Left, Right}) {
        // The engine's batches go to the side's model as they come, with no stop on the way.
        BurstEngine& engine = m_experiment->engine(side);
        connect(&engine, &BurstEngine::batchAvailable, m_runs[side], &RunModel::addBatch);
        // The recording's history follows the log, so that the run's end has little left to build.
        connect(&engine, &BurstEngine::batchAvailable, this,
                [this, side, &engine] { m_histories[side].advance(engine.log()); });
        connect(&engine, &BurstEngine::connectionLost, this, &RunController::connectionLost);
        connect(&engine, &BurstEngine::connectionRestored, this, &RunController::connectionRestored);
    }
}

RunController::~RunController() = default;

BurstSummary RunController::summary(Side side) const
{
    return m_experiment->engine(side).summary();
}

const BurstPlan& RunController::plan(Side side) const
{
    return m_experiment->engine(side).plan();
}

QByteArray RunController::key(Side side) const
{
    return m_experiment->engine(side).key();
}

const RequestLog& RunController::log(Side side) const
{
    return m_experiment->engine(side).log();
}

void RunController::setFork(int from, std::shared_ptr<const Recording> recording)
{
    m_fork = Fork {from, std::move(recording)};
}

void RunController::clearFork()
{
    m_fork.reset();
}

std::shared_ptr<const Recording> RunController::forkedRecording() const
{
    return m_fork ? m_fork->recording : nullptr;
}

void RunController::showRecording(std::shared_ptr<const Recording> recording)
{
    m_runs[Left]->showRecording(std::move(recording));
    m_leftIsOpenedRecording = true;
}

void RunController::showUser(Side side, int user)
{
    m_runs[side]->showUser(user, m_experiment->engine(side).batchOfUser(user));
}

ZsetSource RunController::zsetSource(Side side) const
{
    ZsetSource source;
    const RunModel* run = m_runs[side];
    if (run->isReplaying() || (side == Left && m_leftIsOpenedRecording)) {
        const RunCursor* cursor = run->cursor();
        if (cursor->isEmpty())
            return source;
        source.kind = ZsetSource::Kind::Replay;
        source.state = cursor->recording()->stateAt(cursor->position(), true);
        source.key = source.state.key;
        source.limiter = cursor->recording()->info().limiter;
        return source;
    }
    const BurstEngine& engine = m_experiment->engine(side);
    const BurstSummary summary = engine.summary();
    // With several users, the key of the user the run view shows, and that user's figures.
    const int user = run->user();
    source.key = engine.plan().userKey(engine.key(), std::max(user, 0));
    source.limiter = summary.limiter;
    if (!m_snapshots[side] || engine.isRunning()) {
        source.kind = ZsetSource::Kind::LiveKey;
        return source;
    }
    source.kind = ZsetSource::Kind::Snapshot;
    source.snapshotKey = LimiterExperiment::snapshotKeyOf(source.key);
    source.takenAtMs = *m_snapshots[side];
    const qint64 stored = user >= 0 && user < summary.perUser.size() ? summary.perUser[user].stored : summary.stored;
    source.stored = summary.addedKnown() ? stored : -1;
    source.windowMs = engine.plan().windowMs;
    return source;
}

RunController::NextRequest RunController::nextRequest(const BurstPlan& fallback) const
{
    const bool ran = hasRun(Left);
    NextRequest next;
    next.plan = ran ? plan(Left) : fallback;
    const RequestLog& runLog = log(Left);
    next.now = ran && runLog.truthPrefix() > 0 ? runLog.now(runLog.truthPrefix() - 1)
                                               : QDateTime::currentMSecsSinceEpoch() * next.plan.nowUnitsPerMs();
    CallValues& values = next.values;
    // The run's own key, or before any run a fresh one: a fixed name may hold data zsetlab did not
    // create, and the debugger keeps the script's writes.
    values.key = ran ? key(Left) : ZsetKeys::freshRunKey();
    values.unitsPerMs = next.plan.nowUnitsPerMs();
    values.nowMicros = next.now * (1000 / values.unitsPerMs);
    values.windowMs = next.plan.windowMs;
    values.limit = next.plan.limit;
    values.seq = ran ? runLog.size() + 1 : 1;
    values.uuid = QByteArrayLiteral("next-request");
    return next;
}

void RunController::reset()
{
    m_experiment->reset();
    m_fork.reset();
    m_snapshots = {};
    m_leftIsOpenedRecording = false;
    for (RunModel* run : m_runs)
        run->clear();
    for (ZsetHistoryBuilder& history : m_histories)
        history.reset();
}

void RunController::onRunStarted(Side side)
{
    const BurstEngine& engine = m_experiment->engine(side);
    if (side == Left) {
        m_fork.reset();
        m_leftIsOpenedRecording = false;
        m_runs[Right]->clear();
        m_snapshots[Right].reset();
    }
    m_snapshots[side].reset();
    m_histories[side].reset();
    RunModel::Shape shape;
    shape.requests = engine.plan().requests;
    shape.limit = engine.plan().limit;
    shape.users = engine.plan().users;
    // The right side replays the left side's timestamps (compare mode's, a what-if's): the same
    // origin lines them up.
    if (side == Right)
        shape.originMs = m_fork ? m_fork->recording->info().startWallMs : m_experiment->engine(Left).startMs();
    m_runs[side]->start(shape);
    emit runStarted(side);
}

void RunController::onRunFinished(Side side, const BurstSummary& summary)
{
    m_runs[side]->finish(summary);
    // The run, request by request, to step through and save.
    if (std::shared_ptr<const Recording> recording = recordingOf(side, summary))
        m_runs[side]->setRecording(std::move(recording));
    emit runFinished(side, summary);
}

std::shared_ptr<const Recording> RunController::recordingOf(Side side, const BurstSummary& summary)
{
    const BurstEngine& engine = m_experiment->engine(side);
    if (!engine.log().keepsRequests() || summary.sent <= 0) {
        m_histories[side].reset();
        return nullptr;
    }
    const QString source = m_fork   ? QStringLiteral("fork")
        : m_experiment->isCompare() ? QStringLiteral("compare")
                                    : QStringLiteral("burst");
    auto recording = std::make_shared<Recording>(Recording::fromEngine(engine, source, &m_histories[side]));
    if (m_fork && side == Right) // it went on from the run's ZSET then
        recording->setSeeded(ReplayFork::seededMembers(*m_fork->recording, m_fork->from, engine.plan()));
    return recording;
}

void RunController::onSnapshotTaken(Side side, const QByteArray& key, qint64 takenAtMs)
{
    const BurstEngine& engine = m_experiment->engine(side);
    if (!m_experiment->hasRun(side) || !key.startsWith(engine.key()))
        return; // reset or fired again since
    m_snapshots[side] = takenAtMs;
    if (!engine.isRunning())
        emit snapshotTaken(side);
}
