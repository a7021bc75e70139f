#include "luahighlighter.h"

#include "doctor/luatokens.h"
#include "widgets/palette.h"

#include <QTextDocument>

#include <algorithm>

namespace {
// Redis commands a limiter script runs, as they appear quoted in redis.call('ZADD', ...).
bool isRedisCommand(const QByteArray& text)
{
    static const QList<QByteArray> commands {"ZADD",   "ZCARD",     "ZCOUNT", "ZREMRANGEBYSCORE",
                                             "ZRANGE", "ZREVRANGE", "EXPIRE", "PEXPIRE",
                                             "INCR",   "INCRBY",    "TIME",   "DEL",
                                             "GET",    "SET",       "HGET",   "HSET",
                                             "HMGET",  "HMSET",     "LPUSH",  "LTRIM",
                                             "LLEN",   "LRANGE",    "EXISTS", "TTL",
                                             "PTTL"};
    return commands.contains(text.toUpper());
}
} // namespace

LuaHighlighter::LuaHighlighter(QTextDocument* document)
    : QSyntaxHighlighter(document)
{
    // Palette colours with weight and style, so the roles stay apart in grey and on a projector.
    m_keyword.setForeground(Palette::blue);
    m_keyword.setFontWeight(QFont::Bold);
    m_redisCall.setForeground(Palette::reddishPurple);
    m_redisCall.setFontWeight(QFont::Bold);
    m_command.setForeground(Palette::vermillion);
    m_command.setFontWeight(QFont::Bold);
    m_number.setForeground(Palette::bluishGreen);
    m_string.setForeground(Palette::vermillion);
    m_comment.setForeground(Palette::grey);
    m_comment.setFontItalic(true);
}

const QTextCharFormat& LuaHighlighter::format(Role role) const
{
    switch (role) {
    case Role::Keyword:
        return m_keyword;
    case Role::RedisCall:
        return m_redisCall;
    case Role::Command:
        return m_command;
    case Role::Number:
        return m_number;
    case Role::String:
        return m_string;
    case Role::Comment:
        break;
    }
    return m_comment;
}

void LuaHighlighter::readDocument()
{
    m_revision = document()->revision();
    m_spans.clear();
    const QString text = document()->toPlainText();
    const QByteArray source = text.toUtf8();
    // Token offsets are bytes of UTF-8; the document counts characters (UTF-16 units).
    std::vector<int> charAt(size_t(source.size()) + 1, 0);
    int bytes = 0;
    for (int c = 0; c < text.size(); ++c) {
        const int width = int(text.mid(c, text.at(c).isHighSurrogate() ? 2 : 1).toUtf8().size());
        for (int b = 0; b < width && bytes + b < source.size(); ++b)
            charAt[size_t(bytes) + size_t(b)] = c;
        bytes += width;
        if (text.at(c).isHighSurrogate())
            ++c;
    }
    charAt[size_t(source.size())] = int(text.size());
    auto span = [&](const LuaFlow::Token& token, Role role) {
        const int from = charAt[size_t(token.offset)];
        const int to = charAt[size_t(std::min<int>(token.offset + token.length, int(source.size())))];
        if (to > from)
            m_spans.push_back({from, to - from, role});
    };
    int ignored = 0;
    const QVector<LuaFlow::Token> tokens = LuaFlow::tokenize(source, &ignored, LuaFlow::TokenMode::Highlight);
    for (int i = 0; i < tokens.size(); ++i) {
        const LuaFlow::Token& token = tokens[i];
        using Kind = LuaFlow::Token::Kind;
        switch (token.kind) {
        case Kind::Name:
            if (LuaFlow::isKeyword(token.text))
                span(token, Role::Keyword);
            else if (token.text == "KEYS" || token.text == "ARGV")
                span(token, Role::RedisCall);
            else if (token.text == "redis" && i + 2 < tokens.size() && tokens[i + 1].text == "."
                     && tokens[i + 2].kind == Kind::Name) {
                span(token, Role::RedisCall);
                span(tokens[i + 2], Role::RedisCall);
                i += 2;
            }
            break;
        case Kind::Number:
            span(token, Role::Number);
            break;
        case Kind::String:
            span(token, isRedisCommand(token.text) ? Role::Command : Role::String);
            break;
        case Kind::Comment:
            span(token, Role::Comment);
            break;
        case Kind::Symbol:
        case Kind::End:
            break;
        }
    }
}

void LuaHighlighter::highlightBlock(const QString& text)
{
    if (m_revision != document()->revision())
        readDocument();
    const int blockStart = currentBlock().position();
    const int blockEnd = blockStart + int(text.size());
    auto first = std::lower_bound(m_spans.begin(), m_spans.end(), blockStart,
                                  [](const Span& s, int position) { return s.start + s.length <= position; });
    int state = -1;
    for (auto it = first; it != m_spans.end() && it->start <= blockEnd; ++it) {
        const int from = std::max(it->start, blockStart);
        const int to = std::min(it->start + it->length, blockEnd);
        if (to > from)
            setFormat(from - blockStart, to - from, format(it->role));
        if (it->start + it->length > blockEnd) // a comment or string that goes on in the next block
            state = it->start;
    }
    // A changed state makes Qt colour the next block again: a --[[ opened or closed here reaches it.
    setCurrentBlockState(state);
}
