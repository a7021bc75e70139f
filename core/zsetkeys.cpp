#include "zsetkeys.h"

#include "limitercatalog.h"
#include "redisconnection.h"

#include <QDateTime>
#include <QRandomGenerator>

namespace ZsetKeys {

QByteArray freshRunKey()
{
    const QByteArray stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")).toLatin1();
    const QByteArray nonce = QByteArray::number(QRandomGenerator::global()->generate() & 0xffffffu, 16);
    return QByteArray(prefix) + "run:" + stamp + '-' + nonce;
}

QByteArray userKey(const QString& name)
{
    const QByteArray key = name.toUtf8();
    return isOwnKey(key) ? key : QByteArray(prefix) + key;
}

bool isOwnKey(const QByteArray& key)
{
    return key.startsWith(prefix) && key.size() > static_cast<int>(sizeof(prefix) - 1);
}

QList<QByteArray> companionKeys(const QByteArray& zsetKey)
{
    QList<QByteArray> keys;
    for (const LimiterRef& limiter : LimiterCatalog::all()) {
        for (const LimiterStore::Key& key : limiter->store.keys()) {
            if (!key.suffix.isEmpty() && !keys.contains(zsetKey + key.suffix))
                keys << zsetKey + key.suffix;
        }
    }
    return keys;
}

bool deleteRunKeys(RedisConnection& connection, const QByteArray& zsetKey)
{
    if (!isOwnKey(zsetKey))
        return false;
    RedisArgs command {QByteArrayLiteral("DEL"), zsetKey};
    command << companionKeys(zsetKey);
    return !connection.command(command).isError();
}

} // namespace ZsetKeys
