#include "apptraffic.h"

#include "clientlimiter.h"
#include "limitercatalog.h"
#include "nodeconnections.h"
#include "requestlog.h"
#include "zsetkeys.h"

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

void AppTraffic::work(const RedisEndpoint& endpoint, ConnectOptions options, const AppPlan& plan)
{
    AppResult result;
    result.plan = plan;
    for (int user = 0; user < plan.users; ++user)
        result.keys.append({plan.userKey(user)});
    const auto fail = [&result](BurstFailure::Kind kind, const QString& message) {
        if (!result.failure.isFailure())
            result.failure = {kind, message, 0};
    };
    const auto end = [this, &result] {
        QMetaObject::invokeMethod(
            this,
            [this, result] {
                if (m_thread.joinable())
                    m_thread.join();
                m_result = result;
                m_running = false;
                emit finished(m_result);
            },
            Qt::QueuedConnection);
    };

    const LimiterRef entry = LimiterCatalog::find(plan.limiter);
    ClientLimiter client;
    ClientLimiter::find(plan.limiter, &client);
    const LimiterStore store = entry ? entry->store : LimiterStore::sortedSet();
    // On a cluster, one connection per master: each user's calls go to the master of its key.
    NodeConnections nodes;
    QString why;
    if (!nodes.open(endpoint, options, &why)) {
        fail(BurstFailure::Kind::Connection, why);
        return end();
    }
    result.serverVersion = nodes.first().server().version;
    std::vector<RedisConnection*> connectionOf; // by user
    connectionOf.reserve(plan.users);
    for (int user = 0; user < plan.users; ++user)
        connectionOf.push_back(&nodes.forKey(plan.userKey(user)));
    // Nothing is written before every key of every user is known to be free.
    for (int user = 0; user < plan.users && !result.failure.isFailure(); ++user) {
        RedisConnection& connection = *connectionOf[size_t(user)];
        if (const QString taken = store.checkKeys(connection, plan.userKey(user)); !taken.isEmpty())
            fail(connection.isOpen() ? BurstFailure::Kind::Script : BurstFailure::Kind::Connection, taken);
    }
    if (result.failure.isFailure())
        return end();
    for (const auto& connection : nodes.all()) {
        if (!entry)
            break;
        const RedisReply loaded = connection->command({QByteArrayLiteral("SCRIPT"), "LOAD", entry->script.source()});
        if (loaded.bytes() != entry->script.sha1()) {
            fail(loaded.isConnectionLost() ? BurstFailure::Kind::Connection : BurstFailure::Kind::Script,
                 Text::tr("Cannot load the script of %1: %2").arg(plan.limiter, loaded.toDisplayString()));
            return end();
        }
    }

    const QByteArray runTag = QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    const qint64 total = plan.requests();
    const qint64 lastMicros = (plan.durationMs + lateMs) * 1000;
    const Clock::time_point started = Clock::now();
    const auto elapsedMicros = [started] {
        return qint64(std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started).count());
    };
    qint64 sent = 0;
    while (sent < total && !m_stop && !result.failure.isFailure()) {
        const qint64 elapsed = elapsedMicros();
        if (elapsed > lastMicros) {
            result.late = true;
            break;
        }
        // Request i is due at i / perMs ms: the first one at once.
        const qint64 due = std::min(total, qint64(std::floor(plan.perMs * double(elapsed) / 1000.0)) + 1);
        if (due <= sent) {
            const qint64 nextAt = qint64(std::ceil(double(sent) / plan.perMs * 1000.0));
            std::this_thread::sleep_for(std::chrono::microseconds(std::clamp<qint64>(nextAt - elapsed, 1, 2000)));
            continue;
        }
        const qint64 chunk = std::min(due - sent, maxChunk);
        const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
        qint64 appended = 0;
        bool written = true;
        RedisConnection* failed = nullptr;
        for (; appended < chunk && written; ++appended) {
            const qint64 i = sent + appended;
            const QByteArray key = plan.userKey(int(i % plan.users));
            RedisConnection& connection = *connectionOf[size_t(i % plan.users)];
            failed = &connection;
            const QByteArray requestId = RequestLog::requestId(runTag, quint32(i));
            if (entry) {
                CallValues values;
                values.key = key;
                values.nowMicros = nowMs * 1000;
                values.windowMs = plan.windowMs;
                values.limit = plan.limit;
                values.seq = i + 1;
                values.uuid = requestId;
                written = connection.append(entry->evalsha(values));
            } else {
                for (const RedisArgs& command : client.commands(key, nowMs, plan.windowMs, requestId))
                    written = written && connection.append(command);
            }
        }
        if (!written) {
            fail(BurstFailure::Kind::Connection, Text::tr("Cannot send to the server: %1").arg(failed->failureText()));
            break;
        }
        // Every reply of the chunk is read, after a fault too: the connection stays in step.
        for (qint64 n = 0; n < chunk && !result.failure.isFailure(); ++n) {
            const qint64 i = sent + n;
            AppKeyTally& tally = result.keys[int(i % plan.users)];
            RedisConnection& connection = *connectionOf[size_t(i % plan.users)]; // its replies come in order
            RequestRecord record;
            record.now = nowMs;
            const int replies = entry ? 1 : ClientLimiter::commandsPerRequest;
            for (int r = 0; r < replies; ++r) {
                const RedisReply reply = connection.readReply();
                if (reply.isConnectionLost()) {
                    fail(BurstFailure::Kind::Connection,
                         Text::tr("The server stopped answering: %1").arg(reply.text()));
                    break;
                }
                if (reply.isServerError())
                    record.error = reply.text();
                else if (entry)
                    entry->readReply(reply, RequestLog::requestId(runTag, quint32(i)), &record);
                else if (r == 1) // ZADD's reply
                    record.added = static_cast<qint8>(reply.toInteger() > 0 ? 1 : 0);
            }
            if (result.failure.isFailure())
                break;
            if (!record.error.isEmpty()) {
                fail(BurstFailure::Kind::Script, plan.limiter + QStringLiteral(": ") + record.error);
                break;
            }
            ++tally.requests;
            tally.stored += record.added == 1 ? 1 : 0;
            tally.overwritten += record.added == 0 ? 1 : 0;
            tally.notAdded += record.added < 0 ? 1 : 0;
        }
        sent += chunk;
    }
    result.elapsedMs = elapsedMicros() / 1000;
    result.stopped = m_stop && sent < total && !result.failure.isFailure();

    if (!plan.keepKeys) {
        // A connection the server dropped may be back: delete on new ones, briefly.
        ConnectOptions quick = options;
        quick.commandTimeout = std::min(options.commandTimeout, std::chrono::milliseconds(1000));
        if (nodes.allOpen() || nodes.open(endpoint, quick, &why)) {
            for (int user = 0; user < plan.users; ++user)
                store.deleteKeys(nodes.forKey(plan.userKey(user)), plan.userKey(user));
        }
    }
    end();
}
