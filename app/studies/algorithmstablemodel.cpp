#include "algorithmstablemodel.h"

#include "limiters/limitercatalog.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace {
using Column = AlgorithmsTableModel::Column;

// A count: the same number as text and as value.
template<typename Count>
Column count(std::function<QString()> header, std::function<QString()> tip, Count AlgorithmTally::*field)
{
    return {std::move(header), std::move(tip),
            [field](const AlgorithmTally& tally) { return QLocale().toString(qint64(tally.*field)); },
            [field](const AlgorithmTally& tally) { return QVariant(double(tally.*field)); }};
}

// A measure that may be unknown (negative in the tally): "?" and NaN then.
double known(double value)
{
    return value < 0 ? std::numeric_limits<double>::quiet_NaN() : value;
}
QString measureText(double value, int decimals)
{
    return std::isfinite(value) ? QLocale().toString(value, 'f', decimals) : QStringLiteral("?");
}
} // namespace

AlgorithmsTableModel::AlgorithmsTableModel(QObject* parent)
    : RowTableModel<AlgorithmTally>(
        {
            {[] { return tr("algorithm"); }, [] { return tr("The limiter's catalog id (lua/<id>.lua)."); },
             [](const AlgorithmTally& tally) { return tally.id; },
             [](const AlgorithmTally& tally) { return QVariant(tally.id); },
             [](const AlgorithmTally& tally) {
                 const LimiterRef limiter = LimiterCatalog::find(tally.id);
                 return limiter ? limiter->displayName() + QStringLiteral(": ") + limiter->displaySummary() : QString();
             },
             Qt::AlignLeft | Qt::AlignVCenter},
            count([] { return tr("admitted"); }, [] { return tr("Requests the algorithm admitted."); },
                  &AlgorithmTally::admitted),
            count([] { return tr("over limit"); },
                  [] {
                      return tr("Admitted although the exact sliding log refuses them: more than the limit got "
                                "through.");
                  },
                  &AlgorithmTally::admittedOverLimit),
            count([] { return tr("under limit"); },
                  [] {
                      return tr("Refused although the exact sliding log admits them: a request within the limit was "
                                "turned away.");
                  },
                  &AlgorithmTally::rejectedUnderLimit),
            {[] { return tr("bytes / user"); },
             [] { return tr("MEMORY USAGE of one user's keys at the end of the run."); },
             [](const AlgorithmTally& tally) { return measureText(known(tally.memoryBytesPerKey), 0); },
             [](const AlgorithmTally& tally) { return QVariant(known(tally.memoryBytesPerKey)); },
             [](const AlgorithmTally& tally) {
                 return tally.memoryBytes >= 0
                     ? tr("%L1 bytes in %n key(s) in all", nullptr, tally.keys).arg(tally.memoryBytes)
                     : QString();
             }},
            count([] { return tr("keys"); }, [] { return tr("The keys that held data at the end, for all users."); },
                  &AlgorithmTally::keys),
            {[] { return tr("µs / call"); },
             [] { return tr("Server time per EVALSHA call, from INFO commandstats before and after the run."); },
             [](const AlgorithmTally& tally) { return measureText(known(tally.serverUsecPerCall), 2); },
             [](const AlgorithmTally& tally) { return QVariant(known(tally.serverUsecPerCall)); },
             [](const AlgorithmTally& tally) {
                 return tally.serverCalls > 0 ? tr("over %L1 EVALSHA calls").arg(tally.serverCalls) : QString();
             }},
        },
        parent)
{ }
