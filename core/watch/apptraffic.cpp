#include "apptraffic.h"

#include "limiters/clientlimiter.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "redis/memoryheadroom.h"
#include "redis/nodeconnections.h"
#include "results/requestlog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QMetaObject>
#include <QRandomGenerator>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(AppTraffic)
};

using Clock = std::chrono::steady_clock;
constexpr qint64 maxChunk = 64; // requests sent together before their replies are read
// A server that cannot take the rate ends the traffic this long after its duration.
constexpr qint64 lateMs = 5000;

QByteArray freshAppKey()
{
    QByteArray key = ZsetKeys::freshRunKey();
    return key.replace(QByteArrayLiteral("zsetlab:run:"), QByteArrayLiteral("zsetlab:app:"));
}
} // namespace

QString AppPlan::validate() const
{
    ClientLimiter client;
    const LimiterRef entry = LimiterCatalog::find(limiter);
    if (!entry && !ClientLimiter::find(limiter, &client))
        return Text::tr("There is no limiter \"%1\": use one of %2.")
            .arg(limiter, (LimiterCatalog::ids() + ClientLimiter::ids()).join(QStringLiteral(", ")));
    if (entry && entry->needsLimit() && limit < 1)
        return Text::tr("%1 decides by the limit: give a limit above 0.").arg(limiter);
    if (users < 1 || users > maxUsers)
        return Text::tr("The users must be from 1 to %1, not %2.").arg(maxUsers).arg(users);
    if (!(perMs > 0) || durationMs < 1 || durationMs > maxDurationMs)
        return Text::tr("The rate must be above 0 per ms and the duration from 1 to %1 ms.").arg(maxDurationMs);
    if (requests() > maxRequests)
        return Text::tr("%1 per ms for %2 ms makes more than %3 requests: lower the rate or the duration.")
            .arg(perMs)
            .arg(durationMs)
            .arg(maxRequests);
    if (windowMs < 1 || limit < 0)
        return Text::tr("The window must be at least 1 ms and the limit 0 or more.");
    return {};
}

qint64 AppPlan::requests() const
{
    return perMs > 0 && perMs * double(durationMs) < 1e12
        ? std::max<qint64>(1, std::llround(perMs * double(durationMs)))
        : maxRequests + 1;
}

QByteArray AppPlan::userKey(int user) const
{
    return users == 1 ? runKey : ZsetKeys::userOfRun(runKey, user);
}

qint64 AppResult::requests() const
{
    qint64 total = 0;
    for (const AppKeyTally& key : keys)
        total += key.requests;
    return total;
}

qint64 AppResult::overwritten() const
{
    qint64 total = 0;
    for (const AppKeyTally& key : keys)
        total += key.overwritten;
    return total;
}

AppTraffic::AppTraffic(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<AppResult>();
}

AppTraffic::~AppTraffic()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

bool AppTraffic::start(const RedisEndpoint& endpoint, const AppPlan& plan, const ConnectOptions& options)
{
    m_planError = m_running ? Text::tr("The app is running: stop it first.") : plan.validate();
    if (!m_planError.isEmpty())
        return false;
    if (m_thread.joinable())
        m_thread.join();
    AppPlan fresh = plan;
    if (fresh.runKey.isEmpty())
        fresh.runKey = freshAppKey();
    m_result = AppResult();
    m_result.plan = fresh;
    m_stop = false;
    m_running = true;
    m_thread = std::thread([this, endpoint, options, fresh] { work(endpoint, options, fresh); });
    return true;
}

void AppTraffic::stop()
{
    m_stop = true;
}

// One app's traffic, on its thread: the keys checked and the script loaded, then requests at
// the plan's rate until all are sent, the time is up or stop().
class AppTraffic::Run
{
public:
    Run(AppTraffic& owner, RedisEndpoint endpoint, ConnectOptions options, AppPlan plan)
        : m_owner(owner)
        , m_endpoint(std::move(endpoint))
        , m_options(options)
        , m_plan(std::move(plan))
        , m_entry(LimiterCatalog::find(m_plan.limiter))
        , m_store(m_entry ? m_entry->store : LimiterStore::sortedSet())
    {
        ClientLimiter::find(m_plan.limiter, &m_client);
    }

    // The whole run, then finished().
    void play();

private:
    // On a cluster, one connection per master: each user's calls go to the master of its key.
    // False after fail().
    bool connect();
    // Nothing is written before every key of every user is known to be free; then the script is
    // loaded on every master. False after fail().
    bool prepare();
    // Requests at the plan's rate, a chunk at a time; how many were sent.
    qint64 send();
    // Appends the chunk's calls; false after fail() when a connection could not take one.
    bool sendChunk(qint64 sent, qint64 chunk, qint64 nowMs);
    // Reads every reply of the chunk into the users' tallies, until a failure.
    void readChunk(qint64 sent, qint64 chunk, qint64 nowMs);
    // A connection the server dropped may be back: delete on new ones, briefly.
    void deleteKeys();
    qint64 elapsedMicros() const
    {
        return qint64(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - m_started).count());
    }
    bool failed() const { return m_result.failure.isFailure(); }
    void fail(BurstFailure::Kind kind, const QString& message);
    void end();

    AppTraffic& m_owner;
    const RedisEndpoint m_endpoint;
    const ConnectOptions m_options;
    const AppPlan m_plan;
    AppResult m_result;
    const LimiterRef m_entry; // null: a client-side limiter (m_client)
    ClientLimiter m_client;
    const LimiterStore m_store;
    NodeConnections m_nodes;
    std::vector<RedisConnection*> m_connectionOf; // by user
    QByteArray m_runTag;
    Clock::time_point m_started;
};

void AppTraffic::work(RedisEndpoint endpoint, ConnectOptions options, AppPlan plan)
{
    Run(*this, std::move(endpoint), options, std::move(plan)).play();
}

void AppTraffic::Run::fail(BurstFailure::Kind kind, const QString& message)
{
    if (!m_result.failure.isFailure())
        m_result.failure = {kind, message, 0};
}

void AppTraffic::Run::end()
{
    AppTraffic* owner = &m_owner;
    QMetaObject::invokeMethod(
        owner,
        [owner, result = m_result] {
            if (owner->m_thread.joinable())
                owner->m_thread.join();
            owner->m_result = result;
            owner->m_running = false;
            emit owner->finished(owner->m_result);
        },
        Qt::QueuedConnection);
}

void AppTraffic::Run::play()
{
    m_result.plan = m_plan;
    for (int user = 0; user < m_plan.users; ++user)
        m_result.keys.append({m_plan.userKey(user)});
    if (!connect() || !prepare())
        return end();

    m_runTag = QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    const qint64 sent = send();
    m_result.elapsedMs = elapsedMicros() / 1000;
    m_result.stopped = m_owner.m_stop && sent < m_plan.requests() && !failed();
    if (!m_plan.keepKeys)
        deleteKeys();
    end();
}

bool AppTraffic::Run::connect()
{
    QString why;
    if (!m_nodes.open(m_endpoint, m_options, &why)) {
        fail(BurstFailure::Kind::Connection, why);
        return false;
    }
    m_result.serverVersion = m_nodes.first().server().version;
    for (int user = 0; user < m_plan.users; ++user)
        m_connectionOf.push_back(&m_nodes.forKey(m_plan.userKey(user)));
    return true;
}

bool AppTraffic::Run::prepare()
{
    // Built-in limiters only: at most a member or a counter a request, on each master.
    for (const auto& connection : m_nodes.all()) {
        MemoryWatch memory;
        QString why;
        const auto admission = memory.admit(*connection, m_options,
                                            EvictionCheck::estimateBytes(m_plan.requests() + m_plan.users), &why);
        if (admission != MemoryWatch::Admission::Admitted) {
            fail(admission == MemoryWatch::Admission::Refused ? BurstFailure::Kind::Eviction
                                                              : BurstFailure::Kind::Connection,
                 why);
            return false;
        }
    }
    for (int user = 0; user < m_plan.users && !failed(); ++user) {
        RedisConnection& connection = *m_connectionOf[size_t(user)];
        if (const QString taken = m_store.checkKeys(connection, m_plan.userKey(user)); !taken.isEmpty())
            fail(connection.isOpen() ? BurstFailure::Kind::Script : BurstFailure::Kind::Connection, taken);
    }
    if (failed())
        return false;
    for (const auto& connection : m_nodes.all()) {
        if (!m_entry)
            break;
        const RedisReply loaded = connection->command({QByteArrayLiteral("SCRIPT"), "LOAD", m_entry->script.source()});
        if (loaded.bytes() != m_entry->script.sha1()) {
            fail(loaded.isConnectionLost() ? BurstFailure::Kind::Connection : BurstFailure::Kind::Script,
                 Text::tr("Cannot load the script of %1: %2").arg(m_plan.limiter, loaded.toDisplayString()));
            return false;
        }
    }
    return true;
}

qint64 AppTraffic::Run::send()
{
    const qint64 total = m_plan.requests();
    const qint64 lastMicros = (m_plan.durationMs + lateMs) * 1000;
    m_started = Clock::now();
    qint64 sent = 0;
    while (sent < total && !m_owner.m_stop && !failed()) {
        const qint64 elapsed = elapsedMicros();
        if (elapsed > lastMicros) {
            m_result.late = true;
            break;
        }
        // Request i is due at i / perMs ms: the first one at once.
        const qint64 due = std::min(total, qint64(std::floor(m_plan.perMs * double(elapsed) / 1000.0)) + 1);
        if (due <= sent) {
            const qint64 nextAt = qint64(std::ceil(double(sent) / m_plan.perMs * 1000.0));
            std::this_thread::sleep_for(std::chrono::microseconds(std::clamp<qint64>(nextAt - elapsed, 1, 2000)));
            continue;
        }
        const qint64 chunk = std::min(due - sent, maxChunk);
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        if (!sendChunk(sent, chunk, nowMs))
            break;
        readChunk(sent, chunk, nowMs);
        sent += chunk;
    }
    return sent;
}

bool AppTraffic::Run::sendChunk(qint64 sent, qint64 chunk, qint64 nowMs)
{
    bool written = true;
    RedisConnection* failedConnection = nullptr;
    for (qint64 appended = 0; appended < chunk && written; ++appended) {
        const qint64 i = sent + appended;
        const QByteArray key = m_plan.userKey(int(i % m_plan.users));
        RedisConnection& connection = *m_connectionOf[size_t(i % m_plan.users)];
        failedConnection = &connection;
        const QByteArray requestId = RequestLog::requestId(m_runTag, quint32(i));
        if (m_entry) {
            CallValues values;
            values.key = key;
            values.nowMicros = nowMs * 1000;
            values.windowMs = m_plan.windowMs;
            values.limit = m_plan.limit;
            values.seq = i + 1;
            values.uuid = requestId;
            written = connection.append(m_entry->evalsha(values));
        } else {
            for (const RedisArgs& command : m_client.commands(key, nowMs, m_plan.windowMs, requestId))
                written = written && connection.append(command);
        }
    }
    if (!written)
        fail(BurstFailure::Kind::Connection,
             Text::tr("Cannot send to the server: %1").arg(failedConnection->failureText()));
    return written;
}

void AppTraffic::Run::readChunk(qint64 sent, qint64 chunk, qint64 nowMs)
{
    // Every reply of the chunk is read, after a fault too: the connection stays in step.
    for (qint64 n = 0; n < chunk && !failed(); ++n) {
        const qint64 i = sent + n;
        AppKeyTally& tally = m_result.keys[int(i % m_plan.users)];
        RedisConnection& connection = *m_connectionOf[size_t(i % m_plan.users)]; // its replies come in order
        RequestRecord record;
        record.now = nowMs;
        const int replies = m_entry ? 1 : ClientLimiter::commandsPerRequest;
        for (int r = 0; r < replies; ++r) {
            const RedisReply reply = connection.readReply();
            if (reply.isConnectionLost()) {
                fail(BurstFailure::Kind::Connection, Text::tr("The server stopped answering: %1").arg(reply.text()));
                break;
            }
            if (reply.isServerError())
                record.error = reply.text();
            else if (m_entry)
                m_entry->readReply(reply, RequestLog::requestId(m_runTag, quint32(i)), &record);
            else if (r == 1) // ZADD's reply
                record.added = static_cast<qint8>(reply.toInteger() > 0 ? 1 : 0);
        }
        if (failed())
            break;
        if (!record.error.isEmpty()) {
            fail(BurstFailure::Kind::Script, m_plan.limiter + QStringLiteral(": ") + record.error);
            break;
        }
        ++tally.requests;
        tally.stored += record.added == 1 ? 1 : 0;
        tally.overwritten += record.added == 0 ? 1 : 0;
        tally.notAdded += record.added < 0 ? 1 : 0;
    }
}

void AppTraffic::Run::deleteKeys()
{
    ConnectOptions quick = m_options;
    quick.commandTimeout = std::min(m_options.commandTimeout, std::chrono::milliseconds(1000));
    QString why;
    if (m_nodes.allOpen() || m_nodes.open(m_endpoint, quick, &why)) {
        for (int user = 0; user < m_plan.users; ++user)
            m_store.deleteKeys(m_nodes.forKey(m_plan.userKey(user)), m_plan.userKey(user));
    }
}
