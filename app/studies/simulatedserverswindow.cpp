#include "simulatedserverswindow.h"

#include "burst/clientprofile.h"
#include "burst/clienttally.h"
#include "burst/scenario.h"
#include "charts/timelineview.h"
#include "clienttallymodel.h"
#include "redis/serversession.h"
#include "resultfile.h"
#include "run/burstfields.h"

#include <QComboBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
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
    : StudyWindow(session, QStringLiteral("SimulatedServersWindow"), parent)
{
    m_texts.add([this] { setWindowTitle(tr("Simulated servers — zsetlab")); });
    m_model = new ClientTallyModel(this);

    auto* central = new QWidget(this);
    auto* layout = new QHBoxLayout(central);
    createControls();
    layout->addWidget(controls());
    auto* split = new QSplitter(Qt::Vertical, central);
    m_lanes = new TimelineView(split);
    m_lanes->setPlaceholder([] { return tr("Fire the servers to see one lane per app server."); });
    auto* table = new QTableView(split);
    table->setModel(m_model);
    table->setTabKeyNavigation(false); // one Tab stop: the arrows move between cells
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    split->addWidget(m_lanes);
    split->addWidget(table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split, 1);
    setCentralWidget(central);
    setTable(table);
    setPictureParts(m_lanes, [] { return tr("Server lanes"); });
    setTableExport(QStringLiteral("servers.csv"), [] { return tr("Fire the servers first: the table is empty."); });
    resize(1240, 640);

    connect(m_servers, &QLineEdit::textChanged, this, &SimulatedServersWindow::validate);
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

void SimulatedServersWindow::createControls()
{
    QFormLayout* form = StudyWindow::createControls(340);
    QWidget* panel = controls();

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
    m_texts.addRow(form, fieldWithMessage(m_servers, &m_serversMessage), m_servers, [] { return tr("&Servers"); });

    m_requests = new QSpinBox(panel);
    m_requests->setRange(1, 1'000'000);
    m_requests->setSingleStep(500);
    m_requests->setGroupSeparatorShown(true);
    m_texts.add(
        [this] { m_requests->setToolTip(tr("Requests of all servers together; faster servers send more of them.")); });
    m_texts.addRow(form, m_requests, m_requests, [] { return tr("&Requests"); });

    const BurstFields fields = BurstFields::addRows(form, panel, m_texts);
    m_clock = fields.clock;
    m_limiter = fields.limiterBox;
    m_fields = fields;
    m_window = fields.window;
    m_limit = fields.limit;
    m_examples->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_examples->setMinimumContentsLength(14);

    addRunButtons([] { return tr("Fire"); });
    addExportButtons();
    setFields({m_examples, m_servers, m_requests, m_clock, m_limiter, m_window, m_limit});
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
    if (plan)
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
    validate();
}

QString SimulatedServersWindow::fieldsError() const
{
    QString error;
    plan(nullptr, &error);
    return error;
}

QLabel* SimulatedServersWindow::messageFor(const QString&) const
{
    return m_serversMessage; // the servers are the field a burst's plan is mostly about
}

bool SimulatedServersWindow::start(ServerSession* session)
{
    BurstPlan burst;
    plan(&burst);
    m_model->setTallies({});
    m_lanes->reset(laneNames(burst));
    if (!m_engine.start(session->endpoint(), burst, session->options())) {
        showProgress([error = m_engine.planError()] { return error; }, true);
        return false;
    }
    m_firedPlan = burst;
    showProgress([requests = burst.requests, servers = burst.clients.size()] {
        return tr("Firing %Ln request(s) from %1 servers…", nullptr, requests).arg(servers);
    });
    return true;
}

void SimulatedServersWindow::stopWork()
{
    m_engine.stop();
}

void SimulatedServersWindow::retranslated()
{
    m_lanes->renameLanes(laneNames(m_firedPlan));
}

void SimulatedServersWindow::onRecords(int finished, int total)
{
    showProgress([=] { return tr("%L1 of %L2 requests answered…").arg(finished).arg(total); });
}

void SimulatedServersWindow::onFinished(const BurstSummary& summary)
{
    setRunning(false);
    m_model->setTallies(ClientTally::fromLog(m_engine.log(), m_firedPlan));
    const qint64 overwroteOther = m_model->total(ClientTallyModel::OverwroteOtherColumn);
    showProgress(
        [summary, overwroteOther] {
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
        },
        summary.failure.isFailure());
    emit burstFinished(summary);
}

bool SimulatedServersWindow::writeTable(const QString& path, QString* error) const
{
    const auto json = [this] {
        QJsonObject json;
        json[QStringLiteral("schema")] = QStringLiteral("zsetlab.servers/1");
        json[QStringLiteral("clients")] = clientProfilesToString(m_firedPlan.clients);
        json[QStringLiteral("summary")] = m_engine.summary().toJson();
        QJsonArray servers;
        for (const ClientTally& tally : m_model->tallies())
            servers.append(tally.toJson());
        json[QStringLiteral("servers")] = servers;
        return json;
    };
    const auto csv = [this] {
        using Column = ResultFile::CsvColumn<ClientTally>;
        const auto count = [](const char* name, qint64 ClientTally::*field) {
            return Column {name, [field](const ClientTally& tally) { return QByteArray::number(tally.*field); }};
        };
        static const QVector<Column> columns {
            {"server", [](const ClientTally& tally) { return QByteArray::number(tally.client + 1); }},
            {"profile", [](const ClientTally& tally) { return ResultFile::text(tally.profile); }},
            count("sent", &ClientTally::sent),
            count("errors", &ClientTally::errors),
            count("stored", &ClientTally::stored),
            count("overwritten", &ClientTally::overwritten),
            count("overwrote_other_client", &ClientTally::overwroteOtherClient),
            count("admitted", &ClientTally::admitted),
            count("admitted_over_limit", &ClientTally::admittedOverLimit),
        };
        return ResultFile::csv(columns, m_model->tallies());
    };
    return ResultFile::write(path, json, csv, error);
}
