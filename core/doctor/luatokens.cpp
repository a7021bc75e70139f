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

// One pass over a script: each kind of token read by a method of its own.
class Lexer
{
public:
    Lexer(const QByteArray& s, bool highlighting)
        : s(s)
        , highlighting(highlighting)
    { }

    // The tokens and End; a string left open (*troubleLine, when not highlighting) ends them early.
    QVector<Token> run(int* troubleLine)
    {
        while (i < s.size()) {
            const char c = s[i];
            start = i;
            if (c == '\n') {
                ++line, ++i;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++i;
            } else if (c == '-' && i + 1 < s.size() && s[i + 1] == '-') {
                comment();
            } else if (isNameStart(c)) {
                while (i < s.size() && (isNameStart(s[i]) || isDigit(s[i])))
                    ++i;
                push(Token::Kind::Name, s.mid(start, i - start), line);
            } else if (isDigit(c) || (c == '.' && i + 1 < s.size() && isDigit(s[i + 1]))) {
                number(c);
            } else if (c == '"' || c == '\'') {
                if (!quoted(c, troubleLine))
                    return tokens;
            } else if (c == '[' && i + 1 < s.size() && (s[i + 1] == '[' || s[i + 1] == '=')) {
                longString();
            } else {
                symbol();
            }
        }
        start = i;
        push(Token::Kind::End, {}, line);
        return tokens;
    }

private:
    void push(Token::Kind kind, const QByteArray& text, int at)
    {
        Token token;
        token.kind = kind;
        token.text = text;
        token.line = at;
        token.offset = start;
        token.length = i - start;
        tokens.append(token);
    }

    // -- to the end of the line, or --[[ ... ]].
    void comment()
    {
        const int at = line;
        QByteArray text;
        const int end = (i + 2 < s.size() && s[i + 2] == '[') ? longBracketEnd(s, i + 2, &text, &line) : -1;
        if (end >= 0)
            i = end;
        else if (highlighting && i + 3 < s.size() && s[i + 2] == '[' && (s[i + 3] == '[' || s[i + 3] == '='))
            i = int(s.size()); // a long comment left open runs to the end
        else
            while (i < s.size() && s[i] != '\n')
                ++i;
        if (highlighting)
            push(Token::Kind::Comment, text, at);
    }

    void number(char c)
    {
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
    }

    // "..." or '...'; false when it is left open and not highlighting (*troubleLine set).
    bool quoted(char c, int* troubleLine)
    {
        const int at = line;
        QByteArray text;
        ++i;
        bool open = false;
        while (i < s.size() && s[i] != c) {
            if (s[i] == '\n') {
                open = true;
                break;
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
        if (open || i >= s.size()) {
            if (!highlighting) {
                *troubleLine = at;
                return false;
            }
            push(Token::Kind::String, text, at); // to the end of its line
            return true;
        }
        ++i;
        push(Token::Kind::String, text, at);
        return true;
    }

    // [[...]], [==[...]==]; a [ that opens none is a symbol.
    void longString()
    {
        const int at = line;
        QByteArray text;
        const int end = longBracketEnd(s, i, &text, &line);
        if (end < 0) {
            ++i;
            push(Token::Kind::Symbol, "[", line);
            return;
        }
        if (text.startsWith('\n'))
            text.remove(0, 1);
        i = end;
        push(Token::Kind::String, text, at);
    }

    void symbol()
    {
        static const char* const symbols[] = {"...", "..", "==", "~=", "<=", ">=", "::", "//"};
        int length = 1;
        for (const char* symbol : symbols) {
            const int n = int(qstrlen(symbol));
            if (s.mid(i, n) == symbol) {
                length = n;
                break;
            }
        }
        i += length;
        push(Token::Kind::Symbol, s.mid(start, length), line);
    }

    const QByteArray& s;
    const bool highlighting;
    QVector<Token> tokens;
    int line = 1;
    int i = 0;
    int start = 0; // where the token being read began
};
} // namespace

QVector<Token> tokenize(const QByteArray& s, int* troubleLine, TokenMode mode)
{
    return Lexer(s, mode == TokenMode::Highlight).run(troubleLine);
}

bool isKeyword(const QByteArray& word)
{
    static const QList<QByteArray> keywords {"and",      "break",  "do",   "else", "elseif", "end",  "false", "for",
                                             "function", "goto",   "if",   "in",   "local",  "nil",  "not",   "or",
                                             "repeat",   "return", "then", "true", "until",  "while"};
    return keywords.contains(word);
}

} // namespace LuaFlow
