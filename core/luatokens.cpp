#include "luatokens.h"

#include <QList>

namespace LuaFlow {
namespace {
bool isNameStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// [[...]], [==[...]==]: returns the index after the closing bracket, or -1.
int longBracketEnd(const QByteArray& s, int i, QByteArray* contents, int* line)
{
    int level = 0;
    int j = i + 1;
    while (j < s.size() && s[j] == '=')
        ++j, ++level;
    if (j >= s.size() || s[j] != '[')
        return -1;
    const QByteArray close = ']' + QByteArray(level, '=') + ']';
    const int end = s.indexOf(close, j + 1);
    if (end < 0)
        return -1;
    *contents = s.mid(j + 1, end - j - 1);
    *line += int(s.mid(i, end - i).count('\n'));
    return end + int(close.size());
}

} // namespace

QVector<Token> tokenize(const QByteArray& s, int* troubleLine)
{
    QVector<Token> tokens;
    int line = 1;
    int i = 0;
    auto push = [&](Token::Kind kind, const QByteArray& text, int at) {
        Token token;
        token.kind = kind;
        token.text = text;
        token.line = at;
        tokens.append(token);
    };
    while (i < s.size()) {
        const char c = s[i];
        if (c == '\n') {
            ++line, ++i;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            ++i;
        } else if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
            QByteArray ignored;
            const int end = (i + 2 < s.size() && s[i + 2] == '[') ? longBracketEnd(s, i + 2, &ignored, &line) : -1;
            if (end >= 0) {
                i = end;
            } else {
                while (i < s.size() && s[i] != '\n')
                    ++i;
            }
        } else if (isNameStart(c)) {
            const int start = i;
            while (i < s.size() && (isNameStart(s[i]) || isDigit(s[i])))
                ++i;
            push(Token::Kind::Name, s.mid(start, i - start), line);
        } else if (isDigit(c) || (c == '.' && i + 1 < s.size() && isDigit(s[i + 1]))) {
            const int start = i;
            bool hex = c == '0' && i + 1 < s.size() && (s[i + 1] == 'x' || s[i + 1] == 'X');
            i += hex ? 2 : 0;
            while (i < s.size()) {
                const char d = s[i];
                if (isDigit(d) || d == '.' || (hex && isNameStart(d)))
                    ++i;
                else if (!hex && (d == 'e' || d == 'E'))
                    i += (i + 1 < s.size() && (s[i + 1] == '+' || s[i + 1] == '-')) ? 2 : 1;
                else
                    break;
            }
            const QByteArray text = s.mid(start, i - start);
            push(Token::Kind::Number, text, line);
            tokens.last().number = hex ? double(text.mid(2).toLongLong(nullptr, 16)) : text.toDouble();
        } else if (c == '"' || c == '\'') {
            const int at = line;
            QByteArray text;
            ++i;
            while (i < s.size() && s[i] != c) {
                if (s[i] == '\n') {
                    *troubleLine = at;
                    return tokens;
                }
                if (s[i] == '\\' && i + 1 < s.size()) {
                    const char e = s[++i];
                    text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
                    line += e == '\n' ? 1 : 0;
                } else {
                    text += s[i];
                }
                ++i;
            }
            if (i >= s.size()) {
                *troubleLine = at;
                return tokens;
            }
            ++i;
            push(Token::Kind::String, text, at);
        } else if (c == '[' && i + 1 < s.size() && (s[i + 1] == '[' || s[i + 1] == '=')) {
            const int at = line;
            QByteArray text;
            const int end = longBracketEnd(s, i, &text, &line);
            if (end < 0) {
                push(Token::Kind::Symbol, "[", line);
                ++i;
                continue;
            }
            if (text.startsWith('\n'))
                text.remove(0, 1);
            push(Token::Kind::String, text, at);
            i = end;
        } else {
            static const char* const symbols[] = {"...", "..", "==", "~=", "<=", ">=", "::", "//"};
            int length = 1;
            for (const char* symbol : symbols) {
                const int n = int(qstrlen(symbol));
                if (s.mid(i, n) == symbol) {
                    length = n;
                    break;
                }
            }
            push(Token::Kind::Symbol, s.mid(i, length), line);
            i += length;
        }
    }
    push(Token::Kind::End, {}, line);
    return tokens;
}

bool isKeyword(const QByteArray& word)
{
    static const QList<QByteArray> keywords {"and",      "break",  "do",   "else", "elseif", "end",  "false", "for",
                                             "function", "goto",   "if",   "in",   "local",  "nil",  "not",   "or",
                                             "repeat",   "return", "then", "true", "until",  "while"};
    return keywords.contains(word);
}

} // namespace LuaFlow
