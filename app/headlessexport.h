#pragma once

#include "burst/scenario.h"

#include <QObject>
#include <QSize>
#include <QTimer>

class FireControl;
class RunController;
class ServerSession;
class QWidget;

// `zsetlab --scenario FILE --export-png OUT.png …`: runs the scenario's plan against the Redis in
// use, waits for the burst to end, writes the files and ends with an exit code, without a display.
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
    // What it runs on: the window (its picture), the session, the runs and how to fire.
    struct Stage
    {
        QWidget* window = nullptr;
        ServerSession* session = nullptr;
        RunController* runs = nullptr; // the runs fired and what they ran
        FireControl* fireControl = nullptr;
    };

    // zsetlab's exit codes for exports, as zsetlab-cli's: a file asked for that could not be written
    // (a full disk, say: the system's reason on stderr, no partial file left), and Ctrl+C or SIGTERM.
    static constexpr int notWrittenExitCode = 7;
    static constexpr int interruptedExitCode = 130;

    HeadlessExport(Stage stage, Job job, QObject* parent = nullptr);

    // `zsetlab --replay FILE --export-html OUT.html [--beside OTHER]`: the replay (and the one
    // beside it) as a web page opening in `language`; no window, no Redis. The exit code: 0, 2
    // for a page that cannot be written there, 4 for a replay that cannot be read; the reason on stderr.
    static int writeWebPage(const QString& replay, const QString& beside, const QString& output,
                            const QString& language);
    // Listens to the session (call it before connecting): fires once connected, fails when the
    // session cannot connect; finished(code) when done.
    void start();
    // SIGTERM or SIGINT: before the burst, ends at once; during it, stops it, writes what was
    // answered, and ends with 130 either way.
    void interrupt();

signals:
    void finished(int exitCode);

private:
    void fire();
    void write();
    void fail(const QString& message, int code);

    Stage m_stage;
    Job m_job;
    QTimer m_timeout;
    bool m_fired = false; // the burst was handed to FireControl
    bool m_interrupted = false;
    bool m_done = false;
};
