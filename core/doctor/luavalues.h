#pragma once

// The values the doctor follows through a script and the rules that combine them.

#include "luaflow.h"

#include <optional>

// How LuaFlow's values combine: arithmetic that keeps track of time units, text building, and
// the parts of Lua's own library limiter scripts use.
namespace LuaFlow {

Value constant();
Value unknown();
Value noValue(); // what a function returns until a return statement says
Value unite(const Value& a, const Value& b); // the sources of both
bool hasUnitRole(const Value& value);

// Combines values and records what that reveals (a lossy number-to-text conversion, mixed
// units) in a Reading; records nothing while *quiet > 0.
class ValueRules
{
public:
    ValueRules(Reading* reading, const int* quiet)
        : m_reading(reading)
        , m_quiet(quiet)
    { }

    void startReplicating() { m_replicating = true; } // redis.replicate_commands() was called
    // or, and, comparisons, .., + - * / % ^
    Value binary(const QByteArray& op, const Value& a, const Value& b, int line);
    // tonumber, tostring, math.*, string.*: nullopt for other functions.
    std::optional<Value> library(const QByteArray& path, const QVector<Value>& args, int line);

private:
    void fact(Fact::Kind kind, int line, int a = -1, int b = -1);
    QVector<int> lossyAt(const Value& value, int line);
    void checkUnits(const Value& a, const Value& b, int line);
    Value concatenate(const Value& a, const Value& b, int line);
    Value arithmetic(const QByteArray& op, const Value& a, const Value& b, int line);
    // library()'s families: math.floor/ceil/max/min/abs/random, struct.pack, string.*.
    Value mathCall(const QByteArray& path, const QVector<Value>& args, int line);
    Value packed(const Value& first, const QVector<Value>& args, int line);
    Value stringCall(const QByteArray& path, const Value& first, const QVector<Value>& args, int line);

    Reading* m_reading;
    const int* m_quiet;
    bool m_replicating = false;
};

} // namespace LuaFlow
