#include "luaflow.h"

#include "luatokens.h"
#include "luavalues.h"

#include <QHash>

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

using Scope = QHash<QByteArray, Value>;

class Reader
{
public:
    Reader(QVector<Token> tokens, const CallTemplate& call)
        : m_tokens(std::move(tokens))
        , m_call(call)
    {
        m_scopes.append(Scope());
    }

    Reading readChunk()
    {
        block();
        // Functions nobody calls are still read once, with arguments unknown.
        for (int i = 0; i < m_functions.size(); ++i) {
            if (!m_functions[i].invoked)
                invoke(i, {});
        }
        return m_reading;
    }

    void noteTrouble(int line)
    {
        for (const Fact& fact : std::as_const(m_reading.facts)) {
            if (fact.kind == Fact::Kind::Unread)
                return;
        }
        fact(Fact::Kind::Unread, line);
    }

private:
    struct Trouble
    {
        int line;
    };
    struct Function
    {
        QVector<QByteArray> params;
        int bodyStart = 0;
        bool invoked = false;
    };
    // Bounds how deep blocks and expressions nest, so that no script exhausts the stack.
    struct Nesting
    {
        int& depth;
        Nesting(int& counter, int line)
            : depth(++counter)
        {
            if (depth > 200) {
                --depth;
                throw Trouble {line};
            }
        }
        ~Nesting() { --depth; }
    };
    struct Target
    {
        bool isName = false;
        QByteArray name;
    };

    const Token& peek(int ahead = 0) const { return m_tokens[std::min(m_pos + ahead, int(m_tokens.size()) - 1)]; }
    const Token& take()
    {
        const Token& token = peek();
        if (m_pos < m_tokens.size() - 1)
            ++m_pos;
        return token;
    }
    bool is(const char* text) const
    {
        const Token& token = peek();
        return (token.kind == Token::Kind::Name || token.kind == Token::Kind::Symbol) && token.text == text;
    }
    bool accept(const char* text)
    {
        if (!is(text))
            return false;
        take();
        return true;
    }
    void expect(const char* text)
    {
        if (!accept(text))
            throw Trouble {peek().line};
    }
    QByteArray name()
    {
        const Token& token = peek();
        if (token.kind != Token::Kind::Name || isKeyword(token.text))
            throw Trouble {token.line};
        return take().text;
    }

    Fact& fact(Fact::Kind kind, int line, int a = -1, int b = -1)
    {
        if (m_quiet > 0)
            return m_ignored = {};
        Fact fact;
        fact.kind = kind;
        fact.line = line;
        fact.a = a;
        fact.b = b;
        m_reading.facts.append(fact);
        return m_reading.facts.last();
    }

    // --- Names and scopes
    Value lookup(const QByteArray& name) const
    {
        for (int i = int(m_scopes.size()) - 1; i >= 0; --i) {
            const auto found = m_scopes[i].constFind(name);
            if (found != m_scopes[i].constEnd())
                return *found;
        }
        Value global = unknown();
        global.path = name;
        return global;
    }
    void declare(const QByteArray& name, const Value& value) { m_scopes.last().insert(name, value); }
    void assign(const QByteArray& name, const Value& value)
    {
        for (int i = int(m_scopes.size()) - 1; i >= 0; --i) {
            if (m_scopes[i].contains(name)) {
                // While only looking for a function's end, leave the variables outside it alone.
                if (m_quiet == 0 || i >= m_functionBase)
                    m_scopes[i].insert(name, value);
                return;
            }
        }
        if (m_quiet == 0)
            m_scopes.first().insert(name, value);
    }

    // --- Statements
    bool blockEnds() const
    {
        return peek().kind == Token::Kind::End || is("end") || is("else") || is("elseif") || is("until");
    }

    void block()
    {
        const Nesting nesting(m_nesting, peek().line);
        m_scopes.append(Scope());
        while (!blockEnds()) {
            const int startLine = peek().line;
            try {
                statement();
            } catch (const Trouble& trouble) {
                noteTrouble(trouble.line);
                // Skip to the next line and go on: a later statement may still be read.
                const int line = std::max(trouble.line, startLine);
                while (peek().kind != Token::Kind::End && peek().line <= line)
                    take();
            }
        }
        m_scopes.removeLast();
    }

    void statement()
    {
        const int line = peek().line;
        if (accept(";") || accept("break")) {
            return;
        } else if (accept("if")) {
            expression();
            expect("then");
            block();
            while (accept("elseif")) {
                expression();
                expect("then");
                block();
            }
            if (accept("else"))
                block();
            expect("end");
        } else if (accept("while")) {
            expression();
            expect("do");
            block();
            expect("end");
        } else if (accept("do")) {
            block();
            expect("end");
        } else if (accept("repeat")) {
            block();
            expect("until");
            expression();
        } else if (accept("for")) {
            forStatement();
        } else if (accept("function")) {
            QByteArray path = name();
            bool method = false;
            while (is(".") || is(":")) {
                method = take().text == ":";
                path += '.' + name();
            }
            const int index = functionBody(method);
            if (path.contains('.'))
                m_namedFunctions.insert(path, index);
            Value function;
            function.function = index;
            if (!path.contains('.'))
                assign(path, function);
        } else if (accept("local")) {
            localStatement(line);
        } else if (accept("return")) {
            Value result = constant();
            if (!blockEnds() && !is(";")) {
                const QVector<Value> values = expressionList();
                result = values.value(0, constant());
            }
            accept(";");
            if (!m_returns.isEmpty()) {
                Value& into = m_returns.last();
                into = into.sources == 0 ? result : unite(into, result);
            }
        } else if (accept("goto")) {
            name();
        } else if (accept("::")) {
            name();
            expect("::");
        } else {
            expressionStatement();
        }
    }

    void forStatement()
    {
        const QByteArray first = name();
        m_scopes.append(Scope());
        if (accept("=")) {
            expression();
            expect(",");
            expression();
            if (accept(","))
                expression();
            declare(first, unknown());
        } else {
            declare(first, unknown());
            while (accept(","))
                declare(name(), unknown());
            expect("in");
            expressionList();
        }
        expect("do");
        block();
        expect("end");
        m_scopes.removeLast();
    }

    void localStatement(int line)
    {
        if (accept("function")) {
            const QByteArray functionName = name();
            Value function;
            declare(functionName, function); // visible inside itself (recursion)
            function.function = functionBody(false);
            declare(functionName, function);
            return;
        }
        QVector<QByteArray> names {name()};
        skipAttribute();
        while (accept(",")) {
            names << name();
            skipAttribute();
        }
        QVector<Value> values;
        if (accept("="))
            values = expressionList();
        for (int i = 0; i < names.size(); ++i) {
            const Value value = i < values.size() ? values[i] : values.isEmpty() ? constant() : unknown();
            if (value.argIndex > 0)
                bindArgument(names[i], value.argIndex, line);
            declare(names[i], value);
        }
    }

    void skipAttribute()
    {
        if (accept("<")) { // Lua 5.4 <const>: not in Redis, but harmless to read
            name();
            expect(">");
        }
    }

    void expressionStatement()
    {
        Target target;
        suffixedExpression(&target);
        if (!is("=") && !is(","))
            return; // a call
        QVector<Target> targets {target};
        while (accept(",")) {
            Target next;
            suffixedExpression(&next);
            targets << next;
        }
        expect("=");
        const QVector<Value> values = expressionList();
        for (int i = 0; i < targets.size(); ++i) {
            if (targets[i].isName)
                assign(targets[i].name, i < values.size() ? values[i] : unknown());
        }
    }

    // The script's own name for an argument says what it expects there; compare with the call.
    void bindArgument(const QByteArray& variable, int index, int line)
    {
        const Meaning meaning = meaningOfName(variable);
        if (m_quiet > 0 || meaning == Meaning::None)
            return;
        m_reading.argBindings.append({index, meaning});
        CallTemplate::Placeholder placeholder;
        CallTemplate::Piece arithmetic;
        if (m_call.argIsArithmetic(index, &arithmetic)) {
            const Meaning passed = arithmetic.isWindowStart() ? Meaning::Boundary : Meaning::None;
            if (passed != Meaning::None && passed != meaning) {
                Fact& mismatch = fact(Fact::Kind::TemplateMismatch, line, index);
                mismatch.text = QString::fromUtf8(variable);
                mismatch.detail = m_call.argsText().split(QLatin1Char(' ')).value(index - 1);
            }
            return;
        }
        if (!m_call.argIsPlaceholder(index, &placeholder))
            return;
        Meaning passed = Meaning::None;
        switch (placeholder) {
        case CallTemplate::Placeholder::Now:
        case CallTemplate::Placeholder::NowS:
        case CallTemplate::Placeholder::NowUs:
            passed = Meaning::Time;
            break;
        case CallTemplate::Placeholder::Window:
        case CallTemplate::Placeholder::WindowS:
            passed = Meaning::Duration;
            break;
        case CallTemplate::Placeholder::Limit:
            passed = Meaning::Limit;
            break;
        case CallTemplate::Placeholder::Uuid:
        case CallTemplate::Placeholder::Seq:
            passed = Meaning::Id;
            break;
        case CallTemplate::Placeholder::Key:
            break;
        }
        if (passed != Meaning::None && passed != meaning) {
            Fact& mismatch = fact(Fact::Kind::TemplateMismatch, line, index);
            mismatch.text = QString::fromUtf8(variable);
            mismatch.detail = CallTemplate::placeholderName(placeholder);
        }
    }

    // --- Functions
    // Reads a function's parameters and body once, quietly, to find where it ends; the body is
    // read for real at each call, with the arguments of that call.
    int functionBody(bool method)
    {
        Function function;
        if (method)
            function.params << "self";
        expect("(");
        if (!is(")")) {
            do {
                if (accept("..."))
                    break;
                function.params << name();
            } while (accept(","));
        }
        expect(")");
        function.bodyStart = m_pos;
        const int index = int(m_functions.size());
        m_functions.append(function);
        ++m_quiet;
        const int savedBase = m_functionBase;
        m_scopes.append(Scope());
        m_functionBase = int(m_scopes.size()) - 1;
        for (const QByteArray& param : std::as_const(function.params))
            declare(param, unknown());
        m_returns.append(noValue());
        block();
        m_returns.removeLast();
        m_scopes.removeLast();
        m_functionBase = savedBase;
        --m_quiet;
        expect("end");
        return index;
    }

    Value invoke(int index, const QVector<Value>& args)
    {
        if (m_quiet > 0 || m_depth >= 4)
            return unknown();
        m_functions[index].invoked = true;
        const Function function = m_functions[index];
        const int savedPos = m_pos;
        const int savedBase = m_functionBase;
        m_scopes.append(Scope());
        m_functionBase = int(m_scopes.size()) - 1;
        for (int i = 0; i < function.params.size(); ++i)
            declare(function.params[i], i < args.size() ? args[i] : constant());
        m_returns.append(noValue());
        m_pos = function.bodyStart;
        ++m_depth;
        block();
        --m_depth;
        Value result = m_returns.takeLast();
        m_scopes.removeLast();
        m_functionBase = savedBase;
        m_pos = savedPos;
        return result.sources == 0 ? unknown() : result;
    }

    // --- Expressions
    QVector<Value> expressionList()
    {
        QVector<Value> values {expression()};
        while (accept(","))
            values << expression();
        return values;
    }

    Value expression(int limit = 0)
    {
        const Nesting nesting(m_nesting, peek().line);
        return operation(limit);
    }

    Value operation(int limit)
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

    Value simpleExpression()
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

    Value table()
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

    Value suffixedExpression(Target* target)
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

    QVector<Value> arguments()
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

    Value index(const Value& base, const Value& key, int line)
    {
        if (base.path == "KEYS" && key.hasLiteral) {
            const int n = int(key.literal);
            if (n < 1 || n > m_call.keyCount())
                fact(Fact::Kind::MissingKey, line, n);
            Value value = unknown();
            value.sources = FromKey;
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
            return value;
        }
        return unknown();
    }

    Value argument(int n, int line)
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
            const bool time = (sourceOf(arithmetic.placeholder) & FromTime) != 0;
            if (time && unit >= 0) {
                value.role = Role::Time;
                value.unit = value.resolution = unit;
            }
        } else if (m_call.argIsPlaceholder(n, &placeholder)) {
            using P = CallTemplate::Placeholder;
            if (placeholder == P::Now || placeholder == P::NowS || placeholder == P::NowUs) {
                value.role = Role::Time;
                value.unit = value.resolution = placeholder == P::NowS ? 0 : placeholder == P::Now ? 1 : 2;
            } else if (placeholder == P::Window || placeholder == P::WindowS) {
                value.role = Role::Duration;
                value.unit = placeholder == P::WindowS ? 0 : 1;
            }
        } else if (token.size() == 1) {
            value.literalText = true;
            value.text = token.first().literal.toUtf8();
        }
        return value;
    }

    static unsigned sourceOf(CallTemplate::Placeholder placeholder)
    {
        switch (placeholder) {
        case CallTemplate::Placeholder::Key:
            return FromKey;
        case CallTemplate::Placeholder::Now:
        case CallTemplate::Placeholder::NowS:
        case CallTemplate::Placeholder::NowUs:
            return FromTime;
        case CallTemplate::Placeholder::Window:
        case CallTemplate::Placeholder::WindowS:
            return FromDuration;
        case CallTemplate::Placeholder::Limit:
            return FromLimit;
        case CallTemplate::Placeholder::Uuid:
        case CallTemplate::Placeholder::Seq:
            return FromUnique;
        }
        return FromUnknown;
    }

    Value call(const Value& callee, const QVector<Value>& args, int line)
    {
        if (callee.function >= 0)
            return invoke(callee.function, args);
        const QByteArray& path = callee.path;
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

    Value redisCall(const QVector<Value>& args, int line)
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

    QVector<Token> m_tokens;
    const CallTemplate& m_call;
    int m_pos = 0;
    QVector<Scope> m_scopes; // [0]: globals
    int m_functionBase = 0; // first scope of the function being read
    int m_quiet = 0; // > 0: reading a function only to find its end, recording nothing
    int m_depth = 0;
    QVector<Value> m_returns; // one per function being read
    QVector<Function> m_functions;
    QHash<QByteArray, int> m_namedFunctions; // "M.check" from `function M.check()`
    int m_nesting = 0;
    Reading m_reading;
    Fact m_ignored; // what fact() hands out while quiet
    ValueRules m_rules {&m_reading, &m_quiet};
};
} // namespace

Meaning meaningOfName(const QByteArray& name)
{
    const QByteArray n = name.toLower();
    auto containsAny = [&n](std::initializer_list<const char*> parts) {
        return std::any_of(parts.begin(), parts.end(), [&n](const char* part) { return n.contains(part); });
    };
    // The window's start before the window itself: "window_start", "clear_before" are points in time.
    if (containsAny({"start", "cutoff", "since", "clear", "before", "oldest", "boundary", "min_score", "minscore"}))
        return Meaning::Boundary;
    // Durations first: "timeout" and "ttl" are no timestamps.
    if (containsAny({"window", "interval", "period", "duration", "ttl", "expire", "timeout", "span"}))
        return Meaning::Duration;
    if (containsAny({"limit", "max", "capacity", "quota", "threshold"}))
        return Meaning::Limit;
    if (containsAny({"uuid", "member", "nonce", "token", "seq"}) || n.endsWith("id"))
        return Meaning::Id;
    if (containsAny({"now", "time", "stamp"}) || n == "ts" || n == "t" || n.startsWith("ts_") || n.endsWith("_ts"))
        return Meaning::Time;
    return Meaning::None;
}

Reading read(const QByteArray& source, const CallTemplate& call)
{
    int troubleLine = 0;
    QVector<Token> tokens = tokenize(source, &troubleLine);
    if (troubleLine > 0) {
        // Read what came before the unreadable text; the rest is reported as unread.
        Token end;
        end.line = troubleLine;
        tokens.append(end);
    }
    Reader reader(std::move(tokens), call);
    if (troubleLine > 0)
        reader.noteTrouble(troubleLine);
    return reader.readChunk();
}

} // namespace LuaFlow
