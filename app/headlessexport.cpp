#include "headlessexport.h"

#include "exportactions.h"
#include "mainwindow.h"
#include "pictureexport.h"
#include "serversession.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTextStream>

HeadlessExport::HeadlessExport(MainWindow* window, Job job)
    : QObject(window)
    , m_window(window)
    , m_job(std::move(job))
{
    m_timeout.setSingleShot(true);
    m_timeout.setInterval(m_job.timeoutMs);
    connect(&m_timeout, &QTimer::timeout, this,
            [this] { fail(tr("The burst did not end within %1 s.").arg(m_job.timeoutMs / 1000), 1); });
}

void HeadlessExport::start()
{
    m_window->resize(m_job.size);
    m_window->applyScenario(m_job.scenario);
    m_timeout.start();
    ServerSession* session = m_window->session();
    connect(session, &ServerSession::failed, this, [this](const QString& message) { fail(message, 3); });
    if (session->isUsable())
        fire();
    else
        connect(session, &ServerSession::connected, this, &HeadlessExport::fire, Qt::SingleShotConnection);
}

void HeadlessExport::fire()
{
    LimiterExperiment* experiment = m_window->experiment();
    connect(experiment, &LimiterExperiment::allFinished, this, [this] {
        // Let the views take the last batch and lay out at the asked size before the picture.
        QTimer::singleShot(150, this, &HeadlessExport::write);
    });
    m_window->fire();
    if (!experiment->isRunning())
        fail(experiment->error().isEmpty() ? tr("The burst could not start.") : experiment->error(), 1);
}

void HeadlessExport::write()
{
    const BurstSummary summary = m_window->experiment()->engine(LimiterExperiment::Left).summary();
    if (summary.failure.isFailure())
        return fail(summary.failure.message, summary.failure.kind == BurstFailure::Kind::Connection ? 3 : 4);
    QString error;
    if (!m_job.png.isEmpty() && !PictureExport::writePng(m_window, m_job.png, m_job.scale, &error))
        return fail(error, 1);
    if (!m_job.svg.isEmpty()
        && !PictureExport::writeSvg(m_window, m_job.svg,
                                    m_job.scenario.title.isEmpty() ? QStringLiteral("zsetlab") : m_job.scenario.title,
                                    &error))
        return fail(error, 1);
    if (!m_job.json.isEmpty() && !ExportActions::writeSummary(m_window, m_job.json, &error))
        return fail(error, 1);
    m_done = true;
    m_timeout.stop();
    QTextStream(stderr) << "zsetlab: wrote "
                        << QStringList {m_job.png, m_job.svg, m_job.json}
                               .filter(QRegularExpression(QStringLiteral(".")))
                               .join(QStringLiteral(", "))
                        << '\n';
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
