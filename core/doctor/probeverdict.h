#pragma once

#include "scriptprobe.h"

// Turns what the probe saw into its verdict: how the replies read, which scenarios counted
// wrong, the expiry, the keys outside the probe's own, as sentences with the numbers.
namespace ProbeVerdict {

struct Context
{
    const ProbeSettings* settings = nullptr;
    bool microseconds = false; // the call carries {now_us}
    bool scriptReadsLimit = true;
};

void judge(ProbeReport* report, const QVector<QVector<ReplyReading>>& readings, const Context& context);
// "SET victim", or a keyless command with what it reaches, for lists of foreign keys.
QString describeTouch(const KeyTouch& touch);
QString duration(double ms);

// The parts of judge() (probesentences.cpp): one sentence per scenario, a burst with a limit
// told with the same burst without one; and how the replies were read.
void tellScenarios(ProbeReport* report, const Context& context);
QString replyReadingText(const ProbeReport& report);
QString touchList(const QVector<KeyTouch>& touches);

} // namespace ProbeVerdict
