#pragma once

#include "burst/limiterexperiment.h"
#include "limiters/calltemplate.h"
#include "replay/recording.h"
#include "results/burstsummary.h"

#include <QObject>

#include <array>
#include <memory>
#include <optional>

class RunModel;

// What the ZSET table of a run reads at a moment: the state at the cursor of a recorded run, the
// live key while the run goes, or the copy taken when it ended (the limiter's own key expires or
// is trimmed after).
struct ZsetSource
{
    enum class Kind { None, Replay, LiveKey, Snapshot };
    Kind kind = Kind::None;
    QString limiter; // what the run ran, as its summary names it
    QByteArray key; // the key the limiter wrote (of the shown user)
    // Replay: the state after the cursor's request.
    ReplayState state;
    // Snapshot: the copy, when it was taken, how many requests got a member of their own (-1:
    // unknown) and the run's window.
    QByteArray snapshotKey;
    qint64 takenAtMs = 0;
    qint64 stored = -1;
    qint64 windowMs = 0;
};

// The life of the window's runs, without a window: it listens to the experiment, owns the two run
// models every view draws (left: the run, right: compare mode's fix or a what-if), gives each run
// its shape when it starts and its recording when it ends, follows a change of the user shown and
// says what the ZSET table reads. The window, the exports and the lesson read the runs here, never
// the engines.
class RunController : public QObject
{
    Q_OBJECT
public:
    using Side = LimiterExperiment::Side;
    static constexpr Side Left = LimiterExperiment::Left;
    static constexpr Side Right = LimiterExperiment::Right;

    explicit RunController(LimiterExperiment* experiment, QObject* parent = nullptr);
    ~RunController() override;

    LimiterExperiment* experiment() const { return m_experiment; }
    RunModel* run(Side side) const { return m_runs[side]; }

    // What each side ran, once it started (hasRun), as its engine tells it.
    bool hasRun(Side side) const { return m_experiment->hasRun(side); }
    bool isRunning() const { return m_experiment->isRunning(); }
    bool isCompare() const { return m_experiment->isCompare(); }
    BurstSummary summary(Side side) const;
    const BurstPlan& plan(Side side) const;
    QByteArray key(Side side) const;
    // Every request of the side's run, in order (a log of millions is streamed, not copied).
    const RequestLog& log(Side side) const;

    // A what-if beside a recorded run: the right side fires the rest of `recording` from request
    // `from` (0-based) on. Its timeline starts at the recording's origin and its recording holds
    // the members the keys held before (ReplayFork::seededMembers).
    void setFork(int from, std::shared_ptr<const Recording> recording);
    void clearFork();
    bool hasFork() const { return m_fork.has_value(); }
    int forkFrom() const { return m_fork ? m_fork->from : -1; }
    std::shared_ptr<const Recording> forkedRecording() const;

    // A recorded run no engine ran here (a replay file, a scenario's run) on the left.
    void showRecording(std::shared_ptr<const Recording> recording);
    // The user a side shows (0 .. users-1): the views start over from that user's requests so far.
    void showUser(Side side, int user);
    // What the ZSET table reads for a side now; zsetSourceChanged() says when it changes.
    ZsetSource zsetSource(Side side) const;

    // "The next request" of the left run for the debugger: the last request's `now` again (the
    // same millisecond), the run's key and plan; before any run, `fallback` on a fresh key at
    // the current time.
    struct NextRequest
    {
        BurstPlan plan;
        CallValues values;
        qint64 now = 0; // in the plan's clock units
    };
    NextRequest nextRequest(const BurstPlan& fallback) const;

    // Forgets the runs: their keys are deleted (the experiment's task thread), the models cleared.
    void reset();

signals:
    // A side's run started (its model was given its shape) or ended (its recording is set).
    void runStarted(RunController::Side side);
    void runFinished(RunController::Side side, const BurstSummary& summary);
    void allFinished();
    // The copy of the side's key was taken as its run ended: the ZSET table reads it from now on.
    void snapshotTaken(RunController::Side side);
    // A side's connection dropped (said at once, not at the end of its reconnect attempts), or
    // came back.
    void connectionLost(const QString& message);
    void connectionRestored();

private:
    void onRunStarted(Side side);
    void onRunFinished(Side side, const BurstSummary& summary);
    void onSnapshotTaken(Side side, const QByteArray& key, qint64 takenAtMs);
    std::shared_ptr<const Recording> recordingOf(Side side, const BurstSummary& summary);

    struct Fork
    {
        int from = 0;
        std::shared_ptr<const Recording> recording;
    };
    LimiterExperiment* m_experiment;
    std::array<RunModel*, 2> m_runs {};
    // Per side: when the copy of its key was taken (LimiterExperiment::snapshotKeyOf).
    std::array<std::optional<qint64>, 2> m_snapshots;
    std::array<ZsetHistoryBuilder, 2> m_histories; // each side's, as its run goes on
    std::optional<Fork> m_fork;
    bool m_leftIsOpenedRecording = false;
};
