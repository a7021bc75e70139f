#pragma once

#include "base/taskthread.h"
#include "privateredisserver.h"
#include "redisconnection.h"
#include "redisserverchoice.h"

#include <QList>
#include <QObject>
#include <QStringList>
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

    // Connects as RedisServerChoice would: the URL, else local 6379, else a private server. When a
    // private server ends by itself (killed, crashed), a new, empty one starts at once on the same
    // socket, so that a running burst reconnects to it.
    void connectTo(const RedisServerChoice::Request& request);
    void disconnectFromServer();

    State state() const { return m_state; }
    bool isUsable() const { return m_state == State::Connected; }
    const RedisEndpoint& endpoint() const { return m_endpoint; }
    const ServerInfo& server() const { return m_server; }
    // A cluster's masters (host:port), when the server is a cluster node; else empty.
    const QStringList& clusterMasters() const { return m_clusterMasters; }
    // The request's, with ownServer set while the server is the session's private one.
    ConnectOptions options() const;
    RedisServerChoice::Origin origin() const { return m_origin; }
    const RedisServerChoice::Request& request() const { return m_request; }
    // "Redis 7.0.15 · private server · unix:///tmp/…/redis.sock"
    QString description() const;
    QString lastError() const { return m_lastError; }
    // The private server, while the session uses one.
    const PrivateRedisServer* privateServer() const { return m_private.get(); }
    // How often reachability is checked while connected (ms); the default is 2000.
    void setHealthInterval(int ms) { m_health.setInterval(ms); }

signals:
    void stateChanged(ServerSession::State state);
    void connected();
    void failed(const QString& message);
    void lost(const QString& message);
    void restored();
    // A private server ended and a new, empty one took its place.
    void privateServerReplaced();

private:
    void probe(const RedisEndpoint& endpoint, RedisServerChoice::Origin origin, bool fallBackToPrivate);
    void onProbed(quint64 attempt, bool ok, const RedisEndpoint& endpoint, RedisServerChoice::Origin origin,
                  const ServerInfo& info, const RedisError& error, bool fallBackToPrivate,
                  const QStringList& clusterMasters = {});
    void startPrivate();
    void replacePrivate();
    void checkHealth();
    void setState(State state);

    RedisServerChoice::Request m_request;
    RedisEndpoint m_endpoint;
    ServerInfo m_server;
    QStringList m_clusterMasters; // host:port of each master when the server is a cluster node
    RedisServerChoice::Origin m_origin = RedisServerChoice::Origin::Given;
    State m_state = State::Disconnected;
    QString m_lastError;
    quint64 m_attempt = 0;
    bool m_checking = false;
    QList<qint64> m_replacedAtMs; // recent replacements: a server that keeps dying is given up
    QTimer m_health;
    std::unique_ptr<PrivateRedisServer> m_private;
    TaskThread m_thread; // last: joined first on destruction
};
