#include "runcommand.h"

#include "base/interrupts.h"
#include "base/outputfile.h"
#include "burst/burstengine.h"
#include "exitcodes.h"
#include "limiters/zsetkeys.h"
#include "planoptions.h"
#include "progressbar.h"
#include "replay/replayfile.h"
#include "serveroptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QTextStream>

namespace {
const char description[] = R"(Fire one burst of requests at a sliding-window limiter script on Redis and
report how many the ZSET really counted.

Examples:
  zsetlab-cli run --limiter now --clock frozen --requests 1000 --limit 10
  zsetlab-cli run --limiter request-id --pace poisson:2 --clock schedule --json
  zsetlab-cli run --script my_limiter.lua --connections 8 --pipeline 16
  zsetlab-cli run --redis redis://:secret@127.0.0.1:6380/2 --requests 200000

On a server zsetlab did not start, --script runs as a temporary ACL user made for the
run and deleted after it: it may touch only the run's own keys (Redis refuses any other),
run scripts, and no command in @dangerous, @admin, @pubsub or @blocking.

When the server drops the connection mid-run (killed, restarted), zsetlab connects
again with backoff for up to --reconnect-for ms and the run goes on; the requests that
were on their way count as errors. Requests the server refuses one by one (OOM under
maxmemory) count as errors too, and the run goes on unless --stop-on-error.

Exit codes: 0 done, 2 bad usage, 3 cannot connect or authenticate (or the server went
away), 4 the script failed to load or run (or --stop-on-error stopped it, or a key the run
would write exists already, or another run is writing the same --key now: nothing was
written; see --reuse-key; or --script reached for a key outside the run's, which Redis
refused: script_sandbox.refused_keys names it; or no sandbox could be made for --script,
see --trust-script), 5 the run ended but keys it made (or its temporary ACL user) could
not be deleted (stderr and keys_left name them, their TTL and the redis-cli DEL that
removes them), 7 --save-replay could not be written (a full disk, say: the system's reason
is on stderr, no partial file is left), 8 the server deletes keys to make room when full
(maxmemory with an allkeys-* or volatile-* policy) and the run could push out keys it did
not make: nothing was written, see --allow-eviction; or, with it, the server grew by half of
its headroom and the run was stopped, its keys deleted, 130 stopped by Ctrl+C or SIGTERM (at any moment:
before the first request nothing is sent). On 3, 4, 5, 7 and 130 the summary of what was
answered is printed all the same. --save-replay writes only over a regular file or makes a
new one: a folder, a device, a named pipe or a symbolic link there is refused (exit 2)
before the run.)";

struct RunOptions
{
    PlanOptions plan {{QStringLiteral("strategy"), QStringLiteral("requests"), QStringLiteral("connections"),
                       QStringLiteral("pipeline"), QStringLiteral("pace"), QStringLiteral("clock"),
                       QStringLiteral("window_ms"), QStringLiteral("limit"), QStringLiteral("users"),
                       QStringLiteral("seed"), QStringLiteral("reconnect_for_ms"), QStringLiteral("stop_on_error")},
                      {{QStringLiteral("strategy"), QStringLiteral("now")},
                       {QStringLiteral("requests"), QStringLiteral("1000")},
                       {QStringLiteral("connections"), QStringLiteral("1")},
                       {QStringLiteral("pipeline"), QStringLiteral("1")},
                       {QStringLiteral("pace"), QStringLiteral("burst")},
                       {QStringLiteral("clock"), QStringLiteral("system-ms")},
                       {QStringLiteral("window_ms"), QStringLiteral("1000")},
                       {QStringLiteral("limit"), QStringLiteral("0")},
                       {QStringLiteral("users"), QStringLiteral("1")},
                       {QStringLiteral("seed"), QStringLiteral("1")},
                       {QStringLiteral("reconnect_for_ms"), QStringLiteral("10000")}}};
    QCommandLineOption script {QStringLiteral("script"),
                               QStringLiteral("Run your own Lua script instead (KEYS[1] = key; ARGV = now, window, "
                                              "limit, request id; reply {count, added, member} or a count)."),
                               QStringLiteral("FILE.lua")};
    QCommandLineOption trustScript {
        QStringLiteral("trust-script"),
        QStringLiteral("On a server zsetlab did not start, --script runs as a temporary ACL user that may touch only "
                       "the run's keys. Where the connection may not create one (no ACL permission, Redis before 6), "
                       "run the script anyway, with every right of the connection's user.")};
    QCommandLineOption key {QStringLiteral("key"),
                            QStringLiteral("Use this key (under the zsetlab: prefix) and keep it. It must not exist "
                                           "yet, nor its companions (NAME:seq for sequence), unless --reuse-key. "
                                           "Default: a fresh zsetlab:run:... key, deleted at the end."),
                            QStringLiteral("NAME")};
    QCommandLineOption reuseKey {
        QStringLiteral("reuse-key"),
        QStringLiteral("Let the run write into the --key NAME and its companions although they exist already: the "
                       "limiter removes their members older than the window, adds its own, increments a counter "
                       "(sequence), and sets their TTL to the window (a key without a TTL gets one). Without it, an "
                       "existing key stops the run before anything is written.")};
    QCommandLineOption keep {QStringLiteral("keep"), QStringLiteral("Keep the key at the end (to inspect it).")};
    QCommandLineOption json {QStringLiteral("json"), QStringLiteral("Print the summary as one JSON object.")};
    QCommandLineOption saveReplay {QStringLiteral("save-replay"),
                                   QStringLiteral("Save the run, request by request, as a replay file (open it with "
                                                  "zsetlab FILE or zsetlab-cli replay FILE; no Redis needed)."),
                                   QStringLiteral("FILE")};
};

// Builds the plan from the options; false with a message naming the flag.
bool readPlan(const QCommandLineParser& parser, const RunOptions& o, BurstPlan* plan, QString* error, int* exitCode)
{
    *exitCode = ExitUsage;
    const QCommandLineOption& strategy = o.plan.option(QStringLiteral("strategy"));
    if (parser.isSet(strategy) && parser.isSet(o.script)) {
        *error = QStringLiteral("give either --limiter or --script, not both.");
        return false;
    }
    if (!o.plan.read(parser, plan, error))
        return false;
    if (parser.isSet(o.script)) {
        if (parser.value(o.script).isEmpty()) {
            *error = QStringLiteral("--script needs the path of a Lua file.");
            return false;
        }
        LimiterScript script;
        if (!LimiterScript::fromFile(parser.value(o.script), &script, error)) {
            error->prepend(QStringLiteral("--script: "));
            *exitCode = ExitScript;
            return false;
        }
        plan->limiter = LimiterCatalog::custom(script);
    }
    if (parser.isSet(o.key)) {
        if (parser.value(o.key).isEmpty()) {
            *error = QStringLiteral("--key needs a name.");
            return false;
        }
        if (const QString problem = ZsetKeys::userKeyProblem(parser.value(o.key)); !problem.isEmpty()) {
            *error = QStringLiteral("--key: ") + problem;
            return false;
        }
        plan->key = ZsetKeys::userKey(parser.value(o.key));
        plan->keepKey = true;
    }
    if (parser.isSet(o.trustScript) && !parser.isSet(o.script)) {
        *error = QStringLiteral("--trust-script goes with --script FILE: zsetlab's own limiters need no trust.");
        return false;
    }
    if (parser.isSet(o.reuseKey) && !parser.isSet(o.key)) {
        *error = QStringLiteral("--reuse-key goes with --key NAME: a fresh key has nothing to reuse.");
        return false;
    }
    plan->reuseKey = parser.isSet(o.reuseKey);
    plan->keepKey = plan->keepKey || parser.isSet(o.keep);
    const QString invalid = plan->validate();
    if (!invalid.isEmpty()) {
        *error = invalid;
        return false;
    }
    return true;
}
} // namespace

int runRunCommand(const QStringList& arguments)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("run"), QStringLiteral("The command."));
    const RunOptions o;
    const ServerOptions server;
    server.addTo(parser);
    o.plan.addTo(parser);
    parser.addOptions({o.script, o.trustScript, o.key, o.reuseKey, o.keep, o.json, o.saveReplay});
    if (!parser.parse(arguments)) {
        err << "zsetlab-cli run: " << parser.errorText() << "\nSee zsetlab-cli run --help.\n";
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitDone;
    }
    if (parser.positionalArguments().size() > 1) {
        err << "zsetlab-cli run: unexpected argument \"" << parser.positionalArguments().at(1) << "\".\n";
        return ExitUsage;
    }

    if (parser.isSet(o.saveReplay) && parser.value(o.saveReplay).isEmpty()) {
        err << "zsetlab-cli run: --save-replay needs the path of the file to write.\n";
        return ExitUsage;
    }
    if (parser.isSet(o.saveReplay)) { // before the run, not after it: a run is not fired for nothing
        if (const QString refused = OutputFile::refusal(parser.value(o.saveReplay)); !refused.isEmpty()) {
            err << "zsetlab-cli run: --save-replay: Could not save the replay: " << refused << '\n';
            return ExitUsage;
        }
    }
    BurstPlan plan;
    QString error;
    int failureCode = ExitUsage;
    if (!readPlan(parser, o, &plan, &error, &failureCode)) {
        err << "zsetlab-cli run: " << error << '\n';
        return failureCode;
    }
    if (parser.isSet(server.redis)) { // name the flag; ServerOptions reports the rest of the server's faults
        QString why;
        if (!server.endpoint(parser, nullptr, &why)) {
            err << "zsetlab-cli run: --redis: " << why << '\n';
            return ExitUsage;
        }
    }
    RedisServerChoice choice;
    if (const int code = server.resolve(parser, &choice, true); code != ExitDone)
        return code;

    BurstEngine engine;
    ProgressBar progress;
    BurstSummary summary;
    QObject::connect(&engine, &BurstEngine::recordsAvailable, &engine,
                     [&progress](int done, int total) { progress.update(done, total); });
    // Faults are told as they happen, not only in the summary at the end.
    QObject::connect(&engine, &BurstEngine::connectionLost, &engine, [&progress, &err](const QString& message) {
        progress.clear();
        err << "zsetlab-cli run: " << message << Qt::endl;
    });
    QObject::connect(&engine, &BurstEngine::connectionRestored, &engine, [&progress, &err] {
        progress.clear();
        err << "zsetlab-cli run: connected again; the run goes on." << Qt::endl;
    });
    QObject::connect(&engine, &BurstEngine::finished, &engine, [&summary](const BurstSummary& result) {
        summary = result;
        QCoreApplication::quit();
    });
    onInterrupt([&engine] { engine.stop(); });
    if (interrupted()) { // while connecting: nothing was sent, nothing is left to delete
        err << "zsetlab-cli run: stopped by a signal before the first request; nothing was sent.\n";
        return ExitInterrupted;
    }
    ConnectOptions options = choice.options();
    options.trustScripts = parser.isSet(o.trustScript);
    if (!engine.start(choice.endpoint(), plan, options)) {
        err << "zsetlab-cli run: " << engine.planError() << '\n';
        return ExitUsage;
    }
    QCoreApplication::exec();
    progress.clear();

    if (parser.isSet(o.json))
        out << QJsonDocument(summary.toJson()).toJson(QJsonDocument::Compact) << '\n';
    else
        out << summary.toText() << '\n';
    if (plan.keepKey && summary.sent > 0) // a run refused before its first call wrote nothing to keep
        err << "zsetlab-cli: kept the key " << engine.key() << '\n';
    bool saved = true;
    if (parser.isSet(o.saveReplay) && summary.sent > 0) {
        QString why;
        saved = ReplayFile::save(parser.value(o.saveReplay), Recording::fromEngine(engine), &why);
        if (!saved)
            err << "zsetlab-cli run: --save-replay: " << why << '\n';
    }

    err.flush();
    const int code = exitCodeForRun(summary, "zsetlab-cli run");
    // The file not written outranks a run that ended well (or left keys, named above).
    return !saved && (code == ExitDone || code == ExitKeysLeft) ? ExitNotWritten : code;
}
