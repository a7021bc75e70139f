#pragma once

#include "redis/redisserverchoice.h"
#include "redis/tlsoptions.h"

#include <QCommandLineOption>

class QCommandLineParser;

// The options every command that talks to Redis shares: --redis, --no-spawn, --private, --timeout,
// --allow-remote, --allow-eviction, and redis-cli's TLS options for a rediss:// URL.
struct ServerOptions
{
    QCommandLineOption redis {QStringLiteral("redis"),
                              QStringLiteral("Redis to use: redis://[[user]:password@]host[:port][/db], the same "
                                             "with rediss:// for TLS, or unix:///path/to.sock[?db=N]. Default: "
                                             "127.0.0.1:6379 if a server answers there, else a private "
                                             "redis-server."),
                              QStringLiteral("URL")};
    QCommandLineOption noSpawn {QStringLiteral("no-spawn"),
                                QStringLiteral("Never start a private redis-server; fail if none answers.")};
    QCommandLineOption privateServer {QStringLiteral("private"),
                                      QStringLiteral("Start a private redis-server even if one answers on 6379.")};
    QCommandLineOption timeout {QStringLiteral("timeout"),
                                QStringLiteral("Connect and command timeout in ms (default 2000)."),
                                QStringLiteral("MS"), QStringLiteral("2000")};
    QCommandLineOption allowRemote {QStringLiteral("allow-remote"),
                                    QStringLiteral("Allow firing requests at a server that is not on this machine "
                                                   "(not loopback, not a unix socket).")};

    QCommandLineOption allowEviction {
        QStringLiteral("allow-eviction"),
        QStringLiteral("Write to a server that deletes keys to make room when it is full (maxmemory with an allkeys-* "
                       "or volatile-* policy) although the run could push out keys zsetlab did not make. zsetlab "
                       "still stops a run once the server has grown by half of the memory it had left, and deletes "
                       "the run's keys.")};

    TlsOptions tlsOptions;

    void addTo(QCommandLineParser& parser) const;
    // --redis with the TLS options, checked before any connection; false with *why (a usage error).
    bool endpoint(const QCommandLineParser& parser, RedisEndpoint* endpoint, QString* why) const;
    // Resolves the server and reports it on stderr. Returns an exit code: 0 when connected.
    int resolve(const QCommandLineParser& parser, RedisServerChoice* choice, bool firesRequests) const;
};
