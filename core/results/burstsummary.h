#pragma once

// BurstSummary: the totals of one burst, and BurstFailure, why it ended early.

#include "redis/memoryheadroom.h"
#include "redis/scriptsandbox.h"

#include <QByteArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

class RequestLog;

// Why a burst ended early, if it did.
struct ServerInfo;

struct BurstFailure
{
    // Eviction: the server deletes keys to make room and the run could push out keys zsetlab did
    // not make (nothing written without consent), or the memory watch stopped it.
    enum class Kind { None, Plan, Connection, Script, Eviction };
    Kind kind = Kind::None;
    QString message;
    int scriptLine = 0;
    bool isFailure() const { return kind != Kind::None; }
};

// One user's part of a burst with several users (plan.users), or one node's (the sums of the
// users it served).
struct UserResult
{
    int user = -1; // -1: a node's row
    QByteArray key;
    QString node; // host:port of the server (on a cluster, the master) that served the key
    int users = 1; // a node's row: how many users it served
    qint64 sent = 0;
    qint64 errors = 0;
    qint64 stored = 0;
    qint64 overwritten = 0;
    qint64 admitted = 0;
    qint64 admittedOverLimit = 0;
    qint64 maxCount = 0;
    qint64 finalCount = -1;
    qint64 membersAtEnd = -1;
    QJsonObject toJson(bool addedKnown) const;
};

// The numbers of one burst, as the CLI prints them and the GUI shows them.
// A key a run made and could not delete at its end (DEL refused, the server gone or busy).
struct LeftKey
{
    QByteArray key;
    QString why; // what the server said
    qint64 ttlMs = -1; // the TTL it was left with; -1: none, or unknown
    QString node; // host:port or socket of the server that holds it
};

struct BurstSummary
{
    QString serverVersion;
    QString serverName; // "redis", "valkey" (INFO's server_name)
    QString serverOwnVersion; // valkey_version on Valkey ("8.1.1"), else serverVersion
    // The three above as the connection read them: displayName() "Valkey 8.1.1", toJson().
    ServerInfo server() const;
    QString limiter; // the limiter's id (a user's script: its file name); "strategy" in JSON
    QByteArray key;
    QString clock;
    QString pacing;
    qint64 requests = 0; // planned
    qint64 sent = 0; // finished: answered or failed
    qint64 errors = 0;
    qint64 stored = 0; // ZADD created a member of their own (added = 1)
    qint64 overwritten = 0; // ZADD only updated an existing member (added = 0)
    qint64 lost = 0; // sent - errors - stored: never counted by the limiter
    // Requests whose reply did not say whether ZADD added (a script that answers only a count):
    // when there are any, stored, overwritten and lost are unknown, and membersAtEnd is what
    // Redis itself can tell.
    qint64 addedUnknown = 0;
    qint64 membersAtEnd = -1; // ZCARD when the burst ended; -1 unknown
    qint64 finalCount = -1; // ZCOUNT of the window when the burst ended; -1 unknown
    qint64 maxCount = 0;
    qint64 limit = 0;
    qint64 admitted = 0;
    qint64 admittedOverLimit = 0;
    double durationMs = 0;
    double throughputRps = 0;
    qint64 latencyUsP50 = 0;
    qint64 latencyUsP99 = 0;
    bool stopped = false; // Stop was asked before all requests were sent
    qint64 reconnects = 0; // connections lost and made again during the run
    QStringList errorMessages; // the distinct reasons of the errors (the first few)
    BurstFailure failure;
    int users = 1;
    // With several users, when the burst ended: one row per user, and per node (sorted by node).
    QVector<UserResult> perUser;
    // Keys the run made and could not delete; empty when it cleaned up (or kept them on purpose).
    QVector<LeftKey> keysLeft;
    ScriptSandboxing sandbox;
    // What the server said of its memory before the run (not read on a server zsetlab started).
    MemoryHeadroom serverMemory;
    // "The run could not delete ...", with the command that does it; empty when nothing is left.
    QString keysLeftText() const;
    QVector<UserResult> perNode() const;

    // Fills the counters from a log; the latency percentiles too when asked (a pass over the
    // whole log: at the end of a burst, not per batch).
    void takeCountsFrom(const RequestLog& log, bool withLatencies = true);
    double lostPercent() const { return sent > errors ? 100.0 * double(lost) / double(sent - errors) : 0.0; }
    // False when some replies did not say whether ZADD added: stored, overwritten, lost unknown.
    bool addedKnown() const { return addedUnknown == 0; }

    // The JSON object of `zsetlab-cli run --json`; also what the GUI exports.
    QJsonObject toJson() const;
    // A short report for people, one figure per line.
    QString toText() const;
};

Q_DECLARE_METATYPE(BurstSummary)
