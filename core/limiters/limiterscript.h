#pragma once

#include "redis/redisreply.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

class RedisConnection;

// A Lua limiter script: one of zsetlab's (compiled in from lua/) or a user's file. See
// limitercatalog.h for how each is called and read.
class LimiterScript
{
public:
    LimiterScript() = default;
    // lua/<name>.lua, compiled in as :/lua/<name>.lua.
    static LimiterScript fromResource(const QString& name);
    static LimiterScript fromSource(const QString& name, const QByteArray& source);
    // A script file is read up to this many bytes; a longer one (or /dev/zero) is refused.
    static constexpr qint64 maxSourceBytes = 1024 * 1024;
    // Reads a script file; false with a message when it cannot be read, is too large or is empty.
    static bool fromFile(const QString& path, LimiterScript* script, QString* error);

    bool isValid() const { return !m_source.isEmpty(); }
    QString name() const { return m_name; }
    const QByteArray& source() const { return m_source; }
    // The SHA1 that SCRIPT LOAD will answer, computed locally.
    const QByteArray& sha1() const { return m_sha1; }

private:
    QString m_name;
    QByteArray m_source;
    QByteArray m_sha1;
};

// A Lua error from Redis, with the script line it names when it names one.
struct ScriptError
{
    int line = 0; // 0: unknown
    QString message;
    static ScriptError fromReply(const QString& redisMessage);
    QString toString() const;
    // What a server's error reply to SCRIPT LOAD of `script` means, for people: "does not
    // compile" only when the server said so; otherwise what the server said (a renamed or
    // disabled SCRIPT command, an unsolicited reply), naming the server, not the script, as the cause.
    static ScriptError ofLoad(const LimiterScript& script, const RedisReply& reply);
};

// Runs a script with EVALSHA, loading it once and again whenever the server forgot it
// (NOSCRIPT after SCRIPT FLUSH or a restart). Given a function, the script is a Redis Functions
// library: FUNCTION LOAD REPLACE loads it and FCALL calls that function. Loading a library
// changes the functions every client of the server sees: only on a server zsetlab started.
class ScriptRunner
{
public:
    explicit ScriptRunner(LimiterScript script, QByteArray function = {});

    const LimiterScript& script() const { return m_script; }
    const QByteArray& function() const { return m_function; }
    // SCRIPT LOAD (FUNCTION LOAD REPLACE); false with error() on a compile error or lost connection.
    bool load(RedisConnection& connection);
    RedisReply run(RedisConnection& connection, const RedisArgs& keys, const RedisArgs& args);
    RedisArgs callCommand(const RedisArgs& keys, const RedisArgs& args) const; // EVALSHA, or FCALL
    // For pipelines: true when reply says the script must be loaded again and the call resent.
    static bool isNoScript(const RedisReply& reply);
    // What went wrong with a call, for people: WRONGTYPE names the key, Lua errors their line.
    static QString describeFailure(const RedisReply& reply, const QByteArray& key);
    const QString& error() const { return m_error; }
    int errorLine() const { return m_errorLine; }

private:
    LimiterScript m_script;
    QByteArray m_function;
    QString m_error;
    int m_errorLine = 0;
};
