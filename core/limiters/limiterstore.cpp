#include "limiterstore.h"

#include "redis/keyslot.h"

#include "redis/redisconnection.h"
#include "zsetkeys.h"

#include <QCoreApplication>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LimiterStore)
};
} // namespace

LimiterStore LimiterStore::make(Kind kind, const QByteArray& type, QVector<Key> companions)
{
    LimiterStore store;
    store.m_kind = kind;
    store.m_keys = {{QByteArray(), type}};
    store.m_keys += std::move(companions);
    return store;
}

LimiterStore LimiterStore::sortedSet(QVector<Key> companions)
{
    return make(Kind::SortedSet, QByteArrayLiteral("zset"), std::move(companions));
}

LimiterStore LimiterStore::counter(QVector<Key> companions)
{
    return make(Kind::Counter, QByteArrayLiteral("string"), std::move(companions));
}

LimiterStore LimiterStore::hash(const QByteArray& countField)
{
    LimiterStore store = make(Kind::Hash, QByteArrayLiteral("hash"));
    store.m_countField = countField;
    return store;
}

LimiterStore LimiterStore::list()
{
    return make(Kind::List, QByteArrayLiteral("list"));
}

LimiterStore LimiterStore::arrivalTime()
{
    return make(Kind::ArrivalTime, QByteArrayLiteral("string"));
}

QList<QByteArray> LimiterStore::keysFor(const QByteArray& runKey) const
{
    QList<QByteArray> keys;
    for (const Key& key : m_keys)
        keys << runKey + key.suffix;
    return keys;
}

QString LimiterStore::checkKeys(RedisConnection& connection, const QByteArray& runKey, bool mayReuse) const
{
    // On a cluster every key of one call must be in one slot: say so before anything is written
    // (a TYPE of a key in another slot would only answer MOVED).
    if (connection.server().mode == QLatin1String("cluster")) {
        for (const QByteArray& name : keysFor(runKey)) {
            if (KeySlot::of(name) != KeySlot::of(runKey))
                return Text::tr("On a Redis Cluster every key of one call must hash to one slot (else CROSSSLOT), "
                                "and %1 is in slot %2 while %3 is in slot %4. Give the key a hash tag, e.g. --key "
                                "'{limiter}' (zsetlab:{limiter} and zsetlab:{limiter}:seq share a slot), or leave "
                                "it empty for a fresh one that has one.")
                    .arg(QString::fromUtf8(name))
                    .arg(KeySlot::of(name))
                    .arg(QString::fromUtf8(runKey))
                    .arg(KeySlot::of(runKey));
        }
    }
    for (const Key& key : m_keys) {
        const QByteArray name = runKey + key.suffix;
        const RedisReply type = connection.command({QByteArrayLiteral("TYPE"), name});
        // A key that cannot be checked is not written: nothing says it is free.
        if (type.type() != RedisReply::Type::Status)
            return Text::tr("Cannot check the key %1 before writing it: %2").arg(QString::fromUtf8(name), type.text());
        if (type.bytes() == "none")
            continue;
        if (!key.type.isEmpty() && type.bytes() != key.type)
            return Text::tr("The key %1 already holds a %2, where this limiter keeps a %3. zsetlab leaves it as it "
                            "is: choose another key.")
                .arg(QString::fromUtf8(name), type.text(), QString::fromLatin1(key.type));
        // The prefix is no consent: the key may hold another run's or a person's data.
        if (!mayReuse)
            return Text::tr("The key %1 already exists (a %2) and this run did not create it. zsetlab leaves it as "
                            "it is: choose another key, or allow the run to write into it (zsetlab-cli run "
                            "--reuse-key).")
                .arg(QString::fromUtf8(name), type.text());
    }
    return {};
}

qint64 LimiterStore::countInWindow(RedisConnection& connection, const QByteArray& runKey, qint64 windowInNowUnits) const
{
    switch (m_kind) {
    case Kind::SortedSet: {
        const RedisReply last = connection.command({QByteArrayLiteral("ZREVRANGE"), runKey, "0", "0", "WITHSCORES"});
        if (last.type() != RedisReply::Type::Array)
            return -1;
        if (last.elements().size() != 2)
            return 0;
        const qint64 newest = last.elements()[1].bytes().toLongLong();
        const RedisReply count = connection.command(
            {QByteArrayLiteral("ZCOUNT"), runKey, '(' + QByteArray::number(newest - windowInNowUnits), "+inf"});
        return count.type() == RedisReply::Type::Integer ? count.toInteger() : -1;
    }
    case Kind::Counter: {
        const RedisReply value = connection.command({QByteArrayLiteral("GET"), runKey});
        if (value.type() == RedisReply::Type::Nil)
            return 0;
        bool ok = false;
        const qint64 count = value.bytes().toLongLong(&ok);
        return ok ? count : -1;
    }
    case Kind::Hash: {
        if (m_countField.isEmpty())
            return -1;
        const RedisReply value = connection.command({QByteArrayLiteral("HGET"), runKey, m_countField});
        if (value.type() == RedisReply::Type::Nil)
            return 0;
        bool ok = false;
        const qint64 count = value.bytes().toLongLong(&ok);
        return ok ? count : -1;
    }
    case Kind::List: {
        // The list holds at most `limit` times, newest first; a bounded read all the same.
        const RedisReply times = connection.command({QByteArrayLiteral("LRANGE"), runKey, "0", "9999"});
        if (times.type() != RedisReply::Type::Array)
            return -1;
        if (times.elements().empty())
            return 0;
        const qint64 newest = times.elements().front().bytes().toLongLong();
        qint64 count = 0;
        for (const RedisReply& time : times.elements())
            count += time.bytes().toLongLong() > newest - windowInNowUnits ? 1 : 0;
        return count;
    }
    case Kind::ArrivalTime:
        break;
    }
    return -1;
}

qint64 LimiterStore::size(RedisConnection& connection, const QByteArray& runKey) const
{
    switch (m_kind) {
    case Kind::SortedSet: {
        const RedisReply card = connection.command({QByteArrayLiteral("ZCARD"), runKey});
        return card.type() == RedisReply::Type::Integer ? card.toInteger() : -1;
    }
    case Kind::List: {
        const RedisReply length = connection.command({QByteArrayLiteral("LLEN"), runKey});
        return length.type() == RedisReply::Type::Integer ? length.toInteger() : -1;
    }
    case Kind::Counter:
    case Kind::Hash:
    case Kind::ArrivalTime:
        break;
    }
    return -1;
}

qint64 LimiterStore::memoryBytes(RedisConnection& connection, const QByteArray& runKey, int* keys) const
{
    qint64 bytes = 0;
    int existing = 0;
    for (const QByteArray& key : keysFor(runKey)) {
        // SAMPLES 0: every member of a collection is measured, not an estimate from five of them.
        const RedisReply usage = connection.command({QByteArrayLiteral("MEMORY"), "USAGE", key, "SAMPLES", "0"});
        if (usage.type() == RedisReply::Type::Nil)
            continue;
        if (usage.type() != RedisReply::Type::Integer)
            return -1;
        bytes += usage.toInteger();
        ++existing;
    }
    if (keys)
        *keys = existing;
    return bytes;
}

bool LimiterStore::deleteKeys(RedisConnection& connection, const QByteArray& runKey, QString* why, bool* busy) const
{
    const QList<QByteArray> keys = keysFor(runKey);
    for (const QByteArray& key : keys) {
        if (!ZsetKeys::isOwnKey(key)) {
            if (why)
                *why = Text::tr("%1 is not under zsetlab's prefix").arg(QString::fromUtf8(key));
            return false;
        }
    }
    RedisArgs command {QByteArrayLiteral("DEL")};
    command << keys;
    const RedisReply reply = connection.command(command);
    if (busy)
        *busy = reply.errorCode() == "BUSY";
    if (reply.isError() && why)
        *why = reply.text();
    return !reply.isError();
}

qint64 LimiterStore::expireKeys(RedisConnection& connection, const QByteArray& runKey, qint64 ttlMs) const
{
    qint64 longest = -2;
    for (const QByteArray& key : keysFor(runKey)) {
        if (!ZsetKeys::isOwnKey(key))
            continue;
        const RedisReply pttl = connection.command({QByteArrayLiteral("PTTL"), key});
        if (pttl.type() != RedisReply::Type::Integer)
            return -1; // not even its TTL can be read
        qint64 left = pttl.toInteger();
        if (left == -2)
            continue; // gone
        if (left == -1) {
            const RedisReply set = connection.command({QByteArrayLiteral("PEXPIRE"), key, QByteArray::number(ttlMs)});
            if (set.type() != RedisReply::Type::Integer || set.toInteger() != 1)
                return -1;
            left = ttlMs;
        }
        longest = std::max(longest, left);
    }
    return longest;
}

QByteArray LimiterStore::claimKeyOf(const QByteArray& runKey)
{
    // With a hash tag, a suffix keeps the slot; without one, the run key becomes the tag.
    if (!KeySlot::hashTag(runKey).isEmpty())
        return runKey + ":claim";
    return QByteArray(ZsetKeys::prefix) + "claim:{" + runKey + '}';
}

bool LimiterStore::claim(RedisConnection& connection, const QByteArray& runKey, const QByteArray& owner, qint64 ttlMs,
                         QString* why)
{
    const QByteArray marker = claimKeyOf(runKey);
    if (connection.server().mode == QLatin1String("cluster") && KeySlot::of(marker) != KeySlot::of(runKey)) {
        *why = Text::tr("zsetlab cannot claim the key %1 on a Redis Cluster: its braces make no hash tag. Choose a "
                        "name with a hash tag, e.g. --key '{limiter}', or without braces.")
                   .arg(QString::fromUtf8(runKey));
        return false;
    }
    const RedisReply set
        = connection.command({QByteArrayLiteral("SET"), marker, owner, "NX", "PX", QByteArray::number(ttlMs)});
    if (set.type() == RedisReply::Type::Status)
        return true;
    if (set.isError()) {
        *why = Text::tr("Cannot claim the key %1 for this run (SET %2 NX): %3. zsetlab writes no key it cannot "
                        "claim.")
                   .arg(QString::fromUtf8(runKey), QString::fromUtf8(marker), set.text());
        return false;
    }
    const RedisReply holder = connection.command({QByteArrayLiteral("GET"), marker});
    const RedisReply left = connection.command({QByteArrayLiteral("PTTL"), marker});
    *why = Text::tr("Another zsetlab run (%1) is writing the key %2 now: two runs never share a key. Wait for it to "
                    "end, or choose another key. If no run is using it, its claim %3 expires in %4 s, or delete "
                    "it: redis-cli DEL '%3'.")
               .arg(holder.type() == RedisReply::Type::String ? QString::fromUtf8(holder.bytes()) : QStringLiteral("?"),
                    QString::fromUtf8(runKey), QString::fromUtf8(marker))
               .arg(std::max<qint64>(left.toInteger(), 0) / 1000);
    return false;
}

bool LimiterStore::claimKeys(RedisConnection& connection, const QByteArray& runKey, const QByteArray& owner,
                             qint64 ttlMs, QString* why) const
{
    const QList<QByteArray> keys = keysFor(runKey);
    for (qsizetype k = 0; k < keys.size(); ++k) {
        if (!claim(connection, keys[k], owner, ttlMs, why)) {
            for (qsizetype taken = 0; taken < k; ++taken)
                release(connection, keys[taken], owner);
            return false;
        }
    }
    return true;
}

void LimiterStore::releaseKeys(RedisConnection& connection, const QByteArray& runKey, const QByteArray& owner) const
{
    for (const QByteArray& key : keysFor(runKey))
        release(connection, key, owner);
}

bool LimiterStore::release(RedisConnection& connection, const QByteArray& runKey, const QByteArray& owner)
{
    static const QByteArray script
        = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
    const RedisReply reply = connection.command({QByteArrayLiteral("EVAL"), script, "1", claimKeyOf(runKey), owner});
    return reply.type() == RedisReply::Type::Integer;
}
