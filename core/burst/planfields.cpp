#include "planfields.h"

#include "base/fieldreader.h"
#include "clientprofile.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Scenario)
};

constexpr qint64 maxWindowMs = 365LL * 24 * 3600 * 1000;
constexpr qint64 maxSeed = (1LL << 53) - 1; // exact in a JSON number

bool read(FieldReader& fields, BurstPlan* plan)
{
    fields.parsed("strategy", Text::tr("one of %1").arg(LimiterCatalog::ids().join(QStringLiteral(", "))),
                  [plan](const QString& id, QString*) {
                      LimiterRef limiter = LimiterCatalog::find(id);
                      if (limiter)
                          plan->limiter = std::move(limiter);
                      return bool(plan->limiter && plan->limiter->id == id);
                  });
    qint64 number = plan->requests;
    fields.integer("requests", 1, BurstPlan::maxRequests, &number);
    plan->requests = int(number);
    number = plan->connections;
    fields.integer("connections", 1, BurstPlan::maxConnections, &number);
    plan->connections = int(number);
    number = plan->pipeline;
    fields.integer("pipeline", 1, BurstPlan::maxPipeline, &number);
    plan->pipeline = int(number);
    fields.parsed("pace", Text::tr("burst, interval:MICROS, poisson:PER_MS or bursts:N@MS"),
                  [plan](const QString& text, QString* why) {
                      // Only a malformed number says more than the expected forms do.
                      const bool parsed = Pacing::parse(text, &plan->pacing, why);
                      if (!text.contains(QLatin1Char(':')))
                          why->clear();
                      return parsed;
                  });
    fields.parsed("clock", Text::tr("one of %1").arg(clockNames().join(QStringLiteral(", "))),
                  [plan](const QString& name, QString*) { return parseClock(name, &plan->clock); });
    fields.integer("window_ms", 1, maxWindowMs, &plan->windowMs);
    fields.integer("limit", 0, 1'000'000'000, &plan->limit);
    number = plan->users;
    fields.integer("users", 1, BurstPlan::maxUsers, &number);
    plan->users = int(number);
    number = qint64(plan->seed);
    fields.integer("seed", 0, maxSeed, &number);
    plan->seed = quint64(number);
    number = plan->reconnectForMs;
    fields.integer("reconnect_for_ms", 0, BurstPlan::maxReconnectForMs, &number);
    plan->reconnectForMs = int(number);
    fields.boolean("stop_on_error", &plan->stopOnErrors);
    if (fields.ok() && fields.has("clock_offsets_ms")) {
        const QJsonValue offsets = fields.value("clock_offsets_ms");
        if (!offsets.isArray())
            return fields.fail(QStringLiteral("clock_offsets_ms"), Text::tr("a list of milliseconds"), offsets);
        QVector<qint64> read;
        for (const auto& offset : offsets.toArray()) {
            if (!offset.isDouble() || std::abs(offset.toDouble()) > 86'400'000
                || double(qint64(offset.toDouble())) != offset.toDouble())
                return fields.fail(QStringLiteral("clock_offsets_ms"), Text::tr("whole milliseconds within one day"),
                                   offset);
            read << qint64(offset.toDouble());
        }
        plan->clockOffsetsMs = read;
    }
    if (fields.ok() && fields.has("clients")) {
        QString text;
        fields.text("clients", &text);
        QString why;
        if (fields.ok() && !parseClientProfiles(text, &plan->clients, &why)) {
            if (why.startsWith(QLatin1String("clients: "))) // the field is named once, by fail()
                why = why.mid(9);
            if (why.endsWith(QLatin1Char('.')))
                why.chop(1);
            return fields.fail(QStringLiteral("clients"),
                               Text::tr("app servers as \"rate=2;rate=2,offset=40\" (%1)").arg(why),
                               fields.value("clients"));
        }
    }
    return fields.ok();
}
} // namespace

namespace PlanFields {

const QVector<Field>& fields()
{
    static const QVector<Field> all {
        // The limiter: "strategy" in files and JSON (kept for the files written so far), --limiter on
        // the command line, where --strategy, its first name, is still read.
        {"strategy", "limiter", "NAME", nullptr, "strategy"}, // helpText(): the catalog's ids
        {"requests", "requests", "N", "Number of requests."},
        {"connections", "connections", "C", "Connections sending at once."},
        {"pipeline", "pipeline", "P", "Calls in flight per connection."},
        {"pace", "pace", "PACE",
         "burst (as fast as possible), interval:MICROS (evenly spaced), poisson:PER_MS (random arrivals, "
         "seeded) or bursts:N@MS (N at once every MS ms)."},
        {"clock", "clock", "CLOCK",
         "The now each request carries: system-ms (wall clock, ms), system-us, frozen (one now for all) or "
         "schedule (the pacing's own timestamps, exact and repeatable)."},
        {"window_ms", "window", "MS", "Window in ms."},
        {"limit", "limit", "L", "Admit a request when the count is at most L (0 = no limit)."},
        {"users", "users", "K",
         "Spread the requests over K client keys, round robin, each its own limiter (on a cluster they spread "
         "over the masters); results per user and per node."},
        {"seed", "seed", "S", "Seed of the Poisson arrivals."},
        {"reconnect_for_ms", "reconnect-for", "MS",
         "When the server drops the connection, connect again for up to MS ms before giving up (0 = give up at "
         "once)."},
        {"stop_on_error", "stop-on-error", nullptr,
         "End the run at the first request the server refuses (e.g. OOM) instead of counting it as an error."},
        {"clock_offsets_ms", nullptr, nullptr, nullptr},
        {"clients", nullptr, nullptr, nullptr},
    };
    return all;
}

QString helpText(const Field& field)
{
    if (field.help)
        return QString::fromLatin1(field.help);
    if (QLatin1String(field.name) == QLatin1String("strategy")) {
        QStringList ids;
        for (const LimiterRef& limiter : LimiterCatalog::all())
            ids << limiter->id + (limiter->role == LimiterEntry::Role::Bug ? QStringLiteral(" (the bug)") : QString());
        return QStringLiteral("The limiter: %1.").arg(ids.join(QStringLiteral(", ")));
    }
    return {};
}

const Field* field(const QString& name)
{
    for (const Field& f : fields()) {
        if (name == QLatin1String(f.name))
            return &f;
    }
    return nullptr;
}

QJsonObject toJson(const BurstPlan& plan)
{
    QJsonObject json;
    if (plan.limiter && plan.limiter->isBuiltin())
        json[QStringLiteral("strategy")] = plan.limiter->id;
    json[QStringLiteral("requests")] = plan.requests;
    json[QStringLiteral("connections")] = plan.connections;
    json[QStringLiteral("pipeline")] = plan.pipeline;
    json[QStringLiteral("pace")] = plan.pacing.toString();
    json[QStringLiteral("clock")] = clockName(plan.clock);
    json[QStringLiteral("window_ms")] = plan.windowMs;
    json[QStringLiteral("limit")] = plan.limit;
    json[QStringLiteral("users")] = plan.users;
    json[QStringLiteral("seed")] = qint64(plan.seed);
    json[QStringLiteral("reconnect_for_ms")] = plan.reconnectForMs;
    json[QStringLiteral("stop_on_error")] = plan.stopOnErrors;
    if (!plan.clockOffsetsMs.isEmpty()) {
        QJsonArray offsets;
        for (const qint64 offset : plan.clockOffsetsMs)
            offsets.append(offset);
        json[QStringLiteral("clock_offsets_ms")] = offsets;
    }
    if (!plan.clients.isEmpty()) // the text people type, e.g. "rate=2;rate=2;rate=2,offset=40"
        json[QStringLiteral("clients")] = clientProfilesToString(plan.clients);
    return json;
}

bool fromJson(const QJsonObject& json, BurstPlan* plan, QString* error, const QString& path)
{
    error->clear();
    FieldReader fields(json, path, error);
    return read(fields, plan);
}

bool fromCommandLine(const QJsonObject& typed, BurstPlan* plan, QString* error)
{
    error->clear();
    QHash<QString, QString> flags;
    for (const Field& f : fields()) {
        if (f.flag)
            flags.insert(QLatin1String(f.name), QLatin1String(f.flag));
    }
    FieldReader fields(typed, flags, error);
    return read(fields, plan);
}

} // namespace PlanFields
