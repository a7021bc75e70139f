#include "sweepwindow.h"

#include "burstfields.h"
#include "chartandtable.h"
#include "firecontrol.h"
#include "pictureexport.h"
#include "screenfit.h"
#include "serversession.h"
#include "simulatedserverswindow.h"
#include "sweepchart.h"
#include "sweepexport.h"
#include "sweeptablemodel.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QCoreApplication>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
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
    : QMainWindow(parent)
    , m_session(session)
{
    m_texts.add([this] { setWindowTitle(tr("Collision curve — zsetlab")); });
    setObjectName(QStringLiteral("SweepWindow"));
    m_sweep = new RateSweep(this);
    m_model = new SweepTableModel(this);

    m_chart = new SweepChart;
    m_table = ChartAndTable::arrange(this, createControls(), m_chart, m_model, {640, 380});
    fitTable();
    createMenus();
    resize(1440, 720);

    connect(m_rates, &QLineEdit::textChanged, this, &SweepWindow::validateRates);
    connect(m_run, &QPushButton::clicked, this, &SweepWindow::run);
    connect(m_stop, &QPushButton::clicked, this, &SweepWindow::stop);
    connect(m_sweep, &RateSweep::pointStarted, this,
            [this](int index) { onProgress(index, 0, m_sweep->plan().burst.requests); });
    connect(m_sweep, &RateSweep::progress, this, &SweepWindow::onProgress);
    connect(m_sweep, &RateSweep::pointFinished, this, &SweepWindow::onPointFinished);
    connect(m_sweep, &RateSweep::finished, this, &SweepWindow::onFinished);
    setPlan(SweepPlan());
    setRunning(false);
}

SweepWindow::~SweepWindow() = default;

SweepWindow* SweepWindow::showFor(QWidget* owner, ServerSession* session)
{
    auto* window = owner->findChild<SweepWindow*>(QString(), Qt::FindDirectChildrenOnly);
    if (!window)
        window = new SweepWindow(session, owner);
    if (!window->isVisible())
        ScreenFit::placeOnScreen(window, owner);
    window->show();
    window->raise();
    window->activateWindow();
    return window;
}

QWidget* SweepWindow::createControls()
{
    auto* panel = new QWidget(this);
    panel->setMaximumWidth(330);
    auto* column = new QVBoxLayout(panel);
    column->setContentsMargins(0, 0, 6, 0);
    auto* form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);

    m_rates = new QLineEdit(panel);
    m_texts.add([this] {
        m_rates->setToolTip(tr("Arrival rates in requests per millisecond, separated by commas or spaces, from %1 "
                               "to %2; one burst per rate.")
                                .arg(SweepPlan::minRate)
                                .arg(SweepPlan::maxRate));
    });
    m_ratesMessage = new QLabel(panel);
    m_ratesMessage->setWordWrap(true);
    m_ratesMessage->setObjectName(QStringLiteral("RatesMessage"));
    m_ratesMessage->hide();
    auto* ratesBox = new QVBoxLayout;
    ratesBox->setSpacing(2);
    ratesBox->addWidget(m_rates);
    ratesBox->addWidget(m_ratesMessage);
    m_texts.addRow(form, ratesBox, m_rates, [] { return tr("&Rates per ms"); });

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
    m_strategy = fields.strategy;
    m_fields = fields;
    m_window = fields.window;
    m_limit = fields.limit;
    m_texts.add([this] {
        m_clock->setToolTip(tr("schedule: each request carries its planned arrival time, sent as fast as possible. "
                               "system-ms: requests leave at their arrival time and carry the wall clock."));
        m_strategy->setToolTip(tr("The ZSET member each request writes: the timestamp (ZADD key now now, the bug) "
                                  "or a unique one."));
        m_limit->setToolTip(tr("With a limit, the table and the chart also show the share admitted while the true "
                               "number of requests in the window was above it."));
    });
    m_pacing->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_pacing->setMinimumContentsLength(14);
    column->addLayout(form);

    auto* buttons = new QHBoxLayout;
    m_run = new QPushButton(panel);
    m_run->setDefault(true);
    m_stop = new QPushButton(panel);
    m_texts.add([this] {
        m_run->setText(tr("Run sweep"));
        m_stop->setText(tr("Stop"));
    });
    buttons->addWidget(m_run);
    buttons->addWidget(m_stop);
    column->addLayout(buttons);
    m_progress = new QLabel(panel);
    m_progress->setWordWrap(true);
    m_progress->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_progress);
    auto* servers = new QPushButton(panel);
    m_texts.add([servers] {
        servers->setText(tr("Simulated servers…"));
        servers->setToolTip(tr("Several app servers with their own clocks firing at one key."));
    });
    connect(servers, &QPushButton::clicked, this, [this] {
        SimulatedServersWindow* dialog = simulatedServers();
        dialog->show();
        dialog->raise();
    });
    column->addStretch(1);
    column->addWidget(servers);
    return panel;
}

void SweepWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(QString());
    QAction* exportTable = file->addAction(QString(), this, &SweepWindow::exportTable);
    QAction* exportPicture
        = file->addAction(QString(), QKeySequence(Qt::CTRL | Qt::Key_E), this, &SweepWindow::exportPicture);
    file->addSeparator();
    QAction* close = file->addAction(QString(), QKeySequence::Close, this, &QWidget::close);
    QMenu* sweep = menuBar()->addMenu(QString());
    QAction* run = sweep->addAction(QString(), QKeySequence(Qt::Key_F5), this, &SweepWindow::run);
    QAction* stop = sweep->addAction(QString(), QKeySequence(Qt::Key_Escape), this, &SweepWindow::stop);
    sweep->addSeparator();
    QAction* servers = sweep->addAction(QString(), this, [this] {
        SimulatedServersWindow* dialog = simulatedServers();
        dialog->show();
        dialog->raise();
    });
    m_texts.add([=] {
        file->setTitle(tr("&File"));
        exportTable->setText(tr("Export &Table (CSV or JSON)…"));
        exportPicture->setText(tr("Export &Picture…"));
        close->setText(tr("&Close"));
        sweep->setTitle(tr("&Sweep"));
        run->setText(tr("&Run"));
        stop->setText(tr("&Stop"));
        servers->setText(tr("Simulated &Servers…"));
    });
}

SimulatedServersWindow* SweepWindow::simulatedServers()
{
    if (!m_servers)
        m_servers = new SimulatedServersWindow(m_session, this);
    return m_servers;
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
    validateRates();
}

void SweepWindow::validateRates()
{
    SweepPlan parsed;
    QString error;
    const bool ok = plan(&parsed, &error) || !error.startsWith(QLatin1String("rates:"));
    // The message sits under the field it is about, in a colour that reads on light and dark.
    const bool dark = palette().color(QPalette::Window).lightness() < palette().color(QPalette::WindowText).lightness();
    m_ratesMessage->setText(ok ? QString() : QStringLiteral("⚠ ") + error);
    m_ratesMessage->setStyleSheet(
        ok ? QString()
           : QStringLiteral("color: %1;").arg(dark ? QStringLiteral("#f0a070") : QStringLiteral("#b34700")));
    m_ratesMessage->setVisible(!ok);
    m_rates->setAccessibleDescription(ok ? QString() : error);
    m_run->setEnabled(ok && !isRunning());
}

void SweepWindow::run()
{
    if (isRunning())
        return;
    SweepPlan sweepPlan;
    QString error;
    if (!plan(&sweepPlan, &error)) {
        validateRates();
        showProgress([error] { return error; });
        return;
    }
    if (!m_session->isUsable()) {
        showProgress([] { return tr("Not connected to Redis: connect in the main window first."); });
        return;
    }
    if (!confirmRemoteLoad(this, m_session->endpoint(), &m_confirmedRemote))
        return;
    m_model->clear();
    m_chart->setPlan(sweepPlan);
    if (!m_sweep->start(m_session->endpoint(), sweepPlan, m_session->options())) {
        showProgress([error = m_sweep->planError()] { return error; });
        return;
    }
    m_elapsed.start();
    setRunning(true);
}

void SweepWindow::stop()
{
    m_sweep->stop();
}

void SweepWindow::setRunning(bool running)
{
    for (QWidget* field :
         std::initializer_list<QWidget*> {m_rates, m_pacing, m_requests, m_clock, m_strategy, m_window, m_limit})
        field->setEnabled(!running);
    m_stop->setEnabled(running);
    validateRates();
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
    m_table->scrollToBottom();
}

void SweepWindow::fitTable()
{
    ChartAndTable::fitTable(m_table, 560);
}

void SweepWindow::onFinished()
{
    setRunning(false);
    const SweepResult& done = m_sweep->result();
    const double seconds = double(m_elapsed.elapsed()) / 1000.0;
    const QString failure = done.failure.isFailure() ? done.failure.message : QString();
    const auto measured = int(done.points.size());
    const auto planned = int(done.plan.ratesPerMs.size());
    const bool stopped = done.stopped;
    const QString version = done.serverVersion;
    showProgress([=] {
        if (!failure.isEmpty())
            return tr("Failed: %1").arg(failure);
        if (stopped)
            return tr("Stopped: %1 of %2 rates measured.").arg(measured).arg(planned);
        return tr("Done: %n rate(s) measured in %1 s on Redis %2.", nullptr, measured)
            .arg(QLocale().toString(seconds, 'f', 1), version);
    });
}

bool SweepWindow::writeTable(const QString& path, QString* error) const
{
    return SweepExport::writeFile(result(), path, error);
}

void SweepWindow::exportTable()
{
    ChartAndTable::saveTable(this, result().points.isEmpty(),
                             {tr("Export Table"), tr("Run a sweep first: the table is empty."),
                              QStringLiteral("sweep.csv"), tr("CSV tables (*.csv);;JSON documents (*.json)"),
                              tr("Saved %1")},
                             [this](const QString& path, QString* error) { return writeTable(path, error); });
}

void SweepWindow::exportPicture()
{
    const QString saved = PictureExport::exportWithDialog(
        {{tr("Whole window"), this}, {tr("Collision curve chart"), m_chart}, {tr("Table"), m_table}}, this);
    if (!saved.isEmpty())
        statusBar()->showMessage(tr("Saved %1").arg(saved), 5000);
}

void SweepWindow::showProgress(std::function<QString()> text)
{
    m_texts.setLive(m_progress, [this, text = std::move(text)] { m_progress->setText(text()); });
}

void SweepWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() != QEvent::LanguageChange)
        return;
    m_texts.retranslate();
    validateRates();
    emit m_model->headerDataChanged(Qt::Horizontal, 0, m_model->columnCount() - 1);
    fitTable();
}

void SweepWindow::closeEvent(QCloseEvent* event)
{
    // A hidden window should not keep loading the server.
    m_sweep->stop();
    event->accept();
}
