#include "comparisonplan.h"

#include "limiters/limitercatalog.h"

#include <QCoreApplication>

#include <algorithm>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(AlgorithmComparison)
};
} // namespace

QStringList ComparisonPlan::limiterIds() const
{
    return limiters.isEmpty() ? LimiterCatalog::algorithmIds() : limiters;
}

QString ComparisonPlan::validate() const
{
    if (QString invalid = burst.validate(); !invalid.isEmpty())
        return invalid;
    if (burst.limit < 1)
        return Text::tr("limit: the algorithms are compared on how they keep a limit: give a limit of 1 or more.");
    if (users < 1 || users > maxUsers)
        return Text::tr("users must be from 1 to %1 (got %2).").arg(maxUsers).arg(users);
    for (const QString& id : limiterIds()) {
        if (!LimiterCatalog::find(id))
            return Text::tr("limiters: \"%1\" is not a limiter; choose from %2.")
                .arg(id, LimiterCatalog::ids().join(QStringLiteral(", ")));
    }
    if (limiterIds().removeDuplicates() > 0)
        return Text::tr("limiters: name each limiter once.");
    return {};
}

qint64 ComparisonPlan::alignedStart(qint64 wallMs, qint64 windowMs)
{
    return (wallMs / windowMs) * windowMs + windowMs - 1;
}

std::vector<qint64> ComparisonPlan::timestamps(qint64 startMs) const
{
    if (burst.clock == ClockKind::Frozen)
        return std::vector<qint64>(size_t(std::max(burst.requests, 0)), startMs);
    std::vector<qint64> nows = burst.scheduleMicros();
    for (qint64& now : nows)
        now = startMs + now / 1000;
    return nows;
}

QByteArray ComparisonPlan::userKey(const QByteArray& runKey, int user) const
{
    return users == 1 ? runKey : runKey + ":u" + QByteArray::number(user);
}
