#include "headlessexport.h"

#include "exportactions.h"
#include "firecontrol.h"
#include "limiterexperiment.h"
#include "pictureexport.h"
#include "serversession.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTextStream>

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
    connect(session, &ServerSession::failed, this, [this](const QString& message) { fail(message, 3); });
    if (session->isUsable())
        fire();
    else
        connect(session, &ServerSession::connected, this, &HeadlessExport::fire, Qt::SingleShotConnection);
}

void HeadlessExport::fire()
{
    if (m_done)
        return;
    connect(m_stage.experiment, &LimiterExperiment::allFinished, this, [this] {
        // Let the views take the last batch and lay out at the asked size before the picture.
        QTimer::singleShot(150, this, &HeadlessExport::write);
    });
    if (!m_stage.fireControl->fire(m_job.scenario.experiment))
        fail(m_stage.fireControl->error(), 1);
}

void HeadlessExport::write()
{
    const BurstSummary summary = m_stage.experiment->engine(LimiterExperiment::Left).summary();
    if (summary.failure.isFailure())
        return fail(summary.failure.message, summary.failure.kind == BurstFailure::Kind::Connection ? 3 : 4);
    QString error;
    if (!m_job.png.isEmpty() && !PictureExport::writePng(m_stage.window, m_job.png, m_job.scale, &error))
        return fail(error, 1);
    if (!m_job.svg.isEmpty()
        && !PictureExport::writeSvg(m_stage.window, m_job.svg,
                                    m_job.scenario.title.isEmpty() ? QStringLiteral("zsetlab") : m_job.scenario.title,
                                    &error))
        return fail(error, 1);
    if (!m_job.json.isEmpty() && !ExportActions::writeSummary(*m_stage.experiment, m_job.json, &error))
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
