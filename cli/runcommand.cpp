#include "runcommand.h"

#include "burstengine.h"
#include "exitcodes.h"
#include "interrupts.h"
#include "progressbar.h"
#include "serveroptions.h"
#include "zsetkeys.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QTextStream>

namespace {
const char description[] = R"(Fire one burst of requests at a sliding-window limiter script on Redis and
report how many the ZSET really counted.

Examples:
  zsetlab-cli run --strategy now --clock frozen --requests 1000 --limit 10
  zsetlab-cli run --strategy request-id --pace poisson:2 --clock schedule --json
  zsetlab-cli run --script my_limiter.lua --connections 8 --pipeline 16
  zsetlab-cli run --redis redis://:secret@127.0.0.1:6380/2 --requests 200000

When the server drops the connection mid-run (killed, restarted), zsetlab connects
again with backoff for up to --reconnect-for ms and the run goes on; the requests that
were on their way count as errors. Requests the server refuses one by one (OOM under
maxmemory) count as errors too, and the run goes on unless --stop-on-error.

Exit codes: 0 done, 2 bad usage, 3 cannot connect or authenticate (or the server went
away), 4 the script failed to load or run (or --stop-on-error stopped it). On 3 and 4 the
summary of what was answered is printed all the same.)";

struct RunOptions
{
    QCommandLineOption strategy {QStringLiteral("strategy"),
                                 QStringLiteral("Member strategy: now (the bug), random, request-id or sequence. "
                                                "Default: now."),
                                 QStringLiteral("NAME")};
    QCommandLineOption script {QStringLiteral("script"),
                               QStringLiteral("Run your own Lua script instead (KEYS[1] = key; ARGV = now, window, "
                                              "limit, request id; reply {count, added, member} or a count)."),
                               QStringLiteral("FILE.lua")};
    QCommandLineOption requests {QStringLiteral("requests"), QStringLiteral("Number of requests (default 1000)."),
                                 QStringLiteral("N"), QStringLiteral("1000")};
    QCommandLineOption connections {QStringLiteral("connections"),
                                    QStringLiteral("Connections, each on its own thread (default 1)."),
                                    QStringLiteral("C"), QStringLiteral("1")};
    QCommandLineOption pipeline {QStringLiteral("pipeline"),
                                 QStringLiteral("Calls in flight per connection (default 1)."), QStringLiteral("P"),
                                 QStringLiteral("1")};
    QCommandLineOption pace {QStringLiteral("pace"),
                             QStringLiteral("burst (as fast as possible), interval:MICROS (evenly spaced) or "
                                            "poisson:PER_MS (random arrivals, seeded). Default: burst."),
                             QStringLiteral("PACE"), QStringLiteral("burst")};
    QCommandLineOption clock {QStringLiteral("clock"),
                              QStringLiteral("The now each request carries: system-ms (wall clock, ms), system-us, "
                                             "frozen (one now for all) or schedule (the pacing's own timestamps, "
                                             "exact and repeatable). Default: system-ms."),
                              QStringLiteral("CLOCK"), QStringLiteral("system-ms")};
    QCommandLineOption window {QStringLiteral("window"), QStringLiteral("Window in ms (default 1000)."),
                               QStringLiteral("MS"), QStringLiteral("1000")};
    QCommandLineOption limit {QStringLiteral("limit"),
                              QStringLiteral("Admit a request when the count is at most L (default 0 = no limit)."),
                              QStringLiteral("L"), QStringLiteral("0")};
    QCommandLineOption key {QStringLiteral("key"),
                            QStringLiteral("Use this key (under the zsetlab: prefix) and keep it. Default: a fresh "
                                           "zsetlab:run:... key, deleted at the end."),
                            QStringLiteral("NAME")};
    QCommandLineOption keep {QStringLiteral("keep"), QStringLiteral("Keep the key at the end (to inspect it).")};
    QCommandLineOption seed {QStringLiteral("seed"), QStringLiteral("Seed of the Poisson pacing (default 1)."),
                             QStringLiteral("S"), QStringLiteral("1")};
    QCommandLineOption json {QStringLiteral("json"), QStringLiteral("Print the summary as one JSON object.")};
    QCommandLineOption reconnectFor {QStringLiteral("reconnect-for"),
                                     QStringLiteral("When the server drops the connection, connect again for up to "
                                                    "MS ms before giving up (default 10000, 0 = give up at once)."),
                                     QStringLiteral("MS"), QStringLiteral("10000")};
    QCommandLineOption stopOnError {QStringLiteral("stop-on-error"),
                                    QStringLiteral("End the run at the first request the server refuses (e.g. OOM). "
                                                   "Default: count it as an error and go on.")};
};

bool readInteger(const QCommandLineParser& parser, const QCommandLineOption& option, qint64 min, qint64 max,
                 qint64* value, QString* error)
{
    bool ok = false;
    const QString text = parser.value(option);
    *value = text.toLongLong(&ok);
    if (!ok || *value < min || *value > max) {
        *error = QStringLiteral("--%1 must be a whole number from %2 to %3, not \"%4\".")
                     .arg(option.names().constFirst())
                     .arg(min)
                     .arg(max)
                     .arg(text);
        return false;
    }
    return true;
}

// Builds the plan from the options; false with a message naming the flag.
bool readPlan(const QCommandLineParser& parser, const RunOptions& o, BurstPlan* plan, QString* error, int* exitCode)
{
    *exitCode = ExitUsage;
    if (parser.isSet(o.strategy) && parser.isSet(o.script)) {
        *error = QStringLiteral("give either --strategy or --script, not both.");
        return false;
    }
    if (parser.isSet(o.script)) {
        plan->strategy = MemberStrategy::Custom;
        if (parser.value(o.script).isEmpty()) {
            *error = QStringLiteral("--script needs the path of a Lua file.");
            return false;
        }
        if (!LimiterScript::fromFile(parser.value(o.script), &plan->customScript, error)) {
            error->prepend(QStringLiteral("--script: "));
            *exitCode = ExitScript;
            return false;
        }
    } else if (parser.isSet(o.strategy) && !parseStrategy(parser.value(o.strategy), &plan->strategy)) {
        *error = QStringLiteral("--strategy must be one of %1, not \"%2\".")
                     .arg(builtinStrategyNames().join(QStringLiteral(", ")), parser.value(o.strategy));
        return false;
    }
    qint64 value = 0;
    if (!readInteger(parser, o.requests, 1, BurstPlan::maxRequests, &value, error))
        return false;
    plan->requests = static_cast<int>(value);
    if (!readInteger(parser, o.connections, 1, BurstPlan::maxConnections, &value, error))
        return false;
    plan->connections = static_cast<int>(value);
    if (!readInteger(parser, o.pipeline, 1, BurstPlan::maxPipeline, &value, error))
        return false;
    plan->pipeline = static_cast<int>(value);
    if (!readInteger(parser, o.window, 1, 365LL * 24 * 3600 * 1000, &plan->windowMs, error))
        return false;
    if (!readInteger(parser, o.limit, 0, 1'000'000'000, &plan->limit, error))
        return false;
    if (!readInteger(parser, o.seed, 0, std::numeric_limits<qint64>::max(), &value, error))
        return false;
    plan->seed = static_cast<quint64>(value);
    if (!readInteger(parser, o.reconnectFor, 0, BurstPlan::maxReconnectForMs, &value, error))
        return false;
    plan->reconnectForMs = static_cast<int>(value);
    plan->stopOnErrors = parser.isSet(o.stopOnError);
    if (!Pacing::parse(parser.value(o.pace), &plan->pacing, error)) {
        error->prepend(QStringLiteral("--"));
        return false;
    }
    if (!parseClock(parser.value(o.clock), &plan->clock)) {
        *error = QStringLiteral("--clock must be one of %1, not \"%2\".")
                     .arg(clockNames().join(QStringLiteral(", ")), parser.value(o.clock));
        return false;
    }
    if (parser.isSet(o.key)) {
        if (parser.value(o.key).isEmpty()) {
            *error = QStringLiteral("--key needs a name.");
            return false;
        }
        plan->key = ZsetKeys::userKey(parser.value(o.key));
        plan->keepKey = true;
    }
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
    parser.addOptions({o.strategy, o.script, o.requests, o.connections, o.pipeline, o.pace, o.clock, o.window, o.limit,
                       o.key, o.keep, o.seed, o.json, o.reconnectFor, o.stopOnError});
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

    BurstPlan plan;
    QString error;
    int failureCode = ExitUsage;
    if (!readPlan(parser, o, &plan, &error, &failureCode)) {
        err << "zsetlab-cli run: " << error << '\n';
        return failureCode;
    }
    if (parser.isSet(server.redis)) { // name the flag; ServerOptions reports the rest of the server's faults
        QString why;
        if (!RedisEndpoint::parse(parser.value(server.redis), nullptr, &why)) {
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
    if (!engine.start(choice.endpoint(), plan, choice.options())) {
        err << "zsetlab-cli run: " << engine.planError() << '\n';
        return ExitUsage;
    }
    QCoreApplication::exec();
    progress.clear();

    if (parser.isSet(o.json))
        out << QJsonDocument(summary.toJson()).toJson(QJsonDocument::Compact) << '\n';
    else
        out << summary.toText() << '\n';
    if (plan.keepKey)
        err << "zsetlab-cli: kept the key " << engine.key() << '\n';

    err.flush();
    return exitCodeForBurst(summary.failure, "zsetlab-cli run");
}
