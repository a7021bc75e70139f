#include "algorithmcomparison.h"

#include "nodeconnections.h"

#include "commandstats.h"
#include "limitercatalog.h"
#include "requestlog.h"
#include "slidingwindowtruth.h"
#include "zsetkeys.h"

#include <QDateTime>
#include <QMetaObject>
#include <QRandomGenerator>

#include <algorithm>
#include <chrono>

namespace {
constexpr auto progressEvery = std::chrono::milliseconds(50);

// The truth of every request: its user's exact sliding log on the same timestamps.
std::vector<char> truthOf(const ComparisonPlan& plan, const std::vector<qint64>& nows)
{
    std::vector<SlidingWindowTruth> logs(size_t(plan.users), SlidingWindowTruth(plan.burst.windowMs, plan.burst.limit));
    std::vector<char> truth(nows.size());
    for (size_t i = 0; i < nows.size(); ++i)
        truth[i] = logs[size_t(plan.userOf(int(i)))].admit(nows[i]) ? 1 : 0;
    return truth;
}
} // namespace

AlgorithmComparison::AlgorithmComparison(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<AlgorithmTally>();
    qRegisterMetaType<ComparisonResult>();
}

AlgorithmComparison::~AlgorithmComparison()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

bool AlgorithmComparison::start(const RedisEndpoint& endpoint, const ComparisonPlan& plan,
                                const ConnectOptions& options)
{
    if (m_running) {
        m_planError = tr("A comparison is running: stop it first.");
        return false;
    }
    m_planError = plan.validate();
    if (!m_planError.isEmpty())
        return false;
    if (m_thread.joinable())
        m_thread.join();
    m_result = ComparisonResult();
    m_result.plan = plan;
    m_stop = false;
    m_running = true;
    m_thread = std::thread([this, endpoint, options, plan] { work(endpoint, options, plan); });
    return true;
}

void AlgorithmComparison::stop()
{
    m_stop = true;
}

void AlgorithmComparison::work(const RedisEndpoint& endpoint, ConnectOptions options, ComparisonPlan plan)
{
    ComparisonResult result;
    result.plan = plan;
    const auto post = [this](std::function<void()> call) {
        QMetaObject::invokeMethod(this, std::move(call), Qt::QueuedConnection);
    };
    const auto end = [this, &result, &post] {
        post([this, result] {
            if (m_thread.joinable())
                m_thread.join();
            m_result = result;
            m_running = false;
            emit finished(m_result);
        });
    };
    const auto fail = [&result](BurstFailure::Kind kind, const QString& message) {
        if (!result.failure.isFailure())
            result.failure = {kind, message, 0};
    };

    // On a cluster, one connection per master: each user's keys go to the master of their slot.
    NodeConnections nodes;
    QString why;
    if (!nodes.open(endpoint, options, &why)) {
        fail(BurstFailure::Kind::Connection, why);
        return end();
    }
    result.serverVersion = nodes.first().server().version;
    // The server's own count of EVALSHA calls and their time, summed over the masters.
    const auto evalshaStats = [&nodes] {
        CommandStats sum;
        sum.known = true;
        for (const auto& connection : nodes.all()) {
            const CommandStats stats = CommandStats::read(*connection, "evalsha");
            sum.calls += stats.calls;
            sum.usec += stats.usec;
            sum.known = sum.known && stats.known;
        }
        return sum;
    };
    const qint64 window = plan.burst.windowMs;
    const std::vector<qint64> nows
        = plan.timestamps(ComparisonPlan::alignedStart(QDateTime::currentMSecsSinceEpoch(), window));
    const std::vector<char> truth = truthOf(plan, nows);
    const QByteArray runTag = QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    const size_t depth = size_t(std::max(plan.burst.pipeline, 1));
    const QStringList ids = plan.limiterIds();

    for (int index = 0; index < ids.size() && !m_stop && !result.failure.isFailure(); ++index) {
        const QString& id = ids.at(index);
        const LimiterRef limiter = LimiterCatalog::find(id);
        post([this, index, id] { emit algorithmStarted(index, id); });
        AlgorithmTally tally;
        tally.id = id;
        tally.runKey = ZsetKeys::freshRunKey();
        const auto keyOf = [&plan, &tally](int user) { return plan.userKey(tally.runKey, user); };
        std::vector<RedisConnection*> connectionOf; // by user: its key's master
        connectionOf.reserve(plan.users);
        for (int user = 0; user < plan.users; ++user)
            connectionOf.push_back(&nodes.forKey(keyOf(user)));

        // Nothing is written before every key of every user is known to be free.
        for (int user = 0; user < plan.users && !result.failure.isFailure(); ++user) {
            if (const QString taken = limiter->store.checkKeys(*connectionOf[size_t(user)], keyOf(user));
                !taken.isEmpty())
                fail(BurstFailure::Kind::Script, taken);
        }
        if (result.failure.isFailure())
            break;
        for (const auto& connection : nodes.all()) {
            const RedisReply loaded
                = connection->command({QByteArrayLiteral("SCRIPT"), "LOAD", limiter->script.source()});
            if (loaded.bytes() != limiter->script.sha1()) {
                fail(loaded.isConnectionLost() ? BurstFailure::Kind::Connection : BurstFailure::Kind::Script,
                     tr("Cannot load the script of %1: %2").arg(id, loaded.toDisplayString()));
                break;
            }
        }
        if (result.failure.isFailure())
            break;

        const CommandStats before = evalshaStats();
        auto reported = std::chrono::steady_clock::now();
        size_t next = 0;
        while (next < nows.size() && !m_stop && !result.failure.isFailure()) {
            const size_t last = std::min(next + depth, nows.size());
            size_t appended = next;
            RedisConnection* unwritten = nullptr;
            for (; appended < last; ++appended) {
                RedisConnection& connection = *connectionOf[size_t(plan.userOf(int(appended)))];
                CallValues values;
                values.key = keyOf(plan.userOf(int(appended)));
                values.nowMicros = nows[appended] * 1000;
                values.windowMs = window;
                values.limit = plan.burst.limit;
                values.seq = qint64(appended) + 1;
                values.uuid = RequestLog::requestId(runTag, quint32(appended));
                if (!connection.append(limiter->evalsha(values))) {
                    unwritten = &connection;
                    break;
                }
            }
            // Every reply of the chunk is read, after a fault too: the connection stays in step.
            for (size_t i = next; i < appended; ++i) {
                // Each connection answers its own calls in order.
                const RedisReply reply = connectionOf[size_t(plan.userOf(int(i)))]->readReply();
                if (reply.isConnectionLost()) {
                    fail(BurstFailure::Kind::Connection,
                         tr("The server stopped answering during %1: %2").arg(id, reply.text()));
                    break;
                }
                RequestRecord record;
                record.now = nows[i];
                if (reply.isServerError())
                    record.error = reply.text();
                else
                    limiter->readReply(reply, RequestLog::requestId(runTag, quint32(i)), &record);
                if (!record.error.isEmpty()) {
                    fail(BurstFailure::Kind::Script, tr("%1: %2").arg(id, record.error));
                    continue;
                }
                const bool admitted = record.verdict >= 0 ? record.verdict == 1
                                                          : (record.count >= 0 && record.count <= plan.burst.limit);
                ++tally.requests;
                tally.admitted += admitted ? 1 : 0;
                tally.truthAdmitted += truth[i];
                tally.admittedOverLimit += admitted && !truth[i] ? 1 : 0;
                tally.rejectedUnderLimit += !admitted && truth[i] ? 1 : 0;
            }
            if (unwritten && !result.failure.isFailure())
                fail(BurstFailure::Kind::Connection, tr("Cannot send to the server: %1").arg(unwritten->failureText()));
            next = appended;
            const auto now = std::chrono::steady_clock::now();
            if (now - reported >= progressEvery || next == nows.size()) {
                reported = now;
                const int answered = int(next);
                const int total = int(nows.size());
                post([this, index, answered, total] { emit progress(index, answered, total); });
            }
        }
        const bool whole = next == nows.size() && !result.failure.isFailure();

        if (nodes.allOpen() && !result.failure.isFailure()) {
            const CommandStats after = evalshaStats();
            tally.serverCalls = after.calls - before.calls;
            tally.serverUsecPerCall = CommandStats::usecPerCall(before, after);
            tally.memoryBytes = 0;
            for (int user = 0; user < plan.users; ++user) {
                int keys = 0;
                const qint64 bytes = limiter->store.memoryBytes(*connectionOf[size_t(user)], keyOf(user), &keys);
                if (bytes < 0) {
                    tally.memoryBytes = -1;
                    break;
                }
                tally.memoryBytes += bytes;
                tally.keys += keys;
            }
            if (tally.memoryBytes >= 0)
                tally.memoryBytesPerKey = double(tally.memoryBytes) / plan.users;
        }
        if (!plan.keepKeys || !whole) {
            // A connection the server dropped may be back: delete on new ones, briefly.
            ConnectOptions quick = options;
            quick.commandTimeout = std::min(options.commandTimeout, std::chrono::milliseconds(1000));
            if (nodes.allOpen() || nodes.open(endpoint, quick, &why)) {
                for (int user = 0; user < plan.users; ++user)
                    limiter->store.deleteKeys(nodes.forKey(keyOf(user)), keyOf(user));
            }
        }
        if (!whole) {
            result.stopped = m_stop && !result.failure.isFailure();
            break;
        }
        result.algorithms << tally;
        post([this, tally] { emit algorithmFinished(tally); });
    }
    result.stopped = result.stopped || (m_stop && result.algorithms.size() < ids.size());
    end();
}
