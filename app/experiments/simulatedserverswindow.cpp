#include "simulatedserverswindow.h"

#include "burstfields.h"
#include "clientprofile.h"
#include "clienttally.h"
#include "clienttallymodel.h"
#include "dataexport.h"
#include "firecontrol.h"
#include "outputfile.h"
#include "pictureexport.h"
#include "scenario.h"
#include "serversession.h"
#include "timelineview.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace {
// Three servers at one rate, the third 40 ms ahead: as the shipped example, and the default.
const char defaultServers[] = "rate=2;rate=2;rate=2,offset=40";

QStringList laneNames(const BurstPlan& plan)
{
    QStringList names;
    for (int c = 0; c < plan.clients.size(); ++c)
        names << SimulatedServersWindow::tr("server %1").arg(c + 1) + QLatin1Char('\n')
                + clientProfileToString(plan.clients[c]);
    return names;
}
} // namespace

SimulatedServersWindow::SimulatedServersWindow(ServerSession* session, QWidget* parent)
    : QDialog(parent)
    , m_session(session)
{
    m_texts.add([this] { setWindowTitle(tr("Simulated servers — zsetlab")); });
    setObjectName(QStringLiteral("SimulatedServersWindow"));
    setModal(false);
    setSizeGripEnabled(true);
    setWindowFlag(Qt::WindowMaximizeButtonHint);
    m_model = new ClientTallyModel(this);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(createControls());
    auto* split = new QSplitter(Qt::Vertical, this);
    m_lanes = new TimelineView(split);
    m_lanes->setPlaceholder([] { return tr("Fire the servers to see one lane per app server."); });
    m_table = new QTableView(split);
    m_table->setModel(m_model);
    m_table->setTabKeyNavigation(false); // one Tab stop: the arrows move between cells
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    split->addWidget(m_lanes);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    resize(1240, 640);

    connect(m_servers, &QLineEdit::textChanged, this, &SimulatedServersWindow::validateServers);
    connect(m_fire, &QPushButton::clicked, this, &SimulatedServersWindow::fire);
    connect(m_stop, &QPushButton::clicked, this, &SimulatedServersWindow::stop);
    connect(&m_engine, &BurstEngine::batchAvailable, m_lanes, &TimelineView::addBatch);
    connect(&m_engine, &BurstEngine::recordsAvailable, this, &SimulatedServersWindow::onRecords);
    connect(&m_engine, &BurstEngine::finished, this, &SimulatedServersWindow::onFinished);

    BurstPlan initial;
    parseClientProfiles(QLatin1String(defaultServers), &initial.clients, nullptr);
    initial.requests = 3000;
    initial.clock = ClockKind::SystemMs; // real pacing: the servers interleave as real ones would
    initial.windowMs = 100;
    initial.limit = 300;
    setPlan(initial);
    loadExamples();
    setRunning(false);
}

SimulatedServersWindow::~SimulatedServersWindow() = default;

QWidget* SimulatedServersWindow::createControls()
{
    auto* panel = new QWidget(this);
    panel->setMaximumWidth(340);
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(0, 0, 6, 0);
    auto* form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);

    m_examples = new QComboBox(panel);
    m_texts.add([this] { m_examples->setToolTip(tr("Shipped scenarios with several app servers.")); });
    m_texts.addRow(form, m_examples, m_examples, [] { return tr("E&xample"); });

    m_servers = new QLineEdit(panel);
    m_texts.add([this] {
        m_servers->setToolTip(tr("One app server per entry, separated by ';', fields by ',':\n"
                                 "rate=R  Poisson arrivals, R per ms\n"
                                 "pace=burst | interval:MICROS | poisson:PER_MS\n"
                                 "offset=MS  the server's clock runs MS ahead (negative: behind)\n"
                                 "drift=PPM  and gains PPM microseconds per second"));
    });
    m_servers->setPlaceholderText(QLatin1String(defaultServers));
    m_serversMessage = new QLabel(panel);
    m_serversMessage->setWordWrap(true);
    m_serversMessage->hide();
    auto* serversBox = new QVBoxLayout;
    serversBox->setSpacing(2);
    serversBox->addWidget(m_servers);
    serversBox->addWidget(m_serversMessage);
    m_texts.addRow(form, serversBox, m_servers, [] { return tr("&Servers"); });

    m_requests = new QSpinBox(panel);
    m_requests->setRange(1, 1'000'000);
    m_requests->setSingleStep(500);
    m_requests->setGroupSeparatorShown(true);
    m_texts.add(
        [this] { m_requests->setToolTip(tr("Requests of all servers together; faster servers send more of them.")); });
    m_texts.addRow(form, m_requests, m_requests, [] { return tr("&Requests"); });

    const BurstFields fields = BurstFields::addRows(form, panel, m_texts);
    m_clock = fields.clock;
    m_strategy = fields.strategy;
    m_fields = fields;
    m_window = fields.window;
    m_limit = fields.limit;
    m_examples->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_examples->setMinimumContentsLength(14);
    column->addLayout(form);

    auto* buttons = new QHBoxLayout;
    m_fire = new QPushButton(panel);
    m_fire->setDefault(true);
    m_stop = new QPushButton(panel);
    m_texts.add([this] {
        m_fire->setText(tr("Fire"));
        m_stop->setText(tr("Stop"));
    });
    buttons->addWidget(m_fire);
    buttons->addWidget(m_stop);
    column->addLayout(buttons);
    m_status = new QLabel(panel);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_status);
    column->addStretch(1);
    auto* exports = new QHBoxLayout;
    auto* table = new QPushButton(panel);
    auto* picture = new QPushButton(panel);
    m_texts.add([table, picture] {
        table->setText(tr("Export table…"));
        picture->setText(tr("Export picture…"));
    });
    exports->addWidget(table);
    exports->addWidget(picture);
    column->addLayout(exports);
    connect(table, &QPushButton::clicked, this, &SimulatedServersWindow::exportTable);
    connect(picture, &QPushButton::clicked, this, &SimulatedServersWindow::exportPicture);
    return panel;
}

void SimulatedServersWindow::loadExamples()
{
    m_examples->addItem(QString());
    m_texts.add([this] { m_examples->setItemText(0, tr("(choose one)")); });
    const QFileInfoList shipped = QDir(QStringLiteral(":/scenarios")).entryInfoList({QStringLiteral("*.json")});
    for (const QFileInfo& info : shipped) {
        Scenario scenario;
        QString error;
        if (!Scenario::load(info.filePath(), &scenario, &error) || scenario.experiment.burst.clients.size() < 2)
            continue;
        m_examples->addItem(scenario.title, info.filePath());
        m_examples->setItemData(m_examples->count() - 1, scenario.description, Qt::ToolTipRole);
    }
    connect(m_examples, &QComboBox::activated, this, [this](int index) {
        Scenario scenario;
        QString error;
        const QString path = m_examples->itemData(index).toString();
        if (!path.isEmpty() && Scenario::load(path, &scenario, &error))
            setPlan(scenario.experiment.burst);
    });
}

bool SimulatedServersWindow::plan(BurstPlan* plan, QString* error) const
{
    BurstPlan result = m_basePlan; // what the fields do not show (seed, pacing, pipeline) stays as set
    QString why;
    if (!parseClientProfiles(m_servers->text().trimmed(), &result.clients, &why)) {
        if (error)
            *error = why;
        return false;
    }
    result.requests = m_requests->value();
    result.clock = ClockKind(m_clock->currentData().toInt());
    result.limiter = m_fields.limiter();
    result.windowMs = m_window->value();
    result.limit = m_limit->value();
    why = result.validate();
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    *plan = result;
    return true;
}

void SimulatedServersWindow::setPlan(const BurstPlan& plan)
{
    m_basePlan = plan;
    m_servers->setText(clientProfilesToString(plan.clients));
    m_servers->setCursorPosition(0); // the first server in view, not the end of a long list
    m_requests->setValue(plan.requests);
    // The lanes are in milliseconds: the microsecond and frozen clocks are shown as the schedule.
    m_clock->setCurrentIndex(std::max(0, m_clock->findData(int(plan.clock))));
    m_fields.setLimiter(plan.limiter);
    m_window->setValue(int(std::min<qint64>(plan.windowMs, m_window->maximum())));
    m_limit->setValue(int(std::min<qint64>(plan.limit, m_limit->maximum())));
    validateServers();
}

void SimulatedServersWindow::validateServers()
{
    BurstPlan parsed;
    QString error;
    const bool ok = plan(&parsed, &error);
    const bool dark = palette().color(QPalette::Window).lightness() < palette().color(QPalette::WindowText).lightness();
    m_serversMessage->setText(ok ? QString() : QStringLiteral("⚠ ") + error);
    m_serversMessage->setStyleSheet(
        ok ? QString()
           : QStringLiteral("color: %1;").arg(dark ? QStringLiteral("#f0a070") : QStringLiteral("#b34700")));
    m_serversMessage->setVisible(!ok);
    m_servers->setAccessibleDescription(ok ? QString() : error);
    m_fire->setEnabled(ok && !isRunning());
}

void SimulatedServersWindow::setRunning(bool running)
{
    for (QWidget* field :
         std::initializer_list<QWidget*> {m_examples, m_servers, m_requests, m_clock, m_strategy, m_window, m_limit})
        field->setEnabled(!running);
    m_stop->setEnabled(running);
    validateServers();
}

void SimulatedServersWindow::fire()
{
    if (isRunning())
        return;
    BurstPlan burst;
    QString error;
    if (!plan(&burst, &error)) {
        validateServers();
        showStatus([error] { return error; });
        return;
    }
    if (!m_session->isUsable()) {
        showStatus([] { return tr("Not connected to Redis: connect in the main window first."); });
        return;
    }
    if (!confirmRemoteLoad(this, m_session->endpoint(), &m_confirmedRemote))
        return;
    m_model->setTallies({});
    m_lanes->reset(laneNames(burst));
    if (!m_engine.start(m_session->endpoint(), burst, m_session->options())) {
        showStatus([error = m_engine.planError()] { return error; });
        return;
    }
    m_firedPlan = burst;
    showStatus([requests = burst.requests, servers = burst.clients.size()] {
        return tr("Firing %Ln request(s) from %1 servers…", nullptr, requests).arg(servers);
    });
    setRunning(true);
}

void SimulatedServersWindow::stop()
{
    m_engine.stop();
}

void SimulatedServersWindow::showStatus(std::function<QString()> text)
{
    m_texts.setLive(m_status, [this, text = std::move(text)] { m_status->setText(text()); });
}

void SimulatedServersWindow::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    m_texts.retranslate();
    validateServers();
    m_lanes->renameLanes(laneNames(m_firedPlan));
    emit m_model->headerDataChanged(Qt::Horizontal, 0, m_model->columnCount() - 1);
}

void SimulatedServersWindow::reject()
{
    // Closing the window ends its burst: nobody would see the rest.
    m_engine.stop();
    QDialog::reject();
}

void SimulatedServersWindow::onRecords(int finished, int total)
{
    showStatus([=] { return tr("%L1 of %L2 requests answered…").arg(finished).arg(total); });
}

void SimulatedServersWindow::onFinished(const BurstSummary& summary)
{
    setRunning(false);
    m_model->setTallies(ClientTally::fromLog(m_engine.log(), m_firedPlan));
    const qint64 overwroteOther = m_model->total(ClientTallyModel::OverwroteOtherColumn);
    showStatus([summary, overwroteOther] {
        if (summary.failure.isFailure())
            return tr("Failed: %1").arg(summary.failure.message);
        QString text = tr("%L1 sent, %L2 stored, %L3 overwritten: %L4 of them overwrote another server's member.")
                           .arg(summary.sent)
                           .arg(summary.stored)
                           .arg(summary.overwritten)
                           .arg(overwroteOther);
        if (summary.limit > 0)
            text += QLatin1Char(' ')
                + tr("%L1 admitted beyond the limit of %L2.").arg(summary.admittedOverLimit).arg(summary.limit);
        return summary.stopped ? tr("Stopped. %1").arg(text) : text;
    });
    emit burstFinished(summary);
}

bool SimulatedServersWindow::writeTable(const QString& path, QString* error) const
{
    // Only over a regular file or as a new one, whole or not at all (OutputFile).
    if (const QString refused = OutputFile::refusal(path); !refused.isEmpty()) {
        *error = refused;
        return false;
    }
    QByteArray text;
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        QJsonObject json;
        json[QStringLiteral("schema")] = QStringLiteral("zsetlab.servers/1");
        json[QStringLiteral("clients")] = clientProfilesToString(m_firedPlan.clients);
        json[QStringLiteral("summary")] = m_engine.summary().toJson();
        QJsonArray servers;
        for (const ClientTally& tally : m_model->tallies())
            servers.append(tally.toJson());
        json[QStringLiteral("servers")] = servers;
        text = QJsonDocument(json).toJson(QJsonDocument::Indented);
    } else {
        text = "server,profile,sent,errors,stored,overwritten,overwrote_other_client,admitted,admitted_over_limit\r\n";
        for (const ClientTally& tally : m_model->tallies()) {
            const QList<QByteArray> fields {
                QByteArray::number(tally.client + 1),
                DataExport::csvField(tally.profile),
                QByteArray::number(tally.sent),
                QByteArray::number(tally.errors),
                QByteArray::number(tally.stored),
                QByteArray::number(tally.overwritten),
                QByteArray::number(tally.overwroteOtherClient),
                QByteArray::number(tally.admitted),
                QByteArray::number(tally.admittedOverLimit),
            };
            text += fields.join(',') + "\r\n";
        }
    }
    return OutputFile::write(path, text, error);
}

void SimulatedServersWindow::exportTable()
{
    if (m_model->rowCount() == 0) {
        QMessageBox::information(this, tr("Export Table"), tr("Fire the servers first: the table is empty."));
        return;
    }
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Table"), QStringLiteral("servers.csv"),
                                                      tr("CSV tables (*.csv);;JSON documents (*.json)"));
    QString error;
    if (!path.isEmpty() && !writeTable(path, &error))
        QMessageBox::warning(this, tr("Export Table"), error);
}

void SimulatedServersWindow::exportPicture()
{
    PictureExport::exportWithDialog(
        {{tr("Whole window"), this}, {tr("Server lanes"), m_lanes}, {tr("Servers table"), m_table}}, this);
}
