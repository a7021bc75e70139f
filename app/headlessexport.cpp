#include "headlessexport.h"

#include "base/interrupts.h"
#include "redis/serversession.h"
#include "replay/replayfile.h"
#include "run/exportactions.h"
#include "run/firecontrol.h"
#include "run/runcontroller.h"
#include "web/webpage.h"
#include "widgets/pictureexport.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTextStream>

int HeadlessExport::writeWebPage(const QString& replay, const QString& beside, const QString& output,
                                 const QString& language)
{
    QTextStream err(stderr);
    const QStringList inputs {replay, beside};
    if (const QString refused = WebPage::refusal(output, inputs); !refused.isEmpty()) {
        err << "zsetlab: " << refused << '\n';
        return 2;
    }
    Recording runs[WebPage::maxSides];
    std::vector<WebPage::Side> sides;
    for (const QString& path : inputs) {
        if (path.isEmpty())
            continue;
        Recording& recording = runs[sides.size()];
        QString error;
        if (!ReplayFile::open(path, &recording, &error)) {
            err << "zsetlab: " << error << '\n';
            return interrupted() ? interruptedExitCode : 4;
        }
        sides.push_back({&recording, {}});
    }
    WebPage::Options options;
    options.language = language;
    QString error;
    if (!WebPage::write(output, sides, options, &error, inputs)) {
        err << "zsetlab: " << error << '\n';
        if (interrupted())
            return interruptedExitCode;
        if (sides.front().recording->isEmpty() || sides.back().recording->isEmpty())
            return 4;
        return notWrittenExitCode; // checked before: a path that changed since is a write that failed
    }
    QTextStream(stdout) << "zsetlab: wrote " << output << '\n';
    return 0;
}

HeadlessExport::HeadlessExport(Stage stage, Job job, QObject* parent)
    : QObject(parent)
    , m_stage(stage)
    , m_job(std::move(job))
{
    m_timeout.setSingleShot(true);
    m_timeout.setInterval(m_job.timeoutMs);
    connect(&m_timeout, &QTimer::timeout, this,
            [this] { fail(tr("The burst did not end within %1 s.").arg(m_job.timeoutMs / 1000), 1); });
}

void HeadlessExport::start()
{
    m_stage.window->resize(m_job.size);
    m_timeout.start();
    ServerSession* session = m_stage.session;
    // Before the burst: no server, nothing to show. Once it runs, the burst's own end decides
    // (write()), so that what it got before the server went is written.
    connect(session, &ServerSession::failed, this, [this](const QString& message) {
        if (!m_fired)
            fail(message, 3);
    });
    if (session->isUsable())
        fire();
    else
        connect(session, &ServerSession::connected, this, &HeadlessExport::fire, Qt::SingleShotConnection);
}

void HeadlessExport::fire()
{
    if (m_done)
        return;
    m_fired = true;
    connect(m_stage.runs, &RunController::allFinished, this, [this] {
        // Let the views take the last batch and lay out at the asked size before the picture.
        QTimer::singleShot(150, this, &HeadlessExport::write);
    });
    if (!m_stage.fireControl->fire(m_job.scenario.experiment))
        fail(m_stage.fireControl->error(), 1);
}

void HeadlessExport::interrupt()
{
    if (m_done)
        return;
    m_interrupted = true;
    if (!m_fired)
        return fail(tr("Interrupted before the burst started."), interruptedExitCode);
    m_stage.runs->experiment()->stop(); // allFinished follows, then write()
}

void HeadlessExport::write()
{
    const BurstSummary summary = m_stage.runs->summary(RunController::Left);
    const int failureCode = summary.failure.kind == BurstFailure::Kind::Connection ? 3 : 4;
    // Nothing was sent (a refused key, a script that does not load): there is nothing to show.
    if (summary.failure.isFailure() && summary.sent == 0)
        return fail(summary.failure.message, failureCode);
    // A burst the server ended still shows what was answered: the partial picture and summary
    // (whose JSON carries the error) are written before the failure is reported.
    QString error;
    if (!m_job.png.isEmpty() && !PictureExport::writePng(m_stage.window, m_job.png, m_job.scale, &error))
        return fail(error, notWrittenExitCode);
    if (!m_job.svg.isEmpty()
        && !PictureExport::writeSvg(m_stage.window, m_job.svg,
                                    m_job.scenario.title.isEmpty() ? QStringLiteral("zsetlab") : m_job.scenario.title,
                                    &error))
        return fail(error, notWrittenExitCode);
    if (!m_job.json.isEmpty() && !ExportActions::writeSummary(*m_stage.runs, m_job.json, &error))
        return fail(error, notWrittenExitCode);
    const QString written = QStringList {m_job.png, m_job.svg, m_job.json}
                                .filter(QRegularExpression(QStringLiteral(".")))
                                .join(QStringLiteral(", "));
    if (m_interrupted) {
        QTextStream(stderr) << "zsetlab: wrote the partial results (" << summary.sent << " of " << summary.requests
                            << " requests sent) to " << written << '\n';
        return fail(tr("Interrupted: the burst was stopped before its end."), interruptedExitCode);
    }
    if (summary.failure.isFailure()) {
        QTextStream(stderr) << "zsetlab: wrote the partial results (" << summary.sent << " of " << summary.requests
                            << " requests sent) to " << written << '\n';
        return fail(summary.failure.message, failureCode);
    }
    m_done = true;
    m_timeout.stop();
    QTextStream(stderr) << "zsetlab: wrote " << written << '\n';
    emit finished(0);
}

void HeadlessExport::fail(const QString& message, int code)
{
    if (m_done)
        return;
    m_done = true;
    m_timeout.stop();
    QTextStream(stderr) << "zsetlab: " << message << '\n';
    emit finished(code);
}
