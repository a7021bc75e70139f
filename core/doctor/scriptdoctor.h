#pragma once

// ScriptDoctor: reads a limiter script without running it; ScriptFinding and ScriptExamination are
// what it reports.

#include "knownlimiters.h"
#include "limiters/calltemplate.h"

struct ProbeReport;

#include <QByteArray>
#include <QList>
#include <QString>
#include <QVector>

// One thing the doctor noticed in a limiter script: where, how bad, why, and what to change.
struct ScriptFinding
{
    enum class Severity {
        Info, // not a problem in itself (e.g. a part of the script zsetlab could not follow)
        Warning, // counts right, but costs memory, depends on the Redis version or on the call
        Error, // counts wrong
    };

    int line = 0; // 1-based line of the script
    Severity severity = Severity::Warning;
    QString title;
    QString explanation; // plain words: what happens and why
    QString suggestion; // the change to make, with Lua where it helps
    // Stable identifier, for tools and tests: member-is-time, member-is-constant,
    // member-random-pre7, member-random-reseeded, randomseed, lossy-time, expire-in-ms,
    // pexpire-in-seconds, unit-mismatch, count-before-trim, never-trims, expire-before-add,
    // no-expiry, argv-missing, keys-missing, template-mismatch, unread, syntax-error, foreign-key,
    // undeclared-key, cross-slot, server-global, member-random-few; for Redis Functions libraries: library-metadata,
    // library-empty, function-reads-keys, function-no-writes; a public library's script: known-limiter,
    // derived-limiter; for managed services: no-keys, write-after-time.
    QString code;
    QString excerpt; // the script's line, trimmed
    QByteArray function; // in a library: the function whose code the line is in; empty elsewhere
};

// What ScriptDoctor read in a script.
struct ScriptExamination
{
    QVector<ScriptFinding> findings; // by line
    // What the script appends to KEYS[i] to name other keys it writes (e.g. ":seq"), so that a
    // probe can look at them and delete them.
    QList<QByteArray> keySuffixes;
    // The script compares the limit itself (it decides, not its caller).
    bool readsLimit = false;
    // How the script tells time when its call carries none: the server's clock (TIME), its keys'
    // TTL (PTTL, TTL), or not at all (a counter whose window is its key's expiry).
    enum class Clock { None, KeyTtl, ServerTime }; // in this order: the server's clock wins
    Clock clock = Clock::None;
    QString clockName() const; // "TIME", "PTTL", "none"
    // Lua 5.1's compiler accepted the script; when not, a syntax-error finding says where and
    // nothing can run it (zsetlab-cli doctor exits with 4).
    bool compiles = true;
    // A Redis Functions library (#!lua name=..., redis.register_function): its name and the
    // functions it registers. Each function is read as the EVAL script its body would be.
    bool isLibrary = false;
    QByteArray library;
    QList<QByteArray> functions;
    QByteArray examinedFunction; // when only one was asked for
    // member-random-few: how many values the member's random part takes (0: no such member), so
    // that the live probe can draw enough times to see them repeat.
    double randomMemberValues = 0;
    // The public library's limiter this script is (or derives from), when zsetlab knows it.
    LimiterRecognition known;

    // A Warning or an Error (the window's "problems found").
    bool hasProblem() const;
    // An Error: the reading says the script counts wrong (zsetlab-cli doctor exits with 1).
    bool countsWrong() const;
    // A Warning and no Error: it counts right, but costs memory, depends on the Redis version,
    // the call or a known issue the probe did not show (zsetlab-cli doctor --strict exits with 6).
    bool hasWarnings() const;
    int count(ScriptFinding::Severity severity) const;
};

// Reads a Lua limiter script without running it and reports the mistakes that make ZSET
// limiters count wrong: members that collide, lossy number-to-text conversions, units mixed up,
// expired entries counted. It follows values through local variables, arithmetic and local
// functions; what it cannot follow (tables, globals of other scripts) it leaves alone rather
// than guess, so a clean report is not a proof: the live probe (ScriptProbe) is the evidence.
//
// Keys and Redis Cluster: a key the script names itself is foreign-key when it does not start with
// a key the caller passes ('config', ARGV[1], 'prefix:' .. KEYS[1]) and undeclared-key when it is
// KEYS[n] with text after it (KEYS[1] .. ':seq'): both fail on a cluster unless they happen to be
// on the node of the call. A built key that the call passes as well (the template's KEYS[2] is
// {key}:seq, the script builds KEYS[1] .. ':seq') is no finding: Redis asks callers to declare
// the keys, which they do; how the script reaches the key is its own affair. appKey is a key of
// the application as it would be passed for {key} (e.g. "rl:{user42}"): with it, the doctor
// computes the slots of the call's keys (cross-slot when they differ) and of the keys it builds.
// Without it, it does not guess which names a caller uses.
//
// A Redis Functions library is read function by function (or only `function`, when given): the
// body with its parameters as KEYS and ARGV, beside the library's own helpers; findings in a
// function's code name it. `server.call` and `server.pcall` (Valkey's names) read as redis.call.
namespace ScriptDoctor {
ScriptExamination examine(const QByteArray& source, const CallTemplate& call = CallTemplate::zsetlabConvention(),
                          const QByteArray& appKey = QByteArray(), const QByteArray& function = QByteArray());
QString severityName(ScriptFinding::Severity severity); // "info", "warning", "error"
// The live probe's count beats the reading: when the probe's calls sharing one `now` were stored
// one member each, a finding that members collide (the time alone, a constant, a reseeded
// random, digits lost) did not hold for them, and becomes a note that says so. Not a finding
// that depends on the server's version (math.random before Redis 7). Returns how many changed.
// A member-random-few finding gains what the probe's draws saw. A known library's issue that
// counts wrong is a warning until the probe measures a wrong count on the calls given; then it
// is an error that says so. Returns how many findings changed.
int weighProbe(ScriptExamination* examination, const ProbeReport& report);
} // namespace ScriptDoctor
