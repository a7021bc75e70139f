#pragma once

#include "privateredisserver.h"
#include "redisconnection.h"

#include <memory>

// Which Redis zsetlab works against: the one the user named, else a local server on 6379, else
// (when allowed and installed) a private server of its own. Owns the private server, if any.
class RedisServerChoice
{
public:
    enum class Origin { Given, LocalDefault, Private };

    struct Request
    {
        QString url; // empty: try redis://127.0.0.1:6379, then a private server
        TlsSettings tls; // the TLS options beside a rediss:// url
        bool allowSpawn = true;
        // Start a private server without looking at 6379: a clean, empty Redis (for a class).
        bool privateServer = false;
        ConnectOptions options;
    };

    // The rule for every program that fires bursts (the CLI's commands, the headless export and
    // lesson), checked before any connection or name lookup: the URL must parse, and a server that
    // is not on this machine is loaded only with the user's consent (allowRemote). Empty when the
    // request may be resolved; else what is wrong and what to do, a usage error.
    static QString refusalBeforeConnecting(const Request& request, bool allowRemote);
    // The server a request names (its url with its TLS options); false with *why when they are wrong.
    static bool endpointOf(const Request& request, RedisEndpoint* endpoint, QString* why);

    // Resolves the request; false with error() when no server can be used.
    bool resolve(const Request& request);

    const RedisEndpoint& endpoint() const { return m_endpoint; }
    const ServerInfo& server() const { return m_server; }
    Origin origin() const { return m_origin; }
    const RedisError& error() const { return m_error; }
    const ConnectOptions& options() const { return m_options; }
    // "Redis 7.0.15, private server (unix:///tmp/…/redis.sock)"
    QString description() const;

private:
    bool connectTo(const RedisEndpoint& endpoint);

    RedisEndpoint m_endpoint;
    ServerInfo m_server;
    Origin m_origin = Origin::Given;
    RedisError m_error;
    ConnectOptions m_options;
    std::unique_ptr<PrivateRedisServer> m_private;
};
