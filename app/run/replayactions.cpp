#include "replayactions.h"

#include "replay/replayfile.h"
#include "web/webpage.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>

namespace {
QString filter()
{
    return ReplayActions::tr("zsetlab replays (*.%1);;All files (*)").arg(QLatin1String(ReplayFile::suffix));
}
} // namespace

ReplayActions::ReplayActions(Host host, QMenu* fileMenu, QObject* parent)
    : QObject(parent)
    , m_host(std::move(host))
{
    translated(fileMenu->addAction(QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
                                   &ReplayActions::openDialog),
               QT_TR_NOOP("Open Rep&lay…"));
    m_save = translated(fileMenu->addAction(QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), this,
                                            &ReplayActions::saveDialog),
                        QT_TR_NOOP("Save Repla&y…"));
    m_export = translated(fileMenu->addAction(QString(), this, &ReplayActions::exportDialog),
                          QT_TR_NOOP("Export &Animation…"));
    m_exportPage = translated(fileMenu->addAction(QString(), this, &ReplayActions::exportPageDialog),
                              QT_TR_NOOP("Export as &Web Page…"));
    fileMenu->addSeparator();
    updateEnabled();
}

QAction* ReplayActions::translated(QAction* action, const char* text)
{
    m_texts.add([action, text] { action->setText(tr(text)); });
    return action;
}

void ReplayActions::updateEnabled()
{
    const auto recording = m_host.current();
    m_save->setEnabled(recording && !recording->isEmpty());
    m_export->setEnabled(m_save->isEnabled());
    m_exportPage->setEnabled(m_save->isEnabled());
}

bool ReplayActions::open(const QString& path, QString* why)
{
    auto recording = std::make_shared<Recording>();
    QString error;
    if (!ReplayFile::open(path, recording.get(), &error)) {
        if (!why) // in the window: what is on screen stays
            error = tr("%1\n\nNothing was changed: open another replay.").arg(error);
    } else if (recording->isEmpty()) {
        error = tr("%1 holds no request: its run was stopped before the first answer.").arg(QFileInfo(path).fileName());
    } else {
        m_host.show(std::move(recording), path);
        updateEnabled();
        return true;
    }
    if (why)
        *why = error;
    else
        QMessageBox::warning(m_host.dialogParent, tr("Open Replay"), error);
    return false;
}

bool ReplayActions::save(const QString& path)
{
    const auto recording = m_host.current();
    if (!recording || recording->isEmpty())
        return false;
    QString error;
    if (!ReplayFile::save(path, *recording, &error)) {
        QMessageBox::warning(m_host.dialogParent, tr("Save Replay"), error);
        return false;
    }
    m_host.status(tr("Saved the run, %Ln request(s), as %1", nullptr, recording->requests()).arg(path));
    return true;
}

void ReplayActions::exportDialog()
{
    const auto recording = m_host.current();
    if (!recording || recording->isEmpty() || !m_host.exportAnimation)
        return;
    QString filter = tr("Animated GIF (*.gif)");
    AnimationJob job;
    job.path = QFileDialog::getSaveFileName(m_host.dialogParent, tr("Export Animation"), QStringLiteral("run.gif"),
                                            filter + QStringLiteral(";;") + tr("MP4 video (*.mp4)")
                                                + QStringLiteral(";;") + tr("WebM video (*.webm)"),
                                            &filter);
    if (job.path.isEmpty())
        return;
    if (QFileInfo(job.path).suffix().isEmpty()) // the suffix of the type chosen
        job.path += QLatin1Char('.') + filter.section(QLatin1String("*."), 1).section(QLatin1Char(')'), 0, 0);
    if (const QString refused = AnimationExport::refusal(&job, recording->requests()); !refused.isEmpty()) {
        QMessageBox::warning(m_host.dialogParent, tr("Export Animation"), refused);
        return;
    }
    QProgressDialog progress(tr("Drawing the run request by request…"), tr("Stop"), 0,
                             int(AnimationExport::schedule(job.from, job.to, job.speed).size()), m_host.dialogParent);
    progress.setWindowTitle(tr("Export Animation"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(500);
    QString error;
    const bool written = m_host.exportAnimation(job, &error, [&progress](int written, int) {
        progress.setValue(written);
        return !progress.wasCanceled();
    });
    progress.reset();
    if (!written) {
        QMessageBox::warning(m_host.dialogParent, tr("Export Animation"),
                             tr("The animation was not written: %1").arg(error));
        return;
    }
    m_host.status(tr("Exported the run as an animation: %1").arg(job.path));
}

bool ReplayActions::exportPage(const QString& path, QString* error)
{
    std::vector<std::shared_ptr<const Recording>> runs;
    if (m_host.shown)
        runs = m_host.shown();
    else if (auto current = m_host.current())
        runs.push_back(std::move(current));
    std::vector<WebPage::Side> sides;
    for (const auto& run : runs) {
        if (run && !run->isEmpty())
            sides.push_back({run.get(), {}});
    }
    if (sides.empty()) {
        *error = tr("There is no run on screen to export: fire a burst or open a replay first.");
        return false;
    }
    WebPage::Options options;
    options.language = m_host.language ? m_host.language() : QStringLiteral("en");
    return WebPage::write(path, sides, options, error);
}

void ReplayActions::exportPageDialog()
{
    QString path = QFileDialog::getSaveFileName(m_host.dialogParent, tr("Export as Web Page"),
                                                QStringLiteral("run.html"), tr("Web pages (*.html)"));
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".html");
    QString error;
    QApplication::setOverrideCursor(Qt::WaitCursor); // a large run takes a moment to pack
    const bool written = exportPage(path, &error);
    QApplication::restoreOverrideCursor();
    if (!written) {
        QMessageBox::warning(m_host.dialogParent, tr("Export as Web Page"),
                             tr("The web page was not written: %1").arg(error));
        return;
    }
    m_host.status(tr("Exported the run as a web page that plays offline: %1").arg(path));
}

void ReplayActions::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_host.dialogParent, tr("Open Replay"), QString(), filter());
    if (!path.isEmpty())
        open(path);
}

void ReplayActions::saveDialog()
{
    QString path
        = QFileDialog::getSaveFileName(m_host.dialogParent, tr("Save Replay"),
                                       QStringLiteral("run.%1").arg(QLatin1String(ReplayFile::suffix)), filter());
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + QLatin1String(ReplayFile::suffix);
    save(path);
}
