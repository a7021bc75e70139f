#include "scripttools.h"

#include "burst/planmodel.h"
#include "debuggerview.h"
#include "limiters/limitercatalog.h"
#include "scriptdoctordialog.h"
#include "scriptview.h"
#include "widgets/screenfit.h"

ScriptTools::ScriptTools(const Stage& stage)
    : QObject(stage.window)
    , m_stage(stage)
{ }

void ScriptTools::bringUp(QWidget* window)
{
    if (!window->isVisible())
        ScreenFit::placeOnScreen(window, m_stage.window);
    window->show();
    window->raise();
}

ScriptDoctorDialog* ScriptTools::scriptDoctor()
{
    if (!m_doctor) {
        m_doctor = new ScriptDoctorDialog(m_stage.session, m_stage.window);
        connect(m_doctor, &ScriptDoctorDialog::scriptChosen, this,
                [this](const LimiterScript& script, std::shared_ptr<const CallTemplate> call, ReplyStyle style) {
                    m_stage.planModel->useCustomLimiter(LimiterCatalog::custom(script, std::move(call), style));
                    m_stage.status(tr("%1 is ready: press F5 to fire it.").arg(script.name()));
                });
    }
    return m_doctor;
}

void ScriptTools::showScriptDoctor()
{
    bringUp(scriptDoctor());
}

void ScriptTools::showScriptView(const QString& limiterId)
{
    if (!m_view)
        m_view = new ScriptView(m_stage.window);
    m_view->showLimiter(limiterId);
    bringUp(m_view);
}

DebuggerView* ScriptTools::stepNextRequest()
{
    if (!m_debugger)
        m_debugger = new DebuggerView(m_stage.session, m_stage.window);
    // The last request's `now` again, so it lands in the same millisecond, called as the burst
    // calls its limiter.
    const RunController::NextRequest next = m_stage.runs->nextRequest(m_stage.planModel->plan().burst);
    const RedisArgs call = next.plan.limiter->evalsha(next.values); // EVALSHA sha numkeys KEYS... ARGV...
    const int keyCount = call.value(2).toInt();
    m_debugger->setRequest(next.plan.script(), call.mid(3, keyCount), call.mid(3 + keyCount),
                           tr("%1 on %2, now = %3 (the last request's millisecond)")
                               .arg(next.plan.script().name(), QString::fromUtf8(next.values.key))
                               .arg(next.now));
    bringUp(m_debugger);
    return m_debugger;
}
