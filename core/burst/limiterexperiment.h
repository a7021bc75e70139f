#pragma once

#include "base/taskthread.h"
#include "burstengine.h"
#include "experimentplan.h"

#include <QObject>

class ClusterMap;
class NodeConnections;

#include <array>
#include <functional>
#include <initializer_list>
#include <memory>

// What the window fires: one burst, or in compare mode the same timestamps twice, first at the
// `now` limiter (left), then replayed at a fix (right), each on its own key. Keys are kept while
// shown and deleted (through each side's limiter) on reset(), on the next fire() and on
// destruction.
class LimiterExperiment : public QObject
{
    Q_OBJECT
public:
    // The copy of a run's key kept when the run ended (with several users, of each user's key).
    static QByteArray snapshotKeyOf(const QByteArray& key) { return key + ":snapshot"; }
    enum Side { Left = 0, Right = 1 };
    Q_ENUM(Side)

    explicit LimiterExperiment(QObject* parent = nullptr);
    ~LimiterExperiment() override;

    void setServer(const RedisEndpoint& endpoint, const ConnectOptions& options);
    // False, with error(), when the plan is invalid or a burst is running.
    bool fire(const ExperimentPlan& plan);
    // Run on the experiment's task thread with connections to the server before a fork fires: fills
    // the fork's keys. False with *error: nothing is fired.
    using Preparation = std::function<bool(NodeConnections& nodes, QString* error)>;
    // A what-if beside a recorded run: `plan` alone on the right side, after `prepare`; the left
    // side keeps what it shows. False with error() when nothing is fired; a failing preparation
    // ends in failed() and allFinished(), with the keys it filled deleted.
    bool fireFork(const BurstPlan& plan, const Preparation& prepare);
    bool isFork() const { return m_fork; }
    void stop();
    // Forgets the runs and deletes their keys (on a task thread).
    void reset();

    bool isRunning() const;
    bool isCompare() const { return m_plan.compare; }
    bool hasRun(Side side) const { return m_fired[side]; }
    // What the last fire() fires, and what each side ran (valid once it started).
    const ExperimentPlan& plan() const { return m_plan; }
    LimiterRef limiter(Side side) const;
    BurstEngine& engine(Side side) { return *m_engines[side]; }
    const BurstEngine& engine(Side side) const { return *m_engines[side]; }
    QString error() const { return m_error; }

signals:
    void runStarted(LimiterExperiment::Side side);
    void runFinished(LimiterExperiment::Side side, const BurstSummary& summary);
    void allFinished();
    void failed(const QString& message);
    void keysDeleted();
    // A copy of a side's ZSET as it was when its run ended, kept while shown (the limiter's own
    // key expires or is trimmed): what the ZSET table shows after the run.
    void snapshotTaken(LimiterExperiment::Side side, const QByteArray& snapshotKey, qint64 takenAtMs);

private:
    void onFinished(Side side, const BurstSummary& summary);
    void startFork(const BurstPlan& plan, bool prepared, const QString& error);
    struct ShownKey
    {
        QByteArray key;
        LimiterStore store;
    };
    void takeSnapshot(Side side);
    // `connection` when it is open on the node that serves `key`, else opened there anew.
    static bool reuseOrOpen(RedisConnection& connection, const RedisEndpoint& endpoint, const QByteArray& key,
                            const ConnectOptions& options, ClusterMap* map, QString* why);
    void deleteKeys(const QVector<ShownKey>& keys, bool wait);
    QVector<ShownKey> shownKeys(std::initializer_list<Side> sides = {Left, Right}) const;
    // Each user's key of a run on `key` (the run's own with one user).
    static QVector<ShownKey> keysOf(const BurstPlan& plan, const QByteArray& key);

    std::array<std::unique_ptr<BurstEngine>, 2> m_engines;
    std::array<bool, 2> m_fired {false, false};
    RedisEndpoint m_endpoint;
    ConnectOptions m_options;
    ExperimentPlan m_plan;
    bool m_stopped = false;
    bool m_fork = false;
    bool m_preparing = false; // a fork's keys are being filled
    QString m_error;
    TaskThread m_thread;
};
