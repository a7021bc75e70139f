#include "whatif.h"

#include "firecontrol.h"
#include "forkdialog.h"
#include "limiters/limitercatalog.h"
#include "run/runcursor.h"
#include "run/runmodel.h"

#include <algorithm>

WhatIf::WhatIf(const Stage& stage, QObject* parent)
    : QObject(parent)
    , m_stage(stage)
{ }

void WhatIf::ask()
{
    RunCursor* cursor = m_stage.runs->run(RunController::Left)->cursor();
    if (cursor->isEmpty())
        return;
    cursor->pause();
    const int at = cursor->position();
    ForkDialog dialog(*cursor->recording(), at, m_stage.dialogParent);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    if (!fire(at, dialog.change(), &error))
        emit failed(error);
}

bool WhatIf::fire(int from, const ForkChange& change, QString* error)
{
    const std::shared_ptr<const Recording> recording = m_stage.runs->run(RunController::Left)->recording();
    if (!recording) {
        *error = tr("Nothing to fork: fire a burst or open a replay first.");
        return false;
    }
    BurstPlan plan;
    if (!ReplayFork::plan(*recording, from, change, &plan, error))
        return false;
    plan.keepKey = true; // shown beside the run until the next burst or Reset, then deleted
    auto seed = [recording, from, plan](NodeConnections& nodes, QString* why) {
        return ReplayFork::seed(nodes, *recording, from, plan, why);
    };
    if (!m_stage.fireControl->fireFork(plan, seed)) {
        *error = m_stage.fireControl->error();
        return false;
    }
    m_stage.runs->setFork(from, recording);
    emit started(from, plan.requests);
    return true;
}

QString WhatIf::runTitle() const
{
    if (!isActive())
        return {};
    const QString strategy = recording()->info().limiter;
    const LimiterRef ran = LimiterCatalog::find(strategy);
    return tr("the run (%1)").arg(ran ? ran->displayName() : strategy);
}

QString WhatIf::whatIfTitle(const LimiterRef& fix) const
{
    if (!isActive())
        return {};
    return tr("what if (%1), from request %L2").arg(fix->displayName()).arg(from() + 1);
}

QString WhatIf::comparison(const BurstSummary& fired, const QString& runTitle, const QString& whatIfTitle) const
{
    if (!isActive())
        return {};
    // As far as the what-if went: a stopped one is compared with as many of the run's requests.
    const ReplayTotals original = recording()->totalsFrom(from(), from() + int(std::max<qint64>(fired.sent, 1)) - 1);
    return tr("From request %L1 on: %2: %L3 overwritten, %L4 beyond the limit · %5: %L6 overwritten, %L7 beyond "
              "the limit")
        .arg(from() + 1)
        .arg(runTitle)
        .arg(original.overwritten)
        .arg(original.admittedBeyondLimit)
        .arg(whatIfTitle)
        .arg(fired.overwritten)
        .arg(fired.admittedOverLimit);
}
