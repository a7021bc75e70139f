#pragma once

#include "burstplan.h"
#include "redis/redisconnection.h"
#include "results/burstsummary.h"
#include "results/requestbatch.h"
#include "results/requestlog.h"

#include <QObject>
#include <QTimer>

#include <memory>

class BurstRun;

// Fires the requests of a BurstPlan at a Redis server from worker threads (one hiredis
// connection per thread) and collects what the limiter answered into a RequestLog.
// The caller's thread is never blocked: start() returns at once, results arrive in batches
// (batchAvailable with the records as values, at most every ~30 ms), then finished() once with
// the summary.
// Lives in, and is used from, one thread with an event loop (the GUI thread, the CLI's main).
class BurstEngine : public QObject
{
    Q_OBJECT
public:
    explicit BurstEngine(QObject* parent = nullptr);
    ~BurstEngine() override;

    // False, with planError(), when the plan is invalid or a burst is running.
    bool start(const RedisEndpoint& endpoint, const BurstPlan& plan, const ConnectOptions& options = {});
    // Asks the burst to end: no new requests; answers already on their way are kept. Within
    // 200 ms, even when the server does not answer.
    void stop();
    bool isRunning() const { return m_run != nullptr; }
    QString planError() const { return m_planError; }

    const BurstPlan& plan() const { return m_plan; }
    const RequestLog& log() const { return *m_log; }
    // The same log, to keep after the run: the next start() begins a new one instead of
    // clearing this.
    std::shared_ptr<const RequestLog> sharedLog() const { return m_log; }
    QByteArray key() const { return m_key; }
    // The burst's start on the wall clock, in ms: timelines measure `now` from here.
    qint64 startMs() const { return m_startMs; }
    // The `now` of every request, in order: a replay for compare mode (finished requests only;
    // none when the plan keeps no log).
    std::shared_ptr<const std::vector<qint64>> recordedNows() const;
    // The finished requests of one user so far (plan().users > 1), as one batch: a view that
    // shows one user at a time starts over from it, then filters the batches that follow.
    RequestBatch batchOfUser(int user) const;
    // The numbers so far; final after finished().
    BurstSummary summary() const { return m_summary; }

signals:
    void started(const QByteArray& key);
    // Finished requests, and the requests whose truth became known, since the last batch.
    void batchAvailable(const RequestBatch& batch);
    void recordsAvailable(int finished, int total);
    void failed(const QString& message);
    void finished(const BurstSummary& summary);
    // The server dropped the run's connection and the run is making it again (for at most
    // plan().reconnectForMs): emitted within ~30 ms of the loss, then connectionRestored() when
    // the run goes on, or failed() when the server did not come back.
    void connectionLost(const QString& message);
    void connectionRestored();

private:
    void collect();
    // A batch of this run with no request in it yet.
    RequestBatch emptyBatch() const;
    void reportOutage();
    Q_INVOKABLE void onRunEnded(); // queued by the run's coordinator thread, by name
    void announceEnd();

    BurstPlan m_plan;
    std::shared_ptr<RequestLog> m_log = std::make_shared<RequestLog>();
    QByteArray m_runTag;
    BurstSummary m_summary;
    QByteArray m_key;
    qint64 m_startMs = 0;
    bool m_connectionDown = false;
    bool m_ending = false; // the run has ended; finished() is on its way
    int m_reconnectsAtLoss = 0;
    QString m_planError;
    QTimer m_collectTimer;
    std::unique_ptr<BurstRun> m_run;
};
