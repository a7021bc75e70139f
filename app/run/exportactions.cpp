#include "exportactions.h"

#include "base/outputfile.h"
#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "results/dataexport.h"
#include "run/runcontroller.h"
#include "runview.h"
#include "widgets/pictureexport.h"
#include "zsetpanel.h"

#include <QBuffer>
#include <QFileDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QTableView>

namespace {
bool isJson(const QString& path)
{
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

// The bytes made in memory, written at the path whole or not at all, and only over a regular file
// (OutputFile: a device, a pipe or a link there is refused).
bool commit(const QBuffer& file, const QString& path, bool written, QString* error)
{
    if (!written) {
        *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return OutputFile::write(path, file.data(), error);
}
} // namespace

ExportActions::ExportActions(Sources sources, QMenu* fileMenu, QObject* parent)
    : QObject(parent)
    , m_sources(std::move(sources))
{
    translated(fileMenu->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_E), this, &ExportActions::exportPicture),
               QT_TR_NOOP("Export &Picture…"));
    translated(fileMenu->addAction(QString(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C), this,
                                   &ExportActions::copyPicture),
               QT_TR_NOOP("&Copy Picture"));
    QMenu* data = translatedMenu(fileMenu->addMenu(QString()), QT_TR_NOOP("Export &Data"));
    translated(data->addAction(QString(), this, &ExportActions::exportRequestLog),
               QT_TR_NOOP("&Request Log (CSV or JSON)…"));
    translated(data->addAction(QString(), this, &ExportActions::exportZsetSnapshot),
               QT_TR_NOOP("&ZSET Snapshot (CSV or JSON)…"));
    translated(data->addAction(QString(), this, &ExportActions::exportSummary), QT_TR_NOOP("&Summary (CSV or JSON)…"));
}

QString ExportActions::askPath(const QString& title, const QString& name)
{
    return QFileDialog::getSaveFileName(m_sources.window, title, name,
                                        tr("CSV tables (*.csv);;JSON documents (*.json)"));
}

void ExportActions::exportPicture()
{
    const QString saved = PictureExport::exportWithDialog(
        {
            {tr("Whole window"), m_sources.window},
            {tr("Runs (both sides in compare mode)"), m_sources.runs},
            {tr("Timeline"), m_sources.left->timeline()},
            {tr("Counts chart"), m_sources.left->counts()},
            {tr("ZSET table"), m_sources.zset->view()},
        },
        m_sources.window);
    if (!saved.isEmpty())
        m_sources.status(tr("Saved %1").arg(saved));
}

void ExportActions::copyPicture()
{
    PictureExport::copyToClipboard(m_sources.runs, 2.0);
    m_sources.status(tr("Copied a picture of the runs to the clipboard."));
}

bool ExportActions::writeRequestLog(const RunController& runs, const QString& path, QString* error)
{
    const RequestLog& log = runs.log(RunController::Left);
    // Streamed: a log of millions of requests is not held in memory.
    return OutputFile::writeWith(
        path,
        [&log, &path](QIODevice* file) {
            return isJson(path) ? DataExport::writeRequestLogJson(log, file)
                                : DataExport::writeRequestLogCsv(log, file);
        },
        error);
}

bool ExportActions::writeSummary(const RunController& runs, const QString& path, QString* error)
{
    if (const QString refused = OutputFile::refusal(path); !refused.isEmpty()) {
        *error = refused;
        return false;
    }
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    bool written = false;
    const BurstSummary left = runs.summary(RunController::Left);
    if (runs.isCompare() && runs.hasRun(RunController::Right)) {
        // Both sides, each the object `zsetlab-cli run --json` prints.
        const BurstSummary right = runs.summary(RunController::Right);
        if (isJson(path)) {
            QJsonObject both;
            both[QStringLiteral("schema")] = QStringLiteral("zsetlab.compare/1");
            both[QStringLiteral("now")] = left.toJson();
            both[QStringLiteral("unique")] = right.toJson();
            written = file.write(QJsonDocument(both).toJson()) >= 0;
        } else {
            written = DataExport::writeSummaryCsv(left, &file);
            QBuffer second;
            second.open(QIODevice::WriteOnly);
            DataExport::writeSummaryCsv(right, &second);
            written = written && file.write(second.data().mid(second.data().indexOf('\n') + 1)) >= 0;
        }
    } else {
        written = isJson(path) ? DataExport::writeSummaryJson(left, &file) : DataExport::writeSummaryCsv(left, &file);
    }
    return commit(file, path, written, error);
}

void ExportActions::exportRequestLog()
{
    const QString path = askPath(tr("Export Request Log"), QStringLiteral("requests.csv"));
    QString error;
    if (!path.isEmpty() && !writeRequestLog(*m_sources.runController, path, &error))
        QMessageBox::warning(m_sources.window, tr("Export Request Log"), error);
}

void ExportActions::exportSummary()
{
    const QString path = askPath(tr("Export Summary"), QStringLiteral("summary.json"));
    QString error;
    if (!path.isEmpty() && !writeSummary(*m_sources.runController, path, &error))
        QMessageBox::warning(m_sources.window, tr("Export Summary"), error);
}

void ExportActions::exportZsetSnapshot()
{
    ZsetPanel* panel = m_sources.zset;
    if (panel->key().isEmpty()) {
        QMessageBox::information(m_sources.window, tr("Export ZSET Snapshot"),
                                 tr("Fire a burst first: there is no ZSET yet."));
        return;
    }
    const QString path = askPath(tr("Export ZSET Snapshot"), QStringLiteral("zset.csv"));
    if (path.isEmpty())
        return;
    // The members are read on the reader's thread; the file is written when they arrive.
    auto* context = new QObject(this);
    connect(panel->reader(), &ZsetReader::snapshotReady, context,
            [this, context, path, panel](const QByteArray& key, const QVector<ZsetEntry>& members) {
                context->deleteLater();
                QString error;
                const bool ok = OutputFile::writeWith(
                    path,
                    [&](QIODevice* file) {
                        return isJson(path) ? DataExport::writeZsetJson(key, members, panel->writes(), file)
                                            : DataExport::writeZsetCsv(key, members, panel->writes(), file);
                    },
                    &error);
                if (ok)
                    m_sources.status(tr("Saved %Ln member(s) to %1", nullptr, members.size()).arg(path));
                else
                    QMessageBox::warning(m_sources.window, tr("Export ZSET Snapshot"), error);
            });
    connect(panel->reader(), &ZsetReader::failed, context, [this, context](const QString& message) {
        context->deleteLater();
        QMessageBox::warning(m_sources.window, tr("Export ZSET Snapshot"), message);
    });
    panel->reader()->requestSnapshot();
}

QAction* ExportActions::translated(QAction* action, const char* text)
{
    m_texts.add([action, text] { action->setText(tr(text)); });
    return action;
}

QMenu* ExportActions::translatedMenu(QMenu* menu, const char* text)
{
    m_texts.add([menu, text] { menu->setTitle(tr(text)); });
    return menu;
}
