#include "sweeptablemodel.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace {
QString percentText(double percent)
{
    return std::isfinite(percent) ? QLocale().toString(percent, 'f', 1) : QStringLiteral("?");
}

QString countText(qint64 count)
{
    return QLocale().toString(count);
}

// Without a limit nothing is "beyond" it: unknown, not zero.
double overLimitPercent(const SweepPoint& point)
{
    return point.limit > 0 ? 100.0 * point.admittedOverLimitFraction() : std::numeric_limits<double>::quiet_NaN();
}

QString differenceText(double points)
{
    if (!std::isfinite(points))
        return QStringLiteral("?");
    // A difference that rounds to zero has no sign.
    return std::round(points * 10) == 0
        ? QLocale().toString(0.0, 'f', 1)
        : (points > 0 ? QStringLiteral("+") : QString()) + QLocale().toString(points, 'f', 1);
}
} // namespace

SweepTableModel::SweepTableModel(QObject* parent)
    : RowTableModel<SweepPoint>(
        {
            {[] { return tr("rate /ms"); }, [] { return tr("Arrivals per millisecond asked for."); },
             [](const SweepPoint& point) { return QLocale().toString(point.ratePerMs, 'g', 4); },
             [](const SweepPoint& point) { return QVariant(point.ratePerMs); }},
            {[] { return tr("sent"); }, [] { return tr("Requests finished (answered or failed)."); },
             [](const SweepPoint& point) { return countText(point.sent); },
             [](const SweepPoint& point) { return QVariant(double(point.sent)); }},
            {[] { return tr("stored"); },
             [] { return tr("Requests that got a ZSET member of their own (ZADD replied 1)."); },
             [](const SweepPoint& point) { return countText(point.stored); },
             [](const SweepPoint& point) { return QVariant(double(point.stored)); },
             [](const SweepPoint& point) {
                 return tr("%L1 requests only overwrote an existing member.").arg(point.overwritten);
             }},
            {[] { return tr("stored %"); }, [] { return tr("Stored as a share of the requests sent."); },
             [](const SweepPoint& point) { return percentText(100.0 * point.storedFraction()); },
             [](const SweepPoint& point) { return QVariant(100.0 * point.storedFraction()); }},
            {[] { return tr("theory %"); },
             [] {
                 return tr("What member = now allows at this rate: (1 − e^−L) / L for Poisson arrivals, d for one "
                           "arrival every d ms; 100 % for unique members.");
             },
             [](const SweepPoint& point) { return percentText(100.0 * point.theoryFraction); },
             [](const SweepPoint& point) { return QVariant(100.0 * point.theoryFraction); }},
            {[] { return tr("diff. pp"); }, [] { return tr("Measured minus theory, in percentage points."); },
             [](const SweepPoint& point) { return differenceText(point.differencePoints()); },
             [](const SweepPoint& point) { return QVariant(point.differencePoints()); }},
            {[] { return tr("over limit %"); },
             [] { return tr("Requests admitted while the true number in the window was above the limit."); },
             [](const SweepPoint& point) {
                 return point.limit > 0 ? percentText(overLimitPercent(point)) : QStringLiteral("–");
             },
             [](const SweepPoint& point) { return QVariant(overLimitPercent(point)); },
             [](const SweepPoint& point) {
                 return point.limit > 0
                     ? tr("%L1 of %L2 requests were admitted while more than %L3 were really in the window.")
                           .arg(point.admittedOverLimit)
                           .arg(point.sent)
                           .arg(point.limit)
                     : QString();
             }},
        },
        parent)
{ }
