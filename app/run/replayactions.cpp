#include "replayactions.h"

#include "replayfile.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>

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
}

bool ReplayActions::open(const QString& path)
{
    auto recording = std::make_shared<Recording>();
    QString error;
    if (!ReplayFile::open(path, recording.get(), &error)) {
        QMessageBox::warning(m_host.dialogParent, tr("Open Replay"),
                             tr("%1\n\nNothing was changed: open another replay.").arg(error));
        return false;
    }
    if (recording->isEmpty()) {
        QMessageBox::warning(
            m_host.dialogParent, tr("Open Replay"),
            tr("%1 holds no request: its run was stopped before the first answer.").arg(QFileInfo(path).fileName()));
        return false;
    }
    m_host.show(std::move(recording), path);
    updateEnabled();
    return true;
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
