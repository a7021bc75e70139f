#pragma once

// ScriptSandbox: a temporary ACL user under which a user's script runs on a server zsetlab did
// not start, so that the server itself refuses any key outside the run's own.

#include "redisconnection.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <chrono>
#include <vector>

// How a user's script ran on the server (ScriptSandbox); mode None for zsetlab's own limiters.
struct ScriptSandboxing
{
    enum class Mode {
        None, // a built-in limiter
        OwnServer, // a server zsetlab started, as the same temporary ACL user as AclUser
        AclUser, // as a temporary ACL user that may touch only the run's keys
        Trusted, // no sandbox could be made, and the user said to run it anyway (--trust-script)
    };
    Mode mode = Mode::None;
    QString user; // AclUser: its name
    QString why; // Trusted: why no sandbox could be made
    QList<QByteArray> refusedKeys; // keys outside the run's that Redis refused the script
    // Commands the sandbox refused the script (SELECT, INFO, MIGRATE, PFDEBUG, ...), lower case
    // as Redis logs them ("script|flush").
    QList<QByteArray> refusedCommands;
    QString logUnread; // the ACL LOG could not be read: why (refusals are then unknown)
    QString leftBehind; // the user could not be deleted: where, and how to delete it
    // Notes of the run that used the sandbox, for the same report:
    QByteArray scriptCacheSha; // the script stays in a given server's script cache under this SHA1
    QString scriptKill; // a runaway script: what SCRIPT KILL did
    QList<QByteArray> sideKeysRemoved; // keys the script made beside the run's, deleted after it (the first 100)
    qint64 sideKeysRemovedCount = 0; // how many in all
    QString sideKeysLeft; // keys the script made beside the run's that stay: which, and how to delete them

    QJsonObject toJson() const;
    QString toText() const; // one line or two for the run's report; empty for None
};

// A trial run on a private server shows what a script did there, not what it will do later
// (a script may behave until some time has passed). So on a server zsetlab did not start, a
// user's script runs as a temporary ACL user made for the run: it may touch only keys that match
// the run's patterns, run scripts and the commands a limiter needs on those keys, and nothing in
// @dangerous, @admin, @pubsub or @blocking. Redis then refuses any other key inside the script
// ("can't access at least one of the keys"), and the ACL LOG names it.
//
// The same user runs a script on a server zsetlab started (its private server, the doctor's
// trial): there, too, nothing but the run's keys, and no command that reaches another server
// (MIGRATE, REPLICAOF, CLUSTER MEET), another database (SELECT, SWAPDB, MOVE) or the server's
// state (INFO, DBSIZE, CONFIG, DEBUG, PFDEBUG). ACL rules cannot keep a user to one database, so
// the user may not SELECT, and make() refuses an endpoint whose database is not 0.
//
// The user is made on the server (on a cluster, on every master) by make(), with a random name
// and a password that exists only in this object, and deleted by drop() or the destructor.
// Not thread-safe; make() and drop() block (each bounded by the command timeout).
class ScriptSandbox
{
public:
    enum class Outcome {
        Made,
        // The connection may not make ACL users (no permission for ACL SETUSER), or the server
        // has no ACL (before Redis 6): a script runs here only with the user's consent.
        NotAllowed,
        Failed, // the server did not answer, or answered with an error that says nothing of rights
    };

    ScriptSandbox() = default;
    ~ScriptSandbox();
    ScriptSandbox(const ScriptSandbox&) = delete;
    ScriptSandbox& operator=(const ScriptSandbox&) = delete;

    // Makes the user on the server of `endpoint` (every master of a cluster) with access to the
    // keys matching `keyPatterns` (Redis glob patterns; see patternsOfKey()). *why says what went
    // wrong unless Made.
    Outcome make(const RedisEndpoint& endpoint, const ConnectOptions& options, const QList<QByteArray>& keyPatterns,
                 QString* why);
    // What a user's script needs before it runs on `endpoint`: the user made by make() (on a
    // server zsetlab started, options.ownServer, too), else the user's consent
    // (options.trustScripts). Made when the script may run, with *how saying which; otherwise *why.
    Outcome enter(const RedisEndpoint& endpoint, const ConnectOptions& options, const QList<QByteArray>& keyPatterns,
                  ScriptSandboxing* how, QString* why);
    // After the run: the keys Redis refused the user (its ACL LOG) and the user deleted, into *how.
    void leave(ScriptSandboxing* how);
    bool isMade() const { return !m_nodes.empty(); }
    const QByteArray& userName() const { return m_user; }

    // `node` (the server or one of its nodes) as the sandbox's user.
    RedisEndpoint asUser(RedisEndpoint node) const;

    // Deletes the user from every node, each on a fresh connection; false with *why for the nodes
    // where that failed (naming the user and how to delete it). Called again (or by the
    // destructor) it does nothing. With `refusedKeys`, first reads the keys (and commands) Redis
    // refused the user from each node's ACL LOG; a log that cannot be read is said in *logUnread,
    // and the user is deleted all the same.
    bool drop(QString* why = nullptr, QList<QByteArray>* refusedKeys = nullptr,
              QList<QByteArray>* refusedCommands = nullptr, QString* logUnread = nullptr);

    // The patterns for the keys of a run whose key is `key`, a fresh run key whose hash tag is
    // this run's alone (ZsetKeys::freshRunKey()): every key that starts with the tag (its
    // companions, the keys a script makes from it, its users' keys). A key without such a tag
    // gets itself and KEY:*, which a key that was there before may share: use patternsOfKeys().
    static QList<QByteArray> patternsOfKey(const QByteArray& key);
    // Exactly these keys (a key the user named, which older keys may start with): each escaped,
    // no wildcard.
    static QList<QByteArray> patternsOfKeys(const QList<QByteArray>& keys);
    // The most exact keys a sandbox takes: the server matches each key a script touches against
    // every pattern.
    static constexpr int maxExactKeys = 1024;
    // `text` with Redis glob's special characters (* ? [ ] \) escaped.
    static QByteArray escapeGlob(const QByteArray& text);
    // The ACL SETUSER rules (after the name) for these patterns and password.
    // With `functions`, the connection may also load a library and call its functions.
    static QList<QByteArray> rules(const QList<QByteArray>& keyPatterns, const QByteArray& password,
                                   bool withChannels = true, bool functions = false);
    // The user made next may load a library (FUNCTION LOAD) and call it (FCALL): for zsetlab's
    // own server only, where the doctor tries a library.
    void allowFunctions(bool allow) { m_functions = allow; }

    // After an ACL DELUSER that found no user: how long zsetlab looks for a late SETUSER, and how often.
    static constexpr auto lateUserWait = std::chrono::milliseconds(1500);
    static constexpr auto lateUserLookEvery = std::chrono::milliseconds(50);
    static constexpr int maxLateDeletions = 5;

private:
    // ACL DELUSER on `connection`, then ACL GETUSER until the user is gone for good (a late SETUSER
    // is deleted too); false with *why when it stays or cannot be checked.
    bool deleteUser(RedisConnection& connection, QString* why) const;

    std::vector<RedisEndpoint> m_nodes; // where the user exists, as the connection that made it
    ConnectOptions m_options;
    QByteArray m_user;
    QByteArray m_password;
    bool m_functions = false;
};
