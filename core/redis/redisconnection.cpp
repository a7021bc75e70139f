#include "redisconnection.h"

#include "base/printabletext.h"
#include "tlschannel.h"

#include "hiredisapi.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <mutex>
#include <poll.h>
#include <sys/socket.h>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(RedisConnection)
};

timeval toTimeval(std::chrono::milliseconds ms)
{
    timeval tv;
    tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
    tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
    return tv;
}

QString credentialsHint(const RedisEndpoint& endpoint)
{
    if (endpoint.transport == RedisEndpoint::Transport::Unix)
        return Text::tr("unix://:PASSWORD@%1 (or unix://USER:PASSWORD@%1 for an ACL user)").arg(endpoint.socketPath);
    return Text::tr("redis://:PASSWORD@%1 (or redis://USER:PASSWORD@%1 for an ACL user)").arg(endpoint.address());
}
} // namespace

QString ServerInfo::displayName() const
{
    const QString flavour = name.isEmpty() || name == QLatin1String("redis") ? QStringLiteral("Redis")
        : name == QLatin1String("valkey")                                    ? QStringLiteral("Valkey")
                                                                             : name;
    const QString own = nameVersion.isEmpty() ? version : nameVersion;
    return own.isEmpty() ? flavour : flavour + QLatin1Char(' ') + own;
}

QJsonObject ServerInfo::toJson() const
{
    return {{QStringLiteral("flavour"), name.isEmpty() ? QStringLiteral("redis") : name},
            {QStringLiteral("version"), nameVersion.isEmpty() ? version : nameVersion},
            {QStringLiteral("redis_version"), version}};
}

ServerInfo ServerInfo::parse(const QByteArray& infoServerText)
{
    ServerInfo info;
    const auto lines = infoServerText.split('\n');
    for (QByteArray line : lines) {
        line = line.trimmed();
        const int colon = line.indexOf(':');
        if (line.startsWith('#') || colon < 0)
            continue;
        const QByteArray name = line.left(colon);
        // Shown in the server bar and printed by the CLI: a server's text, made printable and short.
        const QString value = printableText(line.mid(colon + 1), 64);
        if (name == "redis_version")
            info.version = value;
        else if (name == "server_name")
            info.name = value;
        else if (name == "valkey_version")
            info.nameVersion = value;
        else if (name == "redis_mode" || name == "server_mode") // Valkey writes server_mode
            info.mode = value;
        else if (name == "os")
            info.os = value;
        else if (name == "process_id")
            info.processId = value.toLongLong();
    }
    if (info.nameVersion.isEmpty())
        info.nameVersion = info.version;
    const QStringList parts = info.version.split(QLatin1Char('.'));
    info.majorVersion = parts.value(0).toInt();
    info.minorVersion = parts.value(1).toInt();
    return info;
}

ServerInfo ServerInfo::ofHello(const RedisReply& hello)
{
    ServerInfo info;
    const auto& fields = hello.elements();
    for (size_t i = 0; i + 1 < fields.size(); i += 2) {
        const QByteArray& name = fields[i].bytes();
        const QString value = printableText(fields[i + 1].bytes(), 64);
        if (name == "server")
            info.name = value;
        else if (name == "version")
            info.version = value;
        else if (name == "mode")
            info.mode = value;
    }
    // Valkey's HELLO tells its own version; the Redis version it is compatible with is not told.
    info.nameVersion = info.version;
    const QStringList parts = info.version.split(QLatin1Char('.'));
    info.majorVersion = parts.value(0).toInt();
    info.minorVersion = parts.value(1).toInt();
    return info;
}

RedisError classifyReplyError(const RedisReply& reply, const RedisEndpoint& endpoint)
{
    RedisError error;
    if (!reply.isError())
        return error;
    if (reply.isConnectionLost()) {
        error.kind = RedisError::Kind::ConnectionLost;
        error.message = Text::tr("Lost the connection to %1: %2. Check that the server is still running.")
                            .arg(endpoint.address(), reply.text());
        return error;
    }
    const QByteArray code = reply.errorCode();
    if (code == "NOAUTH") {
        error.kind = RedisError::Kind::PasswordRequired;
        error.message = Text::tr("The server at %1 needs a password. Give it in the URL: %2.")
                            .arg(endpoint.address(), credentialsHint(endpoint));
    } else if (code == "WRONGPASS" || reply.bytes().contains("invalid password")
               || reply.bytes().contains("invalid username-password")) {
        error.kind = RedisError::Kind::WrongPassword;
        error.message = Text::tr("The server at %1 refused the user name or password. Check the "
                                 "credentials in the URL: %2.")
                            .arg(endpoint.address(), credentialsHint(endpoint));
    } else if (code == "NOPERM") {
        error.kind = RedisError::Kind::NoPermission;
        error.message = Text::tr("The ACL user \"%1\" may not run this command (%2). Grant it with e.g. "
                                 "ACL SETUSER %1 +@scripting +@sortedset +@string +@keyspace ~zsetlab:*.")
                            .arg(endpoint.user.isEmpty() ? QStringLiteral("default") : endpoint.user, reply.text());
    } else {
        error.kind = RedisError::Kind::Server;
        error.message = reply.text();
    }
    return error;
}

namespace {
// hiredis allocates each part of a reply as it parses it: a reply object per element (an array's
// element table first, from the length in its header: `*2147483647` asked for 16 GB), and a copy
// of each string. The reader's functions here are hiredis's own, each first charging what it is
// about to hold to the connection's ReplyBudget (the reader's privdata); past the budget it
// refuses, which the reader takes for an allocation failure, and the budget says it was a refusal.
const redisReplyObjectFunctions* hiredisFunctions = nullptr;
redisReplyObjectFunctions cappedFunctions;

// What one parsed object costs: hiredis's reply struct with the allocator's overhead, and the
// copy zsetlab makes of it (RedisReply), as measured by bench_replybound.
constexpr qint64 objectCost = 2 * 64;

bool charge(const redisReadTask* task, qint64 bytes)
{
    auto* budget = static_cast<RedisConnection::ReplyBudget*>(task->privdata);
    if (!budget)
        return true;
    if (!task->parent) // the first object of a reply: a new reply begins
        budget->spent = 0, budget->objects = 0;
    budget->spent += bytes;
    ++budget->objects;
    if (budget->spent <= budget->limit)
        return true;
    budget->refused = true;
    return false;
}

void* createCappedString(const redisReadTask* task, char* text, size_t length)
{
    return charge(task, objectCost + 2 * qint64(length)) ? hiredisFunctions->createString(task, text, length) : nullptr;
}

void* createCappedArray(const redisReadTask* task, HiredisApi::ArrayLength elements)
{
    // The element table (a pointer each) is allocated now, before any element is there.
    const qint64 table = qint64(elements) * qint64(sizeof(void*));
    return charge(task, objectCost + table) ? hiredisFunctions->createArray(task, elements) : nullptr;
}

void* createCappedInteger(const redisReadTask* task, long long value)
{
    return charge(task, objectCost) ? hiredisFunctions->createInteger(task, value) : nullptr;
}

void* createCappedNil(const redisReadTask* task)
{
    return charge(task, objectCost) ? hiredisFunctions->createNil(task) : nullptr;
}

#if defined(HIREDIS_MAJOR) && HIREDIS_MAJOR >= 1
void* createCappedDouble(const redisReadTask* task, double value, char* text, size_t length)
{
    return charge(task, objectCost + 2 * qint64(length)) ? hiredisFunctions->createDouble(task, value, text, length)
                                                         : nullptr;
}

void* createCappedBool(const redisReadTask* task, int value)
{
    return charge(task, objectCost) ? hiredisFunctions->createBool(task, value) : nullptr;
}
#endif
} // namespace

RedisConnection::RedisConnection() = default;

RedisConnection::~RedisConnection()
{
    close();
}

bool RedisConnection::fail(RedisError::Kind kind, const QString& message)
{
    m_error.kind = kind;
    m_error.message = message;
    close();
    return false;
}

namespace {
// open()'s failures in words that say what to do: connecting (hiredis's words in `why`), AUTH,
// SELECT, and the first command (INFO or HELLO).
RedisError connectError(const QString& why, const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    const QString where = endpoint.address();
    if (why.contains(QLatin1String("refused"), Qt::CaseInsensitive)) {
        if (endpoint.transport == RedisEndpoint::Transport::Unix)
            return {RedisError::Kind::Refused,
                    Text::tr("Nothing accepts connections on the socket %1 (connection refused). "
                             "Is redis-server running with unixsocket set to this path?")
                        .arg(where)};
        return {RedisError::Kind::Refused,
                Text::tr("Nothing is listening at %1 (connection refused). Start "
                         "redis-server there, or choose another server.")
                    .arg(where)};
    }
    if (why.contains(QLatin1String("No such file"), Qt::CaseInsensitive))
        return {RedisError::Kind::NoSocket,
                Text::tr("There is no socket at %1. Check the path, or start "
                         "redis-server with --unixsocket %1.")
                    .arg(where)};
    if (why.contains(QLatin1String("timed out"), Qt::CaseInsensitive)
        || why.contains(QLatin1String("temporarily unavailable"), Qt::CaseInsensitive)
        || why.contains(QLatin1String("in progress"), Qt::CaseInsensitive))
        return {RedisError::Kind::Timeout,
                Text::tr("No answer from %1 within %2 ms. Check the host and port, a "
                         "firewall, or raise the connect timeout.")
                    .arg(where)
                    .arg(options.connectTimeout.count())};
    if (why.contains(QLatin1String("not known"), Qt::CaseInsensitive)
        || why.contains(QLatin1String("name resolution"), Qt::CaseInsensitive)
        || why.contains(QLatin1String("nodename"), Qt::CaseInsensitive)
        || why.contains(QLatin1String("No address"), Qt::CaseInsensitive))
        return {RedisError::Kind::UnknownHost,
                Text::tr("The host \"%1\" is unknown (%2). Check its spelling in the URL.").arg(endpoint.host, why)};
    return {RedisError::Kind::ConnectionLost, Text::tr("Cannot connect to %1: %2.").arg(where, why)};
}

RedisError authError(const RedisReply& reply, const RedisEndpoint& endpoint)
{
    RedisError error = classifyReplyError(reply, endpoint);
    // Servers before 6.0 answer AUTH with two arguments with a syntax error.
    if (error.kind == RedisError::Kind::Server && !endpoint.user.isEmpty())
        error.message = Text::tr("This server does not know ACL users (Redis 6.0 or later): "
                                 "remove the user name from the URL. Server said: %1")
                            .arg(reply.text());
    else if (error.kind == RedisError::Kind::Server && reply.bytes().contains("without any password configured"))
        error.message = Text::tr("The server at %1 has no password set: remove the password "
                                 "from the URL.")
                            .arg(endpoint.address());
    if (error.kind == RedisError::Kind::Server)
        error.kind = RedisError::Kind::WrongPassword;
    return error;
}

RedisError selectError(const RedisReply& reply, const RedisEndpoint& endpoint)
{
    RedisError error = classifyReplyError(reply, endpoint);
    if (error.kind != RedisError::Kind::Server)
        return error;
    return {RedisError::Kind::BadDatabase,
            Text::tr("The server refused database %1 (%2). Pick a database the "
                     "server has, such as /0.")
                .arg(endpoint.db)
                .arg(reply.text())};
}

RedisError handshakeError(const RedisReply& info, const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    RedisError error = classifyReplyError(info, endpoint);
    // A TLS port drops a client that speaks plain RESP to it.
    if (error.kind == RedisError::Kind::ConnectionLost && endpoint.transport == RedisEndpoint::Transport::Tcp
        && !endpoint.tls.enabled)
        error.message
            += QLatin1Char(' ') + Text::tr("If %1 is a TLS port, connect with rediss://.").arg(endpoint.address());
    if (info.isConnectionLost() && info.bytes().contains("timed out"))
        return {RedisError::Kind::Timeout,
                Text::tr("%1 accepted the connection but did not answer within %2 ms. "
                         "Is it a Redis server, and is it busy or paused?")
                    .arg(endpoint.address())
                    .arg(options.commandTimeout.count())};
    return error;
}
} // namespace

bool RedisConnection::open(const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    // hiredis 0.14 writes with plain write(): a server that closed the socket would kill the
    // process with SIGPIPE. Every zsetlab program talks to Redis through here.
    static std::once_flag ignoreSigpipe;
    std::call_once(ignoreSigpipe, [] { std::signal(SIGPIPE, SIG_IGN); });
    close();
    m_endpoint = endpoint;
    m_error = {};
    m_server = {};
    return connectSocket(endpoint, options) && authenticate(endpoint) && selectDatabase(endpoint)
        && readServer(endpoint, options);
}

bool RedisConnection::connectSocket(const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    const timeval connectTimeout = toTimeval(options.connectTimeout);
    if (endpoint.transport == RedisEndpoint::Transport::Unix) {
        // An endpoint made without parse(): never let a cut-short path reach another server.
        if (const QString problem = RedisEndpoint::socketPathProblem(endpoint.socketPath); !problem.isEmpty())
            return fail(RedisError::Kind::BadUrl, problem);
    }
    if (endpoint.transport == RedisEndpoint::Transport::Unix)
        m_context = redisConnectUnixWithTimeout(endpoint.socketPath.toLocal8Bit().constData(), connectTimeout);
    else
        m_context = redisConnectWithTimeout(endpoint.host.toUtf8().constData(), endpoint.port, connectTimeout);

    if (!m_context)
        return fail(RedisError::Kind::ConnectionLost, Text::tr("Out of memory while connecting."));
    if (m_context->err) {
        const RedisError error = connectError(QString::fromLocal8Bit(m_context->errstr), endpoint, options);
        return fail(error.kind, error.message);
    }

    {
        const std::lock_guard<std::mutex> lock(m_fdLock);
        m_fd = m_context->fd;
    }
    capReplies();
    const timeval commandTimeout = toTimeval(options.commandTimeout);
    redisSetTimeout(m_context, commandTimeout);
    m_commandTimeout = options.commandTimeout;
    if (endpoint.transport == RedisEndpoint::Transport::Tcp)
        redisEnableKeepAlive(m_context);
    if (endpoint.transport == RedisEndpoint::Transport::Tcp && endpoint.tls.enabled) {
        RedisError problem;
        m_tls = TlsChannel::start(m_context->fd, endpoint, options.connectTimeout, &problem);
        if (!m_tls)
            return fail(problem.kind, problem.message);
    }
    return true;
}

bool RedisConnection::authenticate(const RedisEndpoint& endpoint)
{
    if (endpoint.password.isEmpty())
        return true;
    RedisArgs auth {QByteArrayLiteral("AUTH")};
    if (!endpoint.user.isEmpty())
        auth << endpoint.user.toUtf8();
    auth << endpoint.password.toUtf8();
    const RedisReply reply = command(auth);
    if (!reply.isError())
        return true;
    if (failedOnTls())
        return false;
    const RedisError error = authError(reply, endpoint);
    return fail(error.kind, error.message);
}

bool RedisConnection::selectDatabase(const RedisEndpoint& endpoint)
{
    if (endpoint.helloHandshake && endpoint.db != 0)
        return fail(RedisError::Kind::BadDatabase,
                    Text::tr("This connection selects no database, and database %1 was asked for: a script runs "
                             "in a sandbox on database 0 only.")
                        .arg(endpoint.db));
    if (endpoint.db == 0)
        return true;
    const RedisReply reply = command({QByteArrayLiteral("SELECT"), QByteArray::number(endpoint.db)});
    if (!reply.isError())
        return true;
    if (failedOnTls())
        return false;
    const RedisError error = selectError(reply, endpoint);
    return fail(error.kind, error.message);
}

bool RedisConnection::readServer(const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    // A sandbox's user may not read INFO (it tells every database's key count and the server's
    // configuration), nor may anyone while a script runs; HELLO (Redis 6+, as ACL users are)
    // tells the version and the mode.
    const RedisReply info = endpoint.helloHandshake ? command({QByteArrayLiteral("HELLO"), QByteArrayLiteral("2")})
                                                    : command({QByteArrayLiteral("INFO"), QByteArrayLiteral("server")});
    if (info.isError()) {
        if (failedOnTls())
            return false;
        const RedisError error = handshakeError(info, endpoint, options);
        return fail(error.kind, error.message);
    }
    m_server = endpoint.helloHandshake ? ServerInfo::ofHello(info) : ServerInfo::parse(info.bytes());
    if (!m_server.hasScripting())
        return fail(RedisError::Kind::TooOld,
                    Text::tr("The server at %1 runs Redis %2, which has no Lua scripting. zsetlab needs "
                             "Redis 2.6 or later.")
                        .arg(endpoint.address(), m_server.version.isEmpty() ? QStringLiteral("?") : m_server.version));
    return true;
}

// True when a command of open() failed for a TLS reason, now in lastError(): a server that wants a
// client certificate says so only at the first read after the handshake.
bool RedisConnection::failedOnTls()
{
    if (!m_tls || m_tls->error().kind == RedisError::Kind::None
        || m_tls->error().kind == RedisError::Kind::ConnectionLost)
        return false;
    const RedisError error = m_tls->error();
    fail(error.kind, error.message);
    return true;
}

void RedisConnection::close()
{
    if (m_context) {
        {
            const std::lock_guard<std::mutex> lock(m_fdLock);
            m_fd = -1;
        }
        m_tls.reset(); // before the socket it uses is closed
        m_tlsOut.clear();
        m_tlsOutSent = 0;
        m_tlsFailure.clear();
        m_readFailure.clear();
        redisFree(m_context);
        m_context = nullptr;
    }
}

bool RedisConnection::isOpen() const
{
    return m_context && !m_context->err && m_tlsFailure.isEmpty() && m_readFailure.isEmpty();
}

RedisReply RedisConnection::takeContextError() const
{
    if (!m_tlsFailure.isEmpty())
        return RedisReply::connectionLost(m_tlsFailure);
    if (!m_readFailure.isEmpty())
        return RedisReply::connectionLost(m_readFailure);
    QString why = m_context ? QString::fromLocal8Bit(m_context->errstr) : Text::tr("not connected");
    if (why.contains(QLatin1String("temporarily unavailable"), Qt::CaseInsensitive))
        why = Text::tr("timed out waiting for a reply");
    else if (why.isEmpty() || (m_context && m_context->err == REDIS_ERR_EOF))
        why = Text::tr("the server closed the connection");
    return RedisReply::connectionLost(why);
}

RedisReply RedisConnection::command(const RedisArgs& args)
{
    if (!append(args))
        return takeContextError();
    return readReply();
}

bool RedisConnection::append(const RedisArgs& args)
{
    if (!isOpen())
        return false;
    std::vector<const char*> argv;
    std::vector<size_t> lengths;
    argv.reserve(static_cast<size_t>(args.size()));
    lengths.reserve(static_cast<size_t>(args.size()));
    for (const QByteArray& arg : args) {
        argv.push_back(arg.constData());
        lengths.push_back(static_cast<size_t>(arg.size()));
    }
    if (m_tls) {
        char* formatted = nullptr;
        const HiredisApi::FormattedLength length
            = redisFormatCommandArgv(&formatted, static_cast<int>(argv.size()), argv.data(), lengths.data());
        if (length < 0)
            return false;
        m_tlsOut.append(formatted, static_cast<qsizetype>(length));
        redisFreeCommand(formatted);
        return true;
    }
    return redisAppendCommandArgv(m_context, static_cast<int>(argv.size()), argv.data(), lengths.data()) == REDIS_OK;
}

RedisReply RedisConnection::readReply()
{
    if (m_tls) // replies already read come first, even from a server that has closed since
        return readReplyTls();
    if (!isOpen())
        return takeContextError();
    // hiredis's redisGetReply() waits as long as bytes keep coming, each read within the socket's
    // timeout: a server dripping one byte at a time held it for ever. The same steps here, with
    // one deadline for the whole reply and the bounds checked after every read.
    int written = 0;
    while (!written) {
        if (redisBufferWrite(m_context, &written) != REDIS_OK)
            return takeContextError();
    }
    const auto deadline = std::chrono::steady_clock::now() + m_commandTimeout;
    void* raw = nullptr;
    bool shortened = false;
    while (!raw) {
        if (redisGetReplyFromReader(m_context, &raw) != REDIS_OK) {
            withinBounds();
            return takeContextError();
        }
        if (raw)
            break;
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            m_readFailure = Text::tr("no whole reply within %1 ms (%2 bytes of it came)")
                                .arg(m_commandTimeout.count())
                                .arg(m_context->reader->len - m_context->reader->pos);
            break;
        }
        // The socket's timeout bounds one read: shortened to the time left once that is less
        // than the whole timeout (a reply that comes in one read costs no extra system call).
        if (shortened || left + std::chrono::milliseconds(10) < m_commandTimeout) {
            redisSetTimeout(m_context, toTimeval(left));
            shortened = true;
        }
        if (redisBufferRead(m_context) != REDIS_OK || !withinBounds())
            break;
    }
    if (shortened && m_context)
        redisSetTimeout(m_context, toTimeval(m_commandTimeout));
    if (!raw)
        return takeContextError();
    auto* reply = static_cast<redisReply*>(raw);
    RedisReply result = RedisReply::fromHiredis(reply);
    freeReplyObject(reply);
    return result;
}

void RedisConnection::capReplies()
{
    static std::once_flag made;
    std::call_once(made, [this] {
        hiredisFunctions = m_context->reader->fn;
        cappedFunctions = *hiredisFunctions;
        cappedFunctions.createString = createCappedString;
        cappedFunctions.createArray = createCappedArray;
        cappedFunctions.createInteger = createCappedInteger;
        cappedFunctions.createNil = createCappedNil;
#if defined(HIREDIS_MAJOR) && HIREDIS_MAJOR >= 1
        if (hiredisFunctions->createDouble)
            cappedFunctions.createDouble = createCappedDouble;
        if (hiredisFunctions->createBool)
            cappedFunctions.createBool = createCappedBool;
#endif
    });
    m_context->reader->fn = &cappedFunctions;
    m_context->reader->privdata = &m_replyBudget;
    m_replyBudget.refused = false;
}

bool RedisConnection::withinBounds()
{
    if (!m_context || !m_readFailure.isEmpty())
        return false;
    if (m_replyBudget.refused) {
        m_readFailure = Text::tr("the server sent a reply that would take more than %L1 MB to hold (%L2 parts read "
                                 "of it); zsetlab holds at most %L1 MB of one reply")
                            .arg(m_replyBudget.limit / (1024 * 1024))
                            .arg(m_replyBudget.objects);
        m_replyBudget.refused = false;
        return false;
    }
    const qsizetype unread = qsizetype(m_context->reader->len - m_context->reader->pos);
    if (unread > maxUnreadBytes) {
        m_readFailure = Text::tr("the server sent %L1 bytes without ending its reply; zsetlab reads at most %L2")
                            .arg(unread)
                            .arg(maxUnreadBytes);
        return false;
    }
    return true;
}

void RedisConnection::interrupt()
{
    // shutdown(2) wakes a thread blocked in read() on this socket. Holding the lock keeps the
    // owning thread's close() from closing the socket (and the number being reused) meanwhile.
    const std::lock_guard<std::mutex> lock(m_fdLock);
    if (m_fd >= 0)
        ::shutdown(m_fd, SHUT_RDWR);
}

bool RedisConnection::setNonBlocking()
{
    if (!isOpen())
        return false;
    if (m_tls)
        return true; // a TLS socket is always non-blocking; readReply() polls it
    const int flags = ::fcntl(m_context->fd, F_GETFL);
    if (flags < 0 || ::fcntl(m_context->fd, F_SETFL, flags | O_NONBLOCK) < 0)
        return false;
    m_context->flags &= ~REDIS_BLOCK; // hiredis then treats EAGAIN as "try later"
    return true;
}

int RedisConnection::socket() const
{
    return m_context ? m_context->fd : -1;
}

bool RedisConnection::flush(bool* allWritten)
{
    if (m_tls)
        return isOpen() && flushTls(allWritten);
    int done = 0;
    if (!isOpen() || redisBufferWrite(m_context, &done) != REDIS_OK)
        return false;
    *allWritten = done != 0;
    return true;
}

bool RedisConnection::readAvailable()
{
    if (m_tls)
        return isOpen() && readTls();
    return isOpen() && redisBufferRead(m_context) == REDIS_OK && withinBounds();
}

bool RedisConnection::nextReply(RedisReply* reply)
{
    if (!m_context)
        return false;
    void* raw = nullptr;
    if (redisGetReplyFromReader(m_context, &raw) != REDIS_OK) {
        withinBounds(); // a refused array says so
        return false;
    }
    if (!raw)
        return false;
    auto* parsed = static_cast<redisReply*>(raw);
    *reply = RedisReply::fromHiredis(parsed);
    freeReplyObject(parsed);
    return true;
}

QString RedisConnection::failureText() const
{
    return takeContextError().text();
}

void RedisConnection::setCommandTimeout(std::chrono::milliseconds timeout)
{
    m_commandTimeout = timeout;
    if (m_context)
        redisSetTimeout(m_context, toTimeval(timeout));
}

bool RedisConnection::flushTls(bool* allWritten)
{
    while (m_tlsOutSent < m_tlsOut.size()) {
        qint64 written = 0;
        const auto result = m_tls->write(m_tlsOut.constData() + m_tlsOutSent, m_tlsOut.size() - m_tlsOutSent, &written);
        if (result == TlsChannel::Result::WouldBlock)
            break;
        if (result != TlsChannel::Result::Done) {
            m_tlsFailure = m_tls->error().message;
            return false;
        }
        m_tlsOutSent += written;
    }
    *allWritten = m_tlsOutSent == m_tlsOut.size();
    if (*allWritten) {
        m_tlsOut.resize(0); // keeps its capacity for the next batch
        m_tlsOutSent = 0;
    }
    return true;
}

bool RedisConnection::readTls()
{
    // Until the socket is drained: decrypted bytes left inside TLS would wake no poll(). A bound
    // keeps a fast stream (MONITOR) from holding the caller, stopping only where TLS holds nothing.
    // Replies read before the server closed stay to be taken: the failure shows at the next call.
    char buffer[16 * 1024];
    bool fed = false;
    for (int round = 0;; ++round) {
        qint64 got = 0;
        const auto result = m_tls->read(buffer, sizeof buffer, &got);
        if (result == TlsChannel::Result::WouldBlock)
            return true;
        if (result != TlsChannel::Result::Done) {
            m_tlsFailure = m_tls->error().message;
            // The replies read first are taken at the next nextReply(); the failure must wake the
            // caller's poll() even when the peer keeps the socket open (a close_notify alone).
            if (fed)
                ::shutdown(m_context->fd, SHUT_RDWR);
            return fed;
        }
        if (redisReaderFeed(m_context->reader, buffer, size_t(got)) != REDIS_OK) {
            m_tlsFailure = Text::tr("the reply could not be read");
            return false;
        }
        if (!withinBounds())
            return false;
        fed = true;
        if (round >= 64 && !m_tls->hasBufferedInput())
            return true;
    }
}

RedisReply RedisConnection::readReplyTls()
{
    // One deadline for the whole reply, as for a plain connection: a server that drips a byte
    // at a time gets no fresh timeout per byte.
    const auto deadline = std::chrono::steady_clock::now() + m_commandTimeout;
    while (true) {
        RedisReply reply;
        if (nextReply(&reply))
            return reply;
        if (!isOpen())
            return takeContextError();
        bool allWritten = false;
        if (!flushTls(&allWritten))
            return takeContextError();
        pollfd wait {m_context->fd, short(POLLIN | (allWritten ? 0 : POLLOUT)), 0};
        const auto left
            = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        const int ready = left.count() > 0 ? ::poll(&wait, 1, int(left.count())) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            m_tlsFailure = Text::tr("timed out waiting for a reply");
            return takeContextError();
        }
        if (wait.revents & (POLLIN | POLLHUP | POLLERR))
            readTls(); // a failure shows once the replies read before it are taken
    }
}
