#include "luaflowreader.h"

#include <algorithm>
#include <cmath>

namespace LuaFlow {
namespace {

struct BinaryOperator
{
    const char* text;
    int left;
    int right;
};
// Lua 5.1 precedences (lparser.c): left and right binding power.
constexpr BinaryOperator binaryOperators[] = {
    {"or", 1, 1}, {"and", 2, 2}, {"<", 3, 3}, {">", 3, 3}, {"<=", 3, 3}, {">=", 3, 3}, {"~=", 3, 3}, {"==", 3, 3},
    {"..", 5, 4}, {"+", 6, 6},   {"-", 6, 6}, {"*", 7, 7}, {"/", 7, 7},  {"%", 7, 7},  {"^", 10, 9},
};
constexpr int unaryPriority = 8;
} // namespace

QVector<Value> Reader::expressionList()
{
    QVector<Value> values {expression()};
    while (accept(","))
        values << expression();
    return values;
}

Value Reader::expression(int limit)
{
    const Nesting nesting(m_nesting, peek().line);
    return operation(limit);
}

Value Reader::operation(int limit)
{
    Value value;
    if (is("not") || is("-") || is("#")) {
        const QByteArray op = take().text;
        const Value operand = expression(unaryPriority);
        if (op == "-") {
            value = operand;
            value.number = true;
            value.literal = -value.literal;
            value.path.clear();
            value.argIndex = 0;
        } else {
            value = op == "#" ? unknown() : constant();
            value.number = op == "#";
        }
    } else {
        value = simpleExpression();
    }
    while (true) {
        const Token& token = peek();
        const BinaryOperator* op = nullptr;
        if (token.kind == Token::Kind::Symbol || token.kind == Token::Kind::Name) {
            for (const BinaryOperator& candidate : binaryOperators) {
                if (token.text == candidate.text)
                    op = &candidate;
            }
        }
        if (!op || op->left <= limit)
            break;
        const int line = take().line;
        const Value right = expression(op->right);
        value = m_rules.binary(op->text, value, right, line);
    }
    return value;
}

Value Reader::simpleExpression()
{
    const Token& token = peek();
    if (token.kind == Token::Kind::Number) {
        take();
        Value value = constant();
        value.number = value.hasLiteral = true;
        value.literal = token.number;
        return value;
    }
    if (token.kind == Token::Kind::String) {
        take();
        Value value = constant();
        value.literalText = true;
        value.text = token.text;
        return value;
    }
    if (accept("nil") || accept("true") || accept("false"))
        return constant();
    if (accept("..."))
        return unknown();
    if (is("{"))
        return table();
    if (accept("function")) {
        Value function;
        function.function = functionBody(false);
        return function;
    }
    return suffixedExpression(nullptr);
}

Value Reader::table()
{
    expect("{");
    while (!is("}")) {
        if (accept("[")) {
            expression();
            expect("]");
            expect("=");
        } else if (peek().kind == Token::Kind::Name && peek(1).kind == Token::Kind::Symbol && peek(1).text == "=") {
            take();
            take();
        }
        expression();
        if (!accept(",") && !accept(";"))
            break;
    }
    expect("}");
    return unknown();
}

Value Reader::suffixedExpression(Target* target)
{
    Value value;
    bool plainName = false;
    QByteArray variable;
    if (accept("(")) {
        value = expression();
        value.path.clear();
        expect(")");
    } else {
        variable = name();
        value = lookup(variable);
        plainName = true;
    }
    while (true) {
        const int line = peek().line;
        if (accept(".")) {
            const QByteArray field = name();
            Value next = unknown();
            if (!value.path.isEmpty())
                next.path = value.path + '.' + field;
            value = next;
        } else if (accept("[")) {
            const Value key = expression();
            expect("]");
            value = index(value, key, line);
        } else if (accept(":")) {
            name();
            arguments();
            value = unknown();
        } else if (is("(") || is("{") || peek().kind == Token::Kind::String) {
            const QVector<Value> args = arguments();
            value = call(value, args, line);
        } else {
            break;
        }
        plainName = false;
    }
    if (target) {
        target->isName = plainName;
        target->name = variable;
    }
    return value;
}

QVector<Value> Reader::arguments()
{
    if (peek().kind == Token::Kind::String)
        return {simpleExpression()};
    if (is("{"))
        return {table()};
    expect("(");
    QVector<Value> args;
    if (!is(")"))
        args = expressionList();
    expect(")");
    return args;
}

Value Reader::index(const Value& base, const Value& key, int line)
{
    if (base.path == "KEYS" && key.hasLiteral) {
        const int n = int(key.literal);
        if (n < 1 || n > m_call.keyCount())
            fact(Fact::Kind::MissingKey, line, n);
        Value value = unknown();
        value.sources = FromKey;
        // A key the caller makes per request ({key}:{uuid}) is unique per request as well.
        if (n >= 1 && n <= m_call.keyCount()) {
            for (const CallTemplate::Piece& piece : m_call.keys().at(n - 1)) {
                if (piece.isPlaceholder && (sourceOf(piece.placeholder) & FromUnique))
                    value.sources |= FromUnique;
            }
        }
        value.keyName = "KEYS[" + QByteArray::number(n) + ']';
        value.keyRoot = value.keyName;
        return value;
    }
    if (base.path == "ARGV" && key.hasLiteral)
        return argument(int(key.literal), line);
    if (base.path == "ARGV" && m_call.uses(CallTemplate::Placeholder::Limit))
        m_reading.readsLimit = true; // read by a computed index: assume it may be the limit
    if (base.timeArray && key.hasLiteral && (key.literal == 1 || key.literal == 2)) {
        Value value = unknown();
        value.sources = FromTime | FromServerTime;
        value.role = key.literal == 1 ? Role::Time : Role::SubSecond;
        value.unit = value.resolution = key.literal == 1 ? 0 : 2;
        value.timeCycle = key.literal == 1 ? 0 : 1e6; // the microseconds within the second
        return value;
    }
    return unknown();
}

Value Reader::argument(int n, int line)
{
    if (n < 1 || n > m_call.argCount()) {
        fact(Fact::Kind::MissingArg, line, n);
        Value value = unknown();
        value.argIndex = n;
        return value;
    }
    Value value;
    value.sources = 0;
    value.argIndex = n;
    const CallTemplate::Token& token = m_call.args().at(n - 1);
    for (const CallTemplate::Piece& piece : token) {
        if (!piece.isPlaceholder) {
            value.sources |= FromConstant;
            continue;
        }
        value.sources |= sourceOf(piece.placeholder);
        for (const CallTemplate::Term& term : piece.terms)
            value.sources |= term.isPlaceholder ? sourceOf(term.placeholder) : FromConstant;
    }
    CallTemplate::Placeholder placeholder;
    CallTemplate::Piece arithmetic;
    if (m_call.argIsArithmetic(n, &arithmetic)) {
        // {now-window}: still a point in time, in the unit of its now.
        const int unit = CallTemplate::unitOf(arithmetic.placeholder);
        const bool time = (sourceOf(arithmetic.placeholder) & FromTime) != 0 && !arithmetic.divides();
        if (time && unit >= 0) {
            value.role = Role::Time;
            value.unit = value.resolution = unit;
        }
    } else if (m_call.argIsPlaceholder(n, &placeholder)) {
        using P = CallTemplate::Placeholder;
        if (placeholder == P::Now || placeholder == P::NowS || placeholder == P::NowUs || placeholder == P::NowNs) {
            value.role = Role::Time;
            value.unit = CallTemplate::unitOf(placeholder);
            // {now_ns} is the microseconds times 1000: two calls in one microsecond share it.
            value.resolution = placeholder == P::NowNs ? 2 : value.unit;
        } else if (placeholder == P::Window || placeholder == P::WindowS || placeholder == P::WindowUs
                   || placeholder == P::WindowNs) {
            value.role = Role::Duration;
            value.unit = CallTemplate::unitOf(placeholder);
        }
    } else if (token.size() == 1) {
        value.literalText = true;
        value.text = token.first().literal.toUtf8();
    }
    return value;
}

unsigned Reader::sourceOf(CallTemplate::Placeholder placeholder)
{
    switch (placeholder) {
    case CallTemplate::Placeholder::Key:
        return FromKey;
    case CallTemplate::Placeholder::Now:
    case CallTemplate::Placeholder::NowS:
    case CallTemplate::Placeholder::NowUs:
    case CallTemplate::Placeholder::NowNs:
        return FromTime;
    case CallTemplate::Placeholder::Window:
    case CallTemplate::Placeholder::WindowS:
    case CallTemplate::Placeholder::WindowUs:
    case CallTemplate::Placeholder::WindowNs:
        return FromDuration;
    case CallTemplate::Placeholder::Limit:
        return FromLimit;
    case CallTemplate::Placeholder::Uuid:
    case CallTemplate::Placeholder::Seq:
        return FromUnique;
    }
    return FromUnknown;
}

Value Reader::call(const Value& callee, const QVector<Value>& args, int line)
{
    if (callee.function >= 0)
        return invoke(callee.function, args);
    // Valkey calls the redis table `server` too: server.call is redis.call.
    const QByteArray path
        = callee.path.startsWith("server.") ? QByteArrayLiteral("redis") + callee.path.mid(6) : callee.path;
    if (m_namedFunctions.contains(path))
        return invoke(m_namedFunctions.value(path), args);
    if (path == "redis.call" || path == "redis.pcall")
        return redisCall(args, line);
    if (path == "redis.replicate_commands") {
        m_rules.startReplicating();
        return constant();
    }
    if (auto value = m_rules.library(path, args, line))
        return *value;
    return unknown();
}

Value Reader::redisCall(const QVector<Value>& args, int line)
{
    RedisCall call;
    call.line = line;
    if (!args.isEmpty() && args.first().literalText)
        call.command = args.first().text.toUpper();
    call.args = args.mid(1);
    if (m_quiet == 0) {
        m_reading.calls.append(call);
        if (!call.args.isEmpty()) {
            const QByteArray& key = call.args.first().keyName;
            const int bracket = key.indexOf(']');
            if (key.startsWith("KEYS[") && bracket + 1 < key.size()) {
                const QByteArray suffix = key.mid(bracket + 1);
                if (!m_reading.keySuffixes.contains(suffix))
                    m_reading.keySuffixes.append(suffix);
            }
        }
    }
    if (call.command == "TIME") {
        Value value = unknown();
        value.sources = FromTime | FromServerTime;
        value.timeArray = true;
        return value;
    }
    if (call.command == "INCR" || call.command == "INCRBY" || call.command == "HINCRBY"
        || call.command == "INCRBYFLOAT") {
        Value value = unknown();
        value.sources = FromUnique;
        value.number = true;
        return value;
    }
    return unknown();
}

} // namespace LuaFlow
