#pragma once

#include "results/burstsummary.h"
#include "results/memberwrites.h"
#include "results/requestbatch.h"

#include <QObject>
#include <QString>

#include <memory>

class Recording;
class RunCursor;

// One run as every view of it shows it: what it is (title, requests, limit, users, whose clock),
// its writes and figures so far, and its recording with a cursor. The timeline, the counts, the
// figures and the ZSET table all read it; none keeps the run itself. A live run is the cursor
// following the end: the recording comes when the run ends, its cursor at the last request, and
// moving the cursor then shows the state at that request.
class RunModel : public QObject
{
    Q_OBJECT
public:
    struct Shape
    {
        int requests = 0;
        qint64 limit = 0; // 0 or less: not known (a watched app's limit is an argument of its calls)
        qint64 originMs = -1; // the wall-clock ms drawn as 0 (-1: the run's own start)
        int users = 1;
        bool serverClock = false; // the x axis is Redis's clock (a watch), not the run's `now`
    };

    explicit RunModel(QObject* parent = nullptr);
    ~RunModel() override;

    void setTitle(const QString& title);
    const QString& title() const { return m_title; }

    // A run starts: everything of the one before goes.
    void start(const Shape& shape);
    // The engine's requests so far (the whole run's; the writes keep the shown user's).
    void addBatch(const RequestBatch& batch);
    void finish(const BurstSummary& summary);
    // No run.
    void clear();
    // The user shown (0 .. users-1), -1 when the run has one user. Choosing another starts the
    // views over from that user's requests so far, `soFar`.
    int user() const { return m_shape.users > 1 ? m_user : -1; }
    void showUser(int user, const RequestBatch& soFar);

    const Shape& shape() const { return m_shape; }
    bool isLive() const { return m_live; }
    const MemberWrites& writes() const { return m_writes; }
    // The whole run's figures: so far while it runs, its summary once it ended.
    const BurstSummary& figures() const { return m_figures; }

    // The run, recorded: the cursor starts at its last request. Null: none.
    void setRecording(std::shared_ptr<const Recording> recording);
    // A recorded run no engine ran here (an opened replay file): started, drawn and ended at once.
    void showRecording(std::shared_ptr<const Recording> recording);
    const std::shared_ptr<const Recording>& recording() const;
    bool hasRecording() const;
    RunCursor* cursor() const { return m_cursor; }
    // True once the cursor was moved: the views show the state at it, not the run's end.
    bool isReplaying() const { return m_replaying; }
    // The figures through the cursor's request (the per-user figures stay the run's).
    BurstSummary figuresAtCursor() const;

signals:
    void titleChanged(const QString& title);
    // A run (or a user of it) starts over: the views clear and wait for batches.
    void started();
    // Requests to draw: the shown user's part of the batch.
    void batchAdded(const RequestBatch& shown);
    void figuresChanged();
    void finished();
    void userChanged(int user);
    void cleared();
    void recordingChanged(bool any);
    // The cursor moved to request (0-based) by the user or by playing.
    void cursorMoved(int request);

private:
    void draw(const RequestBatch& batch);

    QString m_title;
    Shape m_shape;
    int m_user = 0;
    bool m_live = false;
    MemberWrites m_writes;
    BurstSummary m_figures;
    RunCursor* m_cursor = nullptr;
    bool m_replaying = false;
    bool m_settingRecording = false;
};
