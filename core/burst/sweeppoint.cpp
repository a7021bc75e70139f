#include "sweeppoint.h"

#include "results/requestlog.h"

#include <QJsonArray>
#include <QLocale>
#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {
QJsonValue fractionOrNull(double value)
{
    return std::isfinite(value) ? QJsonValue(value) : QJsonValue();
}

// The p-th percentile (0..100) of values, which it reorders.
qint64 percentile(std::vector<qint64>& values, double p)
{
    if (values.empty())
        return -1;
    const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * double(values.size())));
    const auto nth = values.begin() + static_cast<std::ptrdiff_t>(std::clamp<size_t>(rank, 1, values.size()) - 1);
    std::nth_element(values.begin(), nth, values.end());
    return *nth;
}

QString percentText(double fraction)
{
    return std::isfinite(fraction) ? QString::number(100.0 * fraction, 'f', 1) : QStringLiteral("?");
}

// "+0.3 pp", "-1.2 pp"; a difference that rounds to zero has no sign.
QString pointsText(double points)
{
    if (!std::isfinite(points))
        return QStringLiteral("?");
    const double rounded = std::round(points * 10.0) / 10.0;
    const QString sign = rounded > 0 ? QStringLiteral("+") : rounded < 0 ? QStringLiteral("-") : QStringLiteral(" ");
    return sign + QString::number(std::abs(rounded), 'f', 1) + QStringLiteral(" pp");
}
} // namespace

QString sweepPacingName(SweepPacing pacing)
{
    return pacing == SweepPacing::Even ? QStringLiteral("even") : QStringLiteral("poisson");
}

bool parseSweepPacing(const QString& name, SweepPacing* pacing)
{
    if (name == QLatin1String("poisson"))
        *pacing = SweepPacing::Poisson;
    else if (name == QLatin1String("even"))
        *pacing = SweepPacing::Even;
    else
        return false;
    return true;
}

Pacing sweepPacingAt(SweepPacing pacing, double ratePerMs)
{
    Pacing result;
    if (pacing == SweepPacing::Poisson) {
        result.kind = Pacing::Kind::Poisson;
        result.perMs = ratePerMs;
    } else {
        result.kind = Pacing::Kind::Interval;
        result.intervalMicros = std::max<qint64>(1, std::llround(1000.0 / ratePerMs));
    }
    return result;
}

double theoryStoredFraction(SweepPacing pacing, double ratePerMs)
{
    if (!(ratePerMs > 0))
        return 1.0;
    if (pacing == SweepPacing::Even)
        return std::min(1.0, 1.0 / ratePerMs);
    return -std::expm1(-ratePerMs) / ratePerMs; // (1 - e^-L) / L, exact for small L too
}

double theoryStoredFraction(const LimiterEntry& limiter, SweepPacing pacing, double ratePerMs)
{
    if (limiter.role == LimiterEntry::Role::Bug)
        return theoryStoredFraction(pacing, ratePerMs);
    if (limiter.isUnique())
        return 1.0;
    return std::numeric_limits<double>::quiet_NaN();
}

QVector<double> SweepPlan::defaultRates()
{
    return {0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 30};
}

BurstPlan SweepPlan::defaultBurst()
{
    BurstPlan plan;
    plan.requests = 5000;
    plan.clock = ClockKind::Schedule;
    return plan;
}

bool SweepPlan::parseRates(const QString& text, QVector<double>* rates, QString* error)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    QVector<double> result;
    for (const QString& entry : text.split(separators, Qt::SkipEmptyParts)) {
        bool ok = false;
        const double rate = entry.toDouble(&ok);
        if (!ok || !(rate >= minRate && rate <= maxRate)) {
            *error = QStringLiteral("rates: \"%1\" is not a rate per ms from %2 to %3 (e.g. 0.1,1,10).")
                         .arg(entry)
                         .arg(minRate)
                         .arg(maxRate);
            return false;
        }
        result << rate;
    }
    if (result.isEmpty()) {
        *error = QStringLiteral("rates: give at least one rate per ms (e.g. 0.1,1,10).");
        return false;
    }
    *rates = result;
    return true;
}

QString SweepPlan::validate() const
{
    if (ratesPerMs.isEmpty() || ratesPerMs.size() > maxPoints)
        return QStringLiteral("rates: from 1 to %1 rates (got %2).").arg(maxPoints).arg(ratesPerMs.size());
    for (const double rate : ratesPerMs) {
        if (!(rate >= minRate && rate <= maxRate))
            return QStringLiteral("rates: each from %1 to %2 per ms (got %3).").arg(minRate).arg(maxRate).arg(rate);
    }
    // The theory counts millisecond timestamps taken from the arrivals themselves.
    if (burst.clock != ClockKind::Schedule && burst.clock != ClockKind::SystemMs)
        return QStringLiteral("clock: a sweep compares with millisecond timestamps: schedule or system-ms (got %1).")
            .arg(clockName(burst.clock));
    if (!burst.key.isEmpty())
        return QStringLiteral("key: every point of a sweep starts on a fresh key.");
    if (!burst.clients.isEmpty() || burst.replayNows)
        return QStringLiteral("a sweep fires one schedule per rate: no clients, no replay.");
    return planAt(0).validate();
}

BurstPlan SweepPlan::planAt(int index) const
{
    BurstPlan plan = burst;
    plan.pacing = sweepPacingAt(pacing, ratesPerMs.value(index));
    plan.key.clear();
    return plan;
}

SweepPoint SweepPoint::measure(const SweepPlan& plan, int index, const BurstSummary& summary, const RequestLog& log)
{
    SweepPoint point;
    point.index = index;
    point.ratePerMs = plan.ratesPerMs.value(index);
    point.pacing = plan.pacing;
    point.limiter = summary.limiter;
    point.clock = summary.clock;
    point.requests = summary.requests;
    point.sent = summary.sent;
    point.errors = summary.errors;
    point.stored = summary.stored;
    point.overwritten = summary.overwritten;
    point.limit = summary.limit;
    point.admitted = summary.admitted;
    point.admittedOverLimit = summary.admittedOverLimit;
    point.durationMs = summary.durationMs;
    const BurstPlan burst = plan.planAt(index);
    point.theoryFraction = theoryStoredFraction(*burst.limiter, plan.pacing, point.ratePerMs);
    const qint64 succeeded = summary.sent - summary.errors;
    if (succeeded > 1)
        point.timelineRatePerMs = double(succeeded - 1) / double(std::max<qint64>(1, log.maxNow() - log.minNow()));

    if (burst.isPaced()) {
        const std::vector<qint64> schedule = burst.scheduleMicros();
        std::vector<qint64> late;
        late.reserve(size_t(log.finished()));
        for (int i = 0; i < log.size() && size_t(i) < schedule.size(); ++i) {
            if (log.isDone(i))
                late.push_back(log.sentMicros(i) - schedule[size_t(i)]);
        }
        point.lateUsP50 = percentile(late, 50);
        point.lateUsP99 = percentile(late, 99);
    }
    return point;
}

QJsonObject SweepPoint::toJson() const
{
    QJsonObject json;
    json[QStringLiteral("rate_per_ms")] = ratePerMs;
    json[QStringLiteral("pace")] = sweepPacingName(pacing);
    json[QStringLiteral("requests")] = requests;
    json[QStringLiteral("sent")] = sent;
    json[QStringLiteral("errors")] = errors;
    json[QStringLiteral("stored")] = stored;
    json[QStringLiteral("overwritten")] = overwritten;
    json[QStringLiteral("stored_fraction")] = storedFraction();
    json[QStringLiteral("theory_fraction")] = fractionOrNull(theoryFraction);
    json[QStringLiteral("difference_points")] = fractionOrNull(differencePoints());
    json[QStringLiteral("admitted")] = admitted;
    json[QStringLiteral("admitted_over_limit")] = admittedOverLimit;
    json[QStringLiteral("admitted_over_limit_fraction")] = admittedOverLimitFraction();
    json[QStringLiteral("timeline_rate_per_ms")] = timelineRatePerMs;
    if (lateUsP50 >= 0) {
        json[QStringLiteral("late_us_p50")] = lateUsP50;
        json[QStringLiteral("late_us_p99")] = lateUsP99;
    }
    json[QStringLiteral("duration_ms")] = durationMs;
    return json;
}

QJsonObject SweepResult::toJson() const
{
    QJsonObject json;
    json[QStringLiteral("schema")] = QStringLiteral("zsetlab.sweep/1");
    json[QStringLiteral("server_version")] = serverVersion;
    json[QStringLiteral("strategy")] = plan.burst.script().name();
    json[QStringLiteral("pace")] = sweepPacingName(plan.pacing);
    json[QStringLiteral("clock")] = clockName(plan.burst.clock);
    json[QStringLiteral("requests_per_point")] = plan.burst.requests;
    json[QStringLiteral("window_ms")] = plan.burst.windowMs;
    json[QStringLiteral("limit")] = plan.burst.limit;
    json[QStringLiteral("seed")] = QString::number(plan.burst.seed);
    json[QStringLiteral("stopped")] = stopped;
    QJsonArray entries;
    for (const SweepPoint& point : points)
        entries.append(point.toJson());
    json[QStringLiteral("points")] = entries;
    if (failure.isFailure()) {
        QJsonObject error;
        error[QStringLiteral("message")] = failure.message;
        if (failure.scriptLine > 0)
            error[QStringLiteral("line")] = failure.scriptLine;
        json[QStringLiteral("error")] = error;
    }
    return json;
}

QString SweepResult::toText() const
{
    const bool withLimit = plan.burst.limit > 0;
    const bool realClock = plan.burst.clock != ClockKind::Schedule;
    QStringList lines;
    lines << QStringLiteral("sweep of limiter %1 on Redis %2: %3 arrivals, clock %4, %L5 requests per point")
                 .arg(plan.burst.script().name(), serverVersion, sweepPacingName(plan.pacing),
                      clockName(plan.burst.clock))
                 .arg(plan.burst.requests);
    QString header = QStringLiteral("  %1 %2 %3 %4 %5")
                         .arg(QStringLiteral("rate/ms"), 8)
                         .arg(QStringLiteral("sent"), 9)
                         .arg(QStringLiteral("stored %"), 9)
                         .arg(QStringLiteral("theory %"), 9)
                         .arg(QStringLiteral("difference"), 11);
    if (withLimit)
        header += QStringLiteral(" %1").arg(QStringLiteral("over limit %"), 13);
    if (realClock)
        header += QStringLiteral(" %1 %2").arg(QStringLiteral("seen/ms"), 8).arg(QStringLiteral("late p50 us"), 12);
    lines << header;
    for (const SweepPoint& point : points) {
        QString row = QStringLiteral("  %1 %2 %3 %4 %5")
                          .arg(QString::number(point.ratePerMs, 'g', 4), 8)
                          .arg(QLocale().toString(point.sent), 9)
                          .arg(percentText(point.storedFraction()), 9)
                          .arg(percentText(point.theoryFraction), 9)
                          .arg(pointsText(point.differencePoints()), 11);
        if (withLimit)
            row += QStringLiteral(" %1").arg(percentText(point.admittedOverLimitFraction()), 13);
        if (realClock)
            row += QStringLiteral(" %1 %2")
                       .arg(QString::number(point.timelineRatePerMs, 'f', 2), 8)
                       .arg(point.lateUsP50 >= 0 ? QString::number(point.lateUsP50) : QStringLiteral("-"), 12);
        lines << row;
    }
    if (stopped)
        lines << QStringLiteral("  (stopped: %1 of %2 rates measured)").arg(points.size()).arg(plan.ratesPerMs.size());
    lines << (plan.pacing == SweepPacing::Poisson
                  ? QStringLiteral("theory for member = now: (1 - e^-L) / L with Poisson arrivals at L per ms")
                  : QStringLiteral("theory for member = now: d = 1/L with one arrival every d ms (100 % from d = 1)"));
    lines << QStringLiteral("(every millisecond with an arrival keeps one member); unique members: 100 %.");
    if (realClock)
        lines << QStringLiteral("seen/ms: arrivals per ms on the timeline Redis saw; late: how far behind its planned "
                                "time a request left.");
    return lines.join(QLatin1Char('\n'));
}
