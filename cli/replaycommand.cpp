#include "replaycommand.h"

#include "base/interrupts.h"
#include "burst/burstengine.h"
#include "exitcodes.h"
#include "redis/nodeconnections.h"
#include "replay/replayfile.h"
#include "replay/replayfork.h"
#include "replaypage.h"
#include "serveroptions.h"
#include "terminaltext.h"
#include "web/webpage.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace {
const char description[] = R"(Print the state of a recorded run right after one of its requests: what the
script answered, how many members its ZSET held and which, beside the requests that really
were in the window. Needs no Redis: the replay holds the whole run.

Record a run with: zsetlab-cli run ... --save-replay FILE (or File > Save Replay).

Examples:
  zsetlab-cli replay burst.zsetreplay --at 2 --members
  zsetlab-cli replay burst.zsetreplay --json

Fields: request (1-based), now, members (how many the ZSET held), count_returned (what the
script answered), true_count (requests in the window), overwritten and admitted_beyond_limit
(both so far, every user). With several users, the ZSET is that of the request's user.
state_from says how the members are known: "flow" (a limiter zsetlab ships, rebuilt
exactly), "replies" (your script: the members its replies named), "counts-only" (a limiter
that names none).

What if: --fork-at N fires requests N to the end again on Redis, with the same timestamps
and users, at --limiter (and --limit, --window) instead, on new keys that start from the
ZSET the run held right before request N; it prints both from request N on, side by side:
  zsetlab-cli replay burst.zsetreplay --fork-at 40 --limiter request-id --json

A web page: --export-html OUT.html writes the run as one HTML file that plays it in a
browser, offline (its script, style and data are inside it): the figures, the timeline, the
ZSET at each request, play, step and a slider. --beside OTHER.zsetreplay plays a second run
in step with it (compare mode's other side, or a what-if); --lang vi opens it in Vietnamese.
  zsetlab-cli replay now.zsetreplay --export-html now.html --beside request-id.zsetreplay

Exit codes: 0 done, 2 bad usage (or a page that cannot be written there), 3 cannot connect
(--fork-at), 4 the file is not a replay zsetlab can read, or the fork cannot be fired (the
reason on stderr).)";

QString textOf(const ReplayState& state, const RecordingInfo& info, bool withMembers)
{
    QStringList lines;
    lines << QStringLiteral("request %1 of %2, now %3, user %4 (key %5)")
                 .arg(state.request)
                 .arg(state.requests)
                 .arg(state.now)
                 .arg(state.user)
                 .arg(terminalSafe(QString::fromUtf8(state.key)));
    if (!state.error.isEmpty())
        lines << QStringLiteral("failed: %1").arg(terminalSafe(state.error));
    else
        lines << QStringLiteral("member %1, ZADD replied %2, %3")
                     .arg(state.member.isNull() ? QStringLiteral("(not named)")
                                                : terminalSafe(QString::fromUtf8(state.member)),
                          state.added < 0 ? QStringLiteral("(not said)") : QString::number(state.added),
                          state.admitted ? QStringLiteral("admitted") : QStringLiteral("refused"));
    lines << QStringLiteral("members %1 (from %2)")
                 .arg(state.members < 0 ? QStringLiteral("unknown") : QString::number(state.members),
                      zsetKnowledgeName(state.knowledge));
    lines << QStringLiteral("count_returned %1")
                 .arg(state.countReturned < 0 ? QStringLiteral("none") : QString::number(state.countReturned));
    lines << QStringLiteral("true_count %1").arg(state.trueCount);
    lines << QStringLiteral("overwritten %1 so far").arg(state.overwritten);
    lines << QStringLiteral("admitted_beyond_limit %1 so far (limit %2)")
                 .arg(state.admittedBeyondLimitSoFar)
                 .arg(info.limit);
    if (withMembers) {
        for (const ReplayMember& m : state.memberList)
            lines << QStringLiteral("  %1 %2").arg(QString::fromLatin1(scoreText(m.score)),
                                                   terminalSafe(QString::fromUtf8(m.member)));
    }
    return lines.join(QLatin1Char('\n'));
}
QJsonObject totalsJson(const ReplayTotals& t)
{
    return {{QStringLiteral("sent"), t.sent},         {QStringLiteral("errors"), t.errors},
            {QStringLiteral("stored"), t.stored},     {QStringLiteral("overwritten"), t.overwritten},
            {QStringLiteral("admitted"), t.admitted}, {QStringLiteral("admitted_beyond_limit"), t.admittedBeyondLimit},
            {QStringLiteral("max_count"), t.maxCount}};
}

struct ForkOptions
{
    QCommandLineOption forkAt {QStringLiteral("fork-at"),
                               QStringLiteral("Fire requests N to the end again at another limiter (needs Redis)."),
                               QStringLiteral("N")};
    // --strategy: the flag's first name, still read.
    QCommandLineOption limiter {QStringList {QStringLiteral("limiter"), QStringLiteral("strategy")},
                                QStringLiteral("The fork's limiter (default: the run's)."), QStringLiteral("NAME")};
    QCommandLineOption limit {QStringLiteral("limit"), QStringLiteral("The fork's limit (default: the run's)."),
                              QStringLiteral("N")};
    QCommandLineOption window {QStringLiteral("window"),
                               QStringLiteral("The fork's window in ms (default: the run's)."), QStringLiteral("MS")};
};

int runFork(const QCommandLineParser& parser, const ForkOptions& o, const ServerOptions& server,
            const Recording& recording, bool json)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    bool ok = false;
    const int forkAt = parser.value(o.forkAt).toInt(&ok);
    if (!ok || forkAt < 1 || forkAt > recording.requests()) {
        err << "zsetlab-cli replay: --fork-at must be from 1 to " << recording.requests() << ".\n";
        return ExitUsage;
    }
    ForkChange change;
    if (parser.isSet(o.limiter)) {
        change.limiter = LimiterCatalog::find(parser.value(o.limiter));
        if (!change.limiter) {
            err << "zsetlab-cli replay: --limiter must be one of " << LimiterCatalog::ids().join(QStringLiteral(", "))
                << ".\n";
            return ExitUsage;
        }
    }
    if (parser.isSet(o.limit)) {
        change.limit = parser.value(o.limit).toLongLong(&ok);
        if (!ok || *change.limit < 0) {
            err << "zsetlab-cli replay: --limit must be 0 (none) or more.\n";
            return ExitUsage;
        }
    }
    if (parser.isSet(o.window)) {
        change.windowMs = parser.value(o.window).toLongLong(&ok);
        if (!ok || *change.windowMs < 1) {
            err << "zsetlab-cli replay: --window must be 1 ms or more.\n";
            return ExitUsage;
        }
    }
    BurstPlan plan;
    QString error;
    if (!ReplayFork::plan(recording, forkAt - 1, change, &plan, &error)) {
        err << "zsetlab-cli replay: " << error << '\n';
        return ExitScript;
    }
    RedisServerChoice choice;
    if (const int code = server.resolve(parser, &choice, true); code != ExitDone)
        return code;
    NodeConnections nodes;
    if (!nodes.open(choice.endpoint(), choice.options(), &error)) {
        err << "zsetlab-cli replay: " << error << '\n';
        return ExitConnection;
    }
    if (!ReplayFork::seed(nodes, recording, forkAt - 1, plan, &error)) {
        err << "zsetlab-cli replay: " << error << '\n';
        return ExitScript;
    }
    BurstEngine engine;
    BurstSummary summary;
    QObject::connect(&engine, &BurstEngine::finished, &engine, [&summary](const BurstSummary& result) {
        summary = result;
        QCoreApplication::quit();
    });
    onInterrupt([&engine] { engine.stop(); });
    if (!engine.start(choice.endpoint(), plan, choice.options())) {
        err << "zsetlab-cli replay: " << engine.planError() << '\n';
        return ExitUsage;
    }
    QCoreApplication::exec();
    const ReplayTotals original = recording.totalsFrom(forkAt - 1);
    if (json) {
        QJsonObject result;
        result[QStringLiteral("fork_at")] = forkAt;
        QJsonObject originalJson = totalsJson(original);
        originalJson[QStringLiteral("strategy")] = recording.info().limiter;
        result[QStringLiteral("original")] = originalJson;
        result[QStringLiteral("fork")] = summary.toJson();
        out << QJsonDocument(result).toJson(QJsonDocument::Compact) << '\n';
    } else {
        out << "from request " << forkAt << " on, " << original.sent << " requests:\n";
        out << QStringLiteral("  %1 (the run): overwritten %2, admitted beyond the limit %3, max count %4\n")
                   .arg(recording.info().limiter)
                   .arg(original.overwritten)
                   .arg(original.admittedBeyondLimit)
                   .arg(original.maxCount);
        out << QStringLiteral("  %1 (the fork): overwritten %2, admitted beyond the limit %3, max count %4\n")
                   .arg(summary.limiter)
                   .arg(summary.overwritten)
                   .arg(summary.admittedOverLimit)
                   .arg(summary.maxCount);
    }
    err.flush();
    return exitCodeForRun(summary, "zsetlab-cli replay");
}
} // namespace

int runReplayCommand(const QStringList& arguments)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("replay"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("A replay file."));
    const QCommandLineOption at {QStringLiteral("at"),
                                 QStringLiteral("The state right after request N (1 = the first; default: the last)."),
                                 QStringLiteral("N")};
    const QCommandLineOption members {QStringLiteral("members"),
                                      QStringLiteral("List the ZSET's members and scores, as ZRANGE WITHSCORES.")};
    const QCommandLineOption json {QStringLiteral("json"), QStringLiteral("Print one JSON object.")};
    parser.addOptions({at, members, json});
    const ForkOptions fork;
    parser.addOptions({fork.forkAt, fork.limiter, fork.limit, fork.window});
    const QCommandLineOption exportHtml {QStringLiteral("export-html"),
                                         QStringLiteral("Write the run as one web page that plays it offline."),
                                         QStringLiteral("OUT.html")};
    const QCommandLineOption beside {QStringLiteral("beside"),
                                     QStringLiteral("With --export-html: a second replay, played in step beside it."),
                                     QStringLiteral("FILE")};
    const QCommandLineOption lang {QStringLiteral("lang"),
                                   QStringLiteral("With --export-html: the page's language when opened, en or vi "
                                                  "(default en; the page switches)."),
                                   QStringLiteral("en|vi")};
    const QCommandLineOption title {QStringLiteral("title"),
                                    QStringLiteral("With --export-html: the page's title (default: from the runs)."),
                                    QStringLiteral("TEXT")};
    parser.addOptions({exportHtml, beside, lang, title});
    const ServerOptions server;
    server.addTo(parser);
    if (!parser.parse(arguments)) {
        err << "zsetlab-cli replay: " << parser.errorText() << "\nSee zsetlab-cli replay --help.\n";
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitDone;
    }
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2) {
        err << "zsetlab-cli replay: give one replay file (zsetlab-cli replay FILE).\n";
        return ExitUsage;
    }
    const bool page = parser.isSet(exportHtml);
    for (const QCommandLineOption* option : {&beside, &lang, &title}) {
        if (parser.isSet(*option) && !page) {
            err << "zsetlab-cli replay: --" << option->names().first() << " goes with --export-html OUT.html.\n";
            return ExitUsage;
        }
    }
    if (page && (parser.isSet(at) || parser.isSet(members) || parser.isSet(fork.forkAt))) {
        err << "zsetlab-cli replay: --export-html writes the whole run; --at, --members and --fork-at go "
               "without it.\n";
        return ExitUsage;
    }
    if (parser.isSet(lang) && parser.value(lang) != QLatin1String("en") && parser.value(lang) != QLatin1String("vi")) {
        err << "zsetlab-cli replay: --lang must be en or vi, not \"" << parser.value(lang) << "\".\n";
        return ExitUsage;
    }
    // A page that cannot be written is said before a large replay is read.
    if (const QString refused
        = page ? WebPage::refusal(parser.value(exportHtml), {positional.at(1), parser.value(beside)}) : QString();
        !refused.isEmpty()) {
        err << "zsetlab-cli replay: " << refused << '\n';
        return ExitUsage;
    }
    Recording recording;
    QString error;
    if (!ReplayFile::open(positional.at(1), &recording, &error)) {
        err << "zsetlab-cli replay: " << error << '\n';
        return interrupted() ? ExitInterrupted : ExitScript;
    }
    if (recording.isEmpty()) {
        err << "zsetlab-cli replay: the replay holds no request (the run was stopped before its first answer).\n";
        return ExitScript;
    }
    if (page) {
        ReplayPageJob job;
        job.replayPath = positional.at(1);
        job.besidePath = parser.value(beside);
        job.output = parser.value(exportHtml);
        job.language = parser.isSet(lang) ? parser.value(lang) : QStringLiteral("en");
        job.title = parser.value(title);
        job.json = parser.isSet(json);
        return exportReplayPage(recording, job);
    }
    if (parser.isSet(fork.forkAt))
        return runFork(parser, fork, server, recording, parser.isSet(json));
    int request = recording.requests();
    if (parser.isSet(at)) {
        bool ok = false;
        request = parser.value(at).toInt(&ok);
        if (!ok || request < 1 || request > recording.requests()) {
            err << "zsetlab-cli replay: --at must be from 1 to " << recording.requests() << " (got \""
                << parser.value(at) << "\").\n";
            return ExitUsage;
        }
    }
    const bool withMembers = parser.isSet(members);
    const ReplayState state = recording.stateAt(request - 1, withMembers);
    if (interrupted()) { // Ctrl+C or SIGTERM while the state was worked out: nothing is printed
        err << "zsetlab-cli replay: stopped by a signal.\n";
        return ExitInterrupted;
    }
    if (parser.isSet(json))
        out << QJsonDocument(state.toJson(withMembers)).toJson(QJsonDocument::Compact) << '\n';
    else
        out << textOf(state, recording.info(), withMembers) << '\n';
    return ExitDone;
}
