#include "replaycommand.h"

#include "exitcodes.h"
#include "replayfile.h"
#include "terminaltext.h"

#include <QCommandLineParser>
#include <QJsonDocument>
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

Exit codes: 0 done, 2 bad usage, 4 the file is not a replay zsetlab can read.)";

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
            lines << QStringLiteral("  %1 %2").arg(m.score).arg(terminalSafe(QString::fromUtf8(m.member)));
    }
    return lines.join(QLatin1Char('\n'));
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
    Recording recording;
    QString error;
    if (!ReplayFile::open(positional.at(1), &recording, &error)) {
        err << "zsetlab-cli replay: " << error << '\n';
        return ExitScript;
    }
    if (recording.isEmpty()) {
        err << "zsetlab-cli replay: the replay holds no request (the run was stopped before its first answer).\n";
        return ExitScript;
    }
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
    if (parser.isSet(json))
        out << QJsonDocument(state.toJson(withMembers)).toJson(QJsonDocument::Compact) << '\n';
    else
        out << textOf(state, recording.info(), withMembers) << '\n';
    return ExitDone;
}
