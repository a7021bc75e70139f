#include "clientlimiter.h"

bool ClientLimiter::find(const QString& id, ClientLimiter* limiter)
{
    if (id == QLatin1String("client-now"))
        *limiter = {id, Member::Now};
    else if (id == QLatin1String("client-unique"))
        *limiter = {id, Member::Unique};
    else
        return false;
    return true;
}

QStringList ClientLimiter::ids()
{
    return {QStringLiteral("client-now"), QStringLiteral("client-unique")};
}

QList<RedisArgs> ClientLimiter::commands(const QByteArray& key, qint64 nowMs, qint64 windowMs,
                                         const QByteArray& requestId) const
{
    const QByteArray now = QByteArray::number(nowMs);
    const QByteArray memberText = member == Member::Now ? now : now + '-' + requestId;
    return {
        {QByteArrayLiteral("ZREMRANGEBYSCORE"), key, QByteArrayLiteral("0"), QByteArray::number(nowMs - windowMs)},
        {QByteArrayLiteral("ZADD"), key, now, memberText},
        {QByteArrayLiteral("ZCARD"), key},
        {QByteArrayLiteral("PEXPIRE"), key, QByteArray::number(windowMs)},
    };
}
