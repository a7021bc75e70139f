#include "runawayguard.h"

#include <QCoreApplication>

#include <algorithm>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(RunawayGuard)
};

using namespace std::chrono_literals;
// After BUSY: a call that came in behind another client's script gets BUSY within this time.
constexpr std::chrono::milliseconds busyGrace = 100ms;
constexpr std::chrono::milliseconds pongPause = 50ms;
} // namespace

RunawayGuard::RunawayGuard(std::chrono::milliseconds limit, bool ownServer, std::chrono::milliseconds readTimeout)
    : m_limit(limit)
    , m_ownServer(ownServer)
    , m_readTimeout(readTimeout)
    , m_answerWait(readTimeout + busyReplyThreshold)
{ }

RunawayGuard::~RunawayGuard()
{
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_stopping = true;
    }
    m_changed.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

bool RunawayGuard::start(const RedisEndpoint& endpoint, const ConnectOptions& options, QString* error)
{
    ConnectOptions killerOptions = options;
    killerOptions.commandTimeout = m_answerWait;
    if (!m_killer.open(endpoint, killerOptions)) {
        *error = m_killer.lastError().message;
        return false;
    }
    m_endpoint = endpoint;
    m_thread = std::thread([this] { watch(); });
    return true;
}

void RunawayGuard::arm(RedisConnection* connection)
{
    // The script's own run time has its own bound (the guard's); every other read keeps the
    // command timeout.
    m_armed = connection;
    connection->setCommandTimeout(std::max(m_readTimeout, callTimeout()));
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_call = connection;
        m_armedAt = std::chrono::steady_clock::now();
        ++m_generation;
    }
    m_changed.notify_all();
}

void RunawayGuard::disarm()
{
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_call = nullptr;
        m_changed.notify_all();
        // A SCRIPT KILL in flight must be answered before the next call starts, or it could end that one.
        m_changed.wait(lock, [this] { return !m_acting; });
    }
    if (m_armed)
        m_armed->setCommandTimeout(m_readTimeout);
    m_armed = nullptr;
}

RunawayGuard::Outcome RunawayGuard::outcome() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_outcome;
}

std::chrono::milliseconds RunawayGuard::callTimeout() const
{
    return m_limit + 2 * m_answerWait + 5s;
}

RedisReply RunawayGuard::askUnlocked(std::unique_lock<std::mutex>& lock, const RedisArgs& command)
{
    lock.unlock();
    RedisReply reply = m_killer.command(command);
    lock.lock();
    return reply;
}

void RunawayGuard::watch()
{
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_stopping) {
        if (!m_call) {
            m_changed.wait(lock);
            continue;
        }
        const quint64 generation = m_generation;
        auto returned = [this, generation] { return m_stopping || !m_call || m_generation != generation; };
        if (m_changed.wait_until(lock, m_armedAt + m_limit, returned))
            continue;
        m_acting = true;
        handleOverrun(lock);
        m_acting = false;
        m_changed.notify_all();
        m_changed.wait(lock, returned);
    }
}

void RunawayGuard::handleOverrun(std::unique_lock<std::mutex>& lock)
{
    const quint64 generation = m_generation;
    RedisConnection* call = m_call;
    auto returned = [this, generation] { return m_stopping || !m_call || m_generation != generation; };
    while (!returned()) {
        const RedisReply ping = askUnlocked(lock, {QByteArrayLiteral("PING")});
        if (returned())
            return;
        if (ping.isConnectionLost()) {
            m_outcome = Outcome::NoAnswer;
            m_detail = ping.text();
            call->interrupt();
            return;
        }
        if (ping.isServerError() && ping.errorCode() == "BUSY") {
            if (m_changed.wait_for(lock, busyGrace, returned))
                return; // the call got BUSY itself: the running script is another client's
            RedisReply kill = askUnlocked(lock, {QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("KILL")});
            if (kill.errorCode() == "BUSY" && kill.bytes().contains("FUNCTION KILL")) {
                // A function runs (FCALL): Redis 7+ and Valkey end it with FUNCTION KILL only.
                if (returned())
                    return;
                kill = askUnlocked(lock, {QByteArrayLiteral("FUNCTION"), QByteArrayLiteral("KILL")});
                m_function = true;
            }
            const QByteArray code = kill.errorCode();
            if (!kill.isError()) {
                m_outcome = Outcome::Killed;
            } else if (code == "NOTBUSY") {
                continue; // it ended by itself meanwhile
            } else if (code == "UNKILLABLE") {
                m_detail = kill.text();
                if (m_ownServer) {
                    askUnlocked(lock, {QByteArrayLiteral("SHUTDOWN"), QByteArrayLiteral("NOSAVE")});
                    m_outcome = Outcome::Stopped;
                } else {
                    m_outcome = Outcome::Unkillable;
                }
                call->interrupt();
            } else {
                m_outcome = Outcome::NoAnswer;
                m_detail = kill.text();
                call->interrupt();
            }
            return;
        }
        // No script runs, yet the call has not returned: its reply is on the way. Ask again
        // shortly, within a bound.
        if (std::chrono::steady_clock::now() - m_armedAt > m_limit + m_answerWait) {
            m_outcome = Outcome::NoAnswer;
            m_detail = Text::tr("the call did not return although the server answered PING");
            call->interrupt();
            return;
        }
        m_changed.wait_for(lock, pongPause, returned);
    }
}

QString RunawayGuard::message() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    const qint64 ms = m_limit.count();
    switch (m_outcome) {
    case Outcome::None:
        return {};
    case Outcome::Killed:
        if (m_function)
            return Text::tr("The function did not finish within %1 ms: zsetlab ended it with FUNCTION KILL, and the "
                            "server answers again. A limiter runs in well under a millisecond; look for a loop that "
                            "never ends.")
                .arg(ms);
        return Text::tr("The script did not finish within %1 ms: zsetlab ended it with SCRIPT KILL, and the server "
                        "answers again. A limiter script runs in well under a millisecond; look for a loop that "
                        "never ends.")
            .arg(ms);
    case Outcome::Stopped:
        return Text::tr("The script did not finish within %1 ms, and it had already written, so Redis refused SCRIPT "
                        "KILL (UNKILLABLE). The server was zsetlab's own private one, so zsetlab shut it down "
                        "(SHUTDOWN NOSAVE). Look for a loop that never ends.")
            .arg(ms);
    case Outcome::Unkillable:
        return Text::tr("The script did not finish within %1 ms, and Redis refused SCRIPT KILL because the script had "
                        "already written (UNKILLABLE: \"%2\"). The server at %3 stays busy and answers every client "
                        "with BUSY until the script ends, which for an endless loop is never. zsetlab does not shut "
                        "down a server it did not start. The operator can wait for the script to end, or run "
                        "SHUTDOWN NOSAVE on that server (every write since the last save is lost) and start it "
                        "again.")
            .arg(ms)
            .arg(m_detail, m_endpoint.address());
    case Outcome::NoAnswer:
        return Text::tr("The script did not finish within %1 ms, and zsetlab could not end it on the server at %2 "
                        "(%3). It may still be running the script: check with redis-cli PING, and end it with "
                        "SCRIPT KILL.")
            .arg(ms)
            .arg(m_endpoint.address(), m_detail);
    }
    return {};
}
