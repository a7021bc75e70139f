#pragma once

#include "base/taskthread.h"
#include "ldbtranscript.h"
#include "limiters/limiterscript.h"
#include "redis/redisconnection.h"

#include <QObject>
#include <QTimer>

#include <chrono>
#include <memory>
#include <vector>

// Steps through a limiter script on the real server with Redis's own Lua debugger (LDB,
// SCRIPT DEBUG, Redis 3.2 and later): one request, line by line, with each redis.call and its
// reply, the local variables and the ZSET after every step.
//
// Lives in, and is used from, the owner's thread (the GUI); all Redis I/O runs on its own task
// thread over its own connection, opened anew for every session because the server closes the
// connection when a debugging session ends.
//
// A session never leaves the server held: stop() and the idle timeout send LDB's "abort" (closing
// the connection if that gets no answer); destroying the debugger closes the connection, after
// which Redis runs the rest of the script without stopping, and kills it at its busy-script
// threshold if it loops.
class ScriptDebugger : public QObject
{
    Q_OBJECT
public:
    enum class Mode {
        Forked, // SCRIPT DEBUG YES: a forked copy of the server runs the script; changes rolled back
        Sync, // SCRIPT DEBUG SYNC: the server itself runs it, serving no one else; changes kept
    };
    Q_ENUM(Mode)

    explicit ScriptDebugger(QObject* parent = nullptr);
    ~ScriptDebugger() override;

    void setServer(const RedisEndpoint& endpoint, const ConnectOptions& options = {});
    // A session left at a stop this long is ended (stop()); 30 s by default.
    void setIdleTimeout(std::chrono::milliseconds timeout);
    std::chrono::milliseconds idleTimeout() const;
    // How many ZSET members (by rank) each step shows; 100 by default.
    void setZsetRowLimit(int rows) { m_zsetRows = rows; }

    // Starts a session: SCRIPT DEBUG YES or SYNC, then EVAL with the script's source, KEYS = {key}
    // and ARGV = argv (EVALSHA cannot be debugged). Ends a running session first. Returns false
    // (and emits failed) when the request is refused at once: no server or script, a key LDB
    // cannot take (over 1024 bytes), or a key outside "zsetlab:" in Sync mode, which keeps writes.
    bool start(const LimiterScript& script, const QByteArray& key, const RedisArgs& argv, Mode mode = Mode::Forked);
    // The same with every key the script takes (KEYS); the first is the ZSET shown at each step.
    bool start(const LimiterScript& script, const RedisArgs& keys, const RedisArgs& argv, Mode mode = Mode::Forked);
    // Runs the current line and stops at the next one (LDB "step").
    void step();
    // Runs to the end and lists every call on the way: LDB logs calls only while it steps, so this
    // steps (a few thousand steps at most, then LDB "continue"; a redis.breakpoint() does not stop it).
    void continueToEnd();
    // Ends the session (LDB "abort"). In Sync mode the writes made so far stay: Redis has no rollback.
    void stop();

    bool isActive() const { return m_active; } // from start() until finished, aborted or failed
    bool isPaused() const { return m_active && !m_busy; } // stopped at a line, waiting for a command
    Mode mode() const { return m_mode; }

    static QString modeTitle(Mode mode); // "Forked (changes rolled back)"
    static QString modeDescription(Mode mode); // what the server does in that mode

signals:
    // The script stopped at step.line (the first stop comes right after start()).
    void stopped(const DebugStep& step);
    // The script ran to its end: scriptReply is its own reply, or the Lua error (last.line names the
    // failing line when Redis does). last.zset is read from the server after the session.
    void finished(const DebugStep& last, const RedisReply& scriptReply);
    // stop() or the idle timeout ended the session, and the server has left it. Not emitted for
    // a session that start() replaced.
    void aborted(const QString& reason);
    void failed(const QString& message);

private:
    struct Worker; // one session's connection, used on the task thread only
    struct Outcome; // what a job on the task thread came to
    // An LDB command on the task thread; empty: run to the end (runToEnd).
    void send(const QByteArray& command);
    void endSession(const QString& reason);
    void deliver(quint64 session, const Outcome& outcome);

    RedisEndpoint m_endpoint;
    ConnectOptions m_options;
    bool m_hasServer = false;
    int m_zsetRows = 100;
    Mode m_mode = Mode::Forked;
    bool m_active = false;
    bool m_busy = false;
    quint64 m_session = 0;
    QTimer m_idle;
    std::shared_ptr<Worker> m_worker;
    std::vector<std::weak_ptr<Worker>> m_retired; // earlier sessions that may still be ending
    TaskThread m_thread; // last: joined first on destruction
};
