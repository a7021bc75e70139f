#pragma once

#include <QCoreApplication>
#include <QString>

class RunController;
class WhatIf;

// The status line once the runs ended: each side's figures (sent, stored, lost), named in compare
// mode, or why a run stopped or failed; a what-if's comparison with the run it forked from.
class RunStatus
{
    Q_DECLARE_TR_FUNCTIONS(RunStatus)
public:
    // Empty when there is nothing to say (a what-if that never started).
    static QString finished(const RunController& runs, const WhatIf& whatIf);
};
