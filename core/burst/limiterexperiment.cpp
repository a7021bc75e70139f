#include "limiterexperiment.h"

#include "redis/clustermap.h"
#include "redis/nodeconnections.h"

#include "limiters/zsetkeys.h"

#include <QDateTime>
#include <QMetaObject>

#include <future>

LimiterExperiment::LimiterExperiment(QObject* parent)
    : QObject(parent)
{
    for (int side : {Left, Right}) {
        m_engines[side] = std::make_unique<BurstEngine>();
        BurstEngine* engine = m_engines[side].get();
        connect(engine, &BurstEngine::started, this, [this, side] { emit runStarted(Side(side)); });
        connect(engine, &BurstEngine::finished, this,
                [this, side](const BurstSummary& summary) { onFinished(Side(side), summary); });
        connect(engine, &BurstEngine::failed, this, &LimiterExperiment::failed);
    }
}

LimiterExperiment::~LimiterExperiment()
{
    for (auto& engine : m_engines)
        engine->stop();
    const QVector<ShownKey> keys = shownKeys();
    for (auto& engine : m_engines)
        engine.reset(); // joins the burst threads
    deleteKeys(keys, true);
}

void LimiterExperiment::setServer(const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    // The keys shown live on the server they were made on: delete them there before moving on,
    // rather than leave them behind (and never by name on the next server).
    if (!(endpoint == m_endpoint) && !isRunning()) {
        deleteKeys(shownKeys(), false);
        m_fired = {false, false};
    }
    m_endpoint = endpoint;
    m_options = options;
}

LimiterRef LimiterExperiment::limiter(Side side) const
{
    return m_engines[side]->plan().limiter;
}

QVector<LimiterExperiment::ShownKey> LimiterExperiment::shownKeys(std::initializer_list<Side> sides) const
{
    QVector<ShownKey> keys;
    for (Side side : sides) {
        if (!m_fired[side] || !m_engines[side] || m_engines[side]->key().isEmpty())
            continue;
        keys += keysOf(m_engines[side]->plan(), m_engines[side]->key());
    }
    return keys;
}

QVector<LimiterExperiment::ShownKey> LimiterExperiment::keysOf(const BurstPlan& plan, const QByteArray& key)
{
    QVector<ShownKey> keys;
    for (int u = 0; u < plan.users; ++u) // each user's keys, or the run's own with one user
        keys.append({plan.userKey(key, u), plan.limiter->store});
    return keys;
}

void LimiterExperiment::deleteKeys(const QVector<ShownKey>& keys, bool wait)
{
    if (keys.isEmpty())
        return;
    auto done = std::make_shared<std::promise<void>>();
    auto finished = done->get_future();
    const RedisEndpoint endpoint = m_endpoint;
    ConnectOptions options = m_options;
    options.commandTimeout = std::min(options.commandTimeout, std::chrono::milliseconds(1000));
    m_thread.post([this, keys, endpoint, options, done, wait] {
        // Each run key on the node that serves it (its own on a cluster; one server otherwise).
        ClusterMap map;
        RedisConnection connection;
        for (const ShownKey& shown : keys) {
            QString why;
            if (reuseOrOpen(connection, endpoint, shown.key, options, &map, &why)) {
                shown.store.deleteKeys(connection, shown.key);
                connection.command({QByteArrayLiteral("DEL"), snapshotKeyOf(shown.key)});
            }
        }
        if (!wait)
            QMetaObject::invokeMethod(
                this, [this] { emit keysDeleted(); }, Qt::QueuedConnection);
        done->set_value();
    });
    if (wait) // on destruction only: a bounded wait (connect and command timeouts)
        finished.wait();
}

bool LimiterExperiment::reuseOrOpen(RedisConnection& connection, const RedisEndpoint& endpoint, const QByteArray& key,
                                    const ConnectOptions& options, ClusterMap* map, QString* why)
{
    // One connection for the keys of one node: a run's users share it on one server.
    if (connection.isOpen() && (map->isEmpty() || map->serves(key, connection.endpoint())))
        return true;
    connection.close();
    return openForKey(connection, endpoint, key, options, map, why);
}

bool LimiterExperiment::fire(const ExperimentPlan& plan)
{
    if (isRunning()) {
        m_error = tr("A burst is running: stop it first.");
        return false;
    }
    BurstPlan left = plan.leftPlan();
    left.keepKey = true;
    left.key.clear();
    m_error = left.validate();
    if (!m_error.isEmpty())
        return false;
    deleteKeys(shownKeys(), false);
    m_plan = plan;
    m_stopped = false;
    m_fork = false;
    m_fired = {true, false};
    if (!m_engines[Left]->start(m_endpoint, left, m_options)) {
        m_error = m_engines[Left]->planError();
        m_fired = {false, false};
        return false;
    }
    return true;
}

bool LimiterExperiment::fireFork(const BurstPlan& plan, const Preparation& prepare)
{
    if (isRunning()) {
        m_error = tr("A burst is running: stop it first.");
        return false;
    }
    m_error = plan.validate();
    if (!m_error.isEmpty())
        return false;
    // The run on the left keeps its keys (deleted with it later); a former what-if goes.
    deleteKeys(shownKeys({Right}), false);
    m_plan.burst = plan;
    m_plan.compare = true;
    m_plan.fix = plan.limiter;
    m_stopped = false;
    m_fork = true;
    m_fired[Right] = false;
    m_preparing = true;
    const RedisEndpoint endpoint = m_endpoint;
    const ConnectOptions options = m_options;
    m_thread.post([this, plan, prepare, endpoint, options] {
        NodeConnections nodes;
        QString error;
        const bool prepared = nodes.open(endpoint, options, &error) && (!prepare || prepare(nodes, &error));
        if (!prepared && nodes.allOpen()) { // what was filled goes: the fork's keys are new ones
            for (int u = 0; u < plan.users; ++u) {
                const QByteArray key = plan.userKey(plan.key, u);
                plan.limiter->store.deleteKeys(nodes.forKey(key), key);
            }
        }
        QMetaObject::invokeMethod(
            this, [this, plan, prepared, error] { startFork(plan, prepared, error); }, Qt::QueuedConnection);
    });
    return true;
}

void LimiterExperiment::startFork(const BurstPlan& plan, bool prepared, const QString& error)
{
    m_preparing = false;
    if (prepared && !m_stopped) {
        m_fired[Right] = true;
        if (m_engines[Right]->start(m_endpoint, plan, m_options))
            return;
        m_fired[Right] = false;
        emit failed(m_engines[Right]->planError());
    } else if (!prepared) {
        emit failed(error);
    }
    if (prepared) // filled, then not fired (stopped, or refused): its new keys go
        deleteKeys(keysOf(plan, plan.key), false);
    emit allFinished();
}

void LimiterExperiment::takeSnapshot(Side side)
{
    const QByteArray key = m_engines[side]->key();
    QList<QByteArray> keys;
    const BurstPlan& plan = m_engines[side]->plan();
    for (int u = 0; u < plan.users; ++u)
        keys << plan.userKey(key, u);
    const RedisEndpoint endpoint = m_endpoint;
    ConnectOptions options = m_options;
    options.commandTimeout = std::min(options.commandTimeout, std::chrono::milliseconds(2000));
    m_thread.post([this, side, key, keys, endpoint, options] {
        // COPY (Redis 6.2+) keeps the members and scores, and the TTL, which PERSIST then drops:
        // the copy stays until reset, the next burst or the end of the program. With several
        // users, one copy per user's key.
        RedisConnection connection;
        ClusterMap map;
        const qint64 takenAt = QDateTime::currentMSecsSinceEpoch();
        bool copiedAny = false;
        for (const QByteArray& userKey : keys) {
            const QByteArray copy = snapshotKeyOf(userKey);
            QString why;
            if (!ZsetKeys::isOwnKey(copy) || !reuseOrOpen(connection, endpoint, userKey, options, &map, &why))
                continue;
            const RedisReply copied = connection.command({"COPY", userKey, copy, "REPLACE"});
            if (copied.type() != RedisReply::Type::Integer || copied.toInteger() != 1)
                continue; // an older server, or the key already gone: the table shows the live key
            connection.command({"PERSIST", copy});
            copiedAny = true;
        }
        if (!copiedAny)
            return;
        const QByteArray snapshot = snapshotKeyOf(key);
        QMetaObject::invokeMethod(
            this, [this, side, snapshot, takenAt] { emit snapshotTaken(side, snapshot, takenAt); },
            Qt::QueuedConnection);
    });
}

void LimiterExperiment::onFinished(Side side, const BurstSummary& summary)
{
    if (summary.sent > 0)
        takeSnapshot(side);
    emit runFinished(side, summary);
    if (side == Left && m_plan.compare && !m_stopped && !summary.failure.isFailure() && summary.sent > 0) {
        // The same timestamps, replayed at the fix.
        BurstPlan right = m_engines[Left]->plan();
        right.limiter = m_plan.fix;
        right.replayNows = m_engines[Left]->recordedNows();
        right.requests = static_cast<int>(right.replayNows->size());
        m_fired[Right] = true;
        if (m_engines[Right]->start(m_endpoint, right, m_options))
            return;
        m_fired[Right] = false;
        emit failed(m_engines[Right]->planError());
    }
    emit allFinished();
}

void LimiterExperiment::stop()
{
    m_stopped = true;
    for (auto& engine : m_engines)
        engine->stop();
}

void LimiterExperiment::reset()
{
    stop();
    deleteKeys(shownKeys(), false);
    m_fired = {false, false};
    m_plan.compare = false;
}

bool LimiterExperiment::isRunning() const
{
    return m_preparing || m_engines[Left]->isRunning() || m_engines[Right]->isRunning();
}
