#include "scriptdebugger.h"

#include "limiters/zsetkeys.h"
#include "redis/clustermap.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include <algorithm>
#include <atomic>

#include <pthread.h>
#include <signal.h> // NOLINT(modernize-deprecated-headers): sigset_t, sigaddset are POSIX, not in <csignal>

namespace {
// LDB reads its commands with a parser that refuses arguments longer than this; a refused command
// is a Lua error that kills the script, so longer keys are turned away before the session.
constexpr int ldbMaxArgument = 1024;

// A "continue" into an endless loop comes back when LDB stops it at the server's busy-script
// threshold (lua-time-limit, 5 s when unset), so a debugger command may take that long to answer;
// the margin covers the network.
constexpr std::chrono::milliseconds defaultBusyThreshold {5000};
constexpr std::chrono::milliseconds thresholdMargin {5000};
constexpr std::chrono::milliseconds abortTimeout {1000};
constexpr int ldbMaxLength = 64 * 1024;
// "Continue to the end" steps through at most this much, listing every call, then continues.
constexpr int maxListedSteps = 10000;
constexpr std::chrono::milliseconds listedStepsBudget {3000};

void addZsetPairs(const QList<QByteArray>& items, DebugStep* step)
{
    for (int i = 0; i + 1 < items.size(); i += 2)
        step->zset.append({items.at(i), items.at(i + 1)});
}
} // namespace

// The result of one job on the task thread, handed to the owner's thread.
struct ScriptDebugger::Outcome
{
    enum class Kind { Stopped, Finished, Failed };
    Kind kind = Kind::Failed;
    DebugStep step;
    RedisReply reply;
    QString message;

    static Outcome failure(const QString& message)
    {
        Outcome outcome;
        outcome.message = message;
        return outcome;
    }
};

struct ScriptDebugger::Worker
{
    RedisEndpoint endpoint;
    ConnectOptions options;
    Mode mode = Mode::Forked;
    QByteArray key; // the ZSET shown after each step: the first of keys
    RedisArgs argv; // the call's: LDB prints numbers rounded, the script's definitions tell them whole
    RedisArgs keys;
    QList<QByteArray> sourceLines;
    int zsetRows = 100;
    RedisConnection connection;
    // Set on the task thread once the server has left the session (or it never began); read by
    // the owner's thread to decide whether the connection still needs to be shut.
    std::atomic<bool> released {false};
    // Set by the owner's destructor: a session still being set up is not started.
    std::atomic<bool> cancelled {false};

    void release()
    {
        connection.close();
        released = true;
    }

    Outcome lost(const RedisReply& reply)
    {
        release();
        return Outcome::failure(tr("The debugging connection to %1 failed: %2.").arg(endpoint.address(), reply.text()));
    }

    Outcome begin(const QByteArray& source, const RedisArgs& argv)
    {
        this->argv = argv;
        sourceLines = source.split('\n');
        // On a cluster, the master of the key's slot; from here on `endpoint` is that node.
        ClusterMap map;
        QString why;
        if (!openForKey(connection, endpoint, key, options, &map, &why)) {
            released = true;
            return Outcome::failure(why.isEmpty() ? connection.lastError().message : why);
        }
        endpoint = connection.endpoint();
        if (cancelled) {
            release();
            return Outcome::failure(tr("Cancelled."));
        }
        const ServerInfo& server = connection.server();
        if (server.majorVersion < 3 || (server.majorVersion == 3 && server.minorVersion < 2)) {
            release();
            return Outcome::failure(
                tr("Redis %1 has no Lua debugger: SCRIPT DEBUG came with Redis 3.2.").arg(server.version));
        }
        connection.setCommandTimeout(std::max(options.commandTimeout, busyThreshold() + thresholdMargin));
        const RedisReply debug = connection.command(
            {"SCRIPT", "DEBUG", mode == Mode::Forked ? QByteArrayLiteral("YES") : QByteArrayLiteral("SYNC")});
        if (debug.isError()) {
            release();
            const RedisError error = classifyReplyError(debug, endpoint);
            return Outcome::failure(tr("The server refused SCRIPT DEBUG: %1").arg(error.message));
        }
        // EVAL, not EVALSHA: the debugger needs the source, and the server refuses EVALSHA here.
        RedisArgs eval {"EVAL", source, QByteArray::number(keys.size())};
        eval << keys << argv;
        const RedisReply first = connection.command(eval);
        if (first.type() == RedisReply::Type::Array && !LdbTranscript::toStep(LdbTranscript::parse(first)).ended) {
            // LDB trims every logged reply and value to 256 bytes unless told otherwise: about
            // eight members of a ZRANGE. The cap stays, so one huge reply cannot flood a step.
            const RedisReply maxlen = connection.command({"maxlen", QByteArray::number(ldbMaxLength)});
            if (maxlen.isConnectionLost())
                return lost(maxlen);
        }
        return afterCommand(first);
    }

    // CONFIG GET may be refused (ACL, renamed command): then assume Redis's default.
    std::chrono::milliseconds busyThreshold()
    {
        const RedisReply reply = connection.command({"CONFIG", "GET", "lua-time-limit"});
        bool ok = false;
        const qint64 ms = reply.elements().size() == 2 ? reply.elements()[1].bytes().toLongLong(&ok) : 0;
        return ok && ms > 0 ? std::chrono::milliseconds(ms) : defaultBusyThreshold;
    }

    Outcome run(const QByteArray& command)
    {
        if (!connection.isOpen())
            return Outcome::failure(tr("The debugging session is no longer open."));
        return afterCommand(connection.command({command}));
    }

    // "Continue" as steps: LDB logs a redis.call only while stepping, so a plain "continue" would
    // leave the calls after it (EXPIRE, the last ZCARD) out of the list. Bounded: a script that
    // loops on past the budget is continued, unlisted, and LDB stops it at the busy threshold.
    Outcome runToEnd()
    {
        if (!connection.isOpen())
            return Outcome::failure(tr("The debugging session is no longer open."));
        QList<DebugCall> calls;
        QElapsedTimer spent;
        spent.start();
        for (int i = 0; i < maxListedSteps && spent.elapsed() < listedStepsBudget.count(); ++i) {
            const RedisReply reply = connection.command({"step"});
            if (reply.type() != RedisReply::Type::Array)
                return afterCommand(reply);
            DebugStep step = LdbTranscript::toStep(LdbTranscript::parse(reply));
            calls << step.calls;
            if (step.ended) {
                step.calls = calls;
                return finish(step);
            }
        }
        Outcome outcome = afterCommand(connection.command({"continue"}));
        outcome.step.calls = calls + outcome.step.calls;
        return outcome;
    }

    Outcome afterCommand(const RedisReply& reply)
    {
        if (reply.isConnectionLost())
            return lost(reply);
        if (reply.type() != RedisReply::Type::Array) {
            // An error before any session began (wrong arguments, ACL): the script never ran.
            release();
            return Outcome::failure(ScriptRunner::describeFailure(reply, key));
        }
        DebugStep step = LdbTranscript::toStep(LdbTranscript::parse(reply));
        if (step.ended)
            return finish(step);
        const RedisReply printed = connection.command({"print"});
        if (printed.isConnectionLost())
            return lost(printed);
        LdbTranscript::addLocals(&step, LdbTranscript::parse(printed));
        LdbTranscript::exactNumbers(&step.locals, sourceLines, argv);
        if (!readZsetInSession(&step))
            return lost(RedisReply::connectionLost(connection.failureText()));
        Outcome outcome;
        outcome.kind = Outcome::Kind::Stopped;
        outcome.step = step;
        return outcome;
    }

    // After <endsession> the server sends the script's own reply, then closes the connection.
    Outcome finish(DebugStep step)
    {
        Outcome outcome;
        outcome.kind = Outcome::Kind::Finished;
        outcome.reply = connection.readReply();
        release();
        if (outcome.reply.isError()) {
            step.line = LdbTranscript::errorLine(outcome.reply.text());
            if (step.line > 0 && step.line <= sourceLines.size())
                step.lineText = QString::fromUtf8(sourceLines.at(step.line - 1));
        }
        readZsetAfterSession(&step);
        outcome.step = step;
        return outcome;
    }

    // The ZSET as the script sees it, through the debugger's own "redis" command. A second
    // connection cannot stand in: in Sync mode the server answers no one else during the session,
    // and in Forked mode it would read the server, which never sees the forked copy's writes.
    bool readZsetInSession(DebugStep* step)
    {
        step->zsetNote = mode == Mode::Forked
            ? tr("Read inside the forked session: the server itself does not see these writes.")
            : tr("Read through the debugger: the server answers no other client during the session.");
        const RedisReply card = connection.command({"redis", "ZCARD", key});
        if (card.isConnectionLost())
            return false;
        QByteArray text;
        bool ok = false;
        if (LdbTranscript::lastReply(LdbTranscript::parse(card), &text))
            step->zsetSize = text.toLongLong(&ok);
        if (!ok) {
            step->zsetSize = -1;
            step->zsetNote = tr("ZCARD %1 answered %2").arg(QString::fromUtf8(key), QString::fromUtf8(text));
            return true;
        }
        if (step->zsetSize == 0 || zsetRows <= 0)
            return true;
        const RedisReply range
            = connection.command({"redis", "ZRANGE", key, "0", QByteArray::number(zsetRows - 1), "WITHSCORES"});
        if (range.isConnectionLost())
            return false;
        QList<QByteArray> items;
        bool complete = true;
        if (LdbTranscript::lastReply(LdbTranscript::parse(range), &text)
            && LdbTranscript::parseReadableValue(text, &items, &complete))
            addZsetPairs(items, step);
        if (!complete)
            step->zsetNote += tr(" The debugger trimmed the list.");
        return true;
    }

    // After the session the server is free again: read what it kept, on a connection of its own.
    void readZsetAfterSession(DebugStep* step)
    {
        RedisConnection after;
        if (!after.open(endpoint, options)) {
            step->zsetNote = after.lastError().message;
            return;
        }
        const RedisReply card = after.command({"ZCARD", key});
        if (card.type() != RedisReply::Type::Integer) {
            step->zsetNote = ScriptRunner::describeFailure(card, key);
            return;
        }
        step->zsetSize = card.toInteger();
        if (step->zsetSize > 0 && zsetRows > 0) {
            const RedisReply range
                = after.command({"ZRANGE", key, "0", QByteArray::number(zsetRows - 1), "WITHSCORES"});
            QList<QByteArray> items;
            for (const RedisReply& item : range.elements())
                items.append(item.bytes());
            addZsetPairs(items, step);
        }
        step->zsetNote = mode == Mode::Forked
            ? tr("Read from the server after the session: the forked copy's writes were rolled back.")
            : tr("Read from the server after the session: the script's writes were kept.");
    }

    // LDB "abort" raises a Lua error in the script; the server answers <endsession>, then the
    // error, then closes the connection. Without an answer in time, closing the connection ends
    // the session anyway.
    void abort()
    {
        if (connection.isOpen()) {
            connection.setCommandTimeout(abortTimeout);
            const RedisReply reply = connection.command({"abort"});
            if (LdbTranscript::toStep(LdbTranscript::parse(reply)).ended)
                connection.readReply();
        }
        release();
    }
};

ScriptDebugger::ScriptDebugger(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<DebugStep>();
    // The first job on the task thread: shutting a connection (interrupt()) may come just before
    // the thread writes its next command, and that write must fail with EPIPE rather than raise
    // SIGPIPE, which would end the whole program. Blocked, the signal stays pending on this thread.
    m_thread.post([] {
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
    });
    m_idle.setSingleShot(true);
    m_idle.setInterval(std::chrono::seconds(30));
    connect(&m_idle, &QTimer::timeout, this, [this] {
        endSession(tr("No debugger command for %1 s: the session was ended so that the server is "
                      "not held.")
                       .arg(double(m_idle.interval()) / 1000.0));
    });
}

ScriptDebugger::~ScriptDebugger()
{
    // Shutting the socket wakes a job blocked on the server, so the task thread can be joined at
    // once, and ends the session there: Redis runs the rest of the script without stopping. No
    // "abort" round trip here, so destruction never waits on the network.
    if (m_worker)
        m_retired.push_back(m_worker);
    for (const auto& weak : m_retired) {
        if (const auto worker = weak.lock()) {
            worker->cancelled = true;
            if (!worker->released)
                worker->connection.interrupt();
        }
    }
}

void ScriptDebugger::setServer(const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    m_endpoint = endpoint;
    m_options = options;
    m_hasServer = true;
}

void ScriptDebugger::setIdleTimeout(std::chrono::milliseconds timeout)
{
    m_idle.setInterval(timeout);
}

std::chrono::milliseconds ScriptDebugger::idleTimeout() const
{
    return m_idle.intervalAsDuration();
}

QString ScriptDebugger::modeTitle(Mode mode)
{
    return mode == Mode::Forked ? tr("Forked (changes rolled back)") : tr("Synchronous (changes kept)");
}

QString ScriptDebugger::modeDescription(Mode mode)
{
    if (mode == Mode::Forked)
        return tr("SCRIPT DEBUG YES: the server forks a copy of itself that runs the script. Other "
                  "clients are served as usual, and every change the script makes is thrown away "
                  "when the session ends.");
    return tr("SCRIPT DEBUG SYNC: the server itself runs the script and serves no other client until "
              "the session ends. The script's changes are kept, also when it is stopped half-way.");
}

bool ScriptDebugger::start(const LimiterScript& script, const QByteArray& key, const RedisArgs& argv, Mode mode)
{
    return start(script, RedisArgs {key}, argv, mode);
}

bool ScriptDebugger::start(const LimiterScript& script, const RedisArgs& keys, const RedisArgs& argv, Mode mode)
{
    QString refusal;
    if (!m_hasServer)
        refusal = tr("No server is set for the debugger.");
    else if (!script.isValid())
        refusal = tr("There is no script to debug.");
    else if (script.source().startsWith("#!"))
        refusal = tr("This is a Redis Functions library, and a function cannot be stepped: the server's Lua "
                     "debugger (SCRIPT DEBUG) takes EVAL scripts only, and FCALL never stops at a line. Step the "
                     "function's body as an EVAL script instead (the library's code with a last line that calls "
                     "the function with KEYS and ARGV).");
    for (const QByteArray& key : keys) {
        if (!refusal.isEmpty())
            break;
        if (key.isEmpty() || key.size() > ldbMaxArgument)
            refusal = tr("The debugger takes keys of 1 to %1 bytes.").arg(ldbMaxArgument);
        else if (mode == Mode::Sync && !ZsetKeys::isOwnKey(key))
            refusal = tr("Synchronous debugging keeps the script's writes, so it runs only on zsetlab's own "
                         "keys (\"%1...\"); use the forked mode for %2.")
                          .arg(QLatin1String(ZsetKeys::prefix), QString::fromUtf8(key));
    }
    // Redis forks with the client's TLS session and the parent then closes its copy, sending the
    // client a close_notify: the session ends before the first step (redis-cli --ldb fails alike).
    if (refusal.isEmpty() && mode == Mode::Forked && m_endpoint.tls.enabled)
        refusal = tr("Redis cannot run a forked debugging session over TLS: the server ends the TLS session "
                     "when it forks (redis-cli --ldb fails the same way). Choose the synchronous mode (it keeps "
                     "the script's writes, on zsetlab's own keys), or connect to the server's plain port or "
                     "unix socket.");
    if (keys.isEmpty() && refusal.isEmpty())
        refusal = tr("The debugger takes keys of 1 to %1 bytes.").arg(ldbMaxArgument);
    if (!refusal.isEmpty()) {
        emit failed(refusal);
        return false;
    }
    if (m_active)
        endSession(tr("Another session was started."));
    ++m_session;
    m_mode = mode;

    // Forget the retired workers that are gone; keep the others so destruction can wake them.
    m_retired.erase(std::remove_if(m_retired.begin(), m_retired.end(), [](const auto& weak) { return weak.expired(); }),
                    m_retired.end());
    if (m_worker)
        m_retired.push_back(m_worker);
    auto worker = std::make_shared<Worker>();
    worker->endpoint = m_endpoint;
    worker->options = m_options;
    worker->mode = mode;
    worker->key = keys.value(0);
    worker->keys = keys;
    worker->zsetRows = m_zsetRows;
    m_worker = worker;
    m_active = true;
    m_busy = true;
    const quint64 session = m_session;
    const QByteArray& source = script.source();
    m_thread.post([this, worker, session, source, argv] { deliver(session, worker->begin(source, argv)); });
    return true;
}

void ScriptDebugger::step()
{
    send(QByteArrayLiteral("step"));
}

void ScriptDebugger::continueToEnd()
{
    send(QByteArray());
}

void ScriptDebugger::stop()
{
    if (m_active)
        endSession(tr("Stopped."));
}

void ScriptDebugger::send(const QByteArray& command)
{
    if (!isPaused())
        return;
    m_busy = true;
    m_idle.stop();
    auto worker = m_worker;
    const quint64 session = m_session;
    m_thread.post([this, worker, session, command] {
        deliver(session, command.isEmpty() ? worker->runToEnd() : worker->run(command));
    });
}

void ScriptDebugger::endSession(const QString& reason)
{
    m_idle.stop();
    m_active = false;
    m_busy = false;
    auto worker = m_worker;
    const quint64 session = m_session;
    // Runs after the job in flight, if any. A step answers at once; a "continue" into a long loop
    // answers when LDB stops the loop at the busy-script threshold. Shutting the connection
    // earlier would not free the server sooner: in Sync mode it runs the script on, undebugged,
    // until that same threshold.
    m_thread.post([this, worker, session, reason] {
        worker->abort();
        QMetaObject::invokeMethod(
            this,
            [this, session, reason] {
                if (session == m_session) // a newer session has begun: this one is old news
                    emit aborted(reason);
            },
            Qt::QueuedConnection);
    });
}

void ScriptDebugger::deliver(quint64 session, const Outcome& outcome)
{
    // Called on the task thread: hand the outcome to the owner's thread.
    QMetaObject::invokeMethod(
        this,
        [this, session, outcome] {
            if (session != m_session || !m_active)
                return; // stopped or replaced meanwhile
            m_busy = false;
            switch (outcome.kind) {
            case Outcome::Kind::Stopped:
                m_idle.start();
                emit stopped(outcome.step);
                break;
            case Outcome::Kind::Finished:
                m_active = false;
                emit finished(outcome.step, outcome.reply);
                break;
            case Outcome::Kind::Failed:
                m_active = false;
                emit failed(outcome.message);
                break;
            }
        },
        Qt::QueuedConnection);
}
