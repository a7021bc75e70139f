#include "algorithmscommand.h"

#include "algorithms/algorithmcomparison.h"
#include "base/interrupts.h"
#include "burst/planfields.h"
#include "burst/scenario.h"
#include "exitcodes.h"
#include "planoptions.h"
#include "progressbar.h"
#include "serveroptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace {
const char description[] = R"(Fire the same traffic at each limiter algorithm on Redis and compare how well it
keeps the limit, what it keeps in memory and what a call costs the server.

The traffic is one list of timestamps, replayed at every algorithm: the pacing's own
arrival times in ms (--clock frozen: all in one millisecond), starting at the last
millisecond of a fixed window, so that traffic opening with a burst straddles a window
boundary. Request i belongs to user i mod --users; each user has its own keys and limit.
The calls go out on one connection (on a cluster, one per master, each user's calls on
its key's master), --pipeline at a time, so Redis sees each user's calls in order.

Each algorithm is measured against an exact sliding log of the same timestamps, which
admits a request iff fewer than --limit requests it admitted lie in (now - window, now]:
over limit = admitted where that log refuses, under limit = refused where it admits.
Memory: MEMORY USAGE of every key at the end, per user. Server time: INFO commandstats
for EVALSHA before and after (on a shared server, others' EVALSHA calls count too).

Examples:
  zsetlab-cli algorithms
  zsetlab-cli algorithms --pace bursts:100@1 --requests 200 --limit 100
  zsetlab-cli algorithms --limiters fixed-window,sliding-log,gcra --pace poisson:10 --json
  zsetlab-cli algorithms --users 100 --requests 100000 --pace poisson:50
  zsetlab-cli algorithms --scenario resources/scenarios/algorithms-boundary-bursts.json

Exit codes: 0 done, 2 bad usage, 3 cannot connect or authenticate (or the server went
away), 4 a script failed to load or run (or a key it would write exists already:
nothing was written), 8 the server deletes keys to make room when full (see
--allow-eviction), 130 stopped by Ctrl+C or SIGTERM before the end. On 3, 4 and 130 the
algorithms measured so far are printed all the same.)";

struct AlgorithmsOptions
{
    PlanOptions plan {{QStringLiteral("requests"), QStringLiteral("pace"), QStringLiteral("clock"),
                       QStringLiteral("window_ms"), QStringLiteral("limit"), QStringLiteral("seed"),
                       QStringLiteral("pipeline")},
                      {{QStringLiteral("requests"), QStringLiteral("2000")},
                       {QStringLiteral("pace"), QStringLiteral("poisson:2")},
                       {QStringLiteral("clock"), QStringLiteral("schedule")},
                       {QStringLiteral("window_ms"), QStringLiteral("1000")},
                       {QStringLiteral("limit"), QStringLiteral("100")},
                       {QStringLiteral("seed"), QStringLiteral("1")},
                       {QStringLiteral("pipeline"), QStringLiteral("32")}},
                      {{QStringLiteral("clock"),
                        QStringLiteral("schedule (the pacing's own timestamps) or frozen (every request in one "
                                       "millisecond); system-ms and system-us stamp as schedule does, the "
                                       "timestamps being replayed.")}}};
    QCommandLineOption limiters {
        QStringLiteral("limiters"),
        QStringLiteral("The limiters to compare, comma-separated, in order: any of %1. Default: %2.")
            .arg(LimiterCatalog::ids().join(QStringLiteral(", ")),
                 LimiterCatalog::algorithmIds().join(QLatin1Char(','))),
        QStringLiteral("LIST")};
    QCommandLineOption users {QStringLiteral("users"),
                              QStringLiteral("Spread the requests over K users round robin (request i belongs to "
                                             "user i mod K), each with its own keys and limit (1 to %1). Default: 1.")
                                  .arg(ComparisonPlan::maxUsers),
                              QStringLiteral("K"), QStringLiteral("1")};
    QCommandLineOption scenario {
        QStringLiteral("scenario"),
        QStringLiteral("Take the traffic from a scenario file's plan (requests, pace, clock, window, limit, seed, "
                       "pipeline); the options given beside it override its fields."),
        QStringLiteral("FILE.json")};
    QCommandLineOption keep {QStringLiteral("keep"),
                             QStringLiteral("Keep each algorithm's keys at the end (to inspect them); the JSON names "
                                            "each run key (users > 1: KEY:u0, KEY:u1, ...).")};
    QCommandLineOption json {QStringLiteral("json"), QStringLiteral("Print the result as one JSON object.")};
};

bool readPlan(const QCommandLineParser& parser, const AlgorithmsOptions& o, ComparisonPlan* plan, QString* error)
{
    if (parser.isSet(o.scenario)) {
        // The scenario's fields first, then only the options typed beside it (not their defaults).
        Scenario scenario;
        if (!Scenario::load(parser.value(o.scenario), &scenario, error)) {
            error->prepend(QStringLiteral("--scenario: "));
            return false;
        }
        plan->burst = scenario.experiment.burst;
        const QStringList fields {QStringLiteral("requests"),  QStringLiteral("pace"),  QStringLiteral("clock"),
                                  QStringLiteral("window_ms"), QStringLiteral("limit"), QStringLiteral("seed"),
                                  QStringLiteral("pipeline")};
        QJsonObject typed;
        for (const QString& field : fields) {
            if (parser.isSet(o.plan.option(field)))
                typed[field] = parser.value(o.plan.option(field));
        }
        if (!PlanFields::fromCommandLine(typed, &plan->burst, error))
            return false;
    } else if (!o.plan.read(parser, &plan->burst, error)) {
        return false;
    }
    if (parser.isSet(o.limiters)) {
        plan->limiters.clear();
        for (const QString& id : parser.value(o.limiters).split(QLatin1Char(','), Qt::SkipEmptyParts))
            plan->limiters << id.trimmed();
        if (plan->limiters.isEmpty()) {
            *error = QStringLiteral("--limiters needs at least one limiter, e.g. --limiters fixed-window,gcra.");
            return false;
        }
    }
    bool ok = false;
    plan->users = parser.value(o.users).toInt(&ok);
    if (!ok || plan->users < 1 || plan->users > ComparisonPlan::maxUsers) {
        *error = QStringLiteral("--users must be a whole number from 1 to %1, not \"%2\".")
                     .arg(ComparisonPlan::maxUsers)
                     .arg(parser.value(o.users));
        return false;
    }
    plan->keepKeys = parser.isSet(o.keep);
    *error = plan->validate();
    if (error->startsWith(QLatin1String("limit")) || error->startsWith(QLatin1String("users")))
        error->prepend(QStringLiteral("--"));
    return error->isEmpty();
}
} // namespace

int runAlgorithmsCommand(const QStringList& arguments)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("algorithms"), QStringLiteral("The command."));
    const AlgorithmsOptions o;
    const ServerOptions server;
    server.addTo(parser);
    parser.addOptions({o.limiters, o.users, o.scenario});
    o.plan.addTo(parser);
    parser.addOptions({o.keep, o.json});
    if (!parser.parse(arguments)) {
        err << "zsetlab-cli algorithms: " << parser.errorText() << "\nSee zsetlab-cli algorithms --help.\n";
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitDone;
    }
    if (parser.positionalArguments().size() > 1) {
        err << "zsetlab-cli algorithms: unexpected argument \"" << parser.positionalArguments().at(1) << "\".\n";
        return ExitUsage;
    }
    ComparisonPlan plan;
    QString error;
    if (!readPlan(parser, o, &plan, &error)) {
        err << "zsetlab-cli algorithms: " << error << '\n';
        return ExitUsage;
    }
    RedisServerChoice choice;
    if (const int code = server.resolve(parser, &choice, true); code != ExitDone)
        return code;

    AlgorithmComparison comparison;
    ProgressBar progress;
    const qint64 total = qint64(plan.limiterIds().size()) * plan.burst.requests;
    QObject::connect(&comparison, &AlgorithmComparison::progress, &comparison,
                     [&progress, &plan, total](int index, int answered, int) {
                         progress.update(qint64(index) * plan.burst.requests + answered, total);
                     });
    QObject::connect(&comparison, &AlgorithmComparison::finished, &comparison, [] { QCoreApplication::quit(); });
    onInterrupt([&comparison] { comparison.stop(); });
    if (!comparison.start(choice.endpoint(), plan, choice.options())) {
        err << "zsetlab-cli algorithms: " << comparison.planError() << '\n';
        return ExitUsage;
    }
    QCoreApplication::exec();
    progress.clear();

    const ComparisonResult& result = comparison.result();
    if (parser.isSet(o.json))
        out << QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact) << '\n';
    else
        out << result.toText() << '\n';
    if (plan.keepKeys) {
        for (const AlgorithmTally& tally : result.algorithms)
            err << "zsetlab-cli: kept the keys of " << tally.id << " under " << tally.runKey << '\n';
    }
    out.flush();
    const int code = exitCodeForBurst(result.failure, "zsetlab-cli algorithms");
    return code == ExitDone && (result.stopped || interrupted()) ? ExitInterrupted : code;
}
