#include "algorithmcomparison.h"

#include "redis/nodeconnections.h"

#include "commandstats.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "results/requestlog.h"
#include "slidingwindowtruth.h"

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

// One comparison, on its thread: the algorithms in turn, each on fresh keys, with the same
// timestamps and the same truth.
class AlgorithmComparison::Run
{
public:
    Run(AlgorithmComparison& owner, RedisEndpoint endpoint, ConnectOptions options, ComparisonPlan plan)
        : m_owner(owner)
        , m_endpoint(std::move(endpoint))
        , m_options(options)
        , m_plan(std::move(plan))
    { }

    // Every algorithm of the plan until one fails or stop(); then finished().
    void compare();

private:
    // One algorithm, whole or cut short; false when the comparison goes no further.
    bool runAlgorithm(int index);
    // Nothing is written before every key of every user is known to be free; then the script is
    // loaded on every master. False after fail().
    bool prepare(const LimiterRef& limiter, const QString& id);
    // Every request, a pipeline's depth at a time; how many were answered.
    size_t fire(int index, const LimiterRef& limiter, AlgorithmTally* tally);
    // Appends the calls from `next` on, up to the depth; where the appending stopped, and the
    // connection that could not take a call (*unwritten).
    size_t sendChunk(size_t next, const LimiterRef& limiter, RedisConnection** unwritten);
    // Reads every reply of the chunk, after a fault too: the connections stay in step.
    void readChunk(size_t next, size_t appended, const LimiterRef& limiter, AlgorithmTally* tally);
    // The server's time per call and the memory of the algorithm's keys.
    void measure(const LimiterRef& limiter, const CommandStats& before, AlgorithmTally* tally);
    // A connection the server dropped may be back: delete on new ones, briefly.
    void deleteKeys(const LimiterRef& limiter);
    // The server's own count of EVALSHA calls and their time, summed over the masters.
    CommandStats evalshaStats();
    QByteArray keyOf(int user) const { return m_plan.userKey(m_runKey, user); }
    bool failed() const { return m_result.failure.isFailure(); }
    void fail(BurstFailure::Kind kind, const QString& message);
    void post(std::function<void()> call);
    void end();

    AlgorithmComparison& m_owner;
    const RedisEndpoint m_endpoint;
    const ConnectOptions m_options;
    const ComparisonPlan m_plan;
    ComparisonResult m_result;
    // On a cluster, one connection per master: each user's keys go to the master of their slot.
    NodeConnections m_nodes;
    std::vector<qint64> m_nows;
    std::vector<char> m_truth;
    QByteArray m_runTag;
    size_t m_depth = 1;
    QStringList m_ids;
    QByteArray m_runKey; // the current algorithm's
    std::vector<RedisConnection*> m_connectionOf; // by user: its key's master
};

void AlgorithmComparison::work(RedisEndpoint endpoint, ConnectOptions options, ComparisonPlan plan)
{
    Run(*this, std::move(endpoint), options, std::move(plan)).compare();
}

void AlgorithmComparison::Run::post(std::function<void()> call)
{
    QMetaObject::invokeMethod(&m_owner, std::move(call), Qt::QueuedConnection);
}

void AlgorithmComparison::Run::end()
{
    AlgorithmComparison* owner = &m_owner;
    post([owner, result = m_result] {
        if (owner->m_thread.joinable())
            owner->m_thread.join();
        owner->m_result = result;
        owner->m_running = false;
        emit owner->finished(owner->m_result);
    });
}

void AlgorithmComparison::Run::fail(BurstFailure::Kind kind, const QString& message)
{
    if (!m_result.failure.isFailure())
        m_result.failure = {kind, message, 0};
}

CommandStats AlgorithmComparison::Run::evalshaStats()
{
    CommandStats sum;
    sum.known = true;
    for (const auto& connection : m_nodes.all()) {
        const CommandStats stats = CommandStats::read(*connection, "evalsha");
        sum.calls += stats.calls;
        sum.usec += stats.usec;
        sum.known = sum.known && stats.known;
    }
    return sum;
}

void AlgorithmComparison::Run::compare()
{
    m_result.plan = m_plan;
    QString why;
    if (!m_nodes.open(m_endpoint, m_options, &why)) {
        fail(BurstFailure::Kind::Connection, why);
        return end();
    }
    m_result.serverVersion = m_nodes.first().server().version;
    const qint64 window = m_plan.burst.windowMs;
    m_nows = m_plan.timestamps(ComparisonPlan::alignedStart(QDateTime::currentMSecsSinceEpoch(), window));
    m_truth = truthOf(m_plan, m_nows);
    m_runTag = QByteArray::number(QRandomGenerator::global()->generate64(), 36);
    m_depth = size_t(std::max(m_plan.burst.pipeline, 1));
    m_ids = m_plan.limiterIds();

    for (int index = 0; index < m_ids.size() && !m_owner.m_stop && !failed(); ++index) {
        if (!runAlgorithm(index))
            break;
    }
    m_result.stopped = m_result.stopped || (m_owner.m_stop && m_result.algorithms.size() < m_ids.size());
    end();
}

bool AlgorithmComparison::Run::runAlgorithm(int index)
{
    const QString id = m_ids.at(index);
    const LimiterRef limiter = LimiterCatalog::find(id);
    AlgorithmComparison* owner = &m_owner;
    post([owner, index, id] { emit owner->algorithmStarted(index, id); });
    AlgorithmTally tally;
    tally.id = id;
    tally.runKey = ZsetKeys::freshRunKey();
    m_runKey = tally.runKey;
    m_connectionOf.clear();
    for (int user = 0; user < m_plan.users; ++user)
        m_connectionOf.push_back(&m_nodes.forKey(keyOf(user)));
    if (!prepare(limiter, id))
        return false;

    const CommandStats before = evalshaStats();
    const size_t answered = fire(index, limiter, &tally);
    const bool whole = answered == m_nows.size() && !failed();
    if (m_nodes.allOpen() && !failed())
        measure(limiter, before, &tally);
    if (!m_plan.keepKeys || !whole)
        deleteKeys(limiter);
    if (!whole) {
        m_result.stopped = m_owner.m_stop && !failed();
        return false;
    }
    m_result.algorithms << tally;
    post([owner, tally] { emit owner->algorithmFinished(tally); });
    return true;
}

bool AlgorithmComparison::Run::prepare(const LimiterRef& limiter, const QString& id)
{
    for (int user = 0; user < m_plan.users && !failed(); ++user) {
        if (const QString taken = limiter->store.checkKeys(*m_connectionOf[size_t(user)], keyOf(user));
            !taken.isEmpty())
            fail(BurstFailure::Kind::Script, taken);
    }
    if (failed())
        return false;
    for (const auto& connection : m_nodes.all()) {
        const RedisReply loaded = connection->command({QByteArrayLiteral("SCRIPT"), "LOAD", limiter->script.source()});
        if (loaded.bytes() != limiter->script.sha1()) {
            fail(loaded.isConnectionLost() ? BurstFailure::Kind::Connection : BurstFailure::Kind::Script,
                 AlgorithmComparison::tr("Cannot load the script of %1: %2").arg(id, loaded.toDisplayString()));
            break;
        }
    }
    return !failed();
}

size_t AlgorithmComparison::Run::fire(int index, const LimiterRef& limiter, AlgorithmTally* tally)
{
    auto reported = std::chrono::steady_clock::now();
    size_t next = 0;
    while (next < m_nows.size() && !m_owner.m_stop && !failed()) {
        RedisConnection* unwritten = nullptr;
        const size_t appended = sendChunk(next, limiter, &unwritten);
        readChunk(next, appended, limiter, tally);
        if (unwritten && !failed())
            fail(BurstFailure::Kind::Connection,
                 AlgorithmComparison::tr("Cannot send to the server: %1").arg(unwritten->failureText()));
        next = appended;
        const auto now = std::chrono::steady_clock::now();
        if (now - reported >= progressEvery || next == m_nows.size()) {
            reported = now;
            const int answered = int(next);
            const int total = int(m_nows.size());
            AlgorithmComparison* owner = &m_owner;
            post([owner, index, answered, total] { emit owner->progress(index, answered, total); });
        }
    }
    return next;
}

size_t AlgorithmComparison::Run::sendChunk(size_t next, const LimiterRef& limiter, RedisConnection** unwritten)
{
    const size_t last = std::min(next + m_depth, m_nows.size());
    size_t appended = next;
    for (; appended < last; ++appended) {
        RedisConnection& connection = *m_connectionOf[size_t(m_plan.userOf(int(appended)))];
        CallValues values;
        values.key = keyOf(m_plan.userOf(int(appended)));
        values.nowMicros = m_nows[appended] * 1000;
        values.windowMs = m_plan.burst.windowMs;
        values.limit = m_plan.burst.limit;
        values.seq = qint64(appended) + 1;
        values.uuid = RequestLog::requestId(m_runTag, quint32(appended));
        if (!connection.append(limiter->evalsha(values))) {
            *unwritten = &connection;
            break;
        }
    }
    return appended;
}

void AlgorithmComparison::Run::readChunk(size_t next, size_t appended, const LimiterRef& limiter, AlgorithmTally* tally)
{
    for (size_t i = next; i < appended; ++i) {
        // Each connection answers its own calls in order.
        const RedisReply reply = m_connectionOf[size_t(m_plan.userOf(int(i)))]->readReply();
        if (reply.isConnectionLost()) {
            fail(BurstFailure::Kind::Connection,
                 AlgorithmComparison::tr("The server stopped answering during %1: %2").arg(tally->id, reply.text()));
            return;
        }
        RequestRecord record;
        record.now = m_nows[i];
        if (reply.isServerError())
            record.error = reply.text();
        else
            limiter->readReply(reply, RequestLog::requestId(m_runTag, quint32(i)), &record);
        if (!record.error.isEmpty()) {
            fail(BurstFailure::Kind::Script, AlgorithmComparison::tr("%1: %2").arg(tally->id, record.error));
            continue;
        }
        const bool admitted
            = record.verdict >= 0 ? record.verdict == 1 : (record.count >= 0 && record.count <= m_plan.burst.limit);
        ++tally->requests;
        tally->admitted += admitted ? 1 : 0;
        tally->truthAdmitted += m_truth[i];
        tally->admittedOverLimit += admitted && !m_truth[i] ? 1 : 0;
        tally->rejectedUnderLimit += !admitted && m_truth[i] ? 1 : 0;
    }
}

void AlgorithmComparison::Run::measure(const LimiterRef& limiter, const CommandStats& before, AlgorithmTally* tally)
{
    const CommandStats after = evalshaStats();
    tally->serverCalls = after.calls - before.calls;
    tally->serverUsecPerCall = CommandStats::usecPerCall(before, after);
    tally->memoryBytes = 0;
    for (int user = 0; user < m_plan.users; ++user) {
        int keys = 0;
        const qint64 bytes = limiter->store.memoryBytes(*m_connectionOf[size_t(user)], keyOf(user), &keys);
        if (bytes < 0) {
            tally->memoryBytes = -1;
            break;
        }
        tally->memoryBytes += bytes;
        tally->keys += keys;
    }
    if (tally->memoryBytes >= 0)
        tally->memoryBytesPerKey = double(tally->memoryBytes) / m_plan.users;
}

void AlgorithmComparison::Run::deleteKeys(const LimiterRef& limiter)
{
    ConnectOptions quick = m_options;
    quick.commandTimeout = std::min(m_options.commandTimeout, std::chrono::milliseconds(1000));
    QString why;
    if (m_nodes.allOpen() || m_nodes.open(m_endpoint, quick, &why)) {
        for (int user = 0; user < m_plan.users; ++user)
            limiter->store.deleteKeys(m_nodes.forKey(keyOf(user)), keyOf(user));
    }
}
