#include "runstatus.h"

#include "run/runcontroller.h"
#include "run/runmodel.h"
#include "whatif.h"

#include <algorithm>
#include <limits>

namespace {
QString figuresOf(const BurstSummary& summary)
{
    return summary.addedKnown()
        ? RunStatus::tr("%L1 sent, %L2 stored, %L3 lost").arg(summary.sent).arg(summary.stored).arg(summary.lost)
        : RunStatus::tr("%L1 sent; stored unknown (the replies do not say), %Ln member(s) in the ZSET", nullptr,
                        int(std::min<qint64>(summary.membersAtEnd, std::numeric_limits<int>::max())))
              .arg(summary.sent);
}
} // namespace

QString RunStatus::finished(const RunController& runs, const WhatIf& whatIf)
{
    const QString leftTitle = runs.run(RunController::Left)->title();
    const QString rightTitle = runs.run(RunController::Right)->title();
    if (whatIf.isActive()) {
        if (!runs.hasRun(RunController::Right))
            return {};
        const BurstSummary fork = runs.summary(RunController::Right);
        return fork.failure.isFailure() ? fork.failure.message : whatIf.comparison(fork, leftTitle, rightTitle);
    }
    // In compare mode both sides, each named: the fix's figures alone would hide the loss.
    const BurstSummary left = runs.summary(RunController::Left);
    QString figures = figuresOf(left);
    bool stopped = left.stopped;
    BurstFailure failure = left.failure;
    if (runs.isCompare() && runs.hasRun(RunController::Right)) {
        const BurstSummary right = runs.summary(RunController::Right);
        figures = tr("%1: %2 · %3: %4").arg(leftTitle, figures, rightTitle, figuresOf(right));
        stopped = stopped || right.stopped;
        if (!failure.isFailure())
            failure = right.failure;
    }
    return failure.isFailure() ? failure.message
        : stopped              ? tr("Stopped: %1.").arg(figures)
                               : tr("Done: %1.").arg(figures);
}
