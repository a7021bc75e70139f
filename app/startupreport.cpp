#include "startupreport.h"

#include "redis/serversession.h"

#include <QCoreApplication>
#include <QEvent>
#include <QTimer>
#include <QWidget>

#include <chrono>

Q_LOGGING_CATEGORY(lcStartup, "zsetlab.startup", QtWarningMsg)

namespace {
// CLOCK_MONOTONIC on Linux: the same clock in every process of the machine.
qint64 nanosSinceSteadyEpoch()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

StartupReport::StartupReport(QWidget* window, ServerSession* session)
    : QObject(window)
    , m_session(session)
{
    window->installEventFilter(this);
    connect(session, &ServerSession::connected, this, &StartupReport::reportWhenReady);
}

bool StartupReport::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Paint && !m_painted) {
        m_painted = true;
        // After this paint and the rest of its frame, not before it.
        QTimer::singleShot(0, this, &StartupReport::reportWhenReady);
    }
    return QObject::eventFilter(watched, event);
}

void StartupReport::reportWhenReady()
{
    if (m_reported || !m_painted || !m_session->isUsable())
        return;
    m_reported = true;
    qCInfo(lcStartup, "window painted and connected; steady clock %lld ns", nanosSinceSteadyEpoch());
}
