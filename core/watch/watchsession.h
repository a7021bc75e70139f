#pragma once

// WatchSession: a watch of an app's limiter keys through MONITOR, with how it ended.

#include "keypattern.h"
#include "redis/redisconnection.h"
#include "watchreport.h"
#include "watchshadow.h"

#include <QObject>

#include <atomic>
#include <chrono>
#include <thread>

// How a watch ended, with what it saw until then.
struct WatchResult
{
    enum class End {
        Duration, // the time was up
        Stopped, // stop() (Esc, Ctrl+C, SIGTERM)
        Failed, // could not connect or MONITOR, or the server went away: see error
    };
    End end = End::Duration;
    RedisError error;
    QString serverVersion; // INFO's redis_version (Valkey: the Redis version it is compatible with)
    ServerInfo server; // the server watched (of a cluster, the node given)
    qint64 keysRead = 0; // keys first seen mid-stream and read once with ZRANGE
    qint64 keysTooLarge = 0; // ... left unknown, as they held more than the read bound
    qint64 keysNotRead = 0; // ... left unknown: the time was up (or stop() came), or the reading connection failed
    // Lines that came when the time was up or stop() had come, counted, not followed (also in
    // snapshot.droppedLines), and lines too long to be a limiter's command (maxLineBytes).
    qint64 linesBehind = 0;
    qint64 oversizeLines = 0;
    WatchSnapshot snapshot; // the figures at the end (records: those since the last snapshot)
};
Q_DECLARE_METATYPE(WatchResult)

// zsetlab watch: one MONITOR connection to a server, read on a thread of its own, each line
// replayed by a WatchShadow. Never writes: besides MONITOR it sends only ECHO, SELECT, ZCARD and
// ZRANGE, on a second connection, to read once a key it first sees mid-stream, and on Valkey 8
// SCRIPT SHOW, to read once a script an app calls by EVALSHA whose body the stream never showed.
//
// Snapshots come as values, every snapshotInterval, to the thread that owns the session; then
// finished() once. MONITOR costs the server much of its throughput: the duration is bounded.
class WatchSession : public QObject
{
    Q_OBJECT
public:
    struct Settings
    {
        RedisEndpoint endpoint;
        ConnectOptions options;
        QList<KeyPattern> patterns; // empty: every key
        int db = -1; // -1: every database
        std::chrono::milliseconds duration {60000};
        std::chrono::milliseconds snapshotInterval {250};
        qint64 readBound = 100000; // read a key mid-stream only when it holds at most this many members
        WatchShadow::Limits limits;
    };

    explicit WatchSession(QObject* parent = nullptr);
    ~WatchSession() override; // stops and waits for the thread

    // False when a watch runs already.
    bool start(const Settings& settings);
    // Ends the watch (from the owning thread or a signal handler's queued call). What the server ran
    // before it is still counted: the watch reads on up to an ECHO it sends then (at most 1 s).
    void stop();
    bool isRunning() const { return m_thread.joinable() && !m_done; }

signals:
    // MONITOR answered: the watch is on. server: "Redis 7.0.15", "Valkey 8.1.1".
    void started(const QString& server);
    void snapshotAvailable(const WatchSnapshot& snapshot);
    void finished(const WatchResult& result);

private:
    class Run; // one watch, step by step (watchsession.cpp)
    void run(Settings settings);

    std::thread m_thread;
    int m_wake = -1; // eventfd: stop() writes, the thread's poll() wakes
    std::atomic<bool> m_stopAsked {false}; // stop() came: no more reads of keys, lines only counted
    std::atomic<bool> m_done {false};
};
