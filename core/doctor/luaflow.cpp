#include "luaflow.h"

#include "luaflowreader.h"

#include <algorithm>

namespace LuaFlow {

Reader::Reader(QVector<Token> tokens, const CallTemplate& call)
    : m_tokens(std::move(tokens))
    , m_call(call)
{
    m_scopes.append(Scope());
}

Reading Reader::readChunk()
{
    block();
    // Functions nobody calls are still read once, with arguments unknown.
    for (int i = 0; i < m_functions.size(); ++i) {
        if (!m_functions[i].invoked)
            invoke(i, {});
    }
    return m_reading;
}

void Reader::noteTrouble(int line)
{
    for (const Fact& fact : std::as_const(m_reading.facts)) {
        if (fact.kind == Fact::Kind::Unread)
            return;
    }
    fact(Fact::Kind::Unread, line);
}

const Token& Reader::take()
{
    const Token& token = peek();
    if (m_pos < m_tokens.size() - 1)
        ++m_pos;
    return token;
}

bool Reader::is(const char* text) const
{
    const Token& token = peek();
    return (token.kind == Token::Kind::Name || token.kind == Token::Kind::Symbol) && token.text == text;
}

bool Reader::accept(const char* text)
{
    if (!is(text))
        return false;
    take();
    return true;
}

void Reader::expect(const char* text)
{
    if (!accept(text))
        throw Trouble {peek().line};
}

QByteArray Reader::name()
{
    const Token& token = peek();
    if (token.kind != Token::Kind::Name || isKeyword(token.text))
        throw Trouble {token.line};
    return take().text;
}

Fact& Reader::fact(Fact::Kind kind, int line, int a, int b)
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

Value Reader::lookup(const QByteArray& name) const
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

void Reader::assign(const QByteArray& name, const Value& value)
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
    // A bucket's tokens are what it allows (Upstash's `tokens` is the limit), not a request's token;
    // the tokens a request asks for are neither.
    if (n.contains("tokens"))
        return containsAny({"request", "cost", "need", "take", "consume"}) ? Meaning::None : Meaning::Limit;
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
