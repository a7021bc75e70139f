#pragma once

#include "burstengine.h"
#include "taskthread.h"

#include <QObject>

#include <array>
#include <memory>

// What the window fires: one burst, or in compare mode the same timestamps twice, first at the
// `now` strategy (left), then replayed at a unique strategy (right), each on its own key.
// Keys are kept while shown and deleted on reset(), on the next fire() and on destruction.
class LimiterExperiment : public QObject
{
    Q_OBJECT
public:
    enum Side { Left = 0, Right = 1 };
    Q_ENUM(Side)

    explicit LimiterExperiment(QObject* parent = nullptr);
    ~LimiterExperiment() override;

    void setServer(const RedisEndpoint& endpoint, const ConnectOptions& options);
    // compare: the left side runs `plan` with the `now` strategy, the right side then replays its
    // timestamps with `uniqueStrategy`. False, with error(), when the plan is invalid.
    bool fire(const BurstPlan& plan, bool compare, MemberStrategy uniqueStrategy);
    void stop();
    // Forgets the runs and deletes their keys (on a task thread).
    void reset();

    bool isRunning() const;
    bool isCompare() const { return m_compare; }
    bool hasRun(Side side) const { return m_fired[side]; }
    BurstEngine& engine(Side side) { return *m_engines[side]; }
    const BurstEngine& engine(Side side) const { return *m_engines[side]; }
    QString error() const { return m_error; }

signals:
    void runStarted(LimiterExperiment::Side side);
    void recordsAvailable(LimiterExperiment::Side side);
    void runFinished(LimiterExperiment::Side side, const BurstSummary& summary);
    void allFinished();
    void failed(const QString& message);
    void keysDeleted();

private:
    void onFinished(Side side, const BurstSummary& summary);
    void deleteKeys(const QList<QByteArray>& keys, bool wait);
    QList<QByteArray> shownKeys() const;

    std::array<std::unique_ptr<BurstEngine>, 2> m_engines;
    std::array<bool, 2> m_fired {false, false};
    RedisEndpoint m_endpoint;
    ConnectOptions m_options;
    BurstPlan m_plan;
    MemberStrategy m_uniqueStrategy = MemberStrategy::RequestId;
    bool m_compare = false;
    bool m_stopped = false;
    QString m_error;
    TaskThread m_thread;
};
