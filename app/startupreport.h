#pragma once

#include <QLoggingCategory>
#include <QObject>

class ServerSession;
class QWidget;

Q_DECLARE_LOGGING_CATEGORY(lcStartup)

// The moment a started window is ready for a class: painted on screen, with its server connected.
// Said once, under the logging category zsetlab.startup (silent unless asked for, as with
// QT_LOGGING_RULES="zsetlab.startup.info=true"), as a moment on the monotonic clock: the program
// that started zsetlab measures the cold start from its own side, with the process's start and its
// libraries' loading included (bench_gui does).
class StartupReport : public QObject
{
    Q_OBJECT
public:
    // Watches `window` and `session` (both outlive it; it is the window's child).
    StartupReport(QWidget* window, ServerSession* session);
    static bool isWanted() { return lcStartup().isInfoEnabled(); }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void reportWhenReady();

    ServerSession* m_session;
    bool m_painted = false;
    bool m_reported = false;
};
