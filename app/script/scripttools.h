#pragma once

#include "run/runcontroller.h"

#include <QObject>

#include <functional>

class DebuggerView;
class PlanModel;
class ScriptDoctorDialog;
class ScriptView;
class ServerSession;
class QWidget;

// The main window's script windows, each made when first asked for and opened on the window's
// screen: the Script Doctor (a script it accepts becomes the Burst panel's limiter), the limiter
// scripts side by side, and the debugger on "the next request" of the last run.
class ScriptTools : public QObject
{
    Q_OBJECT
public:
    struct Stage
    {
        QWidget* window = nullptr;
        ServerSession* session = nullptr;
        PlanModel* planModel = nullptr;
        RunController* runs = nullptr;
        std::function<void(const QString&)> status;
    };
    explicit ScriptTools(const Stage& stage);

    ScriptDoctorDialog* scriptDoctor();
    void showScriptDoctor();
    void showScriptView(const QString& limiterId);
    // Steps the next request of the last burst (same script, same key, same now) in Redis's Lua
    // debugger; before any burst, the Burst panel's plan on a fresh key.
    DebuggerView* stepNextRequest();

private:
    void bringUp(QWidget* window);

    Stage m_stage;
    ScriptDoctorDialog* m_doctor = nullptr;
    ScriptView* m_view = nullptr;
    DebuggerView* m_debugger = nullptr;
};
