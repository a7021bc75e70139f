#pragma once

#include "redisendpoint.h"

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <chrono>
#include <functional>
#include <memory>

// A redis-server of zsetlab's own: a unix socket in a private temporary folder, no TCP port, no
// persistence. It stops, and its folder goes, when this object is destroyed, and also when the
// owning process dies without cleaning up (the child gets SIGTERM from the kernel; see start()).
// Create and destroy it on a long-lived thread, normally the main thread: the kernel signals the
// server when the thread that started it ends.
class PrivateRedisServer
{
public:
    // configLines go into a file in the private folder (readable by its owner only), not on the
    // command line, where any local user could read them: passwords.
    explicit PrivateRedisServer(QStringList extraArguments = {}, QByteArray configLines = {});
    ~PrivateRedisServer();
    PrivateRedisServer(const PrivateRedisServer&) = delete;
    PrivateRedisServer& operator=(const PrivateRedisServer&) = delete;

    // redis-server on PATH, or empty.
    static QString executable();

    // Starts the server and waits until it answers PING. False with errorString() on failure.
    bool start(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // Starts a new redis-server on the same socket (empty, as after a crash and restart): clients
    // that keep the URL find it again. Stops the current one first if it still runs.
    bool restart(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    void stop();
    bool isRunning() const;
    // Called (on the thread that started the server) when redis-server ends by itself: killed,
    // crashed or shut down by a client; not after stop() or restart(). Do not destroy or restart
    // the server from inside the call: queue that.
    void setExitHandler(std::function<void()> handler) { m_onExit = std::move(handler); }

    RedisEndpoint endpoint() const { return RedisEndpoint::unixSocket(socketPath()); }
    QString socketPath() const;
    QString folder() const { return m_folder; }
    qint64 serverPid() const;
    QString errorString() const { return m_error; }

private:
    bool launch(std::chrono::milliseconds timeout);
    void stopProcess();

    QStringList m_extraArguments;
    QByteArray m_configLines;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    QString m_folder;
    QString m_error;
    std::function<void()> m_onExit;
};
