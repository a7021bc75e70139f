#include "firecontrol.h"

#include "burst/limiterexperiment.h"
#include "redis/serversession.h"
#include "widgets/evictionquestion.h"

#include <QMessageBox>

bool confirmRemoteLoad(QWidget* parent, const RedisEndpoint& endpoint, QString* confirmed)
{
    if (endpoint.isLocal() || *confirmed == endpoint.address())
        return true;
    const auto answer = QMessageBox::warning(
        parent, FireControl::tr("Load a remote server?"),
        FireControl::tr("%1 is not on this machine. This writes thousands of requests to it (under keys starting "
                        "with zsetlab:). Fire only at a server that is yours to load.")
            .arg(endpoint.address()),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes)
        return false;
    *confirmed = endpoint.address();
    return true;
}

FireControl::FireControl(ServerSession* session, LimiterExperiment* experiment, QWidget* dialogParent)
    : QObject(dialogParent)
    , m_session(session)
    , m_experiment(experiment)
    , m_dialogParent(dialogParent)
{ }

void FireControl::setRemoteAllowed(bool allowed, bool ask)
{
    m_remoteAllowed = allowed;
    m_ask = ask;
}

bool FireControl::mayFire()
{
    m_error.clear();
    if (m_experiment->isRunning()) {
        m_error = tr("A burst is running: stop it first.");
        return false;
    }
    if (!m_session->isUsable()) {
        m_error = tr("Not connected to Redis: use Connect… first.");
        return false;
    }
    const RedisEndpoint& endpoint = m_session->endpoint();
    if (!endpoint.isLocal() && !m_remoteAllowed) {
        if (!m_ask) {
            m_error = tr("%1 is not on this machine: zsetlab fires at a remote server only when allowed "
                         "(--allow-remote).")
                          .arg(endpoint.address());
            return false;
        }
        if (!confirmRemoteLoad(m_dialogParent, endpoint, &m_confirmedRemote)) {
            m_error = tr("Not fired: %1 is not on this machine.").arg(endpoint.address());
            return false;
        }
    }
    ConnectOptions options = m_session->options();
    if (m_ask) { // headless runs ask no one: the run itself refuses without --allow-eviction
        if (!confirmEviction(m_dialogParent, endpoint, options, &m_confirmedEviction)) {
            m_error = tr("Not fired: %1 deletes keys to make room when it is full.").arg(endpoint.address());
            return false;
        }
        options.allowEviction = options.allowEviction || m_confirmedEviction == endpoint.address();
    }
    m_experiment->setServer(endpoint, options);
    return true;
}

bool FireControl::fire(const ExperimentPlan& plan)
{
    if (!mayFire())
        return false;
    if (!m_experiment->fire(plan)) {
        m_error = m_experiment->error();
        return false;
    }
    return true;
}

bool FireControl::fireFork(const BurstPlan& plan, const LimiterExperiment::Preparation& prepare)
{
    if (!mayFire())
        return false;
    if (!m_experiment->fireFork(plan, prepare)) {
        m_error = m_experiment->error();
        return false;
    }
    return true;
}
