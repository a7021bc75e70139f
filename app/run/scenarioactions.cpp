#include "scenarioactions.h"

#include "replay/recording.h"
#include "replay/replayfile.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>

namespace {
constexpr int maxRecent = 8;
const char recentKey[] = "scenarios/recent";
} // namespace

ScenarioActions::ScenarioActions(Host host, QMenu* fileMenu, QObject* parent)
    : QObject(parent)
    , m_host(std::move(host))
{
    translated(fileMenu->addAction(QString(), QKeySequence::Open, this, &ScenarioActions::openDialog),
               QT_TR_NOOP("&Open Scenario…"));
    m_recent = translatedMenu(fileMenu->addMenu(QString()), QT_TR_NOOP("Open &Recent"));
    QMenu* examples = translatedMenu(fileMenu->addMenu(QString()), QT_TR_NOOP("E&xamples"));
    const QFileInfoList shipped = QDir(QStringLiteral(":/scenarios")).entryInfoList({QStringLiteral("*.json")});
    for (const QFileInfo& info : shipped) {
        Scenario scenario;
        QString error;
        if (!Scenario::load(info.filePath(), &scenario, &error))
            continue;
        QAction* action = examples->addAction(scenario.title.isEmpty() ? info.baseName() : scenario.title);
        action->setToolTip(scenario.description);
        const QString path = info.filePath();
        connect(action, &QAction::triggered, this, [this, path] { open(path); });
    }
    translated(fileMenu->addAction(QString(), QKeySequence::Save, this, &ScenarioActions::saveDialog),
               QT_TR_NOOP("&Save Scenario…"));
    translated(fileMenu->addAction(QString(), this, &ScenarioActions::saveWithRunDialog),
               QT_TR_NOOP("Save Scenario &with Its Run…"));
    fileMenu->addSeparator();
    rebuildRecentMenu();
}

bool ScenarioActions::open(const QString& path)
{
    Scenario scenario;
    QString error;
    if (!Scenario::load(path, &scenario, &error)) {
        QMessageBox::warning(m_host.dialogParent, tr("Open Scenario"),
                             tr("%1\n\nNothing was changed: fix the file or open another one.").arg(error));
        return false;
    }
    m_host.apply(scenario);
    if (!path.startsWith(QLatin1Char(':')))
        rememberRecent(QFileInfo(path).absoluteFilePath());
    const QString name = scenario.title.isEmpty() ? path : scenario.title;
    if (scenario.recording.isEmpty())
        m_host.status(tr("Opened %1: press F5 to fire.").arg(name));
    return true;
}

void ScenarioActions::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(m_host.dialogParent, tr("Open Scenario"), QString(),
                                                      tr("zsetlab scenarios (*.json);;All files (*)"));
    if (!path.isEmpty())
        open(path);
}

void ScenarioActions::saveDialog()
{
    save(m_host.current(), tr("Save Scenario"));
}

void ScenarioActions::saveWithRunDialog()
{
    Scenario scenario;
    QString error;
    if (!currentWithRun(&scenario, &error)) {
        QMessageBox::information(m_host.dialogParent, tr("Save Scenario with Its Run"), error);
        return;
    }
    save(scenario, tr("Save Scenario with Its Run"));
}

bool ScenarioActions::currentWithRun(Scenario* scenario, QString* error) const
{
    const std::shared_ptr<const Recording> recording = m_host.run ? m_host.run() : nullptr;
    if (!recording || recording->isEmpty()) {
        *error = tr("There is no run on screen to carry: fire a burst or open a replay first.");
        return false;
    }
    *scenario = m_host.current();
    scenario->recording = ReplayFile::encode(*recording);
    if (scenario->recording.size() > Scenario::maxRecordingBytes) {
        *error = tr("This run takes %L1 KiB as a replay, more than a scenario carries (%L2 KiB): save it with File "
                    "> Save Replay instead.")
                     .arg(scenario->recording.size() / 1024)
                     .arg(Scenario::maxRecordingBytes / 1024);
        return false;
    }
    return true;
}

void ScenarioActions::save(const Scenario& scenario, const QString& title)
{
    QString path = QFileDialog::getSaveFileName(m_host.dialogParent, title, QStringLiteral("scenario.json"),
                                                tr("zsetlab scenarios (*.json)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".json")))
        path += QStringLiteral(".json");
    QString error;
    if (!scenario.save(path, &error)) {
        QMessageBox::warning(m_host.dialogParent, title, error);
        return;
    }
    rememberRecent(QFileInfo(path).absoluteFilePath());
    m_host.status(tr("Saved %1").arg(path));
}

void ScenarioActions::rememberRecent(const QString& path)
{
    QSettings settings;
    QStringList recent = settings.value(QLatin1String(recentKey)).toStringList();
    recent.removeAll(path);
    recent.prepend(path);
    settings.setValue(QLatin1String(recentKey), recent.mid(0, maxRecent));
    rebuildRecentMenu();
}

void ScenarioActions::rebuildRecentMenu()
{
    m_recent->clear();
    const QStringList recent = QSettings().value(QLatin1String(recentKey)).toStringList();
    for (const QString& path : recent) {
        QAction* action = m_recent->addAction(QFileInfo(path).fileName());
        action->setToolTip(path);
        connect(action, &QAction::triggered, this, [this, path] { open(path); });
    }
    m_recent->setEnabled(!recent.isEmpty());
}

QAction* ScenarioActions::translated(QAction* action, const char* text)
{
    m_texts.add([action, text] { action->setText(tr(text)); });
    return action;
}

QMenu* ScenarioActions::translatedMenu(QMenu* menu, const char* text)
{
    m_texts.add([menu, text] { menu->setTitle(tr(text)); });
    return menu;
}
