#include "zsetkeys.h"

#include "limitercatalog.h"
#include "redis/keyslot.h"
#include "redis/redisconnection.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QRandomGenerator>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ZsetKeys)
};
} // namespace

namespace ZsetKeys {

QByteArray freshRunKey()
{
    const QByteArray stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss")).toLatin1();
    // Six hex digits always: no run key is the beginning of another's (ScriptSandbox::patternsOfKey()).
    const QByteArray nonce
        = QByteArray::number(QRandomGenerator::global()->generate() & 0xffffffu, 16).rightJustified(6, '0');
    // The run's name is a hash tag: on a cluster the key and its companions ("...}:seq") share a
    // slot, so a script that touches several of them runs on one node. userOfRun() keeps the tag.
    return QByteArray(prefix) + "run:{" + stamp + '-' + nonce + '}';
}

QByteArray userOfRun(const QByteArray& runKey, int user)
{
    const QByteArray suffix = ":u" + QByteArray::number(user);
    if (runKey.endsWith('}') && !KeySlot::hashTag(runKey).isEmpty())
        return runKey.left(runKey.size() - 1) + suffix + '}';
    return runKey + suffix;
}

QByteArray userKey(const QString& name)
{
    const QByteArray key = name.toUtf8();
    return isOwnKey(key) ? key : QByteArray(prefix) + key;
}

QString userKeyProblem(const QString& name)
{
    for (const QChar c : name) {
        if (c.category() == QChar::Other_Control || c == QChar::ReplacementCharacter)
            return Text::tr("A key name takes printable UTF-8 text: this one has a control character or bytes "
                            "that are not UTF-8. Choose a name you can type.");
    }
    return {};
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
