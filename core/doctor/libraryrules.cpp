// The doctor on a whole script: an EVAL script read once, a Redis Functions library read function
// by function, and what only a library can get wrong.

#include "doctorrules.h"
#include "functionlibrary.h"
#include "luatokens.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace DoctorRules {
namespace {
constexpr int maxReadFunctions = 64;

ScriptFinding finding(const QList<QByteArray>& lines, int line, Severity severity, const char* code,
                      const QString& title, const QString& explanation, const QString& suggestion)
{
    ScriptFinding f;
    f.line = line;
    f.severity = severity;
    f.code = QLatin1String(code);
    f.title = title;
    f.explanation = explanation;
    f.suggestion = suggestion;
    f.excerpt = QString::fromUtf8(lines.value(line - 1).trimmed()).left(maxExcerpt);
    return f;
}

bool afterDot(const QVector<Token>& tokens, int i)
{
    return i > 0 && tokens[i - 1].kind == Token::Kind::Symbol
        && (tokens[i - 1].text == "." || tokens[i - 1].text == ":");
}

// Lines where the script calls through `server`, Valkey's name for the redis table.
QVector<int> serverGlobalLines(const QVector<Token>& tokens)
{
    QVector<int> lines;
    for (int i = 0; i + 2 < tokens.size(); ++i) {
        if (tokens[i].kind == Token::Kind::Name && tokens[i].text == "server" && !afterDot(tokens, i)
            && tokens[i + 1].text == "." && !lines.contains(tokens[i].line))
            lines << tokens[i].line;
    }
    return lines;
}

bool isWrite(const QByteArray& command)
{
    static const QSet<QByteArray> writes {"ZADD",
                                          "ZREM",
                                          "ZREMRANGEBYSCORE",
                                          "ZREMRANGEBYRANK",
                                          "ZINCRBY",
                                          "ZPOPMIN",
                                          "DEL",
                                          "UNLINK",
                                          "EXPIRE",
                                          "PEXPIRE",
                                          "EXPIREAT",
                                          "PEXPIREAT",
                                          "SET",
                                          "SETEX",
                                          "PSETEX",
                                          "INCR",
                                          "INCRBY",
                                          "DECR",
                                          "HSET",
                                          "HINCRBY",
                                          "HDEL"};
    return writes.contains(command);
}

void addServerGlobals(const QVector<Token>& tokens, const QList<QByteArray>& lines, QVector<ScriptFinding>* findings)
{
    const QVector<int> at = serverGlobalLines(tokens);
    if (at.isEmpty())
        return;
    QStringList others;
    for (int i = 1; i < at.size(); ++i)
        others << QString::number(at[i]);
    findings->append(finding(
        lines, at.first(), Severity::Warning, "server-global", Text::tr("server.call runs on Valkey only"),
        Text::tr("Valkey 8 calls the table of commands `server` as well as `redis`. Redis 7 and 8 know only `redis`: "
                 "there this line fails with \"Script attempted to access nonexistent global variable 'server'\", "
                 "and no request is counted. zsetlab reads it as redis.call.")
            + (others.isEmpty()
                   ? QString()
                   : QLatin1Char(' ') + Text::tr("Also on line(s) %1.").arg(others.join(QStringLiteral(", ")))),
        Text::tr("Write redis.call (and redis.pcall): Valkey runs those too.")));
}

// A finding about a function's code speaks of its parameters, not of KEYS and ARGV.
void speakOfParameters(const LibraryFunction& f, ScriptFinding* found)
{
    const auto rename = [&f](QString text) {
        if (!f.keysParameter.isEmpty())
            text.replace(QRegularExpression(QStringLiteral("\\bKEYS\\[")), QString::fromUtf8(f.keysParameter + '['));
        if (!f.argsParameter.isEmpty())
            text.replace(QRegularExpression(QStringLiteral("\\bARGV\\[")), QString::fromUtf8(f.argsParameter + '['));
        return text;
    };
    found->title = rename(found->title);
    found->explanation = rename(found->explanation);
    found->suggestion = rename(found->suggestion);
}

// TIME wins over a TTL read: a script that reads both measures with the server's clock.
ScriptExamination::Clock clockOf(const Reading& reading)
{
    ScriptExamination::Clock clock = ScriptExamination::Clock::None;
    for (const RedisCall& call : reading.calls) {
        if (call.command == "TIME")
            return ScriptExamination::Clock::ServerTime;
        if (call.command == "PTTL" || call.command == "TTL" || call.command == "PEXPIRETIME"
            || call.command == "EXPIRETIME")
            clock = ScriptExamination::Clock::KeyTtl;
    }
    return clock;
}

} // namespace

ScriptExamination examineScript(const QByteArray& source, const CallTemplate& call, const QByteArray& appKey,
                                bool serverGlobals)
{
    const Reading reading = LuaFlow::read(source, call);
    ScriptExamination examination;
    const LuaSyntax syntax = LuaSyntax::check(source);
    examination.compiles = syntax.compiles;
    Doctor doctor(source, call, reading, appKey);
    examination.findings = doctor.findings(syntax);
    examination.randomMemberValues = doctor.fewRandomValues();
    if (syntax.compiles && serverGlobals) {
        int trouble = 0;
        addServerGlobals(tokenize(source, &trouble), source.split('\n'), &examination.findings);
    }
    std::stable_sort(examination.findings.begin(), examination.findings.end(),
                     [](const ScriptFinding& a, const ScriptFinding& b) { return a.line < b.line; });
    examination.keySuffixes = reading.keySuffixes;
    examination.readsLimit = reading.readsLimit;
    examination.clock = clockOf(reading);
    return examination;
}

namespace {
using Seen = QSet<QPair<int, QString>>; // (line, code) of the findings so far

// A finding the library's functions share (the same line read from each) is told once.
void addOnce(const ScriptFinding& found, Seen* seen, QVector<ScriptFinding>* findings)
{
    if (seen->contains({found.line, found.code}))
        return;
    seen->insert({found.line, found.code});
    *findings << found;
}

// A library that does not compile: the compiler's words, line for line with the file (the first
// line was blanked).
void explainSyntaxError(const FunctionLibrary& library, const QList<QByteArray>& lines, const CallTemplate& call,
                        const QByteArray& appKey, const LuaSyntax& syntax, ScriptExamination* examination)
{
    examination->findings = Doctor(library.code(), call, LuaFlow::read(library.code(), call), appKey).findings(syntax);
    for (ScriptFinding& f : examination->findings) {
        f.excerpt = QString::fromUtf8(lines.value(f.line - 1).trimmed()).left(maxExcerpt);
        if (f.code == QLatin1String("syntax-error"))
            f.explanation = Text::tr("Lua 5.1 (the Lua that Redis runs) stops at line %1: %2. FUNCTION LOAD "
                                     "refuses the whole library, so none of its functions can be called.")
                                .arg(syntax.line)
                                .arg(syntax.message);
    }
}

// The first line (#!lua name=...) and the functions registered: what FUNCTION LOAD refuses.
void checkMetadata(const FunctionLibrary& library, const QList<QByteArray>& lines, ScriptExamination* examination)
{
    QVector<ScriptFinding>& findings = examination->findings;
    const QString loadFails = Text::tr("FUNCTION LOAD refuses the library (\"%1\"), so none of its functions can be "
                                       "called.");
    if (!library.hasShebang()) {
        findings << finding(lines, 1, Severity::Error, "library-metadata",
                            Text::tr("The library has no first line naming it"),
                            loadFails.arg(QStringLiteral("Missing library metadata")),
                            Text::tr("Start the file with a line such as #!lua name=ratelimit."));
        examination->compiles = false;
    } else if (library.engine() != "lua") {
        findings << finding(
            lines, 1, Severity::Error, "library-metadata",
            Text::tr("The library asks for the engine \"%1\"").arg(QString::fromUtf8(library.engine())),
            loadFails.arg(QStringLiteral("Engine '%1' not found").arg(QString::fromUtf8(library.engine()))),
            Text::tr("Redis and Valkey run Lua libraries: start with #!lua name=..."));
        examination->compiles = false;
    } else if (library.name().isEmpty()) {
        findings << finding(lines, 1, Severity::Error, "library-metadata", Text::tr("The library has no name"),
                            loadFails.arg(QStringLiteral("Library name was not given")),
                            Text::tr("Name it on its first line: #!lua name=ratelimit."));
        examination->compiles = false;
    }
    if (library.functions().isEmpty()) {
        findings << finding(lines, 1, Severity::Error, "library-empty",
                            Text::tr("The library registers no function zsetlab can read"),
                            Text::tr("A library is loaded only when it registers a function with "
                                     "redis.register_function('name', function(keys, args) ... end) or the table "
                                     "form {function_name = ..., callback = ...}; FUNCTION LOAD answers \"No "
                                     "functions registered\" otherwise. zsetlab follows those two forms only."),
                            Text::tr("Register the limiter: redis.register_function('limit', function(keys, args) "
                                     "... end)."));
        examination->compiles = false;
    }
}

// What the reading of one function found, in the library's lines and words.
void mergeFunction(const LibraryFunction& f, const ScriptExamination& part, const QList<QByteArray>& lines, Seen* seen,
                   ScriptExamination* examination)
{
    if (part.randomMemberValues > 0
        && (examination->randomMemberValues <= 0 || part.randomMemberValues < examination->randomMemberValues))
        examination->randomMemberValues = part.randomMemberValues;
    for (ScriptFinding found : part.findings) {
        found.excerpt = QString::fromUtf8(lines.value(found.line - 1).trimmed()).left(maxExcerpt);
        if (found.line >= f.firstLine && found.line <= f.lastLine) {
            found.function = f.name;
            speakOfParameters(f, &found);
        }
        addOnce(found, seen, &examination->findings);
    }
    for (const QByteArray& suffix : part.keySuffixes) {
        if (!examination->keySuffixes.contains(suffix))
            examination->keySuffixes << suffix;
    }
    examination->readsLimit = examination->readsLimit || part.readsLimit;
    examination->clock = std::max(examination->clock, part.clock);
}

// What only a function gets wrong: the globals of EVAL (KEYS, ARGV) read in its body.
void checkGlobals(const LibraryFunction& f, const QVector<Token>& tokens, const QList<QByteArray>& lines, Seen* seen,
                  QVector<ScriptFinding>* findings)
{
    for (int i = 0; i < tokens.size(); ++i) {
        const Token& token = tokens[i];
        if (token.offset < f.bodyStart || token.offset >= f.bodyEnd || token.kind != Token::Kind::Name
            || afterDot(tokens, i) || (token.text != "KEYS" && token.text != "ARGV"))
            continue;
        // function(KEYS, ARGV): the callback's own parameters, named like EVAL's globals.
        if (token.text == f.keysParameter || token.text == f.argsParameter)
            continue;
        const QString global = QString::fromUtf8(token.text);
        ScriptFinding found = finding(
            lines, token.line, Severity::Error, "function-reads-keys", Text::tr("%1 is nil in a function").arg(global),
            Text::tr("A function gets its keys and arguments as the parameters of its callback, not as KEYS and "
                     "ARGV: FCALL fails here with \"Script attempted to access nonexistent global variable "
                     "'%1'\", and no request is counted.")
                .arg(global),
            Text::tr("Read %1 instead.")
                .arg(QString::fromUtf8(token.text == "KEYS" ? (f.keysParameter.isEmpty() ? "keys" : f.keysParameter)
                                                            : (f.argsParameter.isEmpty() ? "args" : f.argsParameter))));
        found.function = f.name;
        addOnce(found, seen, findings);
    }
}

// What only a function gets wrong: writing under the flag no-writes.
void checkNoWrites(const LibraryFunction& f, const QByteArray& reading, const CallTemplate& call,
                   const QList<QByteArray>& lines, Seen* seen, QVector<ScriptFinding>* findings)
{
    for (const RedisCall& redisCall : LuaFlow::read(reading, call).calls) {
        if (!isWrite(redisCall.command))
            continue;
        ScriptFinding found
            = finding(lines, redisCall.line, Severity::Error, "function-no-writes",
                      Text::tr("%1 in a function flagged no-writes").arg(QString::fromUtf8(redisCall.command)),
                      Text::tr("The function %1 is registered with the flag no-writes, so Redis refuses every write "
                               "it makes (\"Write commands are not allowed from read-only scripts\"): a limiter "
                               "that cannot write its sorted set counts nothing.")
                          .arg(QString::fromUtf8(f.name)),
                      Text::tr("Drop no-writes from its flags; call it with FCALL, not FCALL_RO."));
        found.function = f.name;
        addOnce(found, seen, findings);
    }
}
} // namespace

ScriptExamination examineLibrary(const FunctionLibrary& library, const QByteArray& source, const CallTemplate& call,
                                 const QByteArray& appKey, const QByteArray& function)
{
    const QList<QByteArray> lines = source.split('\n');
    ScriptExamination examination;
    examination.isLibrary = true;
    examination.library = library.name();
    for (const LibraryFunction& f : library.functions())
        examination.functions << f.name;
    examination.examinedFunction = function;

    const LuaSyntax syntax = LuaSyntax::check(library.code());
    examination.compiles = syntax.compiles && library.hasShebang();
    if (!syntax.compiles) {
        explainSyntaxError(library, lines, call, appKey, syntax, &examination);
        return examination;
    }
    checkMetadata(library, lines, &examination);

    QVector<ScriptFinding>& findings = examination.findings;
    const QVector<Token>& tokens = library.tokens();
    Seen seen;
    // Each function is a reading of the whole library: a file that registers thousands would take
    // minutes. Limiter libraries register a few.
    int read = 0;
    for (const LibraryFunction& f : library.functions()) {
        if (!function.isEmpty() && f.name != function)
            continue;
        if (++read > maxReadFunctions) {
            findings << finding(lines, f.line, Severity::Info, "unread",
                                Text::tr("Only the first %1 functions were read").arg(maxReadFunctions),
                                Text::tr("The library registers %1 functions; the doctor reads the first %2 of them, "
                                         "each beside the library's own code. Choose one with --function (the "
                                         "Function choice) to read it.")
                                    .arg(library.functions().size())
                                    .arg(maxReadFunctions),
                                Text::tr("Check the function your app calls by its name."));
            break;
        }
        const QByteArray reading = library.readingForm(f);
        // server.call's globals: addServerGlobals() below, once for the library.
        mergeFunction(f, examineScript(reading, call, appKey, false), lines, &seen, &examination);
        checkGlobals(f, tokens, lines, &seen, &findings);
        if (f.flags.contains("no-writes"))
            checkNoWrites(f, reading, call, lines, &seen, &findings);
    }
    addServerGlobals(tokens, lines, &findings);
    std::stable_sort(findings.begin(), findings.end(),
                     [](const ScriptFinding& a, const ScriptFinding& b) { return a.line < b.line; });
    return examination;
}

} // namespace DoctorRules
