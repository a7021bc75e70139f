#pragma once

#include <QString>

// Where a Redis server is, as redis-cli -u and most clients spell it:
//   redis://[[user]:password@]host[:port][/db]
//   unix:///path/to.sock[?db=N]
struct RedisEndpoint
{
    enum class Transport { Tcp, Unix };

    Transport transport = Transport::Tcp;
    QString host = QStringLiteral("127.0.0.1");
    int port = 6379;
    QString socketPath;
    QString user; // empty: the default user (AUTH password)
    QString password; // empty: no AUTH
    int db = 0;

    // Parses a URL; on failure returns false and sets *error to a message that says what to fix.
    static bool parse(const QString& url, RedisEndpoint* endpoint, QString* error);
    static RedisEndpoint unixSocket(const QString& path);
    // The longest socket path the kernel takes (sizeof(sockaddr_un::sun_path) - 1: 107 on Linux).
    static const int maxSocketPathBytes;
    // Empty when a socket at `path` can be connected to as named; else why not. A longer path
    // would be cut short by hiredis, reaching whatever server listens at the prefix.
    static QString socketPathProblem(const QString& path);
    static RedisEndpoint defaultLocal();

    // The URL back, with the password masked: safe to show on screen or in a log.
    QString displayUrl() const;
    // A short description for status bars: "127.0.0.1:6379" or "/tmp/…/redis.sock".
    QString address() const;
    // True for a unix socket or a loopback address: bursts there need no confirmation.
    bool isLocal() const;

    bool operator==(const RedisEndpoint& other) const;
};
