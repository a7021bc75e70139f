#include "exitcodes.h"

#include "base/interrupts.h"
#include "results/burstsummary.h"

#include <QTextStream>

int exitCodeForBurst(const BurstFailure& failure, const char* command)
{
    switch (failure.kind) {
    case BurstFailure::Kind::None:
        return ExitDone;
    case BurstFailure::Kind::Plan:
        return ExitUsage;
    case BurstFailure::Kind::Connection:
    case BurstFailure::Kind::Script:
    case BurstFailure::Kind::Eviction:
        QTextStream(stderr) << command << ": " << failure.message << '\n';
        if (failure.kind == BurstFailure::Kind::Eviction)
            return ExitEviction;
        return failure.kind == BurstFailure::Kind::Connection ? ExitConnection : ExitScript;
    }
    return ExitDone;
}

int exitCodeForRun(const BurstSummary& summary, const char* command)
{
    const int code = exitCodeForBurst(summary.failure, command);
    if (!summary.keysLeft.isEmpty())
        QTextStream(stderr) << command << ": " << summary.keysLeftText() << '\n';
    if (!summary.sandbox.leftBehind.isEmpty())
        QTextStream(stderr) << command << ": " << summary.sandbox.leftBehind << '\n';
    if (code == ExitDone && (summary.stopped || interrupted())) // a signal near the end is not lost
        return ExitInterrupted;
    const bool leftBehind = !summary.keysLeft.isEmpty() || !summary.sandbox.leftBehind.isEmpty();
    return code == ExitDone && leftBehind ? ExitKeysLeft : code;
}
