#pragma once

// RedisConnection: one connection to Redis (plain, TLS or unix socket), with what INFO said of the server.

#include "redisendpoint.h"
#include "rediserror.h"
#include "redisreply.h"

#include <QJsonObject>
#include <QString>

#include <chrono>
#include <memory>
#include <mutex>

struct redisContext;
class TlsChannel;

struct ConnectOptions
{
    std::chrono::milliseconds connectTimeout {2000};
    std::chrono::milliseconds commandTimeout {2000};
    // Not how to connect but what zsetlab may do there, carried with the server everywhere it
    // goes. zsetlab started this server (a private one): a user's script runs on it as it is.
    bool ownServer = false;
    // Elsewhere a user's script runs as a temporary ACL user (ScriptSandbox); where none can be
    // made, only when the user said so (--trust-script).
    bool trustScripts = false;
    // On a server zsetlab did not start that deletes keys when full (maxmemory with an evicting
    // policy, MemoryHeadroom), a run or probe writes only when the user said so (--allow-eviction).
    bool allowEviction = false;
};

// What INFO server said about the server.
struct ServerInfo
{
    QString version; // "7.0.15" (Valkey: the Redis version it is compatible with)
    QString name = QStringLiteral("redis"); // server_name: "valkey" on Valkey
    QString nameVersion; // the server's own version: valkey_version on Valkey, else version
    QString mode; // "standalone", "cluster", "sentinel"
    QString os;
    qint64 processId = 0;
    int majorVersion = 0;
    int minorVersion = 0;

    bool hasScripting() const { return majorVersion > 2 || (majorVersion == 2 && minorVersion >= 6); }
    // Redis 2.6 to 6.2 reseed math.random() with a fixed seed at every EVAL (FACTS.md).
    bool reseedsLuaRandomPerCall() const { return hasScripting() && majorVersion < 7; }
    static ServerInfo parse(const QByteArray& infoServerText);
    // From HELLO 2's reply (server, version, mode): what a script sandbox's user may read.
    static ServerInfo ofHello(const RedisReply& hello);
    // "Redis 7.0.15", "Valkey 8.1.1": the server as its users name it.
    QString displayName() const;
    // {"flavour": "valkey", "version": "8.1.1", "redis_version": "7.2.4"}: what the CLI's JSON
    // says of the server (redis_version: the Redis version it is compatible with).
    QJsonObject toJson() const;
};

// One connection to Redis over TCP, TLS (rediss://) or a unix socket: hiredis formats commands
// and parses replies; hiredis moves the bytes of a plain connection, TlsChannel those of a TLS one,
// and nothing outside this class knows which it has. Not thread-safe: one per thread (hiredis contexts are not
// shareable). interrupt() is the one call allowed from another thread.
class RedisConnection
{
public:
    RedisConnection();
    ~RedisConnection();
    RedisConnection(const RedisConnection&) = delete;
    RedisConnection& operator=(const RedisConnection&) = delete;

    // Connects, authenticates, selects the database and reads INFO server. On failure the
    // connection stays closed and lastError() says why.
    bool open(const RedisEndpoint& endpoint, const ConnectOptions& options = {});
    void close();
    bool isOpen() const;

    const RedisEndpoint& endpoint() const { return m_endpoint; }
    const ServerInfo& server() const { return m_server; }
    const RedisError& lastError() const { return m_error; }

    // What one reply may cost zsetlab to hold, and the most unread bytes it takes from a server:
    // past either the connection is closed with what the server sent, so an announced length, an
    // endless line or millions of small elements cannot make zsetlab allocate without end. A
    // reply's cost counts every part hiredis and RedisReply hold (about 128 bytes a part, twice a
    // string's length, an array's table). zsetlab reads ZSETs in pages of at most 100,001 members
    // (some 200,000 parts, under 40 MB); INFO, SCAN and CLUSTER SLOTS are far smaller.
    static constexpr qint64 maxReplyBytes = 64LL * 1024 * 1024;
    static constexpr qsizetype maxUnreadBytes = 64 * 1024 * 1024;

    // What the reply being read has cost so far (for the reader's functions).
    struct ReplyBudget
    {
        qint64 limit = maxReplyBytes;
        qint64 spent = 0;
        qint64 objects = 0;
        bool refused = false;
    };

    // Sends a command and waits for its reply (bounded by the command timeout).
    RedisReply command(const RedisArgs& args);
    // Pipelining: queue a command; readReply() flushes the queue and reads the next reply.
    bool append(const RedisArgs& args);
    RedisReply readReply();

    // Event-loop use (several connections polled by one thread): after setNonBlocking(), append()
    // queues, flush() writes what it can, readAvailable() reads what arrived and nextReply()
    // takes one parsed reply when there is one. Each returns false when the connection failed.
    bool setNonBlocking();
    void setCommandTimeout(std::chrono::milliseconds timeout);
    int socket() const;
    bool flush(bool* allWritten);
    bool readAvailable();
    bool nextReply(RedisReply* reply);
    QString failureText() const;

    // Makes a blocked command() or readReply() on another thread return at once with
    // ConnectionLost. The connection is unusable afterwards.
    void interrupt();

private:
    RedisReply takeContextError() const;
    // After a read: the server went past a bound above (false, with m_readFailure set).
    bool withinBounds();
    // Installs the capped reply functions on the context's reader.
    void capReplies();
    bool fail(RedisError::Kind kind, const QString& message);
    bool failedOnTls();
    // The steps of open(), each false with lastError() set.
    bool connectSocket(const RedisEndpoint& endpoint, const ConnectOptions& options);
    bool authenticate(const RedisEndpoint& endpoint);
    bool selectDatabase(const RedisEndpoint& endpoint);
    bool readServer(const RedisEndpoint& endpoint, const ConnectOptions& options);
    bool flushTls(bool* allWritten);
    bool readTls();
    RedisReply readReplyTls();

    redisContext* m_context = nullptr;
    // A TLS connection: the channel, the commands formatted but not yet written, and why the
    // channel failed (empty while it works).
    std::unique_ptr<TlsChannel> m_tls;
    QByteArray m_tlsOut;
    qsizetype m_tlsOutSent = 0;
    QString m_tlsFailure;
    // Why a read of a plain connection was given up (a bound, the deadline); empty while it works.
    QString m_readFailure;
    std::chrono::milliseconds m_commandTimeout {2000};
    ReplyBudget m_replyBudget;
    // The socket as interrupt() sees it from other threads. close() clears it under the lock
    // before the socket is closed, so interrupt() never shuts down a number the system has
    // already given to another file.
    std::mutex m_fdLock;
    int m_fd = -1;
    RedisEndpoint m_endpoint;
    ServerInfo m_server;
    RedisError m_error;
};

// Turns a failed command's reply into the user-facing error, e.g. NOAUTH -> PasswordRequired.
RedisError classifyReplyError(const RedisReply& reply, const RedisEndpoint& endpoint);
