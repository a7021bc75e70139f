#include "exitcodes.h"

#include "burstsummary.h"

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
        QTextStream(stderr) << command << ": " << failure.message << '\n';
        return failure.kind == BurstFailure::Kind::Connection ? ExitConnection : ExitScript;
    }
    return ExitDone;
}

int exitCodeForRun(const BurstSummary& summary, const char* command)
{
    const int code = exitCodeForBurst(summary.failure, command);
    if (!summary.keysLeft.isEmpty())
        QTextStream(stderr) << command << ": " << summary.keysLeftText() << '\n';
    if (code == ExitDone && summary.stopped)
        return ExitInterrupted;
    return code == ExitDone && !summary.keysLeft.isEmpty() ? ExitKeysLeft : code;
}
