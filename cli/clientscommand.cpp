#include "clientscommand.h"

#include "base/interrupts.h"
#include "burst/burstengine.h"
#include "burst/clientprofile.h"
#include "burst/clienttally.h"
#include "exitcodes.h"
#include "planoptions.h"
#include "progressbar.h"
#include "serveroptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace {
const char description[] = R"(Fire one burst at one limiter key from several simulated app servers. Each
server has a connection of its own, its own arrivals and its own clock: servers whose clocks
agree write the same millisecond members and overwrite each other; a server whose clock runs
ahead writes `now`s in the future and trims entries the others still count.

Describe each server with fields separated by commas; give several servers as several
arguments or separated by ';':
  rate=R       Poisson arrivals, R per ms on average (default: --pace)
  pace=PACE    burst, interval:MICROS or poisson:PER_MS
  offset=MS    its clock runs MS ahead (negative: behind)
  drift=PPM    and gains PPM microseconds per second (negative: loses)
--requests is the total over all servers: faster servers send more of it.

Examples:
  zsetlab-cli clients rate=2 rate=2 rate=2,offset=40 --requests 3000 --limit 100
  zsetlab-cli clients "rate=1;rate=1,offset=5" --clock schedule --json
  zsetlab-cli clients pace=interval:500 pace=interval:500,drift=20000 --clock schedule

Exit codes: 0 done, 2 bad usage, 3 cannot connect or authenticate (or the server went
away), 4 the script failed to load or run, 5 the run ended but keys it made could not be
deleted (stderr names them and the redis-cli DEL that removes them), 8 the server deletes keys
to make room when full (see --allow-eviction), 130 stopped by Ctrl+C or SIGTERM before the end.)";

struct ClientsOptions
{
    PlanOptions burst {{QStringLiteral("strategy"), QStringLiteral("requests"), QStringLiteral("pace"),
                        QStringLiteral("clock"), QStringLiteral("window_ms"), QStringLiteral("limit"),
                        QStringLiteral("seed"), QStringLiteral("pipeline")},
                       {{QStringLiteral("strategy"), QStringLiteral("now")},
                        {QStringLiteral("requests"), QStringLiteral("1000")},
                        {QStringLiteral("pace"), QStringLiteral("poisson:1")},
                        {QStringLiteral("clock"), QStringLiteral("system-ms")},
                        {QStringLiteral("window_ms"), QStringLiteral("1000")},
                        {QStringLiteral("limit"), QStringLiteral("0")},
                        {QStringLiteral("seed"), QStringLiteral("1")},
                        {QStringLiteral("pipeline"), QStringLiteral("1")}},
                       {{QStringLiteral("clock"),
                         QStringLiteral("The now each request carries, on each server's own clock: system-ms (wall "
                                        "clock, ms), system-us, frozen or schedule (the arrivals' own timestamps, "
                                        "exact and repeatable).")},
                        {QStringLiteral("pace"),
                         QStringLiteral("Arrivals of the servers that give no rate= or pace=: burst, "
                                        "interval:MICROS or poisson:PER_MS.")}}};
    QCommandLineOption json {QStringLiteral("json"), QStringLiteral("Print the result as one JSON object.")};
};

QString tallyTable(const QVector<ClientTally>& tallies, bool withLimit)
{
    QStringList lines;
    QString header = QStringLiteral("  %1  %2 %3 %4 %5 %6")
                         .arg(QStringLiteral("server"), 6)
                         .arg(QStringLiteral("profile"), -24)
                         .arg(QStringLiteral("sent"), 8)
                         .arg(QStringLiteral("stored"), 8)
                         .arg(QStringLiteral("overwritten"), 12)
                         .arg(QStringLiteral("by another"), 11);
    if (withLimit)
        header += QStringLiteral(" %1").arg(QStringLiteral("over limit"), 11);
    lines << header;
    for (const ClientTally& tally : tallies) {
        QString row = QStringLiteral("  %1  %2 %3 %4 %5 %6")
                          .arg(tally.client + 1, 6)
                          .arg(tally.profile, -24)
                          .arg(tally.sent, 8)
                          .arg(tally.stored, 8)
                          .arg(tally.overwritten, 12)
                          .arg(tally.overwroteOtherClient, 11);
        if (withLimit)
            row += QStringLiteral(" %1").arg(tally.admittedOverLimit, 11);
        lines << row;
    }
    lines << QStringLiteral("  (by another: overwrote a member that another server had written)");
    return lines.join(QLatin1Char('\n'));
}
} // namespace

int runClientsCommand(const QStringList& arguments)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("clients"), QStringLiteral("The command."));
    parser.addPositionalArgument(QStringLiteral("SERVER"), QStringLiteral("One app server, e.g. rate=2,offset=40."),
                                 QStringLiteral("SERVER..."));
    const ClientsOptions o;
    const ServerOptions server;
    server.addTo(parser);
    o.burst.addTo(parser);
    parser.addOption(o.json);
    if (!parser.parse(arguments)) {
        err << "zsetlab-cli clients: " << parser.errorText() << "\nSee zsetlab-cli clients --help.\n";
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitDone;
    }
    const QStringList servers = parser.positionalArguments().mid(1);
    if (servers.isEmpty()) {
        err << "zsetlab-cli clients: describe at least one server, e.g. zsetlab-cli clients rate=2 "
               "rate=2,offset=40.\n";
        return ExitUsage;
    }

    BurstPlan plan;
    QString error;
    if (!o.burst.read(parser, &plan, &error)
        || !parseClientProfiles(servers.join(QLatin1Char(';')), &plan.clients, &error)) {
        err << "zsetlab-cli clients: " << error << '\n';
        return ExitUsage;
    }
    if (const QString invalid = plan.validate(); !invalid.isEmpty()) {
        err << "zsetlab-cli clients: " << invalid << '\n';
        return ExitUsage;
    }
    RedisServerChoice choice;
    if (const int code = server.resolve(parser, &choice, true); code != ExitDone)
        return code;

    BurstEngine engine;
    ProgressBar progress;
    BurstSummary summary;
    QObject::connect(&engine, &BurstEngine::recordsAvailable, &engine,
                     [&progress](int done, int total) { progress.update(done, total); });
    QObject::connect(&engine, &BurstEngine::finished, &engine, [&summary](const BurstSummary& result) {
        summary = result;
        QCoreApplication::quit();
    });
    onInterrupt([&engine] { engine.stop(); });
    if (interrupted()) { // while connecting: nothing was sent, nothing is left to delete
        err << "zsetlab-cli clients: stopped by a signal before the first request; nothing was sent.\n";
        return ExitInterrupted;
    }
    if (!engine.start(choice.endpoint(), plan, choice.options())) {
        err << "zsetlab-cli clients: " << engine.planError() << '\n';
        return ExitUsage;
    }
    QCoreApplication::exec();
    progress.clear();

    const QVector<ClientTally> tallies = ClientTally::fromLog(engine.log(), plan);
    if (parser.isSet(o.json)) {
        QJsonObject json = summary.toJson();
        QJsonArray clients;
        for (const ClientTally& tally : tallies)
            clients.append(tally.toJson());
        json[QStringLiteral("clients")] = clients;
        out << QJsonDocument(json).toJson(QJsonDocument::Compact) << '\n';
    } else {
        out << summary.toText() << '\n' << tallyTable(tallies, plan.limit > 0) << '\n';
    }

    err.flush();
    return exitCodeForRun(summary, "zsetlab-cli clients");
}
