#include "redisserverchoice.h"

bool RedisServerChoice::connectTo(const RedisEndpoint& endpoint)
{
    RedisConnection connection;
    if (!connection.open(endpoint, m_options)) {
        m_error = connection.lastError();
        return false;
    }
    m_endpoint = endpoint;
    m_server = connection.server();
    m_error = {};
    return true;
}

bool RedisServerChoice::endpointOf(const Request& request, RedisEndpoint* endpoint, QString* why)
{
    return RedisEndpoint::parse(request.url, request.tls, endpoint, why);
}

namespace {
// TLS options without a URL: no server of this machine's own choosing (6379, a private one)
// speaks TLS.
QString tlsWithoutUrl(const RedisServerChoice::Request& request)
{
    if (!request.url.trimmed().isEmpty() || !request.tls.hasOptions())
        return {};
    return QStringLiteral("The TLS options (CA, client certificate, SNI, insecure) go with a rediss:// URL: give "
                          "--redis rediss://host:port.");
}
} // namespace

QString RedisServerChoice::refusalBeforeConnecting(const Request& request, bool allowRemote)
{
    if (request.url.trimmed().isEmpty())
        return tlsWithoutUrl(request); // this machine: 6379 or a private server
    RedisEndpoint endpoint;
    QString why;
    if (!endpointOf(request, &endpoint, &why))
        return QStringLiteral("--redis: ") + why;
    // By the URL's text alone: resolving the name would already reach out to the network.
    if (!endpoint.isLocal() && !allowRemote)
        return endpoint.address()
            + QStringLiteral(" is not on this machine. zsetlab fires bursts of writes; if this server is yours to "
                             "load, add --allow-remote.");
    return {};
}

bool RedisServerChoice::resolve(const Request& request)
{
    m_private.reset();
    m_options = request.options;
    m_options.ownServer = false;
    m_error = {};
    if (const QString problem = tlsWithoutUrl(request); !problem.isEmpty()) {
        m_error = {RedisError::Kind::BadUrl, problem};
        return false;
    }

    if (!request.url.trimmed().isEmpty()) {
        RedisEndpoint endpoint;
        QString why;
        if (!endpointOf(request, &endpoint, &why)) {
            m_error = {RedisError::Kind::BadUrl, why};
            return false;
        }
        m_origin = Origin::Given;
        return connectTo(endpoint);
    }

    // A quick look at the usual local port; a refused connection answers at once.
    ConnectOptions quick = m_options;
    quick.connectTimeout = std::min(quick.connectTimeout, std::chrono::milliseconds(500));
    if (!request.privateServer) {
        RedisConnection connection;
        if (connection.open(RedisEndpoint::defaultLocal(), quick)) {
            m_origin = Origin::LocalDefault;
            m_endpoint = RedisEndpoint::defaultLocal();
            m_server = connection.server();
            return true;
        }
        // Something answers on 6379 but refuses us (password, not Redis): say so rather than
        // silently starting another server the user did not expect.
        const auto kind = connection.lastError().kind;
        if (kind == RedisError::Kind::PasswordRequired || kind == RedisError::Kind::WrongPassword
            || kind == RedisError::Kind::TooOld) {
            m_error = connection.lastError();
            m_error.message += QStringLiteral(" (Or pass --redis with another URL.)");
            return false;
        }
    }

    if (!request.allowSpawn && !request.privateServer) {
        m_error = {RedisError::Kind::Refused,
                   QStringLiteral("No Redis server answers at 127.0.0.1:6379 and starting a private one was "
                                  "turned off (--no-spawn). Start redis-server, or pass --redis URL.")};
        return false;
    }
    if (PrivateRedisServer::executable().isEmpty()) {
        m_error = {RedisError::Kind::Refused,
                   QStringLiteral("No Redis server answers at 127.0.0.1:6379 and redis-server is not installed, so "
                                  "zsetlab cannot start a private one. Install redis-server (Debian: apt-get install "
                                  "redis-server) or pass --redis URL.")};
        return false;
    }
    auto server = std::make_unique<PrivateRedisServer>();
    if (!server->start()) {
        m_error = {RedisError::Kind::ConnectionLost, server->errorString()};
        return false;
    }
    m_origin = Origin::Private;
    if (!connectTo(server->endpoint()))
        return false;
    m_private = std::move(server);
    m_options.ownServer = true;
    return true;
}

QString RedisServerChoice::description() const
{
    QString where;
    switch (m_origin) {
    case Origin::Given:
        where = QStringLiteral("given server");
        break;
    case Origin::LocalDefault:
        where = QStringLiteral("local server");
        break;
    case Origin::Private:
        where = QStringLiteral("private server");
        break;
    }
    return QStringLiteral("%1, %2 (%3)").arg(m_server.displayName(), where, m_endpoint.displayUrl());
}
