#include "sweepcommand.h"

#include "base/interrupts.h"
#include "burst/ratesweep.h"
#include "exitcodes.h"
#include "planoptions.h"
#include "progressbar.h"
#include "serveroptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonDocument>
#include <QTextStream>

namespace {
const char description[] = R"(Fire one burst per arrival rate and compare the fraction of requests that got a
ZSET member of their own (stored / sent) with the theory for member = now:
(1 - e^-L) / L for Poisson arrivals at L per ms, d = 1/L for one request every d ms.
Unique strategies stay at 100 %. With a limit, also the fraction admitted beyond it.

The schedule clock sends each point as fast as possible with the arrivals' own timestamps:
exact and repeatable. system-ms paces requests in real time and stamps them with the wall
clock, like an app server would: it takes as long as the arrivals last (the default rates
with 5000 requests: about 95 s), and shows what a real sender manages.

Examples:
  zsetlab-cli sweep
  zsetlab-cli sweep --pace even --rates 0.5,1,2,4,8 --json
  zsetlab-cli sweep --limiter request-id --limit 100
  zsetlab-cli sweep --clock system-ms --requests 2000 --pipeline 8

Exit codes: 0 done, 2 bad usage, 3 cannot connect or authenticate (or the server went
away), 4 the script failed to load or run, 8 the server deletes keys to make room when
full (see --allow-eviction), 130 stopped by Ctrl+C or SIGTERM (the rates
measured so far are printed, with "stopped": true).)";

QString defaultRatesText()
{
    QStringList rates;
    for (const double rate : SweepPlan::defaultRates())
        rates << QString::number(rate);
    return rates.join(QLatin1Char(','));
}

struct SweepOptions
{
    PlanOptions burst {{QStringLiteral("strategy"), QStringLiteral("requests"), QStringLiteral("clock"),
                        QStringLiteral("window_ms"), QStringLiteral("limit"), QStringLiteral("seed"),
                        QStringLiteral("pipeline"), QStringLiteral("connections")},
                       {{QStringLiteral("strategy"), QStringLiteral("now")},
                        {QStringLiteral("requests"), QStringLiteral("5000")},
                        {QStringLiteral("connections"), QStringLiteral("1")},
                        {QStringLiteral("clock"), QStringLiteral("schedule")},
                        {QStringLiteral("window_ms"), QStringLiteral("1000")},
                        {QStringLiteral("limit"), QStringLiteral("0")},
                        {QStringLiteral("seed"), QStringLiteral("1")},
                        {QStringLiteral("pipeline"), QStringLiteral("1")}},
                       {{QStringLiteral("clock"),
                         QStringLiteral("schedule (the arrivals' own timestamps, sent as fast as possible: exact) or "
                                        "system-ms (real pacing, wall clock in ms).")},
                        {QStringLiteral("connections"), QStringLiteral("Connections sharing each point's requests.")}}};
    QCommandLineOption json {QStringLiteral("json"), QStringLiteral("Print the result as one JSON object.")};
    QCommandLineOption rates {
        QStringLiteral("rates"),
        QStringLiteral("Arrival rates per ms, comma-separated (default %1).").arg(defaultRatesText()),
        QStringLiteral("LIST"), defaultRatesText()};
    QCommandLineOption pace {QStringLiteral("pace"),
                             QStringLiteral("poisson (random arrivals) or even (one every 1/rate ms). Default: "
                                            "poisson."),
                             QStringLiteral("poisson|even"), QStringLiteral("poisson")};
};

bool readPlan(const QCommandLineParser& parser, const SweepOptions& o, SweepPlan* plan, QString* error)
{
    if (!o.burst.read(parser, &plan->burst, error))
        return false;
    if (plan->burst.clock != ClockKind::Schedule && plan->burst.clock != ClockKind::SystemMs) {
        *error = QStringLiteral("--clock must be schedule or system-ms for a sweep (the theory counts milliseconds), "
                                "not \"%1\".")
                     .arg(parser.value(o.burst.option(QStringLiteral("clock"))));
        return false;
    }
    if (!parseSweepPacing(parser.value(o.pace), &plan->pacing)) {
        *error = QStringLiteral("--pace must be poisson or even, not \"%1\".").arg(parser.value(o.pace));
        return false;
    }
    if (!SweepPlan::parseRates(parser.value(o.rates), &plan->ratesPerMs, error)) {
        error->prepend(QStringLiteral("--"));
        return false;
    }
    *error = plan->validate();
    return error->isEmpty();
}
} // namespace

int runSweepCommand(const QStringList& arguments)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("sweep"), QStringLiteral("The command."));
    const SweepOptions o;
    const ServerOptions server;
    server.addTo(parser);
    parser.addOptions({o.rates, o.pace});
    o.burst.addTo(parser);
    parser.addOption(o.json);
    if (!parser.parse(arguments)) {
        err << "zsetlab-cli sweep: " << parser.errorText() << "\nSee zsetlab-cli sweep --help.\n";
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitDone;
    }
    if (parser.positionalArguments().size() > 1) {
        err << "zsetlab-cli sweep: unexpected argument \"" << parser.positionalArguments().at(1) << "\".\n";
        return ExitUsage;
    }
    SweepPlan plan;
    QString error;
    if (!readPlan(parser, o, &plan, &error)) {
        err << "zsetlab-cli sweep: " << error << '\n';
        return ExitUsage;
    }
    RedisServerChoice choice;
    if (const int code = server.resolve(parser, &choice, true); code != ExitDone)
        return code;
    if (plan.burst.isPaced()) {
        double seconds = 0;
        for (const double rate : plan.ratesPerMs)
            seconds += double(plan.burst.requests) / rate / 1000.0;
        err << "zsetlab-cli: real pacing: the arrivals last about " << QString::number(seconds, 'f', 0) << " s.\n";
    }

    RateSweep sweep;
    ProgressBar progress;
    const qint64 total = qint64(plan.ratesPerMs.size()) * plan.burst.requests;
    QObject::connect(&sweep, &RateSweep::progress, &sweep, [&progress, &plan, total](int index, int done, int) {
        progress.update(qint64(index) * plan.burst.requests + done, total);
    });
    QObject::connect(&sweep, &RateSweep::finished, &sweep, [] { QCoreApplication::quit(); });
    onInterrupt([&sweep] { sweep.stop(); });
    if (!sweep.start(choice.endpoint(), plan, choice.options())) {
        err << "zsetlab-cli sweep: " << sweep.planError() << '\n';
        return ExitUsage;
    }
    QCoreApplication::exec();
    progress.clear();

    const SweepResult& result = sweep.result();
    if (parser.isSet(o.json))
        out << QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact) << '\n';
    else
        out << result.toText() << '\n';

    switch (result.failure.kind) {
    case BurstFailure::Kind::None:
        return result.stopped || interrupted() ? ExitInterrupted : ExitDone;
    case BurstFailure::Kind::Plan:
        err << "zsetlab-cli sweep: " << result.failure.message << '\n';
        return ExitUsage;
    case BurstFailure::Kind::Connection:
        err << "zsetlab-cli sweep: " << result.failure.message << '\n';
        return ExitConnection;
    case BurstFailure::Kind::Script:
        err << "zsetlab-cli sweep: " << result.failure.message << '\n';
        return ExitScript;
    case BurstFailure::Kind::Eviction:
        err << "zsetlab-cli sweep: " << result.failure.message << '\n';
        return ExitEviction;
    }
    return ExitDone;
}
