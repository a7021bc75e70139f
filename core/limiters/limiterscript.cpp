#include "limiterscript.h"

#include "base/cappedfile.h"
#include "redis/redisconnection.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LimiterScript)
};

} // namespace

LimiterScript LimiterScript::fromResource(const QString& name)
{
    QFile file(QStringLiteral(":/lua/%1.lua").arg(name));
    const bool opened = file.open(QIODevice::ReadOnly);
    Q_ASSERT_X(opened, "LimiterScript::fromResource", "the Lua scripts are compiled into zsetlab_core");
    Q_UNUSED(opened);
    return fromSource(name, file.readAll());
}

LimiterScript LimiterScript::fromSource(const QString& name, const QByteArray& source)
{
    LimiterScript script;
    script.m_name = name;
    script.m_source = source;
    script.m_sha1 = QCryptographicHash::hash(source, QCryptographicHash::Sha1).toHex();
    return script;
}

bool LimiterScript::fromFile(const QString& path, LimiterScript* script, QString* error)
{
    const CappedFile file = CappedFile::read(path, maxSourceBytes);
    if (file.status == CappedFile::Status::CannotOpen) {
        *error = Text::tr("Cannot read the script %1: %2.").arg(path, file.why);
        return false;
    }
    if (file.status == CappedFile::Status::TooLarge) {
        *error = Text::tr("%1 holds more than %2 bytes: too large for a limiter script. Give the path of a Lua "
                          "file.")
                     .arg(path)
                     .arg(maxSourceBytes);
        return false;
    }
    if (file.bytes.trimmed().isEmpty()) {
        *error = Text::tr("The script %1 is empty.").arg(path);
        return false;
    }
    *script = fromSource(QFileInfo(path).fileName(), file.bytes);
    return true;
}

ScriptError ScriptError::fromReply(const QString& redisMessage)
{
    ScriptError error;
    error.message = redisMessage;
    // Redis 7 names the chunk "user_script"; 2.6 to 6.2 name it "f_<sha1>".
    // Redis 7 also ends errors from redis.call with "on @user_script:N." (a dot, not a colon).
    // A function's errors name "user_function".
    static const QRegularExpression lineRe(QStringLiteral("(?:user_script|user_function|f_[0-9a-f]{40}):(\\d+)\\b"));
    const auto match = lineRe.match(redisMessage);
    if (match.hasMatch())
        error.line = match.captured(1).toInt();
    return error;
}

QString ScriptError::toString() const
{
    if (line > 0)
        return Text::tr("Lua error at line %1: %2").arg(line).arg(message);
    return Text::tr("Lua error: %1").arg(message);
}

ScriptRunner::ScriptRunner(LimiterScript script, QByteArray function)
    : m_script(std::move(script))
    , m_function(std::move(function))
{ }

ScriptError ScriptError::ofLoad(const LimiterScript& script, const RedisReply& reply)
{
    // Redis 2.6 to 8 and Valkey: "ERR Error compiling script (new function): user_script:3: ...";
    // a library: "ERR Error compiling function: user_function:3: ...".
    if (reply.bytes().contains("Error compiling script") || reply.bytes().contains("Error compiling function")) {
        const ScriptError compile = fromReply(reply.text());
        return {compile.line, Text::tr("The script %1 does not compile. %2").arg(script.name(), compile.toString())};
    }
    return {0,
            Text::tr("The server refused to load the script %1 (SCRIPT LOAD): %2. That is the server's answer, not "
                     "a fault of the script: a server whose SCRIPT command is renamed or disabled "
                     "(rename-command), or an ACL user without +script|load, cannot run it.")
                .arg(script.name(), reply.text())};
}

bool ScriptRunner::load(RedisConnection& connection)
{
    const RedisReply reply = m_function.isEmpty()
        ? connection.command({QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("LOAD"), m_script.source()})
        : connection.command({QByteArrayLiteral("FUNCTION"), QByteArrayLiteral("LOAD"), QByteArrayLiteral("REPLACE"),
                              m_script.source()});
    if (reply.isError()) {
        if (reply.isServerError() && !m_function.isEmpty() && !reply.bytes().contains("Error compiling")) {
            // "Missing library metadata", "Function limit already exists" (in another library), ...
            m_errorLine = 0;
            m_error = Text::tr("The server refused to load the library %1 (FUNCTION LOAD): %2.")
                          .arg(m_script.name(), reply.text());
        } else if (reply.isServerError()) {
            const ScriptError error = ScriptError::ofLoad(m_script, reply);
            m_errorLine = error.line;
            m_error = error.message;
        } else {
            m_errorLine = 0;
            m_error = classifyReplyError(reply, connection.endpoint()).message;
        }
        return false;
    }
    m_error.clear();
    m_errorLine = 0;
    return true;
}

RedisArgs ScriptRunner::callCommand(const RedisArgs& keys, const RedisArgs& args) const
{
    RedisArgs command;
    command.reserve(3 + keys.size() + args.size());
    if (m_function.isEmpty())
        command << QByteArrayLiteral("EVALSHA") << m_script.sha1();
    else
        command << QByteArrayLiteral("FCALL") << m_function;
    command << QByteArray::number(keys.size());
    command << keys << args;
    return command;
}

bool ScriptRunner::isNoScript(const RedisReply& reply)
{
    return reply.isServerError() && reply.errorCode() == "NOSCRIPT";
}

RedisReply ScriptRunner::run(RedisConnection& connection, const RedisArgs& keys, const RedisArgs& args)
{
    const RedisArgs command = callCommand(keys, args);
    RedisReply reply = connection.command(command);
    const bool forgotten = isNoScript(reply)
        || (!m_function.isEmpty() && reply.isServerError() && reply.bytes().contains("Function not found"));
    if (forgotten) {
        if (!load(connection))
            return reply;
        reply = connection.command(command);
    }
    return reply;
}

QString ScriptRunner::describeFailure(const RedisReply& reply, const QByteArray& key)
{
    if (!reply.isError())
        return {};
    if (reply.isConnectionLost())
        return Text::tr("No reply: %1.").arg(reply.text());
    const QByteArray code = reply.errorCode();
    if (code == "WRONGTYPE")
        return Text::tr("The key %1 holds a value that is not a sorted set (WRONGTYPE). zsetlab leaves it as "
                        "it is: choose another key, or delete that one yourself if it is yours.")
            .arg(QString::fromUtf8(key));
    if (code == "OOM")
        return Text::tr("The server is out of memory (maxmemory reached, OOM): %1").arg(reply.text());
    if (code == "NOSCRIPT")
        return Text::tr("The server does not have the script loaded (NOSCRIPT) and reloading it failed.");
    if (code == "CROSSSLOT")
        return Text::tr("On a Redis Cluster every key of one call must hash to one slot, and the keys of %1 do not "
                        "(%2). Give them one hash tag, e.g. zsetlab:{limiter} and zsetlab:{limiter}:seq, or leave "
                        "the key empty for a fresh one that has it.")
            .arg(QString::fromUtf8(key), reply.text());
    if (reply.bytes().contains("non local key") || reply.bytes().contains("do not hash to the same slot"))
        return Text::tr("On a Redis Cluster a script may touch only keys in the slot of the keys it is given, and "
                        "this one, given %1, touched a key in another slot (%2). Pass every key the script uses in "
                        "KEYS, with the hash tag of the first one (e.g. zsetlab:{limiter} and zsetlab:{limiter}:seq).")
            .arg(QString::fromUtf8(key), reply.text());
    const ScriptError error = ScriptError::fromReply(reply.text());
    if (error.line > 0 || reply.bytes().contains("script"))
        return error.toString();
    return reply.text();
}
