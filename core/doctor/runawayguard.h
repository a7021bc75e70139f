#pragma once

#include "redis/redisconnection.h"

#include <QString>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

// Watches a blocking script call from a second connection and ends a script that runs too long,
// so that no probe leaves a server busy. When a call has not returned within the limit, it asks
// the server (PING) whether a script is running; once Redis answers BUSY and the call is still
// waiting (a call that arrived behind another client's script gets BUSY itself, and that script
// is left alone), it sends SCRIPT KILL. A script that already wrote cannot be killed
// (UNKILLABLE): on a server zsetlab started, the guard stops it with SHUTDOWN NOSAVE; on any
// other it never does, and says what the operator can do.
class RunawayGuard
{
public:
    enum class Outcome {
        None, // every call returned by itself
        Killed, // SCRIPT KILL ended the script; the server answers again
        Stopped, // UNKILLABLE on zsetlab's own server: it was shut down
        Unkillable, // UNKILLABLE on a server zsetlab did not start: it stays busy
        NoAnswer, // PING or SCRIPT KILL got no answer in time, or an error (NOPERM)
    };

    // A server busy with a script answers no client before its busy-reply-threshold (5 s unless
    // configured otherwise): the guard's PING waits that long beyond the command timeout.
    static constexpr std::chrono::milliseconds busyReplyThreshold {5000};

    // ownServer: zsetlab started this server and may stop it. readTimeout: the command timeout of
    // every other read (--timeout): the guard waits that long, plus busyReplyThreshold, for the
    // server's answer to PING or SCRIPT KILL, and gives it back to the call's connection at
    // disarm().
    RunawayGuard(std::chrono::milliseconds limit, bool ownServer,
                 std::chrono::milliseconds readTimeout = std::chrono::milliseconds(25000));
    ~RunawayGuard();
    RunawayGuard(const RunawayGuard&) = delete;
    RunawayGuard& operator=(const RunawayGuard&) = delete;

    // Opens the second connection and starts watching; false with *error when it cannot connect.
    bool start(const RedisEndpoint& endpoint, const ConnectOptions& options, QString* error);
    // Before and after each call on `connection` (the guard may interrupt() it from its thread).
    // Meanwhile the connection waits up to callTimeout(); after it, readTimeout again.
    void arm(RedisConnection* connection);
    void disarm();

    std::chrono::milliseconds limit() const { return m_limit; }
    Outcome outcome() const;
    // What happened, for people, when outcome() is not None.
    QString message() const;
    // How long a call may block in all, so that the caller's own timeout never fires first.
    std::chrono::milliseconds callTimeout() const;

private:
    void watch();
    void handleOverrun(std::unique_lock<std::mutex>& lock);
    RedisReply askUnlocked(std::unique_lock<std::mutex>& lock, const RedisArgs& command);

    const std::chrono::milliseconds m_limit;
    const bool m_ownServer;
    const std::chrono::milliseconds m_readTimeout;
    const std::chrono::milliseconds m_answerWait;
    RedisConnection* m_armed = nullptr; // the caller's: its timeout is given back at disarm()
    RedisEndpoint m_endpoint;
    RedisConnection m_killer; // used only by the guard's thread once started
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    RedisConnection* m_call = nullptr; // armed: the connection a call blocks on
    std::chrono::steady_clock::time_point m_armedAt;
    quint64 m_generation = 0; // one per arm(), so that a late wake-up does not act on the next call
    bool m_acting = false; // the guard is talking to the server about the current call
    bool m_stopping = false;
    Outcome m_outcome = Outcome::None;
    bool m_function = false; // FCALL was running: ended with FUNCTION KILL
    QString m_detail; // the server's words
};
