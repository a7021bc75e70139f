#include "exportactions.h"

#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "dataexport.h"
#include "exportdialog.h"
#include "mainwindow.h"
#include "pictureexport.h"
#include "runview.h"
#include "zsetpanel.h"

#include <QBuffer>
#include <QFileDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QStatusBar>
#include <QTableView>

namespace {
bool isJson(const QString& path)
{
    return path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive);
}

bool commit(QSaveFile& file, const QString& path, bool written, QString* error)
{
    if (!written || !file.commit()) {
        *error = QObject::tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}
} // namespace

ExportActions::ExportActions(MainWindow* window, QMenu* fileMenu)
    : QObject(window)
    , m_window(window)
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
    return QFileDialog::getSaveFileName(m_window, title, name, tr("CSV tables (*.csv);;JSON documents (*.json)"));
}

void ExportActions::exportPicture()
{
    RunView* left = m_window->runView(LimiterExperiment::Left);
    const QList<ExportDialog::Part> parts {
        {tr("Whole window"), m_window},
        {tr("Runs (both sides in compare mode)"), m_window->runsArea()},
        {tr("Timeline"), left->timeline()},
        {tr("Counts chart"), left->counts()},
        {tr("ZSET table"), m_window->zsetPanel()->view()},
    };
    ExportDialog dialog(parts, m_window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    QString error;
    const bool ok = dialog.isSvg() ? PictureExport::writeSvg(dialog.part(), dialog.path(), dialog.partName(), &error)
                                   : PictureExport::writePng(dialog.part(), dialog.path(), dialog.scale(), &error);
    if (!ok)
        QMessageBox::warning(m_window, tr("Export Picture"), error);
    else
        m_window->statusBar()->showMessage(tr("Saved %1").arg(dialog.path()), 5000);
}

void ExportActions::copyPicture()
{
    PictureExport::copyToClipboard(m_window->runsArea(), 2.0);
    m_window->statusBar()->showMessage(tr("Copied a picture of the runs to the clipboard."), 4000);
}

bool ExportActions::writeRequestLog(MainWindow* window, const QString& path, QString* error)
{
    const BurstEngine& engine = window->experiment()->engine(LimiterExperiment::Left);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    const bool written = isJson(path) ? DataExport::writeRequestLogJson(engine.log(), &file)
                                      : DataExport::writeRequestLogCsv(engine.log(), &file);
    return commit(file, path, written, error);
}

bool ExportActions::writeSummary(MainWindow* window, const QString& path, QString* error)
{
    LimiterExperiment* experiment = window->experiment();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = tr("Cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    bool written = false;
    const BurstSummary left = experiment->engine(LimiterExperiment::Left).summary();
    if (experiment->isCompare() && experiment->hasRun(LimiterExperiment::Right)) {
        // Both sides, each the object `zsetlab-cli run --json` prints.
        const BurstSummary right = experiment->engine(LimiterExperiment::Right).summary();
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
    if (!path.isEmpty() && !writeRequestLog(m_window, path, &error))
        QMessageBox::warning(m_window, tr("Export Request Log"), error);
}

void ExportActions::exportSummary()
{
    const QString path = askPath(tr("Export Summary"), QStringLiteral("summary.json"));
    QString error;
    if (!path.isEmpty() && !writeSummary(m_window, path, &error))
        QMessageBox::warning(m_window, tr("Export Summary"), error);
}

void ExportActions::exportZsetSnapshot()
{
    ZsetPanel* panel = m_window->zsetPanel();
    if (panel->key().isEmpty()) {
        QMessageBox::information(m_window, tr("Export ZSET Snapshot"), tr("Fire a burst first: there is no ZSET yet."));
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
                QSaveFile file(path);
                QString error;
                bool ok = file.open(QIODevice::WriteOnly);
                if (ok) {
                    const bool written = isJson(path) ? DataExport::writeZsetJson(key, members, panel->writes(), &file)
                                                      : DataExport::writeZsetCsv(key, members, panel->writes(), &file);
                    ok = commit(file, path, written, &error);
                } else {
                    error = tr("Cannot write %1: %2").arg(path, file.errorString());
                }
                if (ok)
                    m_window->statusBar()->showMessage(
                        tr("Saved %Ln member(s) to %1", nullptr, members.size()).arg(path), 5000);
                else
                    QMessageBox::warning(m_window, tr("Export ZSET Snapshot"), error);
            });
    connect(panel->reader(), &ZsetReader::failed, context, [this, context](const QString& message) {
        context->deleteLater();
        QMessageBox::warning(m_window, tr("Export ZSET Snapshot"), message);
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
