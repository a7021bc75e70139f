#include "memoryheadroom.h"

#include "base/printabletext.h"
#include "redisconnection.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(MemoryHeadroom)
};

QString megabytes(qint64 bytes)
{
    const double mb = double(bytes) / (1024.0 * 1024.0);
    return Text::tr("%1 MB").arg(QLocale().toString(mb, 'f', mb < 10 ? 1 : 0));
}
} // namespace

MemoryHeadroom MemoryHeadroom::read(RedisConnection& connection)
{
    const RedisReply reply = connection.command({QByteArrayLiteral("INFO"), QByteArrayLiteral("memory")});
    if (reply.isError() || reply.type() != RedisReply::Type::String) {
        MemoryHeadroom unknown;
        unknown.connectionLost = reply.isConnectionLost();
        unknown.unknownWhy = reply.isError() ? Text::tr("INFO memory answered: %1").arg(reply.text())
                                             : Text::tr("INFO memory did not answer with text");
        return unknown;
    }
    return parse(reply.bytes());
}

MemoryHeadroom MemoryHeadroom::parse(const QByteArray& infoMemory)
{
    MemoryHeadroom memory;
    bool hasMax = false;
    bool hasUsed = false;
    for (QByteArray line : infoMemory.split('\n')) {
        line = line.trimmed();
        const int colon = line.indexOf(':');
        if (line.startsWith('#') || colon < 0)
            continue;
        const QByteArray name = line.left(colon);
        const QByteArray value = line.mid(colon + 1);
        if (name == "maxmemory")
            memory.maxMemory = value.toLongLong(&hasMax);
        else if (name == "used_memory")
            memory.usedMemory = value.toLongLong(&hasUsed);
        else if (name == "maxmemory_policy")
            memory.policy = printableText(value, 32);
    }
    memory.known = hasMax && hasUsed && !memory.policy.isEmpty();
    if (!memory.known)
        memory.unknownWhy = Text::tr("INFO memory lacks maxmemory, maxmemory_policy or used_memory");
    return memory;
}

bool MemoryHeadroom::evicts() const
{
    return known && maxMemory > 0 && policy != QLatin1String("noeviction");
}

qint64 MemoryHeadroom::headroom() const
{
    return std::max<qint64>(0, maxMemory - usedMemory);
}

QString MemoryHeadroom::describe() const
{
    if (!known)
        return Text::tr("unknown (%1)").arg(unknownWhy);
    if (maxMemory <= 0)
        return Text::tr("no maxmemory, %1 used").arg(megabytes(usedMemory));
    return Text::tr("maxmemory %1, %2: %3 used, %4 left")
        .arg(megabytes(maxMemory), policy, megabytes(usedMemory), megabytes(headroom()));
}

QJsonObject MemoryHeadroom::toJson() const
{
    QJsonObject json;
    json[QStringLiteral("known")] = known;
    if (!known) {
        json[QStringLiteral("unknown_why")] = unknownWhy;
        return json;
    }
    json[QStringLiteral("maxmemory")] = maxMemory;
    json[QStringLiteral("maxmemory_policy")] = policy;
    json[QStringLiteral("used_memory")] = usedMemory;
    json[QStringLiteral("evicts")] = evicts();
    return json;
}

namespace EvictionCheck {

qint64 estimateBytes(qint64 entries)
{
    // A skiplist node with its level pointers, the dict entry, the member's sds (zsetlab's members
    // are under 48 bytes): some 160 bytes a member on Redis 7, rounded up.
    constexpr qint64 perEntry = 256;
    constexpr qint64 perKey = 4096;
    return perKey + std::max<qint64>(entries, 0) * perEntry;
}

QString refusal(const MemoryHeadroom& memory, qint64 estimate, const QString& where)
{
    // Unknown: a built-in limiter's run is small beside any server that holds other data, and the
    // run's report says what could not be read; a script of yours may write any amount.
    if (!memory.known && estimate < 0)
        return Text::tr("zsetlab could not read whether %1 deletes keys to make room when it is full (%2), and a "
                        "script of yours may write any amount in one call: a run there could push out keys "
                        "zsetlab did not make. Give --allow-eviction (in the window: answer Yes to the question) to "
                        "run it all the same.")
            .arg(where, memory.unknownWhy);
    if (!memory.evicts())
        return {};
    const QString which
        = memory.policy.startsWith(QLatin1String("volatile")) ? Text::tr("keys with a TTL") : Text::tr("any key");
    if (estimate < 0)
        return Text::tr("%1 deletes %2 to make room when it is full (%3), and a script of yours may write any "
                        "amount in one call: Redis would then evict keys zsetlab did not make before zsetlab could "
                        "stop it. Give --allow-eviction (in the window: answer Yes to the question) to run it all "
                        "the same: zsetlab then stops the run once the server has grown by half of what was left, "
                        "and deletes the run's keys.")
            .arg(where, which, memory.describe());
    if (double(estimate) > shareOfHeadroom * double(memory.headroom()))
        return Text::tr("%1 deletes %2 to make room when it is full (%3), and this run may hold up to %4, more than "
                        "half of what is left: Redis could evict keys zsetlab did not make. Free memory there, "
                        "send fewer requests, or give --allow-eviction (in the window: answer Yes to the question).")
            .arg(where, which, memory.describe(), megabytes(estimate));
    return {};
}

qint64 stopAt(const MemoryHeadroom& before)
{
    if (!before.evicts())
        return -1;
    return before.usedMemory + qint64(shareOfHeadroom * double(before.headroom()));
}

QString stopped(const MemoryHeadroom& before, const MemoryHeadroom& now, const QString& where)
{
    return Text::tr("Stopped: %1 grew from %2 to %3 used during the run, past half of the %4 it had left before "
                    "(%5, which deletes keys to make room). zsetlab deleted the run's keys.")
        .arg(where, megabytes(before.usedMemory), megabytes(now.usedMemory), megabytes(before.headroom()),
             before.policy);
}

} // namespace EvictionCheck

MemoryWatch::Admission MemoryWatch::admit(RedisConnection& control, const ConnectOptions& options, qint64 estimate,
                                          QString* why)
{
    if (options.ownServer)
        return Admission::Admitted;
    m_where = control.endpoint().address();
    m_before = MemoryHeadroom::read(control);
    if (m_before.connectionLost) {
        *why = Text::tr("%1 did not answer INFO memory: %2").arg(m_where, m_before.unknownWhy);
        return Admission::Lost;
    }
    const QString refused = EvictionCheck::refusal(m_before, estimate, m_where);
    if (!refused.isEmpty() && !options.allowEviction) {
        *why = refused;
        return Admission::Refused;
    }
    m_stopAt = EvictionCheck::stopAt(m_before);
    if (m_stopAt < 0)
        return Admission::Admitted;
    ConnectOptions quick = options;
    quick.connectTimeout = std::min(options.connectTimeout, std::chrono::milliseconds(500));
    quick.commandTimeout = std::min(options.commandTimeout, std::chrono::milliseconds(500));
    m_connection = std::make_unique<RedisConnection>();
    if (!m_connection->open(control.endpoint(), quick)) {
        *why = Text::tr("%1 deletes keys to make room when it is full (%2), and zsetlab could not open the "
                        "connection that watches the run's memory there: %3")
                   .arg(m_where, m_before.describe(), m_connection->lastError().message);
        m_stopAt = -1;
        return Admission::Lost;
    }
    return Admission::Admitted;
}

QString MemoryWatch::pollIfDue()
{
    const auto now = std::chrono::steady_clock::now();
    if (m_stopAt < 0 || now - m_lastPoll < pollEvery)
        return {};
    m_lastPoll = now;
    return poll();
}

QString MemoryWatch::poll()
{
    if (m_stopAt < 0 || !m_connection)
        return {};
    const MemoryHeadroom now = MemoryHeadroom::read(*m_connection);
    if (!now.known) {
        if (!m_connection->isOpen())
            m_stopAt = -1;
        return {};
    }
    if (now.usedMemory < m_stopAt)
        return {};
    m_stopAt = -1;
    return EvictionCheck::stopped(m_before, now, m_where);
}
