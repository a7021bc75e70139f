#pragma once

// SweepPoint: one point of a rate sweep (its pacing and rate) and what the burst at that point measured.

#include "burstplan.h"
#include "results/burstsummary.h"

#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QVector>

class RequestLog;

// How the requests of one sweep point arrive.
enum class SweepPacing {
    Poisson, // random arrivals at the rate (the usual model of independent users)
    Even, // one request every 1/rate ms
};
QString sweepPacingName(SweepPacing pacing); // "poisson", "even"
bool parseSweepPacing(const QString& name, SweepPacing* pacing);
// The burst pacing of a point: poisson:RATE, or interval:round(1000 / RATE) microseconds.
Pacing sweepPacingAt(SweepPacing pacing, double ratePerMs);

// The stored fraction that `member = now` (millisecond timestamps) allows at this rate: every
// millisecond with at least one arrival keeps one member, so (1 - e^-L) / L for Poisson arrivals
// and min(1, d) for arrivals every d = 1/L ms.
double theoryStoredFraction(SweepPacing pacing, double ratePerMs);
// The same for a limiter: 1 for the fixes, unique members (random counts as unique, as it is on
// Redis 7; before 7.0 it collides like now), NaN for the others (unknown).
double theoryStoredFraction(const LimiterEntry& limiter, SweepPacing pacing, double ratePerMs);

// A rate sweep: one burst per rate, each on a fresh key.
struct SweepPlan
{
    QVector<double> ratesPerMs = defaultRates();
    SweepPacing pacing = SweepPacing::Poisson;
    // Strategy, clock, requests per point, window, limit, seed, connections, pipeline of every
    // point; its pacing and key are set per point.
    BurstPlan burst = defaultBurst();

    static constexpr double minRate = 0.001;
    static constexpr double maxRate = 1000;
    static constexpr int maxPoints = 100;

    // 0.1 to 30 per ms, about log-spaced (1-2-5 steps): covers the figures of FACTS.md.
    static QVector<double> defaultRates();
    // 5000 requests per point (enough for 2 points of accuracy) on the schedule clock.
    static BurstPlan defaultBurst();
    // "0.1,0.5,2" (commas or spaces); false with a message naming the bad entry.
    static bool parseRates(const QString& text, QVector<double>* rates, QString* error);

    // Empty when the sweep can run, else a message naming the field.
    QString validate() const;
    BurstPlan planAt(int index) const;
};

// The measurement at one rate.
struct SweepPoint
{
    int index = 0;
    double ratePerMs = 0;
    SweepPacing pacing = SweepPacing::Poisson;
    QString limiter; // the limiter's id (a user's script: its file name); "strategy" in JSON
    QString clock;
    qint64 requests = 0; // planned
    qint64 sent = 0; // finished: answered or failed
    qint64 errors = 0;
    qint64 stored = 0; // created a member of their own
    qint64 overwritten = 0;
    qint64 limit = 0;
    qint64 admitted = 0;
    qint64 admittedOverLimit = 0;
    double theoryFraction = 0; // NaN: unknown (custom script)
    // Arrivals per ms on the timeline the limiter saw (the `now`s sent): the rate asked for on the
    // schedule clock; on a real clock what the sender managed.
    double timelineRatePerMs = 0;
    // Real pacing only: how late requests left compared with their planned time (-1: not paced).
    qint64 lateUsP50 = -1;
    qint64 lateUsP99 = -1;
    double durationMs = 0;

    // Builds the point from a finished burst.
    static SweepPoint measure(const SweepPlan& plan, int index, const BurstSummary& summary, const RequestLog& log);

    double storedFraction() const { return sent > 0 ? double(stored) / double(sent) : 0.0; }
    double admittedOverLimitFraction() const { return sent > 0 ? double(admittedOverLimit) / double(sent) : 0.0; }
    // Measured minus theory, in percentage points.
    double differencePoints() const { return 100.0 * (storedFraction() - theoryFraction); }
    QJsonObject toJson() const;
};

// A finished (or stopped, or failed) sweep: what the CLI prints and the GUI exports.
struct SweepResult
{
    SweepPlan plan;
    QVector<SweepPoint> points;
    QString serverVersion;
    bool stopped = false;
    BurstFailure failure;

    QJsonObject toJson() const;
    // A header and one table row per point: rate, sent, stored %, theory %, difference (plus the
    // fraction admitted beyond the limit with a limit, and the rate achieved on a real clock).
    QString toText() const;
};

Q_DECLARE_METATYPE(SweepPoint)
