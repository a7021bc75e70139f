#include "doctorcommand.h"

#include "base/interrupts.h"
#include "doctor/functionlibrary.h"
#include "doctor/scriptdoctor.h"
#include "doctor/scriptprobe.h"
#include "exitcodes.h"
#include "limiters/zsetkeys.h"
#include "serveroptions.h"
#include "terminaltext.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <thread>

namespace {
const char description[] = R"(Read your own limiter script and tell whether it counts right: findings with the
line, why it matters and what to change; with --live, evidence from a real Redis.

The script is first compiled with Lua 5.1 (the Lua Redis runs); a script that does not
compile (or is not a script at all) ends with exit code 4. Findings include members that
collide, numbers turned into text with lost digits, units mixed up, expired entries
counted, and keys the script touches that the caller does not pass in KEYS (on Redis
Cluster such a call fails unless the key shares the hash tag of the keys passed).

Say how the script is called with --keys and --args: tokens in the order the script
reads KEYS and ARGV, made of placeholders and literals:
  {key}     a fresh key under zsetlab: (every key must start with it)
  {now}     the request's time in ms        {now_s} in seconds   {now_us} in microseconds
                                            {now_ns} in nanoseconds
  {window}  the window in ms                {window_s} in seconds
                                            {window_us} {window_ns}
  {limit}   the limit                       {uuid} {seq} an id unique per request
  {now-window} {now_s-window_s} {now+N}    sums of numbers of one unit (the window's start;
  {now_ns-window_ns}                        nanoseconds, as Tyk's sliding log takes it)
  {now/window} {key}:{now_s/window_s}      integer division (a fixed window's number)
  ''                                        an empty argument
Default: --keys "{key}" --args "{now} {window} {limit} {uuid}" (zsetlab's own scripts).

For Redis Cluster, --app-key names a key as your application passes it for {key}
(e.g. "rl:{user42}"): the doctor computes the hash slot of every key of the call and of
the keys the script builds from it, and reports keys of one call in different slots
(CROSSSLOT). Nothing is written to that key; the live probe still uses fresh keys.

A Redis Functions library (a first line "#!lua name=...", functions registered with
redis.register_function) is checked function by function, its parameters read as KEYS and
ARGV; --function NAME checks only that one. The live probe loads the library with FUNCTION
LOAD on a private redis-server of zsetlab's own and calls the function (--function, or the
first) with FCALL; zsetlab never loads a library on a server it did not start.

A script that is a public library's limiter (Redisson, Spring Cloud Gateway, go-redis/
redis_rate, ...) is named with the releases that ship its text, its known issue with the
upstream report and the release that fixed it; a script changed from one is "derived from"
it, with the lines that changed, and the options that call it as its library does.
Scripts are compared by their tokens: layout and comments do not count. --fingerprint
prints what the table of known limiters keeps of a script.

A script that reads what the app sets up once (a rate in a hash) gets it with --setup: each
command runs before each scenario's first call, on that scenario's fresh keys only, written
with the placeholders above ("HSET {key}:config limit {limit} window {window}"). On the private
server Redis's COMMAND GETKEYS must find only keys under {key}; elsewhere the probe's ACL user
may touch no other key.

The live probe fires, on fresh keys: calls 1 s apart, calls sharing one now, calls at
0.5, 2, 10 and 50 per ms (with and without the limit), calls a window apart and calls half
a window apart, and for a member with few random values, enough calls at one now to see
them repeat (about ten expected, at most 5,000); then it reads the sorted sets and the
replies and deletes every key it named. Where the simulated clock passes a TTL the script
set, the key is let expire.

It never changes a key it did not create on a server it did not start. There the script
runs as a temporary ACL user made for the probe and deleted after it, which may touch only
the probe's keys: Redis itself refuses any other key, and the report names it. Where the
connection may not make ACL users (no ACL permission, Redis before 6), the probe runs only
on the private server unless --trust-script. Before that, every call runs
first on a private redis-server of zsetlab's own (a private cluster of 3 masters when the
given server is a cluster node), where MONITOR shows each key the script touches. A script
that touches any other key (or the whole database), or on a cluster a key in another slot,
is reported and is not run on the given server; the output says where the probe ran. A call that does not
finish within --script-timeout is ended with SCRIPT KILL; a script Redis cannot kill
(it already wrote) is reported with what to do, and a server zsetlab did not start is
never shut down. Every other read (SCRIPT LOAD, the setup commands, the checks) keeps
--timeout: a server that does not answer within it ends the probe (exit 3); a script's
call waits at most --script-timeout, then --timeout plus 5 s (a busy server's
busy-reply-threshold) for the answer to SCRIPT KILL.

Replies: a count (with or before the call), 1/0 or true/false for admitted (2 of a
tri-state 0/1/2 too), 0/1 or "false"/"true" for limited, nil for admitted, {allowed, ...},
what is left of the limit after the call ({remaining, ...}, -1 refused) or before it
(0 refused), a value (a slot's name) or nil, or an error reply the script raises over the
limit (a refusal). The probe learns which from its own calls: the first calls under a limit
are admissions, so an element of the reply that changes kind when calls are refused (a wait
of 0 that turns positive in {"true", wait}, a slot's name that turns nil) says which calls
were admitted. Or take it from --reply: count, count-before, allowed=1, allowed=0,
limited=true, allowed=nil, allowed=value, remaining, remaining-before, each with @N to read
the Nth element of an array reply (--reply limited@2). Where the replies do not say, the
verdict says so and gives no verdict on admissions.

A script whose call carries no time (it reads TIME, its keys' TTL, or nothing) is also run
in real time with a 200 ms window (1 s when the call gives the window in seconds): a burst,
a wait on the server's clock past the window, a burst again; a burst and one call half a
window later (does it give capacity back as time passes?); one call, and a window later, are
its keys gone? The verdict names the clock the script uses: TIME, PTTL or none.

Examples:
  zsetlab-cli doctor my_limiter.lua
  zsetlab-cli doctor two_keys.lua --keys "{key} {key}:seq" --app-key "rl:{user42}"
  zsetlab-cli doctor my_limiter.lua --args "{now_s} {window_s} {limit}" --live
  zsetlab-cli doctor check.lua --keys "{key}" --args "{window} {limit} {now} {seq}" --live --json
  zsetlab-cli doctor gate.lua --args "{now} {now-window} {limit}" --reply limited=true --live
  zsetlab-cli doctor bucket.lua --args "{limit} {window}" --reply limited@2 --live --strict
  zsetlab-cli doctor ratelib.lua --function limit_sliding --live
  zsetlab-cli doctor configured.lua --keys "{key} {key}:config" --setup "HSET {key}:config limit {limit}" --live

Exit codes, one meaning each:
  0    it counts right as far as zsetlab can tell: no error finding, and the live probe (with
       --live) measured no wrong count; notes and warnings are listed all the same
  1    it counts wrong: the live probe measured a wrong count, or a finding is an error that
       makes the count wrong (a member that repeats, counting before trimming, ...)
  6    with --strict only: it counts right, but warnings were listed (a TTL that lingers or is
       missing, a key not passed in KEYS, a known library's issue the probe did not show, replies
       that did not say which calls were admitted)
  2    bad usage       3 cannot connect or authenticate
  4    the script cannot be read, compiled, loaded or run, or did not finish within
       --script-timeout
  8    the given server deletes keys to make room when full (maxmemory with an evicting
       policy): nothing was written there without --allow-eviction, or the probe grew it by
       half of its headroom and was stopped
  130  the live probe was stopped by Ctrl+C or SIGTERM.)";

struct DoctorOptions
{
    QCommandLineOption keys {QStringLiteral("keys"),
                             QStringLiteral("KEYS as the script expects them (default \"{key}\")."),
                             QStringLiteral("TEMPLATE"), CallTemplate::defaultKeys()};
    QCommandLineOption args {
        QStringLiteral("args"),
        QStringLiteral("ARGV as the script expects them (default \"{now} {window} {limit} {uuid}\")."),
        QStringLiteral("TEMPLATE"), CallTemplate::defaultArgs()};
    QCommandLineOption live {QStringLiteral("live"),
                             QStringLiteral("Also run the script on Redis and report what it stored and admitted.")};
    QCommandLineOption window {QStringLiteral("window"),
                               QStringLiteral("Window of the live probe in ms (default 60000)."), QStringLiteral("MS"),
                               QStringLiteral("60000")};
    QCommandLineOption limit {QStringLiteral("limit"), QStringLiteral("Limit of the live probe (default 5)."),
                              QStringLiteral("L"), QStringLiteral("5")};
    QCommandLineOption reply {QStringLiteral("reply"),
                              QStringLiteral("How the script's replies read, instead of learning it: count, "
                                             "count-before, allowed=1, allowed=0, limited=true, allowed=nil, "
                                             "allowed=value, remaining, remaining-before; STYLE@N reads the Nth "
                                             "element of an array reply."),
                              QStringLiteral("STYLE")};
    QCommandLineOption scriptTimeout {QStringLiteral("script-timeout"),
                                      QStringLiteral("End a call of the script that runs longer than this, in ms "
                                                     "(default 1000)."),
                                      QStringLiteral("MS"), QStringLiteral("1000")};
    QCommandLineOption appKey {QStringLiteral("app-key"),
                               QStringLiteral("A key as your application passes it for {key}, e.g. \"rl:{user42}\": "
                                              "check the Redis Cluster slots of the call's keys."),
                               QStringLiteral("NAME")};
    QCommandLineOption trustScript {
        QStringLiteral("trust-script"),
        QStringLiteral("Where the given server lets zsetlab make no temporary ACL user for the script (no ACL "
                       "permission, Redis before 6), run the live probe there anyway, with every right of the "
                       "connection's user.")};
    QCommandLineOption function {QStringLiteral("function"),
                                 QStringLiteral("For a Redis Functions library: the function to check and probe "
                                                "(default: every function is checked, the first is probed)."),
                                 QStringLiteral("NAME")};
    QCommandLineOption setup {QStringLiteral("setup"),
                              QStringLiteral("A command to run on the probe's keys before each scenario's first "
                                             "call, as a template (repeat for more), e.g. \"HSET {key}:config limit "
                                             "{limit}\"."),
                              QStringLiteral("COMMAND")};
    QCommandLineOption json {QStringLiteral("json"), QStringLiteral("Print one JSON object.")};
    QCommandLineOption strict {QStringLiteral("strict"),
                               QStringLiteral("Exit with 6 when the script counts right but warnings were listed "
                                              "(without it: 0).")};
    QCommandLineOption fingerprint {QStringLiteral("fingerprint"),
                                    QStringLiteral("Print the script's fingerprint, the fields of an entry in the "
                                                   "table of known limiters (its SHA1, its tokens' digest and "
                                                   "runs), and stop.")};
};

QJsonObject findingJson(const ScriptFinding& finding)
{
    QJsonObject json;
    json.insert(QStringLiteral("line"), finding.line);
    json.insert(QStringLiteral("severity"), ScriptDoctor::severityName(finding.severity));
    json.insert(QStringLiteral("code"), finding.code);
    json.insert(QStringLiteral("title"), finding.title);
    json.insert(QStringLiteral("explanation"), finding.explanation);
    json.insert(QStringLiteral("suggestion"), finding.suggestion);
    json.insert(QStringLiteral("excerpt"), finding.excerpt);
    if (!finding.function.isEmpty())
        json.insert(QStringLiteral("function"), QString::fromUtf8(finding.function));
    return json;
}

QJsonObject examinationJson(const QString& path, const CallTemplate& call, const QByteArray& appKey,
                            const ScriptExamination& examination)
{
    QJsonArray findings;
    for (const ScriptFinding& finding : examination.findings)
        findings.append(findingJson(finding));
    QJsonObject json;
    json.insert(QStringLiteral("schema"), 1);
    json.insert(QStringLiteral("script"), path);
    json.insert(QStringLiteral("keys"), call.keysText());
    json.insert(QStringLiteral("args"), call.argsText());
    if (!appKey.isEmpty())
        json.insert(QStringLiteral("app_key"), QString::fromUtf8(appKey));
    if (examination.isLibrary) {
        json.insert(QStringLiteral("library"), QString::fromUtf8(examination.library));
        QJsonArray functions;
        for (const QByteArray& name : examination.functions)
            functions.append(QString::fromUtf8(name));
        json.insert(QStringLiteral("functions"), functions);
    }
    json.insert(QStringLiteral("compiles"), examination.compiles);
    if (const LimiterRecognition& known = examination.known; known.limiter) {
        QJsonObject limiter {
            {QStringLiteral("id"), QString::fromUtf8(known.limiter->id)},
            {QStringLiteral("library"), QString::fromUtf8(known.limiter->library)},
            {QStringLiteral("versions"), QString::fromUtf8(known.limiter->versions)},
            {QStringLiteral("source"), QString::fromUtf8(known.limiter->source)},
            {QStringLiteral("match"),
             known.match == LimiterRecognition::Match::Same ? QStringLiteral("same") : QStringLiteral("derived")},
            {QStringLiteral("shared"), qRound(known.shared * 1000) / 1000.0},
        };
        if (known.limiter->issue) {
            limiter.insert(QStringLiteral("issue"), QString::fromUtf8(known.limiter->issue));
            limiter.insert(QStringLiteral("issue_url"), QString::fromUtf8(known.limiter->issueUrl));
            if (known.limiter->fixedIn)
                limiter.insert(QStringLiteral("fixed_in"), QString::fromUtf8(known.limiter->fixedIn));
        }
        if (known.match == LimiterRecognition::Match::Derived) {
            QJsonArray lines;
            for (const int line : known.changedLines)
                lines.append(line);
            limiter.insert(QStringLiteral("changed_lines"), lines);
            const auto names = [](const QList<QByteArray>& commands) {
                QJsonArray list;
                for (const QByteArray& command : commands)
                    list.append(QString::fromLatin1(command));
                return list;
            };
            const auto counts = [](const QList<CommandCount>& commands) {
                QJsonArray list;
                for (const CommandCount& c : commands)
                    list.append(QJsonObject {{QStringLiteral("command"), QString::fromLatin1(c.command)},
                                             {QStringLiteral("known"), c.known},
                                             {QStringLiteral("here"), c.here}});
                return list;
            };
            limiter.insert(QStringLiteral("commands_added"), names(known.commandsAdded));
            limiter.insert(QStringLiteral("commands_removed"), names(known.commandsDropped));
            limiter.insert(QStringLiteral("commands_fewer"), counts(known.commandsFewer));
            limiter.insert(QStringLiteral("commands_more"), counts(known.commandsMore));
        }
        json.insert(QStringLiteral("known_limiter"), limiter);
    }
    json.insert(QStringLiteral("findings"), findings);
    json.insert(QStringLiteral("problem"), examination.hasProblem());
    return json;
}

// Wraps text for a terminal, every line indented; control characters are shown, not sent.
QString wrapped(const QString& text, int indent, int width = 100)
{
    const QString pad(indent, QLatin1Char(' '));
    QString out;
    QString line;
    for (const QString& word : terminalSafe(text).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!line.isEmpty() && indent + line.size() + 1 + word.size() > width) {
            out += pad + line + QLatin1Char('\n');
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + word;
    }
    if (!line.isEmpty())
        out += pad + line + QLatin1Char('\n');
    return out;
}

QString findingsText(const QString& script, const CallTemplate& call, const QByteArray& appKey,
                     const ScriptExamination& examination)
{
    QString text = terminalSafe(script);
    if (examination.isLibrary) {
        QStringList functions;
        for (const QByteArray& name : examination.functions)
            functions << terminalSafe(QString::fromUtf8(name));
        text += QStringLiteral(", library %1 (%2)")
                    .arg(examination.library.isEmpty() ? QStringLiteral("without a name")
                                                       : terminalSafe(QString::fromUtf8(examination.library)),
                         functions.isEmpty() ? QStringLiteral("no function read")
                                             : QStringLiteral("function(s) ") + functions.join(QStringLiteral(", ")));
        if (!examination.examinedFunction.isEmpty())
            text += QStringLiteral(", checking %1 only")
                        .arg(terminalSafe(QString::fromUtf8(examination.examinedFunction)));
        text += QLatin1Char('\n');
    }
    text += QStringLiteral("%1called with KEYS = %2, ARGV = %3")
                .arg(examination.isLibrary ? QStringLiteral("FCALL, ") : QStringLiteral(", "),
                     terminalSafe(call.keysText()),
                     call.argsText().isEmpty() ? QStringLiteral("(none)") : terminalSafe(call.argsText()));
    if (!appKey.isEmpty())
        text += QStringLiteral(", {key} = ") + terminalSafe(QString::fromUtf8(appKey));
    text += QLatin1Char('\n');
    const int errors = examination.count(ScriptFinding::Severity::Error);
    const int warnings = examination.count(ScriptFinding::Severity::Warning);
    const int infos = examination.count(ScriptFinding::Severity::Info);
    if (examination.findings.isEmpty()) {
        text += QStringLiteral("No findings.\n");
        return text;
    }
    text += QStringLiteral("%1 finding(s): %2 error(s), %3 warning(s), %4 note(s)\n")
                .arg(examination.findings.size())
                .arg(errors)
                .arg(warnings)
                .arg(infos);
    for (const ScriptFinding& finding : examination.findings) {
        text += QStringLiteral("\nline %1  %2  %3  [%4]%5\n")
                    .arg(finding.line)
                    .arg(ScriptDoctor::severityName(finding.severity), terminalSafe(finding.title), finding.code,
                         finding.function.isEmpty()
                             ? QString()
                             : QStringLiteral("  in %1").arg(terminalSafe(QString::fromUtf8(finding.function))));
        if (!finding.excerpt.isEmpty())
            text += QStringLiteral("    > ") + terminalSafe(finding.excerpt) + QLatin1Char('\n');
        text += wrapped(finding.explanation, 4);
        text += wrapped(QStringLiteral("Change: ") + finding.suggestion, 4);
    }
    return text;
}

QString probeText(const ProbeReport& report, const QString& server)
{
    const QString what = report.function.isEmpty()
        ? QStringLiteral("Live probe")
        : QStringLiteral("Live probe of the function %1 (FCALL)").arg(terminalSafe(QString::fromUtf8(report.function)));
    QString text = report.ranOnTarget
        ? QStringLiteral("\n%1 on %2:\n").arg(what, terminalSafe(server))
        : QStringLiteral("\n%1 on a private redis-server zsetlab started (Redis %2) instead of %3:\n")
              .arg(what, terminalSafe(report.serverVersion), terminalSafe(server));
    for (const QString& sentence : report.verdict)
        text += wrapped(sentence, 2);
    if (report.ranOnTarget) {
        for (const QString& line : report.sandbox.toText().split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            text += terminalSafe(line) + QLatin1Char('\n');
    }
    const ProbeScenario* together = report.clockControlled ? report.scenario(QStringLiteral("same-now"))
                                                           : report.scenario(QStringLiteral("back-to-back"));
    if (together && !together->members.isEmpty())
        text += wrapped(
            QStringLiteral("Members stored by the calls %1: %2")
                .arg(report.clockControlled ? QStringLiteral("sharing one now") : QStringLiteral("sent back to back"),
                     together->members.join(QStringLiteral(", "))),
            2);
    return text;
}

// What the exit code says: one meaning each (see the description's "Exit codes").
struct DoctorResult
{
    bool countsWrong = false; // an error finding, or the probe measured a wrong count
    bool warnings = false; // it counts right, but warnings were listed

    static DoctorResult of(const ScriptExamination& examination, const ProbeReport* report)
    {
        DoctorResult result;
        result.countsWrong = examination.countsWrong() || (report && report->countsWrong());
        result.warnings = !result.countsWrong && (examination.hasWarnings() || (report && report->hasWarnings()));
        return result;
    }
    QString name() const
    {
        return countsWrong ? QStringLiteral("counts-wrong")
            : warnings     ? QStringLiteral("counts-right-with-warnings")
                           : QStringLiteral("counts-right");
    }
    QString sentence(bool strict) const
    {
        if (countsWrong)
            return QStringLiteral("Result: it counts wrong (exit 1).");
        if (warnings)
            return strict ? QStringLiteral("Result: it counts right, with the warnings above (exit 6, --strict).")
                          : QStringLiteral("Result: it counts right, with the warnings above (exit 0; --strict "
                                           "exits 6).");
        return QStringLiteral("Result: it counts right as far as zsetlab can tell (exit 0).");
    }
};

bool readInteger(const QCommandLineParser& parser, const QCommandLineOption& option, qint64 min, qint64 max,
                 qint64* value, QString* error)
{
    bool ok = false;
    *value = parser.value(option).toLongLong(&ok);
    if (ok && *value >= min && *value <= max)
        return true;
    *error = QStringLiteral("--%1 must be a whole number from %2 to %3, not \"%4\".")
                 .arg(option.names().constFirst())
                 .arg(min)
                 .arg(max)
                 .arg(parser.value(option));
    return false;
}
} // namespace

int runDoctorCommand(const QStringList& arguments)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("doctor"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("FILE.lua"), QStringLiteral("The limiter script to examine."));
    const DoctorOptions o;
    const ServerOptions server;
    server.addTo(parser);
    parser.addOptions({o.keys, o.args, o.appKey, o.function, o.live, o.window, o.limit, o.reply, o.scriptTimeout,
                       o.trustScript, o.setup, o.json, o.strict, o.fingerprint});
    auto usageError = [&err](const QString& message) {
        err << "zsetlab-cli doctor: " << message << "\nSee zsetlab-cli doctor --help.\n";
        return ExitUsage;
    };
    if (!parser.parse(arguments))
        return usageError(parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitDone;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() < 2)
        return usageError(QStringLiteral("give the script to examine: zsetlab-cli doctor FILE.lua."));
    if (positional.size() > 2)
        return usageError(QStringLiteral("unexpected argument \"%1\".").arg(positional.at(2)));
    const bool live = parser.isSet(o.live);
    for (const QCommandLineOption* only :
         {&server.redis, &server.noSpawn, &server.allowRemote, &server.tlsOptions.tlsCa, &server.tlsOptions.tlsCert,
          &server.tlsOptions.tlsKey, &server.tlsOptions.sni, &server.tlsOptions.insecure, &o.window, &o.limit, &o.reply,
          &o.scriptTimeout, &o.trustScript, &o.setup}) {
        if (!live && parser.isSet(*only))
            return usageError(
                QStringLiteral("--%1 is for the live probe: add --live.").arg(only->names().constFirst()));
    }
    CallTemplate call;
    QString error;
    if (!CallTemplate::parse(parser.value(o.keys), parser.value(o.args), &call, &error))
        return usageError(error);
    QByteArray appKey;
    if (parser.isSet(o.appKey)) {
        if (parser.value(o.appKey).isEmpty())
            return usageError(QStringLiteral("--app-key needs a name, e.g. --app-key \"rl:{user42}\"."));
        if (const QString problem = ZsetKeys::userKeyProblem(parser.value(o.appKey)); !problem.isEmpty())
            return usageError(QStringLiteral("--app-key: ") + problem);
        appKey = parser.value(o.appKey).toUtf8();
    }
    ProbeSettings settings;
    if (!readInteger(parser, o.window, 1000, 365LL * 24 * 3600 * 1000, &settings.windowMs, &error)
        || !readInteger(parser, o.limit, 1, 100'000, &settings.limit, &error))
        return usageError(error);
    qint64 scriptTimeoutMs = 0;
    if (!readInteger(parser, o.scriptTimeout, 10, 600'000, &scriptTimeoutMs, &error))
        return usageError(error);
    settings.scriptTimeout = std::chrono::milliseconds(scriptTimeoutMs);
    for (const QString& text : parser.values(o.setup)) {
        SetupCommand command;
        if (!SetupCommand::parse(text, &command, &error))
            return usageError(error);
        settings.setup << text;
    }
    if (parser.isSet(o.reply) && !parseReplyStyle(parser.value(o.reply), &settings.replyStyle, &settings.replyElement))
        return usageError(
            QStringLiteral("--reply must be one of %1, not \"%2\".").arg(replyStyleChoices(), parser.value(o.reply)));

    LimiterScript script;
    if (!LimiterScript::fromFile(positional.at(1), &script, &error)) {
        err << "zsetlab-cli doctor: " << terminalSafe(error) << '\n';
        return ExitScript;
    }
    if (parser.isSet(o.fingerprint)) {
        out << QString::fromUtf8(ScriptFingerprint::of(script.source()).toJson());
        return ExitDone;
    }
    const QByteArray function = parser.value(o.function).toUtf8();
    if (parser.isSet(o.function)) {
        const FunctionLibrary library = FunctionLibrary::read(script.source());
        if (!library.isLibrary())
            return usageError(QStringLiteral("--function is for a Redis Functions library (a file that starts with "
                                             "#!lua name=...), and %1 is an EVAL script.")
                                  .arg(terminalSafe(script.name())));
        if (!library.function(function))
            return usageError(QStringLiteral("the library %1 registers no function \"%2\"; it registers: %3.")
                                  .arg(terminalSafe(script.name()), terminalSafe(parser.value(o.function)),
                                       library.functions().isEmpty()
                                           ? QStringLiteral("none")
                                           : terminalSafe(QString::fromUtf8(library.functionNames()))));
        settings.function = function;
    }
    const ScriptExamination examination = ScriptDoctor::examine(script.source(), call, appKey, function);
    settings.randomMemberValues = examination.randomMemberValues;
    if (!examination.compiles) {
        // Nothing can run it: say where it breaks, and probe nothing.
        if (parser.isSet(o.json))
            out << QJsonDocument(examinationJson(positional.at(1), call, appKey, examination))
                       .toJson(QJsonDocument::Compact)
                << '\n';
        else
            out << findingsText(script.name(), call, appKey, examination);
        out.flush();
        const auto syntax
            = std::find_if(examination.findings.cbegin(), examination.findings.cend(),
                           [](const ScriptFinding& f) { return f.code == QLatin1String("syntax-error"); });
        if (syntax == examination.findings.cend() && examination.isLibrary)
            err << "zsetlab-cli doctor: FUNCTION LOAD would refuse the library " << terminalSafe(script.name())
                << (live ? "; the live probe did not run" : "") << ".\n";
        else
            err << "zsetlab-cli doctor: Lua cannot compile " << terminalSafe(script.name()) << " (line "
                << (syntax != examination.findings.cend() ? syntax->line : 0) << ")"
                << (live ? "; the live probe did not run" : "") << ".\n";
        return ExitScript;
    }

    ProbeReport report;
    QString serverText;
    if (live) {
        RedisServerChoice choice;
        if (const int code = server.resolve(parser, &choice, true); code != ExitDone)
            return code;
        serverText = choice.description();
        ScriptProbe probe(script, call, settings);
        // The probe blocks; run it beside the event loop so that Ctrl+C can cancel it.
        onInterrupt([&probe] { probe.cancel(); });
        err << "zsetlab-cli doctor: probing the script live (Ctrl+C stops the probe)\n";
        err.flush();
        std::thread worker([&] {
            ConnectOptions options = choice.options();
            options.trustScripts = parser.isSet(o.trustScript);
            report = probe.run(choice.endpoint(), options);
            QMetaObject::invokeMethod(
                qApp, [] { QCoreApplication::quit(); }, Qt::QueuedConnection);
        });
        QCoreApplication::exec();
        worker.join();
    }
    ScriptExamination weighed = examination;
    if (live)
        ScriptDoctor::weighProbe(&weighed, report);

    const DoctorResult result = DoctorResult::of(weighed, live ? &report : nullptr);
    if (parser.isSet(o.json)) {
        QJsonObject json = examinationJson(positional.at(1), call, appKey, weighed);
        if (live)
            json.insert(QStringLiteral("live"), report.toJson());
        json.insert(QStringLiteral("problem"), weighed.hasProblem() || (live && report.hasProblem()));
        json.insert(QStringLiteral("counts_wrong"), result.countsWrong);
        json.insert(QStringLiteral("warnings"), result.warnings);
        json.insert(QStringLiteral("result"), result.name());
        out << QJsonDocument(json).toJson(QJsonDocument::Compact) << '\n';
    } else {
        out << findingsText(script.name(), call, appKey, weighed);
        if (live && report.failure == ProbeReport::Failure::None)
            out << probeText(report, serverText);
        if (report.failure == ProbeReport::Failure::None)
            out << QLatin1Char('\n') << result.sentence(parser.isSet(o.strict)) << QLatin1Char('\n');
    }
    out.flush();

    // Ctrl+C or SIGTERM cut a read short (the connection it waited on was closed): that is the
    // signal's doing, not the server's, whatever the probe's failure says.
    if (live && interrupted() && report.failure != ProbeReport::Failure::None) {
        err << "zsetlab-cli doctor: stopped by a signal before the probe ended.\n";
        return ExitInterrupted;
    }
    switch (report.failure) {
    case ProbeReport::Failure::None:
        break;
    case ProbeReport::Failure::Script:
    case ProbeReport::Failure::Runaway:
        err << "zsetlab-cli doctor: " << terminalSafe(report.failureMessage) << '\n';
        return ExitScript;
    case ProbeReport::Failure::Connection:
        err << "zsetlab-cli doctor: " << terminalSafe(report.failureMessage) << '\n';
        return ExitConnection;
    case ProbeReport::Failure::Cancelled:
        err << "zsetlab-cli doctor: " << terminalSafe(report.failureMessage) << '\n';
        return ExitInterrupted;
    case ProbeReport::Failure::Eviction:
        err << "zsetlab-cli doctor: " << terminalSafe(report.failureMessage) << '\n';
        return ExitEviction;
    }
    if (live && interrupted()) // the signal came as the probe ended: its report is whole
        return ExitInterrupted;
    if (result.countsWrong)
        return ExitFinding;
    return result.warnings && parser.isSet(o.strict) ? ExitWarnings : ExitDone;
}
