#pragma once

#include "redis/redisreply.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

// A sliding-window limiter kept in application code, as many apps write it: no script, but four
// commands sent together as a pipeline for each request (ZREMRANGEBYSCORE key 0 now-window,
// ZADD key now member, ZCARD key, PEXPIRE key window). The server runs them one by one, so
// another request's commands may come between them; the member decides whether two requests in
// one millisecond keep one entry each.
struct ClientLimiter
{
    enum class Member {
        Now, // ZADD key now now: the bug
        Unique, // ZADD key now now-<request id>: one member per request
    };

    QString id;
    Member member = Member::Now;

    static constexpr int commandsPerRequest = 4;

    // "client-now", "client-unique"; false when `id` names no client-side limiter.
    static bool find(const QString& id, ClientLimiter* limiter);
    static QStringList ids();

    // The request's commands, in order.
    QList<RedisArgs> commands(const QByteArray& key, qint64 nowMs, qint64 windowMs, const QByteArray& requestId) const;
};
