#include "commandstats.h"

#include "redis/redisconnection.h"

#include <QList>

CommandStats CommandStats::read(RedisConnection& connection, const QByteArray& command)
{
    const RedisReply info = connection.command({QByteArrayLiteral("INFO"), QByteArrayLiteral("commandstats")});
    if (info.type() != RedisReply::Type::String)
        return {};
    return parse(info.bytes(), command);
}

CommandStats CommandStats::parse(const QByteArray& info, const QByteArray& command)
{
    // cmdstat_evalsha:calls=12,usec=345,usec_per_call=28.75,rejected_calls=0,failed_calls=0
    CommandStats stats;
    stats.known = info.contains("# Commandstats");
    const QByteArray prefix = "cmdstat_" + command + ':';
    for (const QByteArray& raw : info.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (!line.startsWith(prefix))
            continue;
        stats.known = true;
        for (const QByteArray& field : line.mid(prefix.size()).split(',')) {
            const int equals = field.indexOf('=');
            const QByteArray name = field.left(equals);
            if (name == "calls")
                stats.calls = field.mid(equals + 1).toLongLong();
            else if (name == "usec")
                stats.usec = field.mid(equals + 1).toLongLong();
        }
    }
    return stats;
}

double CommandStats::usecPerCall(const CommandStats& before, const CommandStats& after)
{
    const qint64 calls = after.calls - before.calls;
    if (!before.known || !after.known || calls <= 0)
        return -1;
    return double(after.usec - before.usec) / double(calls);
}
