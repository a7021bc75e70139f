#pragma once

// RedisEndpoint: where a server is (redis://, rediss://, unix socket) and how TLS is set up for it.

#include <QString>

// How a rediss:// connection sets up TLS: redis-cli's --tls-ca (--cacert), --tls-cert, --tls-key,
// --sni and --insecure. The server's certificate chain and its name are checked unless insecure.
struct TlsSettings
{
    bool enabled = false; // rediss://
    QString caFile; // the CAs to trust; empty: the system's store
    QString certFile; // a client certificate, for servers that ask for one
    QString keyFile; // its private key
    QString serverName; // sent as SNI and checked against the certificate; empty: the URL's host
    bool insecure = false; // no check of the server's certificate at all

    // True when any option beyond "use TLS" was given.
    bool hasOptions() const;
    // The name the certificate must carry: serverName, else host.
    QString expectedName(const QString& host) const;
    bool operator==(const TlsSettings& other) const;
};

// Where a Redis server is, as redis-cli -u and most clients spell it:
//   redis://[[user]:password@]host[:port][/db]
//   rediss://… the same over TLS (see TlsSettings)
//   unix:///path/to.sock[?db=N]
struct RedisEndpoint
{
    enum class Transport { Tcp, Unix };

    Transport transport = Transport::Tcp;
    TlsSettings tls; // a Tcp endpoint only
    QString host = QStringLiteral("127.0.0.1");
    int port = 6379;
    QString socketPath;
    QString user; // empty: the default user (AUTH password)
    QString password; // empty: no AUTH
    int db = 0;
    // The handshake reads the server with HELLO rather than INFO, and selects no database (db
    // must be 0): for a script sandbox's user (ScriptSandbox::asUser()), which may run neither
    // INFO nor SELECT, and for a connection to a server busy with a script, which answers HELLO
    // and AUTH but nothing else.
    bool helloHandshake = false;

    // Parses a URL; on failure returns false and sets *error to a message that says what to fix.
    static bool parse(const QString& url, RedisEndpoint* endpoint, QString* error);
    // The same with the TLS options given beside the URL (command line, Connect dialog): they go
    // with a rediss:// URL only.
    static bool parse(const QString& url, const TlsSettings& options, RedisEndpoint* endpoint, QString* error);
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
    // redis-cli's options that reach this server, for a command shown to the user: "-h 10.0.0.5 -p
    // 6380 -n 2", "-s /tmp/r.sock", with --tls for rediss:// (credentials left out: -a or --user
    // are the user's to add).
    QString redisCliTarget() const;
    // True for a unix socket or a loopback address: bursts there need no confirmation.
    bool isLocal() const;

    bool operator==(const RedisEndpoint& other) const;
};
