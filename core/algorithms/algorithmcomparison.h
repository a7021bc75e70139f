#pragma once

#include "comparisonresult.h"
#include "redis/redisconnection.h"

#include <QJsonObject>
#include <QMetaType>
#include <QObject>
#include <QStringList>
#include <QVector>

#include <atomic>
#include <thread>
#include <vector>

// Fires the same timestamps at each chosen algorithm on a real server and measures each (see
// ComparisonPlan and AlgorithmTally). Asynchronous: start() returns at once, the work runs on a
// thread of its own with one connection, algorithmFinished() follows each algorithm and
// finished() comes once at the end (also after stop() or a failure, with what was measured).
// Lives in, and is used from, one thread with an event loop.
class AlgorithmComparison : public QObject
{
    Q_OBJECT
public:
    explicit AlgorithmComparison(QObject* parent = nullptr);
    ~AlgorithmComparison() override; // stops and joins

    // False, with planError(), when the plan is invalid or a comparison is running.
    bool start(const RedisEndpoint& endpoint, const ComparisonPlan& plan, const ConnectOptions& options = {});
    // Ends after the calls in flight; the algorithm cut short is left out.
    void stop();
    bool isRunning() const { return m_running; }
    QString planError() const { return m_planError; }
    // Final after finished().
    const ComparisonResult& result() const { return m_result; }

signals:
    void algorithmStarted(int index, const QString& id);
    void progress(int index, int answered, int total);
    void algorithmFinished(const AlgorithmTally& tally);
    void finished(const ComparisonResult& result);

private:
    class Run; // one comparison, step by step (algorithmcomparison.cpp)
    void work(RedisEndpoint endpoint, ConnectOptions options, ComparisonPlan plan);

    ComparisonResult m_result;
    QString m_planError;
    bool m_running = false;
    std::atomic<bool> m_stop {false};
    std::thread m_thread;
};

Q_DECLARE_METATYPE(AlgorithmTally)
Q_DECLARE_METATYPE(ComparisonResult)
