#include "luaflowreader.h"

#include <algorithm>

namespace LuaFlow {

bool Reader::blockEnds() const
{
    return peek().kind == Token::Kind::End || is("end") || is("else") || is("elseif") || is("until");
}

void Reader::block()
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

void Reader::statement()
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

void Reader::forStatement()
{
    const QByteArray first = name();
    m_scopes.append(Scope());
    if (accept("=")) {
        // A numeric loop's index takes the values its bounds give, in every call alike: from
        // constants or the call's limit, it is no request's own (for i = 1, permits).
        const Value from = expression();
        expect(",");
        const Value to = expression();
        if (accept(","))
            expression();
        Value index = unite(from, to);
        index.number = true;
        index.timeCycle = 0;
        declare(first, (index.sources & (FromUnknown | FromUnique | FromTime)) ? unknown() : index);
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

void Reader::localStatement(int line)
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

void Reader::skipAttribute()
{
    if (accept("<")) { // Lua 5.4 <const>: not in Redis, but harmless to read
        name();
        expect(">");
    }
}

void Reader::expressionStatement()
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

void Reader::bindArgument(const QByteArray& variable, int index, int line)
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
    case CallTemplate::Placeholder::NowNs:
        passed = Meaning::Time;
        break;
    case CallTemplate::Placeholder::Window:
    case CallTemplate::Placeholder::WindowS:
    case CallTemplate::Placeholder::WindowUs:
    case CallTemplate::Placeholder::WindowNs:
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

int Reader::functionBody(bool method)
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

Value Reader::invoke(int index, const QVector<Value>& args)
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

} // namespace LuaFlow
