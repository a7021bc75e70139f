#pragma once

// LimiterCatalog: every limiter zsetlab can fire, one LimiterEntry each.

#include "calltemplate.h"
#include "limiterscript.h"
#include "limiterstore.h"
#include "replyreading.h"
#include "results/requestrecord.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>

// One limiter zsetlab can fire: its Lua script, how it is called, how it answers, and the store
// it keeps in Redis. The burst threads call through an entry and issue no command of their own
// for it, and every list of limiters (the Burst panel, the script view, the lesson, the CLI's
// --limiter) is read from the catalog: adding a limiter is one Lua file and one entry in
// limitercatalog.cpp. An entry is immutable and shared between threads.
struct LimiterEntry
{
    // Where the entry belongs in the story.
    enum class Role {
        Bug, // the member is the time: requests in one millisecond collide
        Fix, // a member unique per request
        Trap, // looks unique and is not (shown in the lesson, not offered as a fix)
        // Another way to limit (fixed window, token bucket, GCRA, ...) that decides itself and
        // answers {allowed, count}: compared on the same traffic by AlgorithmComparison
        Algorithm,
        Custom, // a user's script, made at run time
    };

    QString id; // "now", "request-id", ...; the file name for a user's script
    Role role = Role::Custom;
    const char* name = nullptr; // short, for lists (QT_TRANSLATE_NOOP("LimiterCatalog", ...))
    const char* summary = nullptr; // how it makes the member, one sentence
    LimiterScript script;
    // How the script is called; null: zsetlab's convention, KEYS = the store's keys, ARGV = now,
    // window (both in the clock's unit), limit, request id.
    std::shared_ptr<const CallTemplate> call;
    ReplyStyle replyStyle = ReplyStyle::CountWithCall;
    LimiterStore store = LimiterStore::sortedSet();

    bool isUnique() const { return role == Role::Fix; }
    // The script compares with the limit itself: a plan without one (limit 0) cannot run it.
    bool needsLimit() const { return role == Role::Algorithm; }
    bool isBuiltin() const { return role != Role::Custom; }
    // The translated name and summary (a user's script: its file name).
    QString displayName() const;
    QString displaySummary() const;

    // How evalsha() calls the script, as a template: `call`, or zsetlab's convention with the
    // store's keys ("{key} {key}:seq" for the sequence strategy). What the Script Doctor reads a
    // built-in script with, so that it sees the keys zsetlab passes.
    CallTemplate callTemplate() const;
    // The EVALSHA of one request: KEYS and ARGV from `values` (values.key is the run key).
    RedisArgs evalsha(const CallValues& values) const;
    // What the script answered, into the record: count, ZADD's reply, the member, or the error.
    void readReply(const RedisReply& reply, const QByteArray& requestId, RequestRecord* record) const;
    // A user's script: the keys its call template names beyond the run key, as store companions.
    static LimiterStore storeOf(const CallTemplate* call);
};

using LimiterRef = std::shared_ptr<const LimiterEntry>;

namespace LimiterCatalog {
// The built-in limiters, in the order lists show them.
const QVector<LimiterRef>& all();
// A built-in by id; null when there is none.
LimiterRef find(const QString& id);
// A built-in by id that must exist (a programming error otherwise).
LimiterRef builtin(const QString& id);
LimiterRef builtin(const char* id);
QStringList ids();
QVector<LimiterRef> withRole(LimiterEntry::Role role);
// The ids of the algorithms compared by `zsetlab-cli algorithms`, in the catalog's order.
QStringList algorithmIds();
// A user's script as an entry, made at run time: called through `call` (null: zsetlab's
// convention) and read as `style`.
LimiterRef custom(const LimiterScript& script, std::shared_ptr<const CallTemplate> call = nullptr,
                  ReplyStyle style = ReplyStyle::CountWithCall);
} // namespace LimiterCatalog
