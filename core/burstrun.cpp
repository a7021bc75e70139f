#include "burstrun.h"

#include "limiterscript.h"
#include "requestlog.h"
#include "zsetkeys.h"

#include <QMetaObject>

#include <deque>

namespace {
constexpr int handOverEvery = 512; // records
constexpr auto handOverAfter = std::chrono::milliseconds(20);
constexpr auto interruptAfterStop = std::chrono::milliseconds(120);

qint64 wallMicros()
{
    using namespace std::chrono;
    return duration_cast<microseconds>(system_clock::now().time_since_epoch()).count();
}

// Script errors that will fail every request alike: end the burst at the first one.
bool isScriptFault(const RedisReply& reply)
{
    const QByteArray code = reply.errorCode();
    return code == "WRONGTYPE" || code == "NOSCRIPT" || code == "NOPERM" || reply.bytes().contains("user_script") ||
        reply.bytes().contains("Error running script") || ScriptError::fromReply(reply.text()).line > 0;
}
} // namespace

BurstRun::BurstRun(const RedisEndpoint& endpoint, const ConnectOptions& options, const BurstPlan& plan,
                   const QByteArray& key, const QByteArray& runTag)
    : m_endpoint(endpoint)
    , m_options(options)
    , m_plan(plan)
    , m_script(plan.script())
    , m_key(key)
    , m_runTag(runTag)
    , m_window(QByteArray::number(plan.windowInNowUnits()))
    , m_limit(QByteArray::number(plan.limit))
    , m_schedule(plan.scheduleMicros())
{ }

BurstRun::~BurstRun()
{
    requestStop();
    if (m_coordinator.joinable())
        m_coordinator.join();
}

void BurstRun::start(QObject* receiver, std::function<void()> onEnded)
{
    m_receiver = receiver;
    m_onEnded = std::move(onEnded);
    m_coordinator = std::thread([this] { coordinate(); });
}

void BurstRun::requestStop()
{
    m_stop = true;
    m_wake.notify_all();
}

void BurstRun::takeRecords(std::vector<RequestRecord>* into)
{
    std::lock_guard<std::mutex> lock(m_mutex);
    if (into->empty())
        into->swap(m_records);
    else
        std::move(m_records.begin(), m_records.end(), std::back_inserter(*into)), m_records.clear();
}

BurstFailure BurstRun::failure() const
{
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_failure;
}

void BurstRun::fail(BurstFailure::Kind kind, const QString& message, int line)
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_failure.isFailure())
            m_failure = {kind, message, line};
    }
    requestStop();
}

void BurstRun::handOver(std::vector<RequestRecord>* batch)
{
    if (batch->empty())
        return;
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_records.empty())
        m_records.swap(*batch);
    else
        std::move(batch->begin(), batch->end(), std::back_inserter(m_records));
    batch->clear();
}

void BurstRun::coordinate()
{
    auto announceEnd = [this] {
        if (m_receiver)
            QMetaObject::invokeMethod(m_receiver, m_onEnded, Qt::QueuedConnection);
    };

    // Connect, check the key and load the script once before any request is sent, so that a
    // bad server, key or script fails the burst cleanly with nothing written.
    RedisConnection control;
    if (!control.open(m_endpoint, m_options)) {
        fail(BurstFailure::Kind::Connection, control.lastError().message);
        return announceEnd();
    }
    m_serverVersion = control.server().version;
    const RedisReply type = control.command({QByteArrayLiteral("TYPE"), m_key});
    if (type.type() == RedisReply::Type::Status && type.bytes() != "none" && type.bytes() != "zset") {
        fail(BurstFailure::Kind::Script,
             QStringLiteral("The key %1 already holds a %2, not a sorted set. zsetlab leaves it as it is: choose "
                            "another key.")
                 .arg(QString::fromUtf8(m_key), type.text()));
        return announceEnd();
    }
    ScriptRunner loader(m_script);
    if (!loader.load(control)) {
        fail(control.isOpen() ? BurstFailure::Kind::Script : BurstFailure::Kind::Connection, loader.error(),
             loader.errorLine());
        return announceEnd();
    }

    for (int c = 0; c < m_plan.connections && !m_stop; ++c) {
        auto connection = std::make_unique<RedisConnection>();
        if (!connection->open(m_endpoint, m_options)) {
            fail(BurstFailure::Kind::Connection,
                 QStringLiteral("Connection %1 of %2: %3")
                     .arg(c + 1)
                     .arg(m_plan.connections)
                     .arg(connection->lastError().message));
            return announceEnd();
        }
        m_connections.push_back(std::move(connection));
    }
    if (m_stop)
        return announceEnd();

    m_startWallUs = wallMicros();
    m_startWallMs = m_startWallUs / 1000;
    m_startSteady = Clock::now();
    m_workersRunning = m_plan.connections;
    for (int c = 0; c < m_plan.connections; ++c)
        m_workers.emplace_back([this, c] { work(c); });

    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_wake.wait(lock, [this] { return m_workersRunning == 0 || m_stop; });
        if (m_workersRunning > 0) {
            // Stopping: give in-flight answers a moment, then unblock workers waiting on a
            // server that does not answer (paused, gone).
            if (!m_wake.wait_for(lock, interruptAfterStop, [this] { return m_workersRunning == 0; })) {
                for (auto& connection : m_connections)
                    connection->interrupt();
            }
        }
    }
    for (auto& worker : m_workers)
        worker.join();
    m_durationMs = std::chrono::duration<double, std::milli>(Clock::now() - m_startSteady).count();

    // The count left in the window when the burst ended; reads only.
    if (control.isOpen() && m_nextId > 0) {
        const RedisReply last = control.command({QByteArrayLiteral("ZREVRANGE"), m_key, "0", "0", "WITHSCORES"});
        if (last.type() == RedisReply::Type::Array && last.elements().size() == 2) {
            const qint64 maxScore = last.elements()[1].bytes().toLongLong();
            const RedisReply count = control.command({QByteArrayLiteral("ZCOUNT"), m_key,
                                                      '(' + QByteArray::number(maxScore - m_plan.windowInNowUnits()),
                                                      QByteArrayLiteral("+inf")});
            if (count.type() == RedisReply::Type::Integer)
                m_finalCount = count.toInteger();
        } else if (last.type() == RedisReply::Type::Array) {
            m_finalCount = 0;
        }
    }
    if (!m_plan.keepKey && control.isOpen())
        ZsetKeys::deleteRunKeys(control, m_key);
    m_connections.clear();
    announceEnd();
}

qint64 BurstRun::nowFor(int id, int connectionIndex) const
{
    const qint64 offsetMs = m_plan.clockOffsetMs(connectionIndex);
    switch (m_plan.clock) {
    case ClockKind::SystemMs:
        return wallMicros() / 1000 + offsetMs;
    case ClockKind::SystemUs:
        return wallMicros() + offsetMs * 1000;
    case ClockKind::Frozen:
        return m_startWallMs + offsetMs;
    case ClockKind::Schedule:
        return m_startWallMs + m_schedule[static_cast<size_t>(id)] / 1000 + offsetMs;
    }
    return 0;
}

RedisArgs BurstRun::callFor(int id, qint64 now) const
{
    return {QByteArrayLiteral("EVALSHA"),
            m_script.sha1(),
            QByteArrayLiteral("1"),
            m_key,
            QByteArray::number(now),
            m_window,
            m_limit,
            RequestLog::requestId(m_runTag, static_cast<quint32>(id))};
}

void BurstRun::readLimiterReply(const RedisReply& reply, RequestRecord* record) const
{
    // {count, added, member} from the built-in scripts; a bare count from scripts in the
    // article's style.
    if (reply.type() == RedisReply::Type::Integer) {
        record->count = reply.toInteger();
        return;
    }
    if (reply.type() == RedisReply::Type::Array && !reply.elements().empty() &&
        reply.elements()[0].type() == RedisReply::Type::Integer) {
        const auto& parts = reply.elements();
        record->count = parts[0].toInteger();
        if (parts.size() > 1 && parts[1].type() == RedisReply::Type::Integer)
            record->added = static_cast<qint8>(parts[1].toInteger() > 0 ? 1 : 0);
        if (parts.size() > 2) {
            const QByteArray member = parts[2].type() == RedisReply::Type::Integer
                ? QByteArray::number(parts[2].toInteger())
                : parts[2].bytes();
            if (member == QByteArray::number(record->now))
                record->memberKind = RequestRecord::MemberKind::Now;
            else if (member == RequestLog::requestId(m_runTag, record->id))
                record->memberKind = RequestRecord::MemberKind::RequestId;
            else {
                record->memberKind = RequestRecord::MemberKind::Text;
                record->member = member;
            }
        }
        return;
    }
    record->error = QStringLiteral("Cannot read the script's reply %1: expected {count, added, member} or a count.")
                        .arg(reply.toDisplayString().left(200));
}

void BurstRun::work(int connectionIndex)
{
    RedisConnection& connection = *m_connections[static_cast<size_t>(connectionIndex)];
    const int total = m_plan.requests;
    const auto pipeline = static_cast<size_t>(m_plan.pipeline);
    std::deque<InFlight> inFlight;
    std::vector<RequestRecord> batch;
    batch.reserve(handOverEvery);
    auto lastHandOver = Clock::now();
    bool loadPending = false;
    int claimed = -1;

    auto finish = [&](const InFlight& call, RequestRecord record) {
        const auto replied = Clock::now();
        record.id = static_cast<quint32>(call.id);
        record.connection = static_cast<quint16>(connectionIndex);
        record.now = call.now;
        record.sentMicros = std::chrono::duration_cast<std::chrono::microseconds>(call.sent - m_startSteady).count();
        record.latencyMicros =
            static_cast<quint32>(std::chrono::duration_cast<std::chrono::microseconds>(replied - call.sent).count());
        batch.push_back(std::move(record));
        if (batch.size() >= handOverEvery || replied - lastHandOver >= handOverAfter) {
            handOver(&batch);
            lastHandOver = replied;
        }
    };

    while (true) {
        bool sendNow = false;
        bool notYetDue = false;
        if (!m_stop && inFlight.size() < pipeline) {
            if (claimed < 0)
                claimed = std::min(m_nextId.fetch_add(1), total);
            if (claimed < total) {
                const bool due = !m_plan.isPaced() ||
                    Clock::now() >= m_startSteady + std::chrono::microseconds(m_schedule[size_t(claimed)]);
                sendNow = due;
                notYetDue = !due;
            }
        }
        if (sendNow) {
            const qint64 now = nowFor(claimed, connectionIndex);
            connection.append(callFor(claimed, now));
            inFlight.push_back({claimed, now, Clock::now()});
            claimed = -1;
            continue;
        }
        if (inFlight.empty()) {
            if (!notYetDue)
                break;
            // Nothing to read and the next request is not due: sleep until it is, or until Stop.
            handOver(&batch);
            const auto due = m_startSteady + std::chrono::microseconds(m_schedule[size_t(claimed)]);
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait_until(lock, due, [this] { return m_stop.load(); });
            continue;
        }
        const RedisReply reply = connection.readReply();
        const InFlight call = inFlight.front();
        inFlight.pop_front();

        if (reply.isConnectionLost()) {
            if (!m_stop) { // not our own interrupt: the server went away
                RequestRecord record;
                record.error = reply.text();
                finish(call, record);
                fail(BurstFailure::Kind::Connection,
                     QStringLiteral("Lost the connection to %1 after %2 requests: %3.")
                         .arg(m_endpoint.address())
                         .arg(m_nextId.load())
                         .arg(reply.text()));
            }
            break; // the rest in flight have no answer: they are not counted as sent
        }
        if (call.id < 0) { // our SCRIPT LOAD
            loadPending = false;
            if (reply.isError()) {
                const ScriptError error = ScriptError::fromReply(reply.text());
                fail(BurstFailure::Kind::Script, error.toString(), error.line);
            }
            continue;
        }
        if (ScriptRunner::isNoScript(reply)) {
            // The server forgot the script (SCRIPT FLUSH, restart): load it again and resend this
            // call behind the load, in the same pipeline.
            if (!loadPending) {
                connection.append({QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("LOAD"), m_script.source()});
                inFlight.push_back({-1, 0, Clock::now()});
                loadPending = true;
            }
            connection.append(callFor(call.id, call.now));
            inFlight.push_back(call);
            continue;
        }
        RequestRecord record;
        record.now = call.now;
        record.id = static_cast<quint32>(call.id);
        if (reply.isServerError()) {
            record.error = ScriptRunner::describeFailure(reply, m_key);
            if (isScriptFault(reply)) {
                const ScriptError error = ScriptError::fromReply(reply.text());
                fail(BurstFailure::Kind::Script, record.error, error.line);
            }
        } else {
            readLimiterReply(reply, &record);
        }
        finish(call, std::move(record));
    }
    handOver(&batch);
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        --m_workersRunning;
    }
    m_wake.notify_all();
}
