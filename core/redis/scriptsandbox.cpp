#include "scriptsandbox.h"

#include "keyslot.h"
#include "nodeconnections.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRandomGenerator>

#include <chrono>
#include <thread>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptSandbox)
};

QByteArray randomHex(int bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(raw.data()), bytes / 4);
    return raw.toHex();
}

// A reply's error, never empty: a connection that failed says why in its last error.
QString reasonOf(const RedisReply& reply, const RedisConnection& connection)
{
    QString text = reply.text();
    if (text.trimmed().isEmpty())
        text = connection.lastError().message;
    if (text.trimmed().isEmpty())
        text = Text::tr("no answer");
    return text;
}

// NOPERM: the connection's user may not run ACL SETUSER. An unknown command: no ACL (Redis < 6).
bool refusesAcl(const RedisReply& reply)
{
    const QByteArray& text = reply.bytes();
    return reply.errorCode() == "NOPERM" || text.contains("unknown command") || text.contains("Unknown command")
        || text.contains("unknown subcommand");
}
} // namespace

ScriptSandbox::~ScriptSandbox()
{
    drop();
}

QByteArray ScriptSandbox::escapeGlob(const QByteArray& text)
{
    QByteArray escaped;
    escaped.reserve(text.size());
    for (const char c : text) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\')
            escaped += '\\';
        escaped += c;
    }
    return escaped;
}

QList<QByteArray> ScriptSandbox::patternsOfKey(const QByteArray& key)
{
    // zsetlab:run:{20261202-113000-00a1f3}: its companions (...}:seq), the keys a script makes
    // from it (...}_x) and its users' keys ({...:u7}) all start with the tag's text.
    if (key.endsWith('}') && !KeySlot::hashTag(key).isEmpty()) {
        const QByteArray open = escapeGlob(key.left(key.size() - 1));
        return {open + "}*", open + ":*"};
    }
    const QByteArray exact = escapeGlob(key);
    return {exact, exact + ":*"};
}

QList<QByteArray> ScriptSandbox::patternsOfKeys(const QList<QByteArray>& keys)
{
    QList<QByteArray> patterns;
    for (const QByteArray& key : keys) {
        const QByteArray exact = escapeGlob(key);
        if (!patterns.contains(exact))
            patterns << exact;
    }
    return patterns;
}

QList<QByteArray> ScriptSandbox::rules(const QList<QByteArray>& keyPatterns, const QByteArray& password,
                                       bool withChannels, bool functions)
{
    QList<QByteArray> rules {"on", '>' + password, "resetkeys"};
    for (const QByteArray& pattern : keyPatterns)
        rules << '~' + pattern;
    if (withChannels)
        rules << "resetchannels"; // Redis 6.2+; before it, @pubsub below is all there is
    // What a limiter does to its keys (read, write, expire, delete), and running scripts; nothing
    // that reaches beyond keys (flushes, other databases, other servers, the configuration, the
    // server's figures, other clients, channels, the script cache as a whole, functions), and no
    // key listing or counting. The handshake of the user's connections needs neither INFO nor
    // SELECT (RedisEndpoint::helloHandshake: HELLO, which every user may send, and database 0).
    rules << "-@all"
          << "+@read"
          << "+@write"
          << "+@keyspace"
          << "-@dangerous"
          << "-@admin"
          << "-@pubsub"
          << "-@blocking"
          << "-@scripting"
          << "-move"
          << "-copy"
          << "-scan"
          << "-randomkey"
          << "-dbsize"
          << "-swapdb"
          << "-migrate"
          << "-select"
          << "-info"
          << "+eval"
          << "+evalsha"
          << "+script|load"
          << "+script|exists"
          << "+command|getkeys" // the doctor's check of a --setup command's keys
          << "+time"
          << "+wait" // the doctor's real-time scenarios wait out a window on the server's clock
          << "+ping"
          << "+echo" // the doctor's marker at the end of its watch
          << "+asking"
          << "+cluster|slots";
    // A library on zsetlab's own server (the doctor's trial): loaded and called by the
    // connection; a script cannot call either (Redis refuses FCALL and FUNCTION inside one).
    if (functions)
        rules << "+function|load"
              << "+fcall"
              << "+fcall_ro";
    return rules;
}

ScriptSandbox::Outcome ScriptSandbox::make(const RedisEndpoint& endpoint, const ConnectOptions& options,
                                           const QList<QByteArray>& keyPatterns, QString* why)
{
    drop();
    if (endpoint.db != 0) {
        *why = Text::tr("a script runs in a sandbox on database 0 only: Redis's ACL rules cannot keep a user to one "
                        "database, so the sandbox denies SELECT, and database %1 cannot be reached without it. Use "
                        "database 0 (/0 in the URL)")
                   .arg(endpoint.db);
        return Outcome::NotAllowed;
    }
    NodeConnections nodes;
    QString error;
    if (!nodes.open(endpoint, options, &error)) {
        *why = error;
        return Outcome::Failed;
    }
    m_options = options;
    m_user = "zsetlab-sandbox-" + randomHex(8);
    m_password = randomHex(32);
    for (const auto& connection : nodes.all()) {
        RedisArgs setUser {"ACL", "SETUSER", m_user};
        RedisReply reply = connection->command(setUser + rules(keyPatterns, m_password, true, m_functions));
        if (reply.isServerError() && !refusesAcl(reply) && connection->server().majorVersion == 6
            && connection->server().minorVersion < 2) // Redis 6.0 knows no channel rules
            reply = connection->command(setUser + rules(keyPatterns, m_password, false, m_functions));
        if (reply.isError()) {
            const QString server = connection->endpoint().address();
            const Outcome outcome = refusesAcl(reply) ? Outcome::NotAllowed : Outcome::Failed;
            *why = reply.errorCode() == "NOPERM"
                ? Text::tr("the connection's user may not create ACL users on %1 (ACL SETUSER: %2)")
                      .arg(server, reply.text())
                : outcome == Outcome::NotAllowed
                ? Text::tr("%1 has no ACL users (Redis %2; they came with Redis 6.0)")
                      .arg(server, connection->server().version)
                : Text::tr("ACL SETUSER on %1 failed: %2").arg(server, reasonOf(reply, *connection));
            // No answer in time: the server may have made the user all the same (the reply comes
            // late). Delete it too, on a fresh connection.
            if (reply.isConnectionLost())
                m_nodes.push_back(connection->endpoint());
            QString dropWhy;
            if (!drop(&dropWhy))
                *why += QStringLiteral(". ") + dropWhy;
            return outcome;
        }
        m_nodes.push_back(connection->endpoint());
    }
    return Outcome::Made;
}

RedisEndpoint ScriptSandbox::asUser(RedisEndpoint node) const
{
    if (isMade()) {
        node.user = QString::fromLatin1(m_user);
        node.password = QString::fromLatin1(m_password);
        node.helloHandshake = true; // the user may run neither INFO nor SELECT
    }
    return node;
}

namespace {
// The keys and commands an ACL LOG reply says were refused to `user`.
void addRefused(const RedisReply& log, const QByteArray& user, QList<QByteArray>* keys, QList<QByteArray>* commands)
{
    for (const RedisReply& entry : log.elements()) {
        // A flat list of field, value pairs: reason, context, object, username, ...
        QByteArray reason;
        QByteArray context;
        QByteArray object;
        QByteArray name;
        const auto& fields = entry.elements();
        for (size_t i = 0; i + 1 < fields.size(); i += 2) {
            const QByteArray& field = fields[i].bytes();
            if (field == "reason")
                reason = fields[i + 1].bytes();
            else if (field == "context")
                context = fields[i + 1].bytes();
            else if (field == "object")
                object = fields[i + 1].bytes();
            else if (field == "username")
                name = fields[i + 1].bytes();
        }
        if (name != user)
            continue;
        if (reason == "key" && !keys->contains(object))
            *keys << object;
        else if (reason == "command" && context == "lua" && commands && !commands->contains(object))
            *commands << object;
    }
}
} // namespace

bool ScriptSandbox::drop(QString* why, QList<QByteArray>* refusedKeys, QList<QByteArray>* refusedCommands,
                         QString* logUnread)
{
    QStringList failed;
    QStringList unread;
    for (const RedisEndpoint& node : m_nodes) {
        // Each on a fresh connection: the one that made the user may be waiting for a late reply.
        RedisConnection connection;
        connection.open(node, m_options);
        if (refusedKeys && connection.isOpen()) {
            const RedisReply log = connection.command({"ACL", "LOG", "128"});
            if (log.isError())
                unread << Text::tr("%1 (%2)").arg(node.address(), reasonOf(log, connection));
            else
                addRefused(log, m_user, refusedKeys, refusedCommands);
        }
        // Whatever became of the log, the user goes: again on a fresh connection if that one broke.
        if (!connection.isOpen())
            connection.open(node, m_options);
        if (!connection.isOpen()) {
            failed << Text::tr("%1 (%2)").arg(node.address(), reasonOf(RedisReply(), connection));
            continue;
        }
        QString stays;
        if (!deleteUser(connection, &stays))
            failed << Text::tr("%1 (%2)").arg(node.address(), stays);
    }
    if (logUnread && !unread.isEmpty())
        *logUnread = Text::tr("zsetlab could not read the ACL LOG on %1, so it cannot tell which keys or commands "
                              "Redis refused the script there.")
                         .arg(unread.join(QStringLiteral(", ")));
    if (why && !failed.isEmpty())
        *why = Text::tr("zsetlab could not delete its temporary ACL user %1 on %2; it cannot log in (its password "
                        "is gone), and redis-cli ACL DELUSER %1 removes it.")
                   .arg(QString::fromLatin1(m_user), failed.join(QStringLiteral(", ")));
    m_nodes.clear();
    return failed.isEmpty();
}

bool ScriptSandbox::deleteUser(RedisConnection& connection, QString* why) const
{
    const RedisReply deleted = connection.command({"ACL", "DELUSER", m_user});
    if (deleted.isError()) {
        *why = reasonOf(deleted, connection);
        return false;
    }
    // DELUSER answered 0: the SETUSER that makes the user may still be on its way (a slow proxy
    // between, a reply that came too late). Look for it a while, and delete it when it comes;
    // bounded in time and in deletions.
    const auto until
        = std::chrono::steady_clock::now() + (deleted.toInteger() == 1 ? std::chrono::milliseconds(0) : lateUserWait);
    int deletions = 0;
    for (;;) {
        const RedisReply user = connection.command({"ACL", "GETUSER", m_user});
        if (user.isError()) {
            *why = Text::tr("zsetlab could not check that it is gone: %1").arg(reasonOf(user, connection));
            return false;
        }
        if (user.type() == RedisReply::Type::Array) { // there (again)
            if (++deletions > maxLateDeletions) {
                *why = Text::tr("it was there again after %1 ACL DELUSER").arg(maxLateDeletions);
                return false;
            }
            const RedisReply again = connection.command({"ACL", "DELUSER", m_user});
            if (again.isError()) {
                *why = reasonOf(again, connection);
                return false;
            }
            continue;
        }
        if (std::chrono::steady_clock::now() >= until)
            return true;
        std::this_thread::sleep_for(lateUserLookEvery);
    }
}

ScriptSandbox::Outcome ScriptSandbox::enter(const RedisEndpoint& endpoint, const ConnectOptions& options,
                                            const QList<QByteArray>& keyPatterns, ScriptSandboxing* how, QString* why)
{
    *how = {};
    // On a server zsetlab started, too: a script there must not reach another server (MIGRATE)
    // or touch what the trial does not watch (MONITOR does not show @admin commands).
    const Outcome outcome = make(endpoint, options, keyPatterns, why);
    if (outcome == Outcome::Made) {
        how->mode = options.ownServer ? ScriptSandboxing::Mode::OwnServer : ScriptSandboxing::Mode::AclUser;
        how->user = QString::fromLatin1(m_user);
    } else if (outcome == Outcome::NotAllowed && options.trustScripts) {
        how->mode = ScriptSandboxing::Mode::Trusted;
        how->why = *why;
        return Outcome::Made;
    }
    return outcome;
}

void ScriptSandbox::leave(ScriptSandboxing* how)
{
    if (!isMade())
        return;
    QString why;
    if (!drop(&why, &how->refusedKeys, &how->refusedCommands, &how->logUnread))
        how->leftBehind = why;
}

QJsonObject ScriptSandboxing::toJson() const
{
    QJsonObject json;
    switch (mode) {
    case Mode::None:
        return json;
    case Mode::OwnServer:
        json[QStringLiteral("mode")] = QStringLiteral("own-server");
        json[QStringLiteral("user")] = user;
        break;
    case Mode::AclUser:
        json[QStringLiteral("mode")] = QStringLiteral("acl-user");
        json[QStringLiteral("user")] = user;
        break;
    case Mode::Trusted:
        json[QStringLiteral("mode")] = QStringLiteral("trusted");
        json[QStringLiteral("why")] = why;
        break;
    }
    QJsonArray refused;
    for (const QByteArray& key : refusedKeys)
        refused.append(QString::fromUtf8(key));
    json[QStringLiteral("refused_keys")] = refused;
    QJsonArray commands;
    for (const QByteArray& command : refusedCommands)
        commands.append(QString::fromUtf8(command));
    json[QStringLiteral("refused_commands")] = commands;
    if (!logUnread.isEmpty())
        json[QStringLiteral("acl_log_unread")] = logUnread;
    if (!leftBehind.isEmpty())
        json[QStringLiteral("left_behind")] = leftBehind;
    if (!scriptCacheSha.isEmpty())
        json[QStringLiteral("script_cache_sha1")] = QString::fromLatin1(scriptCacheSha);
    if (!scriptKill.isEmpty())
        json[QStringLiteral("script_kill")] = scriptKill;
    if (!sideKeysRemoved.isEmpty()) {
        QJsonArray removed;
        for (const QByteArray& key : sideKeysRemoved)
            removed.append(QString::fromUtf8(key));
        json[QStringLiteral("side_keys_removed")] = removed;
        json[QStringLiteral("side_keys_removed_count")] = sideKeysRemovedCount;
    }
    if (!sideKeysLeft.isEmpty())
        json[QStringLiteral("side_keys_left")] = sideKeysLeft;
    return json;
}

QString ScriptSandboxing::toText() const
{
    QStringList lines;
    switch (mode) {
    case Mode::None:
        return QString();
    case Mode::OwnServer:
        lines << QStringLiteral("  script        ran on a server zsetlab started for this, as the temporary ACL user "
                                "%1, which may touch only this run's keys")
                     .arg(user);
        break;
    case Mode::AclUser:
        lines << QStringLiteral(
                     "  script        ran as the temporary ACL user %1, which may touch only this run's keys")
                     .arg(user);
        break;
    case Mode::Trusted:
        lines << QStringLiteral("  script        ran WITHOUT a sandbox (--trust-script): %1").arg(why);
        break;
    }
    if (!refusedKeys.isEmpty()) {
        QStringList keys;
        for (const QByteArray& key : refusedKeys.mid(0, 10))
            keys << QString::fromUtf8(key);
        lines << QStringLiteral("  refused       Redis refused the script %1 (outside the run's keys); nothing there "
                                "was changed")
                     .arg(keys.join(QStringLiteral(", ")));
    }
    if (!refusedCommands.isEmpty()) {
        QStringList commands;
        for (const QByteArray& command : refusedCommands.mid(0, 10))
            commands << QString::fromUtf8(command).toUpper();
        lines << QStringLiteral("  refused       Redis refused the script the command %1 (the sandbox allows only what "
                                "a limiter does to its own keys); it did not run")
                     .arg(commands.join(QStringLiteral(", ")));
    }
    if (!logUnread.isEmpty())
        lines << QStringLiteral("  ACL LOG       %1").arg(logUnread);
    if (!scriptKill.isEmpty())
        lines << QStringLiteral("  runaway       %1").arg(scriptKill);
    if (!sideKeysRemoved.isEmpty()) {
        QStringList keys;
        for (const QByteArray& key : sideKeysRemoved.mid(0, 3))
            keys << QString::fromUtf8(key);
        lines << QStringLiteral("  beside        the script made %1 keys beside the run's (%2%3); zsetlab deleted them")
                     .arg(sideKeysRemovedCount)
                     .arg(keys.join(QStringLiteral(", ")),
                          sideKeysRemovedCount > 3 ? QStringLiteral(", ...") : QString());
    }
    if (!sideKeysLeft.isEmpty())
        lines << QStringLiteral("  beside        %1").arg(sideKeysLeft);
    if (!scriptCacheSha.isEmpty())
        lines << QStringLiteral("  script cache  the script stays in the server's script cache (SHA1 %1): zsetlab "
                                "loaded it with SCRIPT LOAD and cannot remove it alone, as SCRIPT FLUSH empties every "
                                "client's cache; a restart of the server, or SCRIPT FLUSH when no one else needs the "
                                "cache, removes it")
                     .arg(QString::fromLatin1(scriptCacheSha));
    if (!leftBehind.isEmpty())
        lines << QStringLiteral("  left behind   %1").arg(leftBehind);
    return lines.join(QLatin1Char('\n'));
}
