#pragma once

#include "privateredisserver.h"
#include "redisconnection.h"
#include "redisserverchoice.h"
#include "taskthread.h"

#include <QObject>
#include <QTimer>

#include <memory>

// The Redis a window works with, for the GUI: connecting, checking it stays reachable and
// starting a private server, all without blocking the owner's thread (connection attempts and
// health checks run on a task thread). Lives in, and is used from, the GUI thread.
class ServerSession : public QObject
{
    Q_OBJECT
public:
    enum class State { Disconnected, Connecting, Connected, Lost };
    Q_ENUM(State)

    explicit ServerSession(QObject* parent = nullptr);
    ~ServerSession() override;

    // Connects as RedisServerChoice would: the URL, else local 6379, else a private server.
    void connectTo(const RedisServerChoice::Request& request);
    void disconnectFromServer();

    State state() const { return m_state; }
    bool isUsable() const { return m_state == State::Connected; }
    const RedisEndpoint& endpoint() const { return m_endpoint; }
    const ServerInfo& server() const { return m_server; }
    const ConnectOptions& options() const { return m_request.options; }
    RedisServerChoice::Origin origin() const { return m_origin; }
    const RedisServerChoice::Request& request() const { return m_request; }
    // "Redis 7.0.15 · private server · unix:///tmp/…/redis.sock"
    QString description() const;
    QString lastError() const { return m_lastError; }
    // How often reachability is checked while connected (ms); the default is 2000.
    void setHealthInterval(int ms) { m_health.setInterval(ms); }

signals:
    void stateChanged(ServerSession::State state);
    void connected();
    void failed(const QString& message);
    void lost(const QString& message);
    void restored();

private:
    void probe(const RedisEndpoint& endpoint, RedisServerChoice::Origin origin, bool fallBackToPrivate);
    void onProbed(quint64 attempt, bool ok, const RedisEndpoint& endpoint, RedisServerChoice::Origin origin,
                  const ServerInfo& info, const RedisError& error, bool fallBackToPrivate);
    void startPrivate();
    void checkHealth();
    void setState(State state);

    RedisServerChoice::Request m_request;
    RedisEndpoint m_endpoint;
    ServerInfo m_server;
    RedisServerChoice::Origin m_origin = RedisServerChoice::Origin::Given;
    State m_state = State::Disconnected;
    QString m_lastError;
    quint64 m_attempt = 0;
    bool m_checking = false;
    QTimer m_health;
    std::unique_ptr<PrivateRedisServer> m_private;
    TaskThread m_thread; // last: joined first on destruction
};
