#include "sweepwindow.h"

#include "charts/sweepchart.h"
#include "redis/serversession.h"
#include "simulatedserverswindow.h"
#include "sweepexport.h"
#include "sweeptablemodel.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace {
QString ratesText(const QVector<double>& rates)
{
    QStringList entries;
    for (const double rate : rates)
        entries << QString::number(rate);
    return entries.join(QStringLiteral(", "));
}
} // namespace

SweepWindow::SweepWindow(ServerSession* session, QWidget* parent)
    : StudyWindow(session, QStringLiteral("SweepWindow"), parent)
{
    m_texts.add([this] { setWindowTitle(tr("Collision curve — zsetlab")); });
    m_sweep = new RateSweep(this);
    m_model = new SweepTableModel(this);

    m_chart = new SweepChart;
    createControls();
    arrange(m_chart, m_model, {640, 380}, 560);
    QMenu* sweep = createMenus([] { return tr("&Sweep"); });
    sweep->addSeparator();
    QAction* servers = sweep->addAction(QString(), this, &SweepWindow::showSimulatedServers);
    m_texts.add([servers] { servers->setText(tr("Simulated &Servers…")); });
    setPictureParts(m_chart, [] { return tr("Collision curve chart"); });
    setTableExport(QStringLiteral("sweep.csv"), [] { return tr("Run a sweep first: the table is empty."); });
    resize(1440, 720);

    connect(m_rates, &QLineEdit::textChanged, this, &SweepWindow::validate);
    connect(m_sweep, &RateSweep::pointStarted, this,
            [this](int index) { onProgress(index, 0, m_sweep->plan().burst.requests); });
    connect(m_sweep, &RateSweep::progress, this, &SweepWindow::onProgress);
    connect(m_sweep, &RateSweep::pointFinished, this, &SweepWindow::onPointFinished);
    connect(m_sweep, &RateSweep::finished, this, &SweepWindow::onFinished);
    setPlan(SweepPlan());
    setRunning(false);
}

SweepWindow::~SweepWindow() = default;

void SweepWindow::createControls()
{
    QFormLayout* form = StudyWindow::createControls(330);
    QWidget* panel = controls();

    m_rates = new QLineEdit(panel);
    m_texts.add([this] {
        m_rates->setToolTip(tr("Arrival rates in requests per millisecond, separated by commas or spaces, from %1 "
                               "to %2; one burst per rate.")
                                .arg(SweepPlan::minRate)
                                .arg(SweepPlan::maxRate));
    });
    m_texts.addRow(form, fieldWithMessage(m_rates, &m_ratesMessage, QStringLiteral("RatesMessage")), m_rates,
                   [] { return tr("&Rates per ms"); });

    m_pacing = new QComboBox(panel);
    m_pacing->addItem(QString(), int(SweepPacing::Poisson));
    m_pacing->addItem(QString(), int(SweepPacing::Even));
    m_texts.add([this] {
        m_pacing->setItemText(0, tr("Poisson"));
        m_pacing->setItemText(1, tr("even, every 1/L ms"));
        m_pacing->setToolTip(tr("Poisson: random arrivals at L per ms, as independent users send them. Even: one "
                                "request every 1/L ms."));
    });
    m_texts.addRow(form, m_pacing, m_pacing, [] { return tr("&Arrivals"); });

    m_requests = new QSpinBox(panel);
    m_requests->setRange(100, 1'000'000);
    m_requests->setSingleStep(1000);
    m_requests->setGroupSeparatorShown(true);
    m_texts.add([this] {
        m_requests->setToolTip(tr("Requests per rate; 5,000 measure the stored share to within about 2 points."));
    });
    m_texts.addRow(form, m_requests, m_requests, [] { return tr("Requests per &point"); });

    const BurstFields fields = BurstFields::addRows(form, panel, m_texts);
    m_clock = fields.clock;
    m_limiter = fields.limiterBox;
    m_fields = fields;
    m_window = fields.window;
    m_limit = fields.limit;
    m_texts.add([this] {
        m_clock->setToolTip(tr("schedule: each request carries its planned arrival time, sent as fast as possible. "
                               "system-ms: requests leave at their arrival time and carry the wall clock."));
        m_limiter->setToolTip(tr("The ZSET member each request writes: the timestamp (ZADD key now now, the bug) "
                                 "or a unique one."));
        m_limit->setToolTip(tr("With a limit, the table and the chart also show the share admitted while the true "
                               "number of requests in the window was above it."));
    });
    m_pacing->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_pacing->setMinimumContentsLength(14);

    addRunButtons([] { return tr("Run sweep"); });
    auto* servers = new QPushButton(panel);
    m_texts.add([servers] {
        servers->setText(tr("Simulated servers…"));
        servers->setToolTip(tr("Several app servers with their own clocks firing at one key."));
    });
    connect(servers, &QPushButton::clicked, this, &SweepWindow::showSimulatedServers);
    column()->addWidget(servers);
    setFields({m_rates, m_pacing, m_requests, m_clock, m_limiter, m_window, m_limit});
}

SimulatedServersWindow* SweepWindow::simulatedServers()
{
    if (!m_servers)
        m_servers = new SimulatedServersWindow(session(), this);
    return m_servers;
}

void SweepWindow::showSimulatedServers()
{
    SimulatedServersWindow* window = simulatedServers();
    window->show();
    window->raise();
}

bool SweepWindow::plan(SweepPlan* plan, QString* error) const
{
    SweepPlan result;
    QString why;
    if (!SweepPlan::parseRates(m_rates->text(), &result.ratesPerMs, &why)) {
        if (error)
            *error = why;
        return false;
    }
    result.pacing = SweepPacing(m_pacing->currentData().toInt());
    result.burst.requests = m_requests->value();
    result.burst.clock = ClockKind(m_clock->currentData().toInt());
    result.burst.limiter = m_fields.limiter();
    result.burst.windowMs = m_window->value();
    result.burst.limit = m_limit->value();
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

void SweepWindow::setPlan(const SweepPlan& plan)
{
    m_rates->setText(ratesText(plan.ratesPerMs));
    m_pacing->setCurrentIndex(m_pacing->findData(int(plan.pacing)));
    m_requests->setValue(plan.burst.requests);
    m_clock->setCurrentIndex(std::max(0, m_clock->findData(int(plan.burst.clock))));
    m_fields.setLimiter(plan.burst.limiter);
    m_window->setValue(int(std::min<qint64>(plan.burst.windowMs, m_window->maximum())));
    m_limit->setValue(int(std::min<qint64>(plan.burst.limit, m_limit->maximum())));
    m_chart->setPlan(plan);
    validate();
}

QString SweepWindow::fieldsError() const
{
    QString error;
    plan(nullptr, &error);
    return error;
}

QLabel* SweepWindow::messageFor(const QString& error) const
{
    // The rates' own errors sit under the rates; the others in the progress line.
    return error.startsWith(QLatin1String("rates:")) ? m_ratesMessage : nullptr;
}

bool SweepWindow::start(ServerSession* session)
{
    SweepPlan sweepPlan;
    plan(&sweepPlan);
    m_model->clear();
    m_chart->setPlan(sweepPlan);
    if (!m_sweep->start(session->endpoint(), sweepPlan, session->options())) {
        showProgress([error = m_sweep->planError()] { return error; }, true);
        return false;
    }
    return true;
}

void SweepWindow::stopWork()
{
    m_sweep->stop();
}

void SweepWindow::onProgress(int index, int finished, int total)
{
    const int rates = int(m_sweep->plan().ratesPerMs.size());
    const double rate = m_sweep->plan().ratesPerMs.value(index);
    showProgress([=] {
        return tr("Rate %1 of %2 (L = %3 per ms): %L4 of %L5 requests")
            .arg(index + 1)
            .arg(rates)
            .arg(QLocale().toString(rate, 'g', 4))
            .arg(finished)
            .arg(total);
    });
}

void SweepWindow::onPointFinished(const SweepPoint& point)
{
    m_model->addPoint(point);
    m_chart->addPoint(point);
    fitTable();
    table()->scrollToBottom();
}

void SweepWindow::onFinished()
{
    setRunning(false);
    const SweepResult& done = m_sweep->result();
    const double seconds = elapsedSeconds();
    const QString failure = done.failure.isFailure() ? done.failure.message : QString();
    const auto measured = int(done.points.size());
    const auto planned = int(done.plan.ratesPerMs.size());
    const bool stopped = done.stopped;
    const QString version = done.serverVersion;
    showProgress(
        [=] {
            if (!failure.isEmpty())
                return tr("Failed: %1").arg(failure);
            if (stopped)
                return tr("Stopped: %1 of %2 rates measured.").arg(measured).arg(planned);
            return tr("Done: %n rate(s) measured in %1 s on Redis %2.", nullptr, measured)
                .arg(QLocale().toString(seconds, 'f', 1), version);
        },
        !failure.isEmpty());
}

bool SweepWindow::writeTable(const QString& path, QString* error) const
{
    return SweepExport::writeFile(result(), path, error);
}
