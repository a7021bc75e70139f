#include "doctorrules.h"

#include <algorithm>

namespace DoctorRules {

QString unitWord(int unit)
{
    switch (unit) {
    case 0:
        return Text::tr("second");
    case 1:
        return Text::tr("millisecond");
    case 2:
        return Text::tr("microsecond");
    case 3:
        return Text::tr("nanosecond");
    }
    return Text::tr("timestamp");
}

QString unitPlural(int unit)
{
    switch (unit) {
    case 0:
        return Text::tr("seconds");
    case 1:
        return Text::tr("milliseconds");
    case 2:
        return Text::tr("microseconds");
    case 3:
        return Text::tr("nanoseconds");
    }
    return Text::tr("unknown units");
}

Doctor::Doctor(const QByteArray& source, const CallTemplate& call, const Reading& reading, const QByteArray& appKey)
    : m_lines(source.split('\n'))
    , m_call(call)
    , m_reading(reading)
    , m_appKey(appKey)
{
    for (const CallTemplate::Token& token : call.keys())
        m_keyShapes << keyShape(token);
    if (!appKey.isEmpty()) {
        CallValues values;
        values.key = appKey;
        values.nowMicros = 1710000000123456;
        values.windowMs = 60000;
        values.limit = 100;
        values.seq = 1;
        values.uuid = "0b5e2c6a-request";
        m_appKeys = call.expandKeys(values);
    }
}

QVector<ScriptFinding> Doctor::findings(const LuaSyntax& syntax)
{
    if (!syntax.compiles)
        checkSyntax(syntax);
    for (const RedisCall& call : m_reading.calls)
        checkCall(call);
    reportBuiltKeys();
    checkSlots();
    checkKeyStories();
    checkFacts(!syntax.compiles);
    checkServices();
    std::stable_sort(m_findings.begin(), m_findings.end(),
                     [](const ScriptFinding& a, const ScriptFinding& b) { return a.line < b.line; });
    return m_findings;
}

void Doctor::add(int line, Severity severity, const char* code, const QString& title, const QString& explanation,
                 const QString& suggestion)
{
    const QString id = QLatin1String(code);
    for (const ScriptFinding& finding : std::as_const(m_findings)) {
        if (finding.code == id && finding.line == line)
            return;
    }
    ScriptFinding finding;
    finding.line = line;
    finding.severity = severity;
    finding.code = id;
    finding.title = title;
    finding.explanation = explanation;
    finding.suggestion = suggestion;
    finding.excerpt = QString::fromUtf8(m_lines.value(line - 1).trimmed());
    if (finding.excerpt.size() > maxExcerpt)
        finding.excerpt = finding.excerpt.left(maxExcerpt) + QStringLiteral("…");
    m_findings.append(finding);
}

auto Doctor::argUses() const -> QHash<int, ArgUse>
{
    QHash<int, ArgUse> uses;
    auto note = [&uses](const Value& value, Meaning meaning, int unit) {
        if (value.argIndex <= 0)
            return;
        ArgUse& use = uses[value.argIndex];
        if (use.meaning != Meaning::None && use.meaning != meaning)
            use.conflicting = true;
        use.meaning = meaning;
        if (unit >= 0)
            use.unit = unit;
    };
    for (const RedisCall& call : m_reading.calls) {
        const QByteArray& c = call.command;
        if ((c == "EXPIRE" || c == "SETEX") && call.args.size() > 1)
            note(call.args[1], Meaning::Duration, 0);
        else if ((c == "PEXPIRE" || c == "PSETEX") && call.args.size() > 1)
            note(call.args[1], Meaning::Duration, 1);
        else if (c == "ZADD" && call.args.size() > 2)
            note(call.args[call.args.size() - 2], Meaning::Time, -1);
        else if (c == "ZREMRANGEBYSCORE" && call.args.size() > 2)
            note(call.args[2], Meaning::Boundary, -1);
    }
    QHash<int, ArgUse> named;
    for (const ArgBinding& binding : m_reading.argBindings) {
        ArgUse& use = named[binding.index];
        if (use.meaning != Meaning::None && use.meaning != binding.meaning)
            use.conflicting = true;
        use.meaning = binding.meaning;
    }
    for (auto it = named.cbegin(); it != named.cend(); ++it) {
        if (!uses.contains(it.key()))
            uses.insert(it.key(), it.value());
    }
    return uses;
}

QString Doctor::suggestedArgs() const
{
    QStringList tokens;
    int count = m_call.argCount();
    for (const ArgBinding& binding : m_reading.argBindings)
        count = std::max(count, binding.index);
    const QHash<int, ArgUse> uses = argUses();
    for (auto it = uses.cbegin(); it != uses.cend(); ++it)
        count = std::max(count, it.key());
    const bool seconds = m_call.uses(CallTemplate::Placeholder::NowS) && !m_call.uses(CallTemplate::Placeholder::Now)
        && !m_call.uses(CallTemplate::Placeholder::NowUs) && !m_call.uses(CallTemplate::Placeholder::NowNs);
    const bool micro = m_call.uses(CallTemplate::Placeholder::NowUs);
    // A script keeps one unit: a window it gives EXPIRE in seconds means its now is in seconds.
    int shownUnit = -1;
    for (const ArgUse& use : uses) {
        if (use.meaning == Meaning::Duration && use.unit >= 0 && !use.conflicting)
            shownUnit = use.unit;
    }
    const QStringList words = m_call.argsText().split(QLatin1Char(' '));
    for (int i = 1; i <= count; ++i) {
        QString token = i <= m_call.argCount() ? words.value(i - 1, QStringLiteral("?")) : QStringLiteral("?");
        const ArgUse use = uses.value(i);
        const bool inSeconds = use.unit >= 0 ? use.unit == 0 : shownUnit >= 0 ? shownUnit == 0 : seconds;
        if (use.conflicting) {
            token = QStringLiteral("?");
        } else {
            switch (use.meaning) {
            case Meaning::Time:
                token = micro && shownUnit < 0 ? QStringLiteral("{now_us}")
                    : inSeconds                ? QStringLiteral("{now_s}")
                                               : QStringLiteral("{now}");
                break;
            case Meaning::Duration:
                token = inSeconds ? QStringLiteral("{window_s}") : QStringLiteral("{window}");
                break;
            case Meaning::Boundary:
                token = inSeconds ? QStringLiteral("{now_s-window_s}") : QStringLiteral("{now-window}");
                break;
            case Meaning::Limit:
                token = QStringLiteral("{limit}");
                break;
            case Meaning::Id:
                token = QStringLiteral("{uuid}");
                break;
            case Meaning::None:
                break;
            }
        }
        tokens << token;
    }
    return tokens.join(QLatin1Char(' '));
}

QString Doctor::unknownArgsNote(const QString& args)
{
    return args.contains(QLatin1Char('?'))
        ? Text::tr(" (? marks an argument whose meaning the script does not show: fill it in yourself)")
        : QString();
}

void Doctor::checkSyntax(const LuaSyntax& syntax)
{
    const int line = std::max(1, syntax.line);
    if (syntax.bytecode)
        add(line, Severity::Error, "syntax-error", Text::tr("The file is compiled Lua, not a script"),
            Text::tr("The file starts with the mark of precompiled Lua bytecode. Redis loads only Lua source "
                     "text, so EVAL and SCRIPT LOAD refuse it, and the doctor cannot read it either."),
            Text::tr("Give the .lua source the bytecode was compiled from."));
    else if (syntax.binary)
        add(line, Severity::Error, "syntax-error", Text::tr("The file is not a Lua script"),
            Text::tr("The file holds binary data (NUL or other control bytes), not Lua source; Lua 5.1 stops "
                     "at line %1: %2. Redis would refuse it as well.")
                .arg(line)
                .arg(syntax.message),
            Text::tr("Check the file name: give the limiter's .lua source file."));
    else
        add(line, Severity::Error, "syntax-error", Text::tr("Lua cannot compile the script"),
            Text::tr("Lua 5.1 (the Lua that Redis runs) stops at line %1: %2. Redis refuses the whole script "
                     "(SCRIPT LOAD and EVAL fail), so no request is ever counted, and the findings about "
                     "the rest of the script may be incomplete.")
                .arg(line)
                .arg(syntax.message),
            Text::tr("Fix the line the compiler names; a file that is not a Lua script (a binary, a wrong "
                     "file) cannot be checked at all."));
}

void Doctor::checkFacts(bool syntaxFound)
{
    QSet<int> missingArgs, missingKeys;
    for (const Fact& fact : m_reading.facts) {
        switch (fact.kind) {
        case Fact::Kind::Lossy:
            addLossy(fact);
            break;
        case Fact::Kind::UnitMismatch:
            add(fact.line, Severity::Error, "unit-mismatch", Text::tr("Seconds and milliseconds are mixed"),
                Text::tr("This line combines a value in %1 with a value in %2, so the result is off by a "
                         "factor of 1000 and the window covers the wrong entries.")
                    .arg(unitPlural(fact.a), unitPlural(fact.b)),
                Text::tr("Convert one side first (* 1000 or / 1000) so both are in the same unit, and "
                         "check --args: {now}/{window} are milliseconds, {now_s}/{window_s} seconds."));
            break;
        case Fact::Kind::MissingArg:
        case Fact::Kind::MissingKey:
        case Fact::Kind::TemplateMismatch:
            addTemplateMismatch(fact, &missingArgs, &missingKeys);
            break;
        case Fact::Kind::RandomSeed:
            if (!m_randomSeedExplained)
                add(fact.line, Severity::Warning, "randomseed",
                    Text::tr("math.randomseed() resets the server's generator"),
                    Text::tr("On Redis 7 every script shares one generator: this call resets it, so "
                             "scripts that rely on math.random() for unique members repeat the same "
                             "numbers."),
                    Text::tr("Remove the math.randomseed() call."));
            break;
        case Fact::Kind::Unread:
            if (syntaxFound)
                break; // the compiler's message says more
            add(fact.line, Severity::Info, "unread", Text::tr("zsetlab could not follow the script here"),
                Text::tr("This line uses a form the doctor does not read (or a syntax error): findings "
                         "about the lines after it may be missing. The live probe still runs the script."),
                Text::tr("Run with --live for evidence from Redis itself."));
            break;
        }
    }
}

void Doctor::addLossy(const Fact& fact)
{
    const bool inMember = m_lossyMembers.contains(fact.line);
    if (!inMember && m_lossyUniqueMembers.contains(fact.line)) {
        add(fact.line, Severity::Info, "lossy-time",
            Text::tr("A %1 timestamp loses digits in the member, which stays unique").arg(unitWord(fact.a)),
            Text::tr("Lua writes numbers as text with 14 significant digits (%.14g), so the time part of "
                     "this member is rounded to 100 microseconds. The member also carries a part that is "
                     "unique per request, so no two requests share a member and the count is right; "
                     "only the time written in the member is coarser than the score."),
            Text::tr("Nothing is needed for the count. To keep the exact time in the member, use the "
                     "string the caller sent (ARGV[n], without tonumber), or string.format('%d', now)."));
        return;
    }
    add(fact.line, inMember ? Severity::Error : Severity::Warning, "lossy-time",
        Text::tr("A %1 timestamp is turned into text with 14 digits").arg(unitWord(fact.a)),
        Text::tr("Lua writes numbers as text with 14 significant digits (%.14g): a microsecond "
                 "timestamp such as 1710000000000123 becomes 1.7100000000001e+15, so timestamps "
                 "up to 100 microseconds apart give the same text%1.")
            .arg(inMember ? Text::tr(", and here the same ZSET member") : QString()),
        Text::tr("Keep the text exact: use the string the caller sent (ARGV[n], without "
                 "tonumber), or string.format('%d', now); for a unique member, add a request id."));
}

void Doctor::addTemplateMismatch(const Fact& fact, QSet<int>* missingArgs, QSet<int>* missingKeys)
{
    switch (fact.kind) {
    case Fact::Kind::MissingArg:
        if (m_reading.defaultedArgs.contains(fact.a))
            break; // ARGV[n] or a default: an optional argument the call leaves out
        if (!missingArgs->contains(fact.a)) {
            missingArgs->insert(fact.a);
            add(fact.line, Severity::Warning, "argv-missing",
                Text::tr("ARGV[%1] is not in the call template").arg(fact.a),
                Text::tr("The script reads ARGV[%1], but the call template passes %2 argument(s), so "
                         "ARGV[%1] is nil in every call.")
                    .arg(fact.a)
                    .arg(m_call.argCount()),
                Text::tr("Describe every argument the script reads with --args, in its order, e.g. "
                         "--args \"%1\".")
                        .arg(suggestedArgs())
                    + unknownArgsNote(suggestedArgs()));
        }
        break;
    case Fact::Kind::MissingKey:
        if (!missingKeys->contains(fact.a)) {
            missingKeys->insert(fact.a);
            add(fact.line, Severity::Warning, "keys-missing",
                Text::tr("KEYS[%1] is not in the call template").arg(fact.a),
                Text::tr("The script reads KEYS[%1], but the call template passes %2 key(s), so "
                         "KEYS[%1] is nil in every call.")
                    .arg(fact.a)
                    .arg(m_call.keyCount()),
                Text::tr("Name every key the script reads with --keys, e.g. --keys \"{key} "
                         "{key}:other\"."));
        }
        break;
    case Fact::Kind::TemplateMismatch:
        // The name said one thing, the script's use of the argument says what the call passes.
        if (suggestedArgs().simplified() == m_call.argsText().simplified())
            break;
        add(fact.line, Severity::Warning, "template-mismatch",
            Text::tr("ARGV[%1] is read as \"%2\" but the call passes %3").arg(fact.a).arg(fact.text, fact.detail),
            Text::tr("The script keeps ARGV[%1] in \"%2\", but the call template puts %3 there: the "
                     "findings and the live probe would describe calls the script never gets.")
                .arg(fact.a)
                .arg(fact.text, fact.detail),
            Text::tr("Give --args in the order the script reads ARGV, e.g. --args \"%1\".").arg(suggestedArgs())
                + unknownArgsNote(suggestedArgs()));
        break;
    default:
        break;
    }
}

} // namespace DoctorRules
