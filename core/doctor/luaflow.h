#pragma once

#include "limiters/calltemplate.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QVector>

// Reads a Lua limiter script the way ScriptDoctor needs it: which Redis commands it calls, in
// order, and where each argument comes from (the time, the window, a request id, math.random(),
// ...), with its time unit. Values are followed through locals, arithmetic, string building and
// local functions; branches are read one after the other. What cannot be followed is Unknown, and
// the rules never report on Unknown values.
namespace LuaFlow {

enum Source : unsigned {
    FromTime = 1u << 0, // {now*} or redis.call('TIME')
    FromDuration = 1u << 1, // {window*}
    FromLimit = 1u << 2,
    FromUnique = 1u << 3, // unique per request: {uuid}, {seq}, INCR
    FromRandom = 1u << 4, // math.random() while the generator is reseeded per call (before Redis 7)
    FromRandomReplicated = 1u << 5, // math.random() after redis.replicate_commands()
    FromConstant = 1u << 6, // literals, the same in every call
    FromKey = 1u << 7,
    FromUnknown = 1u << 8,
    FromServerTime = 1u << 9, // redis.call('TIME'): the server's clock (always with FromTime)
};

// What a number means, for unit checks.
enum class Role {
    None,
    Time, // a point in time since the epoch
    SubSecond, // the microseconds part of TIME
    Duration,
};

// Units and resolutions count in steps of 1000: 0 = s, 1 = ms, 2 = µs, 3 = ns; -1 unknown.
struct Value
{
    unsigned sources = FromUnknown;
    Role role = Role::None;
    int unit = -1;
    int resolution = -1; // the finest unit the value carries (Time)
    bool number = false; // a Lua number: text conversion uses %.14g
    bool timeArray = false; // the reply of TIME
    bool hasLiteral = false;
    double literal = 0;
    bool literalText = false; // a string known in full
    QByteArray text;
    QByteArray keyName; // "KEYS[1]", "KEYS[1]:seq"
    QByteArray keyRoot; // "KEYS[1]" when the text starts with a key the caller passed (KEYS[1] .. anything)
    bool leadingText = false; // the text starts with literal text ('prefix:' .. x)
    QByteArray path; // "redis.call", "math.random": globals and their fields
    int argIndex = 0; // straight from ARGV[argIndex]
    int function = -1;
    int builtLine = 0; // where a text or random value was made (for messages)
    // The random parts of the value take this many distinct values in all (math.random(1, 1000):
    // 1000); 0 when it has no random part, or one with too many values to count.
    double randomValues = 0;
    // A time part that repeats (the millisecond within the second, now % 1000) takes this many
    // values; 0 when the value carries the whole time, or no time.
    double timeCycle = 0;
    QVector<int> lossyLines; // lines where a fine timestamp went through %.14g on its way here
};

struct RedisCall
{
    int line = 0;
    QByteArray command; // upper case; empty when not a literal
    QVector<Value> args; // after the command name
};

struct Fact
{
    enum class Kind { Lossy, UnitMismatch, MissingArg, MissingKey, TemplateMismatch, RandomSeed, Unread };
    Kind kind = Kind::Unread;
    int line = 0;
    int a = -1; // Lossy: resolution; UnitMismatch: units; Missing*, TemplateMismatch: index
    int b = -1;
    QString text; // TemplateMismatch: the variable
    QString detail; // TemplateMismatch: the placeholder
};

// What a script's variable names say an argument is. Boundary: the start of the window, now -
// window (clear_before, window_start, cutoff, ...).
enum class Meaning { None, Time, Duration, Limit, Id, Boundary };
Meaning meaningOfName(const QByteArray& name);

struct ArgBinding
{
    int index = 0;
    Meaning meaning = Meaning::None;
};

struct Reading
{
    QVector<RedisCall> calls; // in the order they run, local functions inlined
    QVector<Fact> facts;
    QVector<int> defaultedArgs; // ARGV[n] read with a default (ARGV[n] or 10): optional, not missing
    QVector<ArgBinding> argBindings; // local x = ARGV[n]
    QVector<int> randomSeedLines;
    QList<QByteArray> keySuffixes;
    bool readsLimit = false;
};

Reading read(const QByteArray& source, const CallTemplate& call);

} // namespace LuaFlow
