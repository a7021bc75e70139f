#pragma once

// LuaFlow::Reader, the walk over a script's tokens behind LuaFlow::read (internal to the doctor).

#include "luaflow.h"
#include "luatokens.h"
#include "luavalues.h"

#include <QHash>

namespace LuaFlow {
using Scope = QHash<QByteArray, Value>;

// Reads a script's tokens once, in order, following values through locals, functions and calls
// (internal to LuaFlow::read): the walk and its scopes here and in luaflow.cpp, statements in
// luaflowstatements.cpp, expressions and Redis calls in luaflowexpressions.cpp.
class Reader
{
public:
    Reader(QVector<Token> tokens, const CallTemplate& call);

    Reading readChunk();

    void noteTrouble(int line);

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
    const Token& take();
    bool is(const char* text) const;
    bool accept(const char* text);
    void expect(const char* text);
    QByteArray name();

    Fact& fact(Fact::Kind kind, int line, int a = -1, int b = -1);

    // --- Names and scopes
    Value lookup(const QByteArray& name) const;
    void declare(const QByteArray& name, const Value& value) { m_scopes.last().insert(name, value); }
    void assign(const QByteArray& name, const Value& value);

    // --- Statements
    bool blockEnds() const;

    void block();

    void statement();

    void forStatement();

    void localStatement(int line);

    void skipAttribute();

    void expressionStatement();

    // The script's own name for an argument says what it expects there; compare with the call.
    void bindArgument(const QByteArray& variable, int index, int line);

    // --- Functions
    // Reads a function's parameters and body once, quietly, to find where it ends; the body is
    // read for real at each call, with the arguments of that call.
    int functionBody(bool method);

    Value invoke(int index, const QVector<Value>& args);

    // --- Expressions
    QVector<Value> expressionList();

    Value expression(int limit = 0);

    Value operation(int limit);

    Value simpleExpression();

    Value table();

    Value suffixedExpression(Target* target);

    QVector<Value> arguments();

    Value index(const Value& base, const Value& key, int line);

    Value argument(int n, int line);

    static unsigned sourceOf(CallTemplate::Placeholder placeholder);

    Value call(const Value& callee, const QVector<Value>& args, int line);

    Value redisCall(const QVector<Value>& args, int line);

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
} // namespace LuaFlow
