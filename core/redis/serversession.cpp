#include "serversession.h"

#include "clustermap.h"

#include <QDateTime>
#include <QMetaObject>
#include <QThread>

ServerSession::ServerSession(QObject* parent)
    : QObject(parent)
{
    m_health.setInterval(2000);
    connect(&m_health, &QTimer::timeout, this, &ServerSession::checkHealth);
}

ServerSession::~ServerSession() = default;

void ServerSession::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

ConnectOptions ServerSession::options() const
{
    ConnectOptions options = m_request.options;
    options.ownServer = m_private && m_origin == RedisServerChoice::Origin::Private;
    return options;
}

void ServerSession::connectTo(const RedisServerChoice::Request& request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_request = request;
    m_lastError.clear();
    m_health.stop();
    m_private.reset();
    m_replacedAtMs.clear();
    ++m_attempt;
    setState(State::Connecting);
    if (request.privateServer && request.url.trimmed().isEmpty()) {
        startPrivate();
    } else if (!request.url.trimmed().isEmpty()) {
        RedisEndpoint endpoint;
        QString why;
        if (!RedisServerChoice::endpointOf(request, &endpoint, &why)) {
            m_lastError = why;
            setState(State::Disconnected);
            emit failed(why);
            return;
        }
        probe(endpoint, RedisServerChoice::Origin::Given, false);
    } else {
        probe(RedisEndpoint::defaultLocal(), RedisServerChoice::Origin::LocalDefault, request.allowSpawn);
    }
}

void ServerSession::disconnectFromServer()
{
    ++m_attempt;
    m_health.stop();
    m_private.reset();
    setState(State::Disconnected);
}

void ServerSession::probe(const RedisEndpoint& endpoint, RedisServerChoice::Origin origin, bool fallBackToPrivate)
{
    const quint64 attempt = m_attempt;
    ConnectOptions options = m_request.options;
    if (origin == RedisServerChoice::Origin::LocalDefault)
        options.connectTimeout = std::min(options.connectTimeout, std::chrono::milliseconds(500));
    m_thread.post([this, attempt, endpoint, origin, options, fallBackToPrivate] {
        RedisConnection connection;
        const bool ok = connection.open(endpoint, options);
        const ServerInfo info = connection.server();
        const RedisError error = connection.lastError();
        QStringList nodes; // a cluster's masters, shown in the server bar
        ClusterMap map;
        QString mapError;
        if (ok && info.mode == QLatin1String("cluster") && ClusterMap::read(connection, &map, &mapError)) {
            for (const ClusterMap::Node& node : map.masters())
                nodes << ClusterMap::endpointOf(node, endpoint).address();
        }
        QMetaObject::invokeMethod(
            this, [=] { onProbed(attempt, ok, endpoint, origin, info, error, fallBackToPrivate, nodes); },
            Qt::QueuedConnection);
    });
}

void ServerSession::onProbed(quint64 attempt, bool ok, const RedisEndpoint& endpoint, RedisServerChoice::Origin origin,
                             const ServerInfo& info, const RedisError& error, bool fallBackToPrivate,
                             const QStringList& clusterMasters)
{
    if (attempt != m_attempt)
        return; // a newer connectTo() or a disconnect happened meanwhile
    if (ok) {
        m_endpoint = endpoint;
        m_server = info;
        m_origin = origin;
        m_clusterMasters = clusterMasters;
        setState(State::Connected);
        m_health.start();
        emit connected();
        return;
    }
    const bool answeredButRefused = error.kind == RedisError::Kind::PasswordRequired
        || error.kind == RedisError::Kind::WrongPassword || error.kind == RedisError::Kind::TooOld;
    if (fallBackToPrivate && !answeredButRefused) {
        startPrivate();
        return;
    }
    m_lastError = error.message;
    setState(State::Disconnected);
    emit failed(error.message);
}

void ServerSession::startPrivate()
{
    // On this (long-lived) thread: the kernel stops the private server when the thread that
    // started it ends. Starting takes a few milliseconds.
    if (PrivateRedisServer::executable().isEmpty()) {
        m_lastError = tr("No Redis server answers at 127.0.0.1:6379 and redis-server is not installed. Install "
                         "redis-server (Debian: apt-get install redis-server) or connect to another server.");
        setState(State::Disconnected);
        emit failed(m_lastError);
        return;
    }
    auto server = std::make_unique<PrivateRedisServer>();
    if (!server->start()) {
        m_lastError = server->errorString();
        setState(State::Disconnected);
        emit failed(m_lastError);
        return;
    }
    const RedisEndpoint endpoint = server->endpoint();
    // Queued: replacing destroys the process object that reports the exit.
    server->setExitHandler(
        [this] { QMetaObject::invokeMethod(this, &ServerSession::replacePrivate, Qt::QueuedConnection); });
    m_private = std::move(server);
    probe(endpoint, RedisServerChoice::Origin::Private, false);
}

void ServerSession::replacePrivate()
{
    if (!m_private || m_private->isRunning() || m_origin != RedisServerChoice::Origin::Private
        || (m_state != State::Connected && m_state != State::Lost))
        return;
    // The socket and its folder went with the server; only zsetlab can bring them back, so the
    // message says what happens instead of advising to start redis-server there.
    m_lastError = tr("zsetlab's private Redis server stopped. A new, empty one is starting on the same socket.");
    setState(State::Lost);
    emit lost(m_lastError);

    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_replacedAtMs.append(now);
    while (!m_replacedAtMs.isEmpty() && now - m_replacedAtMs.first() > 60000)
        m_replacedAtMs.removeFirst();
    if (m_replacedAtMs.size() > 3) {
        m_lastError = tr("zsetlab's private Redis server stopped four times within a minute; it is not started "
                         "again. Connect to another server (Burst > Connect to Redis).");
        m_private.reset();
        setState(State::Disconnected);
        emit failed(m_lastError);
        return;
    }
    if (!m_private->restart()) {
        m_lastError = m_private->errorString();
        m_private.reset();
        setState(State::Disconnected);
        emit failed(m_lastError);
        return;
    }
    m_lastError.clear();
    setState(State::Connected);
    emit restored();
    emit privateServerReplaced();
}

void ServerSession::checkHealth()
{
    if (m_checking || (m_state != State::Connected && m_state != State::Lost))
        return;
    m_checking = true;
    const quint64 attempt = m_attempt;
    const RedisEndpoint endpoint = m_endpoint;
    ConnectOptions options = m_request.options;
    m_thread.post([this, attempt, endpoint, options] {
        RedisConnection connection;
        const bool ok = connection.open(endpoint, options) && !connection.command({"PING"}).isError();
        const QString why = connection.lastError().message;
        QMetaObject::invokeMethod(
            this,
            [this, attempt, ok, why] {
                m_checking = false;
                if (attempt != m_attempt)
                    return;
                if (!ok && m_state == State::Connected) {
                    m_lastError = why;
                    setState(State::Lost);
                    emit lost(why);
                } else if (ok && m_state == State::Lost) {
                    setState(State::Connected);
                    emit restored();
                }
            },
            Qt::QueuedConnection);
    });
}

QString ServerSession::description() const
{
    QString where;
    switch (m_origin) {
    case RedisServerChoice::Origin::Given:
        where = tr("given server");
        break;
    case RedisServerChoice::Origin::LocalDefault:
        where = tr("local server");
        break;
    case RedisServerChoice::Origin::Private:
        where = tr("private server");
        break;
    }
    if (!m_clusterMasters.isEmpty())
        return tr("%1 · %2 · cluster of %n masters: %3", nullptr, int(m_clusterMasters.size()))
            .arg(m_server.displayName(), where, m_clusterMasters.join(QLatin1String(", ")));
    return tr("%1 · %2 · %3").arg(m_server.displayName(), where, m_endpoint.displayUrl());
}
