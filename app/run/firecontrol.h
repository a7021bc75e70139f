#pragma once

// FireControl: the one way the window fires a plan, asking first before loading a server that is not local.

#include "burst/experimentplan.h"
#include "burst/limiterexperiment.h"

#include <QObject>
#include <QString>

class LimiterExperiment;
class RedisEndpoint;
class ServerSession;
class QWidget;

// Asks before loading a server that is not on this machine (once per address and session).
// True when it may be loaded; *confirmed remembers the address agreed to.
bool confirmRemoteLoad(QWidget* parent, const RedisEndpoint& endpoint, QString* confirmed);

// Fires experiment plans at the session's server: the window's Fire, the lesson's steps and the
// headless export all go through here, with the plan they hand over (never read from widgets).
// Checks that a server is usable and asks before a remote one, and before one that evicts keys.
class FireControl : public QObject
{
    Q_OBJECT
public:
    FireControl(ServerSession* session, LimiterExperiment* experiment, QWidget* dialogParent);

    // False with error() when nothing was fired: no server, the user declined, a bad plan, or a
    // burst already running.
    bool fire(const ExperimentPlan& plan);
    // A what-if from a recorded run (LimiterExperiment::fireFork), with the same checks.
    bool fireFork(const BurstPlan& plan, const LimiterExperiment::Preparation& prepare);
    QString error() const { return m_error; }
    // Headless runs ask no one: a remote server is refused unless allowed beforehand.
    void setRemoteAllowed(bool allowed, bool ask);

private:
    // The server is usable and may be loaded; the experiment is set to it. False with m_error.
    bool mayFire();

    ServerSession* m_session;
    LimiterExperiment* m_experiment;
    QWidget* m_dialogParent;
    QString m_confirmedRemote;
    QString m_confirmedEviction;
    bool m_remoteAllowed = false;
    bool m_ask = true;
    QString m_error;
};
