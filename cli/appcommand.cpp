#include "appcommand.h"

#include "base/interrupts.h"
#include "exitcodes.h"
#include "limiters/clientlimiter.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "serveroptions.h"
#include "terminaltext.h"
#include "watch/apptraffic.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QTextStream>

namespace {
const char description[] = R"(A demo app server to watch: for --duration ms on the real clock, send --rate
requests per ms through a limiter, request i from user i mod --users, each user with a
key of its own (one user: the run key; more: KEY:u0, KEY:u1, ...). Start
`zsetlab-cli watch` on the same server first, and compare what it reports with the
app's own count of overwrites (ZADD answered 0: the member was there already).

The limiter is one of the catalog's scripts (now, request-id, sliding-log-now, ...),
called with EVALSHA, or a client-side one that sends ZREMRANGEBYSCORE, ZADD key now
MEMBER, ZCARD and PEXPIRE as a pipeline from application code, without Lua:
client-now (member = now) or client-unique (member = now-<request id>).

Examples:
  zsetlab-cli app --limiter now --users 4 --rate 5 --duration 10000
  zsetlab-cli app --limiter client-now --users 100 --rate 20 --duration 60000 --json
  zsetlab-cli app --limiter sliding-log-now --limit 50 --users 4 --rate 2 --duration 5000

Exit codes: 0 done, 2 bad usage, 3 cannot connect or authenticate (or the server went
away), 4 the script failed to load or run (or a key the app would write exists already:
nothing was written), 8 the server deletes keys to make room when full and the app's keys
could push out others (nothing was written; see --allow-eviction), 130 stopped by Ctrl+C or
SIGTERM before the end. On 3, 4 and 130 what was answered is printed all the same.)";

const char schema[] = "zsetlab.app/1";

struct AppOptions
{
    QCommandLineOption limiter {QStringLiteral("limiter"),
                                QStringLiteral("The app's limiter: any of %1.")
                                    .arg((LimiterCatalog::ids() + ClientLimiter::ids()).join(QStringLiteral(", "))),
                                QStringLiteral("ID")};
    QCommandLineOption users {QStringLiteral("users"),
                              QStringLiteral("Spread the requests over K users round robin, each with its own key "
                                             "(1 to %1). Default: 1.")
                                  .arg(AppPlan::maxUsers),
                              QStringLiteral("K"), QStringLiteral("1")};
    QCommandLineOption rate {QStringLiteral("rate"),
                             QStringLiteral("Requests per ms over all users, e.g. 5 or 0.5 (required)."),
                             QStringLiteral("PER_MS")};
    QCommandLineOption duration {QStringLiteral("duration"),
                                 QStringLiteral("How long the app sends, in ms of the real clock (required)."),
                                 QStringLiteral("MS")};
    QCommandLineOption window {QStringLiteral("window"), QStringLiteral("The limiter's window in ms (default 1000)."),
                               QStringLiteral("MS"), QStringLiteral("1000")};
    QCommandLineOption limit {QStringLiteral("limit"),
                              QStringLiteral("Requests allowed per window and user; the algorithms need one "
                                             "(default 0: none)."),
                              QStringLiteral("N"), QStringLiteral("0")};
    QCommandLineOption key {QStringLiteral("key"),
                            QStringLiteral("Use this run key (under the zsetlab: prefix). Every user's key must "
                                           "not exist yet. Default: a fresh zsetlab:app:... key."),
                            QStringLiteral("NAME")};
    QCommandLineOption keep {QStringLiteral("keep"), QStringLiteral("Keep the keys at the end (to inspect them).")};
    QCommandLineOption json {QStringLiteral("json"), QStringLiteral("Print the result as one JSON object.")};
};

// Reads the options into the plan; false with a message naming the flag.
bool readPlan(const QCommandLineParser& parser, const AppOptions& o, AppPlan* plan, QString* error)
{
    const auto number = [&parser, error](const QCommandLineOption& option, qint64 low, qint64 high, qint64* value) {
        bool ok = false;
        *value = parser.value(option).toLongLong(&ok);
        if (ok && *value >= low && *value <= high)
            return true;
        *error = QStringLiteral("--%1 must be a whole number from %2 to %3, not \"%4\".")
                     .arg(option.names().constFirst())
                     .arg(low)
                     .arg(high)
                     .arg(parser.value(option));
        return false;
    };
    for (const QCommandLineOption* required : {&o.limiter, &o.rate, &o.duration}) {
        if (!parser.isSet(*required)) {
            *error = QStringLiteral("--%1 is required, e.g. zsetlab-cli app --limiter now --users 4 --rate 5 "
                                    "--duration 10000.")
                         .arg(required->names().constFirst());
            return false;
        }
    }
    plan->limiter = parser.value(o.limiter);
    if (!LimiterCatalog::find(plan->limiter) && !ClientLimiter::ids().contains(plan->limiter)) {
        *error = QStringLiteral("--limiter: there is no limiter \"%1\"; use one of %2.")
                     .arg(plan->limiter, (LimiterCatalog::ids() + ClientLimiter::ids()).join(QStringLiteral(", ")));
        return false;
    }
    bool ok = false;
    plan->perMs = parser.value(o.rate).toDouble(&ok);
    if (!ok || !(plan->perMs > 0) || plan->perMs > 1000) {
        *error = QStringLiteral("--rate must be a number of requests per ms above 0 and at most 1000, such as 5 or "
                                "0.5, not \"%1\".")
                     .arg(parser.value(o.rate));
        return false;
    }
    qint64 users = 0;
    if (!number(o.users, 1, AppPlan::maxUsers, &users)
        || !number(o.duration, 1, AppPlan::maxDurationMs, &plan->durationMs)
        || !number(o.window, 1, 86'400'000, &plan->windowMs) || !number(o.limit, 0, 1'000'000'000, &plan->limit))
        return false;
    plan->users = int(users);
    if (parser.isSet(o.key)) {
        if (const QString problem = ZsetKeys::userKeyProblem(parser.value(o.key));
            parser.value(o.key).isEmpty() || !problem.isEmpty()) {
            *error = QStringLiteral("--key: ") + (problem.isEmpty() ? QStringLiteral("give a name.") : problem);
            return false;
        }
        plan->runKey = ZsetKeys::userKey(parser.value(o.key));
    }
    plan->keepKeys = parser.isSet(o.keep);
    *error = plan->validate();
    if (!error->isEmpty() && plan->requests() > AppPlan::maxRequests)
        error->prepend(QStringLiteral("--rate x --duration: "));
    else if (!error->isEmpty())
        error->prepend(QStringLiteral("--limit: "));
    return error->isEmpty();
}

QJsonObject resultJson(const AppResult& result)
{
    QJsonArray keys;
    for (const AppKeyTally& tally : result.keys) {
        keys.append(QJsonObject {{QStringLiteral("key"), QString::fromUtf8(tally.key)},
                                 {QStringLiteral("requests"), tally.requests},
                                 {QStringLiteral("stored"), tally.stored},
                                 {QStringLiteral("overwritten"), tally.overwritten},
                                 {QStringLiteral("not_added"), tally.notAdded}});
    }
    QJsonObject json {{QStringLiteral("schema"), QLatin1String(schema)},
                      {QStringLiteral("server_version"), result.serverVersion},
                      {QStringLiteral("limiter"), result.plan.limiter},
                      {QStringLiteral("users"), result.plan.users},
                      {QStringLiteral("rate_per_ms"), result.plan.perMs},
                      {QStringLiteral("duration_ms"), result.plan.durationMs},
                      {QStringLiteral("elapsed_ms"), result.elapsedMs},
                      {QStringLiteral("requests"), result.requests()},
                      {QStringLiteral("overwritten"), result.overwritten()},
                      {QStringLiteral("stopped"), result.stopped},
                      {QStringLiteral("late"), result.late},
                      {QStringLiteral("keys_kept"), result.plan.keepKeys},
                      {QStringLiteral("keys"), keys}};
    if (result.failure.isFailure())
        json.insert(QStringLiteral("error"), result.failure.message);
    return json;
}

QString resultText(const AppResult& result)
{
    const QLocale locale;
    QString text;
    QTextStream out(&text);
    out << "app with limiter " << result.plan.limiter << " on Redis " << result.serverVersion << ": "
        << locale.toString(result.requests()) << " requests in " << locale.toString(result.elapsedMs) << " ms, "
        << locale.toString(result.overwritten()) << " overwrote a member\n";
    out << QStringLiteral("  %1 %2 %3 %4 %5\n")
               .arg(QStringLiteral("key"), -36)
               .arg(QStringLiteral("requests"), 10)
               .arg(QStringLiteral("stored"), 10)
               .arg(QStringLiteral("overwritten"), 12)
               .arg(QStringLiteral("not added"), 10);
    for (const AppKeyTally& tally : result.keys) {
        out << QStringLiteral("  %1 %2 %3 %4 %5\n")
                   .arg(terminalSafe(QString::fromUtf8(tally.key)), -36)
                   .arg(locale.toString(tally.requests), 10)
                   .arg(locale.toString(tally.stored), 10)
                   .arg(locale.toString(tally.overwritten), 12)
                   .arg(locale.toString(tally.notAdded), 10);
    }
    out << "  overwritten: ZADD answered 0, the member was there already; not added: refused by the limit, or "
           "a store that is not a sorted set";
    if (result.late)
        out << "\n  the server could not take the rate: the app stopped 5 s after --duration";
    return text;
}
} // namespace

int runAppCommand(const QStringList& arguments)
{
    QTextStream err(stderr);
    QTextStream out(stdout);
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromLatin1(description));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("app"), QStringLiteral("The command."));
    const AppOptions o;
    const ServerOptions server;
    server.addTo(parser);
    parser.addOptions({o.limiter, o.users, o.rate, o.duration, o.window, o.limit, o.key, o.keep, o.json});
    if (!parser.parse(arguments)) {
        err << "zsetlab-cli app: " << parser.errorText() << "\nSee zsetlab-cli app --help.\n";
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        out << parser.helpText();
        return ExitDone;
    }
    if (parser.positionalArguments().size() > 1) {
        err << "zsetlab-cli app: unexpected argument \"" << parser.positionalArguments().at(1) << "\".\n";
        return ExitUsage;
    }
    AppPlan plan;
    QString error;
    if (!readPlan(parser, o, &plan, &error)) {
        err << "zsetlab-cli app: " << error << "\nSee zsetlab-cli app --help.\n";
        return ExitUsage;
    }
    if (parser.isSet(server.redis)) {
        QString why;
        if (!server.endpoint(parser, nullptr, &why)) {
            err << "zsetlab-cli app: --redis: " << why << '\n';
            return ExitUsage;
        }
    }
    RedisServerChoice choice;
    if (const int code = server.resolve(parser, &choice, true); code != ExitDone)
        return code;

    AppTraffic app;
    QObject::connect(&app, &AppTraffic::finished, &app, [] { QCoreApplication::quit(); });
    onInterrupt([&app] { app.stop(); });
    if (!app.start(choice.endpoint(), plan, choice.options())) {
        err << "zsetlab-cli app: " << app.planError() << '\n';
        return ExitUsage;
    }
    err << "zsetlab-cli app: sending to " << app.result().plan.runKey << (plan.users > 1 ? ":u*" : "") << Qt::endl;
    QCoreApplication::exec();

    const AppResult& result = app.result();
    if (parser.isSet(o.json))
        out << QJsonDocument(resultJson(result)).toJson(QJsonDocument::Compact) << '\n';
    else
        out << resultText(result) << '\n';
    out.flush();
    if (plan.keepKeys && result.requests() > 0)
        err << "zsetlab-cli: kept the keys under " << result.plan.runKey << '\n';
    const int code = exitCodeForBurst(result.failure, "zsetlab-cli app");
    return code == ExitDone && (result.stopped || interrupted()) ? ExitInterrupted : code;
}
