#include "functionlibrary.h"

#include <algorithm>

namespace {
using LuaFlow::Token;

bool isSymbol(const Token& token, const char* text)
{
    return token.kind == Token::Kind::Symbol && token.text == text;
}

bool isName(const Token& token, const char* text)
{
    return token.kind == Token::Kind::Name && token.text == text;
}

int tokenEnd(const Token& token)
{
    return token.offset + token.length;
}

// The `end` (or `until`) that closes a block opened just before `from`, or -1.
int blockEnd(const QVector<Token>& tokens, int from)
{
    int depth = 1;
    for (int i = from; i < tokens.size(); ++i) {
        const Token& token = tokens[i];
        if (token.kind != Token::Kind::Name)
            continue;
        if (token.text == "function" || token.text == "if" || token.text == "do" || token.text == "repeat")
            ++depth;
        else if ((token.text == "end" || token.text == "until") && --depth == 0)
            return i;
    }
    return -1;
}

// The bracket that closes the one at `open`, or -1.
int closingBracket(const QVector<Token>& tokens, int open)
{
    int depth = 0;
    for (int i = open; i < tokens.size(); ++i) {
        const Token& token = tokens[i];
        if (token.kind != Token::Kind::Symbol)
            continue;
        if (token.text == "(" || token.text == "{" || token.text == "[")
            ++depth;
        else if ((token.text == ")" || token.text == "}" || token.text == "]") && --depth == 0)
            return i;
    }
    return -1;
}

// The token after a value starting at `i` that ends at a field separator or `close`.
int skipValue(const QVector<Token>& tokens, int i, int close)
{
    while (i < close) {
        const Token& token = tokens[i];
        if (isSymbol(token, ",") || isSymbol(token, ";"))
            return i;
        if (isName(token, "function")) {
            const int end = blockEnd(tokens, i + 1);
            i = end < 0 ? close : end + 1;
        } else if (isSymbol(token, "(") || isSymbol(token, "{") || isSymbol(token, "[")) {
            const int end = closingBracket(tokens, i);
            i = end < 0 ? close : end + 1;
        } else {
            ++i;
        }
    }
    return close;
}

struct Edit
{
    int start = 0;
    int end = 0;
    QByteArray text;
    bool blank = false; // every byte but line breaks becomes a space
};

QByteArray applyEdits(const QByteArray& code, QVector<Edit> edits)
{
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.start < b.start; });
    QByteArray out;
    out.reserve(code.size() + 256);
    int at = 0;
    for (const Edit& edit : std::as_const(edits)) {
        if (edit.start < at)
            continue; // overlaps one already made
        out += code.mid(at, edit.start - at);
        if (edit.blank) {
            for (int i = edit.start; i < edit.end; ++i)
                out += (code[i] == '\n' || code[i] == '\r') ? code[i] : ' ';
        } else {
            out += edit.text;
        }
        at = edit.end;
    }
    out += code.mid(at);
    return out;
}

class Reader
{
public:
    explicit Reader(const QVector<Token>& tokens)
        : m_tokens(tokens)
    { }

    // Reads the registration whose arguments start at `i`; false when it is not one zsetlab
    // can follow.
    bool registration(int i, LibraryFunction* function)
    {
        if (i >= m_tokens.size())
            return false;
        int close = -1;
        bool read = false;
        if (isSymbol(m_tokens[i], "(")) {
            close = closingBracket(m_tokens, i);
            if (close < 0 || i + 2 >= close)
                return false;
            if (m_tokens[i + 1].kind == Token::Kind::String && isSymbol(m_tokens[i + 2], ",")) {
                function->name = m_tokens[i + 1].text;
                read = callback(i + 3, function);
            } else if (isSymbol(m_tokens[i + 1], "{")) {
                read = table(i + 1, function);
            }
        } else if (isSymbol(m_tokens[i], "{")) {
            close = closingBracket(m_tokens, i);
            read = close > 0 && table(i, function);
        }
        if (!read || close < 0 || function->name.isEmpty())
            return false;
        function->registrationEnd = tokenEnd(m_tokens[close]);
        return true;
    }

private:
    bool table(int open, LibraryFunction* function)
    {
        const int close = closingBracket(m_tokens, open);
        if (close < 0)
            return false;
        bool haveCallback = false;
        int i = open + 1;
        while (i < close) {
            if (m_tokens[i].kind == Token::Kind::Name && i + 2 < close && isSymbol(m_tokens[i + 1], "=")) {
                const QByteArray field = m_tokens[i].text;
                const int value = i + 2;
                if (field == "function_name" && m_tokens[value].kind == Token::Kind::String)
                    function->name = m_tokens[value].text;
                else if (field == "callback")
                    haveCallback = callback(value, function);
                else if (field == "flags" && isSymbol(m_tokens[value], "{"))
                    flags(value, function);
                i = skipValue(m_tokens, value, close);
            } else {
                i = skipValue(m_tokens, i, close);
            }
            ++i; // the separator
        }
        return haveCallback;
    }

    void flags(int open, LibraryFunction* function)
    {
        const int close = closingBracket(m_tokens, open);
        for (int i = open + 1; i < close; ++i) {
            if (m_tokens[i].kind == Token::Kind::String)
                function->flags << m_tokens[i].text;
        }
    }

    bool callback(int i, LibraryFunction* function)
    {
        if (i >= m_tokens.size())
            return false;
        if (isName(m_tokens[i], "function"))
            return functionAt(i, function);
        if (m_tokens[i].kind != Token::Kind::Name)
            return false;
        // A named callback: its last definition before the registration.
        const QByteArray name = m_tokens[i].text;
        for (int d = i - 1; d >= 1; --d) {
            if (isName(m_tokens[d], "function") && m_tokens[d + 1].text == name
                && m_tokens[d + 1].kind == Token::Kind::Name) {
                function->callbackName = name;
                function->definitionStart
                    = isName(m_tokens[d - 1], "local") ? m_tokens[d - 1].offset : m_tokens[d].offset;
                return functionAt(d, function);
            }
            if (d + 3 < m_tokens.size() && isName(m_tokens[d - 1], "local") && m_tokens[d].text == name
                && isSymbol(m_tokens[d + 1], "=") && isName(m_tokens[d + 2], "function")) {
                function->callbackName = name;
                function->definitionStart = m_tokens[d - 1].offset;
                return functionAt(d + 2, function);
            }
        }
        return false;
    }

    // `function [name] (params) body end` starting at the `function` token.
    bool functionAt(int i, LibraryFunction* function)
    {
        int open = i + 1;
        while (open < m_tokens.size() && !isSymbol(m_tokens[open], "("))
            ++open;
        const int close = closingBracket(m_tokens, open);
        if (close < 0)
            return false;
        QList<QByteArray> parameters;
        for (int p = open + 1; p < close; ++p) {
            if (m_tokens[p].kind == Token::Kind::Name)
                parameters << m_tokens[p].text;
        }
        const int end = blockEnd(m_tokens, close + 1);
        if (end < 0)
            return false;
        function->keysParameter = parameters.value(0);
        function->argsParameter = parameters.value(1);
        function->headerStart = m_tokens[i].offset;
        function->bodyStart = tokenEnd(m_tokens[close]);
        function->bodyEnd = m_tokens[end].offset;
        function->endEnd = tokenEnd(m_tokens[end]);
        function->firstLine = m_tokens[i].line;
        function->lastLine = m_tokens[end].line;
        return true;
    }

    const QVector<Token>& m_tokens;
};

} // namespace

FunctionLibrary FunctionLibrary::read(const QByteArray& source)
{
    FunctionLibrary library;
    library.m_source = source;
    library.m_code = source;
    if (source.startsWith("#!")) {
        library.m_hasShebang = true;
        int lineEnd = int(source.indexOf('\n'));
        if (lineEnd < 0)
            lineEnd = int(source.size());
        const QList<QByteArray> words = source.mid(2, lineEnd - 2).trimmed().split(' ');
        library.m_engine = words.value(0).toLower();
        for (const QByteArray& word : words) {
            if (word.startsWith("name="))
                library.m_name = word.mid(5);
        }
        library.m_code = applyEdits(source, {{0, lineEnd, {}, true}});
    }
    int trouble = 0;
    library.m_tokens = LuaFlow::tokenize(library.m_code, &trouble);
    const QVector<Token>& tokens = library.m_tokens;
    Reader reader(tokens);
    for (int i = 0; i + 3 < tokens.size(); ++i) {
        const Token& token = tokens[i];
        if (!(isName(token, "redis") || isName(token, "server")) || !isSymbol(tokens[i + 1], ".")
            || !isName(tokens[i + 2], "register_function"))
            continue;
        if (i > 0 && (isSymbol(tokens[i - 1], ".") || isSymbol(tokens[i - 1], ":")))
            continue;
        library.m_registerNames << qMakePair(token.offset, tokenEnd(tokens[i + 2]) - token.offset);
        LibraryFunction function;
        function.line = token.line;
        function.registrationStart = token.offset;
        if (reader.registration(i + 3, &function))
            library.m_functions << function;
    }
    library.m_isLibrary = library.m_hasShebang || !library.m_registerNames.isEmpty();
    return library;
}

const LibraryFunction* FunctionLibrary::function(const QByteArray& name) const
{
    for (const LibraryFunction& function : m_functions) {
        if (function.name == name)
            return &function;
    }
    return nullptr;
}

const LibraryFunction* FunctionLibrary::functionOrFirst(const QByteArray& name) const
{
    if (const LibraryFunction* named = function(name))
        return named;
    return m_functions.isEmpty() ? nullptr : &m_functions.first();
}

QByteArray FunctionLibrary::functionNames() const
{
    QList<QByteArray> names;
    for (const LibraryFunction& function : m_functions)
        names << function.name;
    return names.join(", ");
}

QByteArray FunctionLibrary::readingForm(const LibraryFunction& function) const
{
    QVector<Edit> edits;
    for (const LibraryFunction& other : m_functions) {
        if (other.registrationStart == function.registrationStart)
            continue;
        edits.append({other.registrationStart, other.registrationEnd, {}, true});
        // Another function's named callback is that function, not a helper of this one.
        if (!other.callbackName.isEmpty() && other.callbackName != function.callbackName)
            edits.append({other.definitionStart, other.endEnd, {}, true});
    }
    if (function.callbackName.isEmpty()) {
        edits.append({function.registrationStart, function.bodyStart, {}, true});
        edits.append({function.bodyEnd, function.registrationEnd, {}, true});
    } else {
        edits.append({function.registrationStart, function.registrationEnd, {}, true});
        edits.append({function.definitionStart, function.bodyStart, {}, true});
        edits.append({function.bodyEnd, function.endEnd, {}, true});
    }
    // The callback's parameters are what KEYS and ARGV are to an EVAL script.
    const QByteArray keysTable = "KEYS"; // Lua's table, not the command
    const QByteArray argvTable = "ARGV";
    const QVector<Token>& tokens = m_tokens;
    for (int i = 0; i < tokens.size(); ++i) {
        const Token& token = tokens[i];
        if (token.offset < function.bodyStart || token.offset >= function.bodyEnd || token.kind != Token::Kind::Name)
            continue;
        if (i > 0 && (isSymbol(tokens[i - 1], ".") || isSymbol(tokens[i - 1], ":")))
            continue;
        if (!function.keysParameter.isEmpty() && token.text == function.keysParameter)
            edits.append({token.offset, tokenEnd(token), keysTable, false});
        else if (!function.argsParameter.isEmpty() && token.text == function.argsParameter)
            edits.append({token.offset, tokenEnd(token), argvTable, false});
    }
    return applyEdits(m_code, edits);
}

QByteArray FunctionLibrary::evalForm(const QByteArray& functionName) const
{
    static const QByteArray shim = QByteArrayLiteral(
        "local __zsetlab_functions = {} local function __zsetlab_register(name, callback) if type(name) == 'table' "
        "then __zsetlab_functions[name.function_name] = name.callback else __zsetlab_functions[name] = callback end "
        "end");
    QVector<Edit> edits;
    if (m_hasShebang) {
        int lineEnd = int(m_code.indexOf('\n'));
        if (lineEnd < 0)
            lineEnd = int(m_code.size());
        edits.append({0, lineEnd, shim, false});
    } else {
        edits.append({0, 0, shim + ' ', false});
    }
    for (const auto& [offset, length] : m_registerNames)
        edits.append({offset, offset + length, QByteArrayLiteral("__zsetlab_register"), false});
    QByteArray quoted = functionName;
    quoted.replace('\\', "\\\\").replace('\'', "\\'").replace('\n', "\\n");
    return applyEdits(m_code, edits) + "\nreturn __zsetlab_functions['" + quoted + "'](KEYS, ARGV)\n";
}
