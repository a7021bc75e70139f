#include "burstplan.h"

#include "limiters/zsetkeys.h"

#include "clientprofile.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <random>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(BurstPlan)
};

struct ClockEntry
{
    ClockKind clock;
    const char* name;
};
constexpr ClockEntry clockTable[] = {
    {ClockKind::SystemMs, "system-ms"},
    {ClockKind::SystemUs, "system-us"},
    {ClockKind::Frozen, "frozen"},
    {ClockKind::Schedule, "schedule"},
};
} // namespace

bool Pacing::parse(const QString& text, Pacing* pacing, QString* error)
{
    const QString value = text.trimmed().toLower();
    Pacing result;
    if (value == QLatin1String("burst")) {
        *pacing = result;
        return true;
    }
    const int colon = value.indexOf(QLatin1Char(':'));
    const QString kind = value.left(colon);
    const QString number = colon < 0 ? QString() : value.mid(colon + 1);
    bool ok = false;
    if (kind == QLatin1String("interval")) {
        const qlonglong micros = number.toLongLong(&ok);
        if (!ok || micros < 1 || micros > 60'000'000) {
            *error = Text::tr("pace: interval:MICROS needs a whole number of microseconds from 1 to 60000000 "
                              "(e.g. interval:250 for 4 requests per ms), not \"%1\".")
                         .arg(text);
            return false;
        }
        result.kind = Kind::Interval;
        result.intervalMicros = micros;
    } else if (kind == QLatin1String("poisson")) {
        const double rate = number.toDouble(&ok);
        if (!ok || !(rate >= 0.0001) || rate > 1000) {
            *error = Text::tr("pace: poisson:PER_MS needs a mean rate per millisecond from 0.0001 to 1000 "
                              "(e.g. poisson:2.5), not \"%1\".")
                         .arg(text);
            return false;
        }
        result.kind = Kind::Poisson;
        result.perMs = rate;
    } else if (kind == QLatin1String("bursts")) {
        const int at = number.indexOf(QLatin1Char('@'));
        bool everyOk = false;
        const int size = number.left(at).toInt(&ok);
        const qlonglong everyMs = at < 0 ? 0 : number.mid(at + 1).toLongLong(&everyOk);
        if (!ok || !everyOk || size < 1 || size > 1'000'000 || everyMs < 1 || everyMs > 86'400'000) {
            *error = Text::tr("pace: bursts:N@MS needs N requests at once (1 to 1000000) every MS milliseconds (1 "
                              "to 86400000), e.g. bursts:100@1000, not \"%1\".")
                         .arg(text);
            return false;
        }
        result.kind = Kind::Bursts;
        result.burstSize = size;
        result.intervalMicros = everyMs * 1000;
    } else {
        *error = Text::tr("pace: \"%1\" is not a pacing; use burst, interval:MICROS, poisson:PER_MS or bursts:N@MS.")
                     .arg(text);
        return false;
    }
    *pacing = result;
    return true;
}

QString Pacing::toString() const
{
    switch (kind) {
    case Kind::Burst:
        return QStringLiteral("burst");
    case Kind::Interval:
        return QStringLiteral("interval:%1").arg(intervalMicros);
    case Kind::Poisson:
        return QStringLiteral("poisson:%1").arg(perMs);
    case Kind::Bursts:
        return QStringLiteral("bursts:%1@%2").arg(burstSize).arg(intervalMicros / 1000);
    }
    return {};
}

QString clockName(ClockKind clock)
{
    for (const auto& entry : clockTable) {
        if (entry.clock == clock)
            return QLatin1String(entry.name);
    }
    return {};
}

bool parseClock(const QString& name, ClockKind* clock)
{
    for (const auto& entry : clockTable) {
        if (name == QLatin1String(entry.name)) {
            *clock = entry.clock;
            return true;
        }
    }
    return false;
}

QStringList clockNames()
{
    QStringList names;
    for (const auto& entry : clockTable)
        names << QLatin1String(entry.name);
    return names;
}

QString BurstPlan::validate() const
{
    if (requests < 1 || requests > maxRequests)
        return Text::tr("requests must be from 1 to %L1 (got %L2).").arg(maxRequests).arg(requests);
    if (connections < 1 || connections > maxConnections)
        return Text::tr("connections must be from 1 to %1 (got %2).").arg(maxConnections).arg(connections);
    if (pipeline < 1 || pipeline > maxPipeline)
        return Text::tr("pipeline must be from 1 to %1 (got %2).").arg(maxPipeline).arg(pipeline);
    if (windowMs < 1 || windowMs > 365LL * 24 * 3600 * 1000)
        return Text::tr("window must be from 1 ms to one year (got %1 ms).").arg(windowMs);
    if (limit < 0 || limit > 1'000'000'000)
        return Text::tr("limit must be from 0 (no limit) to 1000000000 (got %1).").arg(limit);
    for (const qint64 offset : clockOffsetsMs) {
        if (offset < -86'400'000 || offset > 86'400'000)
            return Text::tr("clock offsets must be within one day (got %1 ms).").arg(offset);
    }
    if (clients.size() > maxConnections)
        return Text::tr("clients: at most %1, one connection each (got %2).").arg(maxConnections).arg(clients.size());
    if (QString invalid = validateClientProfiles(clients); !invalid.isEmpty())
        return invalid;
    if (!limiter || !limiter->script.isValid())
        return Text::tr("script: a custom strategy needs a script file.");
    if (limiter->needsLimit() && limit < 1)
        return Text::tr("limit: the %1 limiter decides by its limit itself: give a limit of 1 or more.")
            .arg(limiter->id);
    if (replayNows && replayNows->size() < static_cast<size_t>(requests))
        return Text::tr("replay: %1 timestamps for %2 requests.").arg(replayNows->size()).arg(requests);
    if (reconnectForMs < 0 || reconnectForMs > maxReconnectForMs)
        return Text::tr("reconnect: must be from 0 (fail at once) to %1 ms (got %2 ms).")
            .arg(maxReconnectForMs)
            .arg(reconnectForMs);
    if (!key.isEmpty() && !ZsetKeys::isOwnKey(key))
        return Text::tr("key: zsetlab writes only keys that start with \"zsetlab:\" (got \"%1\").")
            .arg(QString::fromUtf8(key));
    if (users < 1 || users > maxUsers)
        return Text::tr("users must be from 1 to %L1 (got %L2).").arg(maxUsers).arg(users);
    if (reuseKey && key.isEmpty())
        return Text::tr("key: a fresh key has nothing to reuse; name the key to reuse.");
    return {};
}

QByteArray BurstPlan::userKey(const QByteArray& runKey, int user) const
{
    return users > 1 ? ZsetKeys::userOfRun(runKey, user) : runKey;
}

bool BurstPlan::hasPacedArrivals() const
{
    if (clients.isEmpty())
        return pacing.kind != Pacing::Kind::Burst;
    return std::any_of(clients.cbegin(), clients.cend(), [this](const ClientProfile& client) {
        return client.pacing.value_or(pacing).kind != Pacing::Kind::Burst;
    });
}

std::vector<qint64> BurstPlan::scheduleMicros(std::vector<quint16>* clientOf) const
{
    if (!clients.isEmpty())
        return mergedClientSchedule(*this, clientOf);
    if (clientOf)
        clientOf->clear();
    std::vector<qint64> offsets(static_cast<size_t>(std::max(requests, 0)), 0);
    switch (pacing.kind) {
    case Pacing::Kind::Burst:
        break;
    case Pacing::Kind::Interval:
        for (size_t i = 0; i < offsets.size(); ++i)
            offsets[i] = static_cast<qint64>(i) * pacing.intervalMicros;
        break;
    case Pacing::Kind::Poisson: {
        // Exponential gaps with mean 1000 / perMs microseconds; the first request at 0.
        std::mt19937_64 random(seed);
        std::exponential_distribution<double> gap(pacing.perMs / 1000.0);
        double t = 0;
        for (size_t i = 0; i < offsets.size(); ++i) {
            if (i > 0)
                t += gap(random);
            offsets[i] = static_cast<qint64>(std::floor(t));
        }
        break;
    }
    case Pacing::Kind::Bursts:
        for (size_t i = 0; i < offsets.size(); ++i)
            offsets[i] = static_cast<qint64>(i / size_t(std::max(pacing.burstSize, 1))) * pacing.intervalMicros;
        break;
    }
    return offsets;
}
