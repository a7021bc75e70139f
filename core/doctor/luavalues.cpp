#include "luavalues.h"

#include <algorithm>
#include <cmath>

namespace LuaFlow {
namespace {
// 1000 -> 1, 1e6 -> 2, 0.001 -> -1; false for numbers that are not a power of 1000.
bool powerOf1000(double number, int* steps)
{
    for (int k = -3; k <= 3; ++k) {
        if (number == std::pow(1000.0, k)) {
            *steps = k;
            return true;
        }
    }
    return false;
}
} // namespace

Value constant()
{
    Value value;
    value.sources = FromConstant;
    return value;
}

Value unknown()
{
    return Value();
}

Value noValue()
{
    Value value;
    value.sources = 0;
    return value;
}

Value unite(const Value& a, const Value& b)
{
    Value value;
    value.sources = a.sources | b.sources;
    // Two random parts side by side multiply their values; one with uncounted values wins.
    const auto uncounted
        = [](const Value& v) { return (v.sources & (FromRandom | FromRandomReplicated)) && v.randomValues <= 0; };
    if (!uncounted(a) && !uncounted(b) && (a.randomValues > 0 || b.randomValues > 0))
        value.randomValues = std::max(a.randomValues, 1.0) * std::max(b.randomValues, 1.0);
    value.lossyLines = a.lossyLines + b.lossyLines;
    value.resolution = std::max(a.resolution, b.resolution); // the finest time the text carries
    // A part that repeats beside one that repeats: their values multiply; beside the whole time,
    // the whole is no longer cyclic.
    const bool aTime = a.sources & FromTime, bTime = b.sources & FromTime;
    if (aTime && bTime)
        value.timeCycle = a.timeCycle > 0 && b.timeCycle > 0 ? a.timeCycle * b.timeCycle : 0;
    else
        value.timeCycle = aTime ? a.timeCycle : bTime ? b.timeCycle : 0;
    return value;
}

bool hasUnitRole(const Value& value)
{
    return value.role != Role::None && value.unit >= 0;
}

void ValueRules::fact(Fact::Kind kind, int line, int a, int b)
{
    if (*m_quiet > 0)
        return;
    Fact fact;
    fact.kind = kind;
    fact.line = line;
    fact.a = a;
    fact.b = b;
    m_reading->facts.append(fact);
}

// A timestamp finer than milliseconds has more than 14 significant digits: Lua's %.14g
// rounds it when it becomes text.
QVector<int> ValueRules::lossyAt(const Value& value, int line)
{
    if (!value.number || value.role != Role::Time || value.resolution < 2)
        return {};
    fact(Fact::Kind::Lossy, line, value.resolution);
    return {line};
}

void ValueRules::checkUnits(const Value& a, const Value& b, int line)
{
    if (hasUnitRole(a) && hasUnitRole(b) && a.unit != b.unit)
        fact(Fact::Kind::UnitMismatch, line, a.unit, b.unit);
}

Value ValueRules::binary(const QByteArray& op, const Value& a, const Value& b, int line)
{
    if (op == "or") {
        if (a.argIndex > 0 && *m_quiet == 0)
            m_reading->defaultedArgs.append(a.argIndex); // ARGV[n] or a default: optional
        Value value = a;
        value.sources |= b.sources;
        value.lossyLines += b.lossyLines;
        if (!hasUnitRole(a) && hasUnitRole(b)) {
            value.role = b.role;
            value.unit = b.unit;
            value.resolution = b.resolution;
        }
        value.number = a.number && b.number;
        return value;
    }
    if (op == "and")
        return b; // `cond and x or y`: the value is x or y
    if (op == "<" || op == ">" || op == "<=" || op == ">=" || op == "==" || op == "~=") {
        checkUnits(a, b, line);
        if ((a.sources | b.sources) & FromLimit)
            m_reading->readsLimit = true; // the script decides, not its caller
        return constant();
    }
    if (op == "..")
        return concatenate(a, b, line);
    return arithmetic(op, a, b, line);
}

Value ValueRules::concatenate(const Value& a, const Value& b, int line)
{
    Value value = unite(a, b);
    value.lossyLines += lossyAt(a, line) + lossyAt(b, line);
    value.builtLine = line;
    value.keyRoot = a.keyRoot;
    value.leadingText = a.literalText || a.leadingText;
    if (a.literalText && b.literalText) {
        value.literalText = true;
        value.text = a.text + b.text;
    } else if (!a.keyName.isEmpty() && b.literalText) {
        value.keyName = a.keyName + b.text;
    }
    return value;
}

Value ValueRules::arithmetic(const QByteArray& op, const Value& a, const Value& b, int line)
{
    Value value = unite(a, b);
    value.number = true;
    if (a.hasLiteral && b.hasLiteral) {
        value.sources = FromConstant;
        value.hasLiteral = true;
        const double x = a.literal, y = b.literal;
        value.literal = op == "+" ? x + y
            : op == "-"           ? x - y
            : op == "*"           ? x * y
            : op == "/"           ? (y != 0 ? x / y : 0)
            : op == "^"           ? std::pow(x, y)
                                  : std::fmod(x, y != 0 ? y : 1);
        return value;
    }
    if (op == "%" && b.hasLiteral && b.literal >= 1 && (a.sources & FromTime)) {
        // now % 1000: the millisecond within the second, a time that repeats every 1000 units.
        value.timeCycle = a.timeCycle > 0 ? std::min(a.timeCycle, std::floor(b.literal)) : std::floor(b.literal);
        value.resolution = a.resolution;
        return value;
    }
    auto takeRole = [&value](const Value& from, Role role) {
        value.role = role;
        value.unit = from.unit;
        value.resolution = from.resolution;
    };
    if (op == "+" || op == "-") {
        const bool plus = op == "+";
        if (a.role == Role::Time && (b.role == Role::Duration || b.role == Role::SubSecond)) {
            checkUnits(a, b, line);
            takeRole(a, Role::Time);
            value.resolution = std::max(a.resolution, b.resolution);
        } else if (plus && b.role == Role::Time && (a.role == Role::Duration || a.role == Role::SubSecond)) {
            checkUnits(a, b, line);
            takeRole(b, Role::Time);
            value.resolution = std::max(a.resolution, b.resolution);
        } else if ((!plus && a.role == Role::Time && b.role == Role::Time)
                   || (a.role == Role::Duration && b.role == Role::Duration)) { // time - time, duration +- duration
            checkUnits(a, b, line);
            takeRole(a, Role::Duration);
        } else if (a.role != Role::None && b.hasLiteral) {
            takeRole(a, a.role);
        } else if (plus && b.role != Role::None && a.hasLiteral) {
            takeRole(b, b.role);
        }
        return value;
    }
    if (op == "*" || op == "/") {
        const bool divide = op == "/";
        const Value* scaled = nullptr;
        const Value* factor = nullptr;
        if (a.role != Role::None && b.hasLiteral) {
            scaled = &a;
            factor = &b;
        } else if (!divide && b.role != Role::None && a.hasLiteral) {
            scaled = &b;
            factor = &a;
        }
        int steps = 0;
        if (scaled && powerOf1000(factor->literal, &steps) && scaled->unit >= 0) {
            const int unit = scaled->unit + (divide ? -steps : steps);
            if (unit >= 0 && unit <= 3) {
                takeRole(*scaled, scaled->role);
                value.unit = unit;
            }
        } else if (scaled && scaled->role == Role::Duration) {
            takeRole(*scaled, Role::Duration); // window * 2 is still a window in the same unit
        }
    }
    return value;
}

std::optional<Value> ValueRules::library(const QByteArray& path, const QVector<Value>& args, int line)
{
    const Value first = args.value(0, constant());
    if (path == "tonumber") {
        Value value = first;
        value.number = true;
        value.path.clear();
        if (first.literalText) {
            bool ok = false;
            value.literal = first.text.toDouble(&ok);
            value.hasLiteral = ok;
        }
        return value;
    }
    if (path == "tostring") {
        Value value = first;
        value.builtLine = line;
        value.lossyLines += lossyAt(first, line);
        value.number = false;
        value.path.clear();
        return value;
    }
    if (path == "math.floor" || path == "math.ceil" || path == "math.max" || path == "math.min" || path == "math.abs"
        || path == "math.random")
        return mathCall(path, args, line);
    if (path == "math.randomseed") {
        if (*m_quiet == 0 && !(first.sources & FromUnique))
            m_reading->randomSeedLines.append(line);
        fact(Fact::Kind::RandomSeed, line);
        return constant();
    }
    if (path == "struct.pack" && first.literalText)
        return packed(first, args, line);
    if (path.startsWith("string."))
        return stringCall(path, first, args, line);
    return std::nullopt;
}

Value ValueRules::mathCall(const QByteArray& path, const QVector<Value>& args, int line)
{
    const Value first = args.value(0, constant());
    if (path == "math.floor" || path == "math.ceil") {
        Value value = first;
        value.number = true;
        value.argIndex = 0;
        if (value.resolution >= 0 && value.unit >= 0)
            value.resolution = std::min(value.resolution, value.unit);
        if (value.role == Role::SubSecond && value.resolution >= 0)
            value.timeCycle = std::pow(1000.0, value.resolution); // t[2] / 1000, floored: 1000 values
        if (value.hasLiteral)
            value.literal = path == "math.floor" ? std::floor(value.literal) : std::ceil(value.literal);
        return value;
    }
    if (path == "math.max" || path == "math.min" || path == "math.abs") {
        Value value = first;
        for (int i = 1; i < args.size(); ++i) {
            const Value merged = unite(value, args[i]);
            value.sources = merged.sources;
            value.lossyLines = merged.lossyLines;
            if (!hasUnitRole(value) && hasUnitRole(args[i])) {
                value.role = args[i].role;
                value.unit = args[i].unit;
            }
        }
        value.number = true;
        value.hasLiteral = false;
        value.argIndex = 0;
        return value;
    }
    // math.random
    Value value = unknown();
    value.sources = m_replicating ? FromRandomReplicated : FromRandom;
    value.builtLine = line;
    value.number = true;
    // math.random(n) draws 1..n, math.random(m, n) m..n: whole numbers, that many.
    if (args.size() == 1 && args[0].hasLiteral && args[0].literal >= 1)
        value.randomValues = std::floor(args[0].literal);
    else if (args.size() == 2 && args[0].hasLiteral && args[1].hasLiteral && args[1].literal >= args[0].literal)
        value.randomValues = std::floor(args[1].literal) - std::ceil(args[0].literal) + 1;
    return value;
}

Value ValueRules::packed(const Value& first, const QVector<Value>& args, int line)
{
    // Packed bytes carry what went in, but a 4-byte float keeps 24 bits of a number: a random
    // number packed with 'f' takes about 2^24 values (for one size of number).
    Value value = constant();
    for (int i = 1; i < args.size(); ++i)
        value = unite(value, args[i]);
    value.builtLine = line;
    value.number = false;
    if (first.text.startsWith('f') && args.size() > 1 && (args[1].sources & (FromRandom | FromRandomReplicated))) {
        constexpr double floatValues = 16777216.0;
        value.randomValues = value.randomValues > 0 ? std::min(value.randomValues, floatValues) : floatValues;
    }
    return value;
}

Value ValueRules::stringCall(const QByteArray& path, const Value& first, const QVector<Value>& args, int line)
{
    // string.format('%s', n) converts like tostring; %d keeps every digit.
    const bool asText = path == "string.format" && first.literalText && first.text.contains("%s");
    Value value = constant();
    for (int i = path == "string.format" ? 1 : 0; i < args.size(); ++i) {
        value = unite(value, args[i]);
        if (asText)
            value.lossyLines += lossyAt(args[i], line);
    }
    value.builtLine = line;
    // string.sub of a random number's digits keeps j - i + 1 of them: 10^(j-i+1) values at most.
    if (path == "string.sub" && (first.sources & (FromRandom | FromRandomReplicated)) && args.size() == 3
        && args[1].hasLiteral && args[2].hasLiteral && args[2].literal >= args[1].literal
        && args[2].literal - args[1].literal < 15) {
        const double kept = std::pow(10.0, args[2].literal - args[1].literal + 1);
        value.randomValues = value.randomValues > 0 ? std::min(value.randomValues, kept) : kept;
    }
    if (path == "string.format" && first.literalText) {
        // string.format('%s:x', KEYS[1]) names a key the way KEYS[1] .. ':x' does.
        if (first.text.startsWith("%s") && args.size() > 1) {
            value.keyRoot = args[1].keyRoot;
            const QByteArray rest = first.text.mid(2);
            if (!args[1].keyName.isEmpty() && !rest.contains('%'))
                value.keyName = args[1].keyName + rest; // a name known in full, as with ..
        } else if (!first.text.startsWith('%'))
            value.leadingText = true;
    }
    return value;
}

} // namespace LuaFlow
