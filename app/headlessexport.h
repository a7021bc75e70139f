#pragma once

#include "scenario.h"

#include <QObject>
#include <QSize>
#include <QTimer>

class MainWindow;

// `zsetlab --scenario FILE --export-png OUT.png …`: runs the scenario against the Redis in use,
// waits for the burst to end, writes the files and ends with an exit code, without a display.
class HeadlessExport : public QObject
{
    Q_OBJECT
public:
    struct Job
    {
        Scenario scenario;
        QString png;
        QString svg;
        QString json;
        QSize size {1600, 900};
        double scale = 1.0;
        int timeoutMs = 10 * 60 * 1000;
    };

    HeadlessExport(MainWindow* window, Job job);
    // Starts when the window's server is connected; finished(code) when done.
    void start();

signals:
    void finished(int exitCode);

private:
    void fire();
    void write();
    void fail(const QString& message, int code);

    MainWindow* m_window;
    Job m_job;
    QTimer m_timeout;
    bool m_done = false;
};
