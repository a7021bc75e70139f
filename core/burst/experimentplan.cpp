#include "experimentplan.h"

#include "base/fieldreader.h"
#include "planfields.h"

#include <QCoreApplication>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Scenario)
};
} // namespace

BurstPlan ExperimentPlan::leftPlan() const
{
    BurstPlan left = burst;
    if (compare)
        left.limiter = LimiterCatalog::builtin("now");
    return left;
}

QJsonObject ExperimentPlan::toJson() const
{
    QJsonObject json;
    json[QStringLiteral("compare")] = compare;
    if (fix && fix->isBuiltin())
        json[QStringLiteral("unique_strategy")] = fix->id;
    json[QStringLiteral("plan")] = PlanFields::toJson(burst);
    return json;
}

bool ExperimentPlan::readJson(const QJsonObject& json, QString* error)
{
    error->clear();
    ExperimentPlan read = *this;
    FieldReader fields(json, QString(), error);
    fields.boolean("compare", &read.compare);
    QStringList fixes;
    for (const LimiterRef& limiter : LimiterCatalog::withRole(LimiterEntry::Role::Fix))
        fixes << limiter->id;
    fields.parsed("unique_strategy", Text::tr("one of %1").arg(fixes.join(QStringLiteral(", "))),
                  [&read](const QString& id, QString*) {
                      const LimiterRef limiter = LimiterCatalog::find(id);
                      if (!limiter || !limiter->isUnique())
                          return false;
                      read.fix = limiter;
                      return true;
                  });
    if (!fields.ok())
        return false;
    if (json.contains(QLatin1String("plan"))) {
        const QJsonValue plan = json.value(QLatin1String("plan"));
        if (!plan.isObject()) {
            *error = Text::tr("plan: expected an object with the burst's settings.");
            return false;
        }
        if (!PlanFields::fromJson(plan.toObject(), &read.burst, error))
            return false;
    }
    *this = read;
    return true;
}
