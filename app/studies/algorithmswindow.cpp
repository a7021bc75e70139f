#include "algorithmswindow.h"

#include "algorithmsexport.h"
#include "algorithmstablemodel.h"
#include "burst/scenario.h"
#include "charts/algorithmschart.h"
#include "limiters/limitercatalog.h"
#include "redis/serversession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {
// The shipped traffic, with the names the picker shows.
struct ShippedScenario
{
    const char* file;
    const char* name;
};
const ShippedScenario shipped[] = {
    {"algorithms-boundary-bursts.json", QT_TRANSLATE_NOOP("AlgorithmsWindow", "Window boundary")},
    {"algorithms-bursts-at-rates.json", QT_TRANSLATE_NOOP("AlgorithmsWindow", "Bursts every 250 ms")},
    {"algorithms-steady-poisson.json", QT_TRANSLATE_NOOP("AlgorithmsWindow", "Steady Poisson")},
};

// The defaults of `zsetlab-cli algorithms`.
ComparisonPlan defaultPlan()
{
    ComparisonPlan plan;
    plan.burst.requests = 2000;
    QString unused;
    Pacing::parse(QStringLiteral("poisson:2"), &plan.burst.pacing, &unused);
    plan.burst.clock = ClockKind::Schedule;
    plan.burst.windowMs = 1000;
    plan.burst.limit = 100;
    plan.burst.seed = 1;
    plan.burst.pipeline = 32;
    return plan;
}
} // namespace

AlgorithmsWindow::AlgorithmsWindow(ServerSession* session, QWidget* parent)
    : StudyWindow(session, QStringLiteral("AlgorithmsWindow"), parent)
{
    m_texts.add([this] { setWindowTitle(tr("Compare algorithms — zsetlab")); });
    m_comparison = new AlgorithmComparison(this);
    m_model = new AlgorithmsTableModel(this);

    m_chart = new AlgorithmsChart;
    createControls();
    arrange(m_chart, m_model, {640, 480}, 640);
    createMenus([] { return tr("&Compare"); });
    setPictureParts(m_chart, [] { return tr("Accuracy against memory chart"); });
    setTableExport(QStringLiteral("algorithms.csv"), [] { return tr("Run a comparison first: the table is empty."); });
    resize(1440, 720);

    connect(m_comparison, &AlgorithmComparison::algorithmStarted, this,
            [this](int index) { onProgress(index, 0, m_comparison->result().plan.burst.requests); });
    connect(m_comparison, &AlgorithmComparison::progress, this, &AlgorithmsWindow::onProgress);
    connect(m_comparison, &AlgorithmComparison::algorithmFinished, this, &AlgorithmsWindow::onAlgorithmFinished);
    connect(m_comparison, &AlgorithmComparison::finished, this, &AlgorithmsWindow::onFinished);
    setPlan(defaultPlan());
    setRunning(false);
}

AlgorithmsWindow::~AlgorithmsWindow() = default;

QStringList AlgorithmsWindow::scenarioPaths()
{
    QStringList paths;
    for (const ShippedScenario& scenario : shipped)
        paths << QStringLiteral(":/algorithms/") + QLatin1String(scenario.file);
    return paths;
}

void AlgorithmsWindow::createControls()
{
    QFormLayout* form = StudyWindow::createControls(360);
    QWidget* panel = controls();

    m_scenario = new QComboBox(panel);
    m_scenario->addItem(QString());
    for (int i = 0; i < int(std::size(shipped)); ++i)
        m_scenario->addItem(QString(), i);
    m_scenario->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_scenario->setMinimumContentsLength(16);
    m_texts.add([this] {
        m_scenario->setItemText(0, tr("your own traffic"));
        for (int i = 0; i < int(std::size(shipped)); ++i)
            m_scenario->setItemText(i + 1, tr(shipped[i].name));
        m_scenario->setToolTip(tr("Traffic that shows the algorithms apart: it fills in the fields below."));
    });
    connect(m_scenario, &QComboBox::activated, this, [this](int index) {
        if (index > 0)
            chooseScenario(index - 1);
    });
    m_texts.addRow(form, m_scenario, m_scenario, [] { return tr("&Scenario"); });

    m_requests = new QSpinBox(panel);
    m_requests->setRange(1, 1'000'000);
    m_requests->setSingleStep(1000);
    m_requests->setGroupSeparatorShown(true);
    m_texts.add([this] { m_requests->setToolTip(tr("Requests fired at each algorithm, the same for all.")); });
    m_texts.addRow(form, m_requests, m_requests, [] { return tr("&Requests"); });

    m_pace = new QLineEdit(panel);
    m_texts.add([this] {
        m_pace->setToolTip(tr("When the requests arrive: burst (all at once), interval:MICROS (one every MICROS "
                              "µs), poisson:PER_MS (random arrivals, PER_MS per ms on average) or bursts:N@MS (N "
                              "requests in one instant every MS ms)."));
        m_pace->setPlaceholderText(tr("e.g. bursts:100@1"));
    });
    m_texts.addRow(form, m_pace, m_pace, [] { return tr("&Pace"); });

    m_clock = new QComboBox(panel);
    m_clock->addItem(QString(), int(ClockKind::Schedule));
    m_clock->addItem(QString(), int(ClockKind::Frozen));
    m_texts.add([this] {
        m_clock->setItemText(0, tr("the pace's own times"));
        m_clock->setItemText(1, tr("all in one millisecond"));
        m_clock->setToolTip(tr("The timestamps every algorithm gets: the arrival times of the pace, or one "
                               "millisecond for all requests."));
    });
    m_texts.addRow(form, m_clock, m_clock, [] { return tr("&Timestamps"); });

    m_window = new QSpinBox(panel);
    m_window->setRange(1, 86'400'000);
    m_window->setGroupSeparatorShown(true);
    m_texts.add([this] { m_window->setSuffix(tr(" ms")); });
    m_texts.addRow(form, m_window, m_window, [] { return tr("&Window"); });

    m_limit = new QSpinBox(panel);
    m_limit->setRange(0, 100'000'000);
    m_limit->setGroupSeparatorShown(true);
    m_texts.add([this] { m_limit->setToolTip(tr("Requests each user may make per window.")); });
    m_texts.addRow(form, m_limit, m_limit, [] { return tr("&Limit"); });

    m_users = new QSpinBox(panel);
    m_users->setRange(1, ComparisonPlan::maxUsers);
    m_users->setGroupSeparatorShown(true);
    m_texts.add([this] {
        m_users->setToolTip(tr("Request i belongs to user i mod users; each user has its own keys and limit."));
    });
    m_texts.addRow(form, m_users, m_users, [] { return tr("&Users"); });
    column()->addWidget(createAlgorithmBoxes(panel));
    addRunButtons([] { return tr("Run comparison"); });
    progressLine()->setObjectName(QStringLiteral("ComparisonProgress"));

    for (QSpinBox* box : {m_requests, m_window, m_limit, m_users})
        connect(box, &QSpinBox::valueChanged, this, &AlgorithmsWindow::validate);
    connect(m_pace, &QLineEdit::textChanged, this, &AlgorithmsWindow::validate);
    QList<QWidget*> fields {m_scenario, m_requests, m_pace, m_clock, m_window, m_limit, m_users};
    for (QCheckBox* box : std::as_const(m_algorithms))
        fields << box;
    setFields(fields);
}

QWidget* AlgorithmsWindow::createAlgorithmBoxes(QWidget* parent)
{
    auto* group = new QGroupBox(parent);
    auto* grid = new QGridLayout(group);
    m_order = LimiterCatalog::algorithmIds();
    for (int i = 0; i < m_order.size(); ++i) {
        const QString id = m_order.at(i);
        auto* box = new QCheckBox(group);
        box->setChecked(true);
        m_texts.add([box, id] {
            const LimiterRef limiter = LimiterCatalog::builtin(id);
            box->setText(id);
            box->setToolTip(limiter->displayName() + QStringLiteral(": ") + limiter->displaySummary());
        });
        connect(box, &QCheckBox::toggled, this, &AlgorithmsWindow::validate);
        grid->addWidget(box, i / 2, i % 2);
        m_algorithms.insert(id, box);
    }
    m_texts.add([group] { group->setTitle(tr("Algorithms")); });
    return group;
}

bool AlgorithmsWindow::plan(ComparisonPlan* plan, QString* error) const
{
    ComparisonPlan result;
    result.burst = m_traffic;
    result.burst.requests = m_requests->value();
    QString why;
    if (!Pacing::parse(m_pace->text().trimmed(), &result.burst.pacing, &why)) {
        if (error)
            *error = tr("Pace: %1").arg(why);
        return false;
    }
    result.burst.clock = ClockKind(m_clock->currentData().toInt());
    result.burst.windowMs = m_window->value();
    result.burst.limit = m_limit->value();
    result.users = m_users->value();
    result.limiters = chosenAlgorithms();
    if (result.limiters.isEmpty()) {
        if (error)
            *error = tr("Choose at least one algorithm.");
        return false;
    }
    if (result.burst.limit < 1) {
        if (error)
            *error = tr("Give a limit of 1 or more: the algorithms are compared on how they keep it.");
        return false;
    }
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

void AlgorithmsWindow::setPlan(const ComparisonPlan& plan)
{
    m_traffic = plan.burst;
    m_requests->setValue(plan.burst.requests);
    m_pace->setText(plan.burst.pacing.toString());
    m_clock->setCurrentIndex(plan.burst.clock == ClockKind::Frozen ? 1 : 0);
    m_window->setValue(int(std::min<qint64>(plan.burst.windowMs, m_window->maximum())));
    m_limit->setValue(int(std::min<qint64>(plan.burst.limit, m_limit->maximum())));
    m_users->setValue(plan.users);
    const QStringList chosen = plan.limiterIds();
    for (auto it = m_algorithms.cbegin(); it != m_algorithms.cend(); ++it)
        it.value()->setChecked(chosen.contains(it.key()));
    validate();
}

bool AlgorithmsWindow::chooseScenario(int index)
{
    const QString path = scenarioPaths().value(index);
    Scenario scenario;
    QString error;
    if (path.isEmpty() || !Scenario::load(path, &scenario, &error)) {
        showProgress([error] { return error; }, true);
        return false;
    }
    ComparisonPlan chosen;
    plan(&chosen); // keeps the users and the algorithms chosen, where the fields make a plan
    chosen.users = m_users->value();
    chosen.limiters = chosenAlgorithms();
    if (chosen.limiters.isEmpty())
        chosen.limiters = m_order;
    chosen.burst = scenario.experiment.burst;
    setPlan(chosen);
    m_scenario->setCurrentIndex(index + 1);
    return true;
}

QStringList AlgorithmsWindow::chosenAlgorithms() const
{
    QStringList ids;
    for (const QString& id : m_order) {
        if (m_algorithms.value(id)->isChecked())
            ids << id;
    }
    return ids;
}

QString AlgorithmsWindow::fieldsError() const
{
    QString error;
    plan(nullptr, &error);
    return error;
}

bool AlgorithmsWindow::start(ServerSession* session)
{
    ComparisonPlan comparisonPlan;
    plan(&comparisonPlan);
    m_model->clear();
    m_chart->clear();
    if (!m_comparison->start(session->endpoint(), comparisonPlan, session->options())) {
        showProgress([error = m_comparison->planError()] { return error; }, true);
        return false;
    }
    return true;
}

void AlgorithmsWindow::stopWork()
{
    m_comparison->stop();
}

void AlgorithmsWindow::onProgress(int index, int answered, int total)
{
    const QStringList ids = m_comparison->result().plan.limiterIds();
    const QString id = ids.value(index);
    const auto count = int(ids.size());
    showProgress([=] {
        return tr("Algorithm %1 of %2 (%3): %L4 of %L5 requests")
            .arg(index + 1)
            .arg(count)
            .arg(id)
            .arg(answered)
            .arg(total);
    });
}

void AlgorithmsWindow::onAlgorithmFinished(const AlgorithmTally& tally)
{
    m_model->addTally(tally);
    m_chart->addTally(tally);
    fitTable();
}

void AlgorithmsWindow::onFinished()
{
    setRunning(false);
    const ComparisonResult& done = m_comparison->result();
    // The table and the chart hold exactly what the comparison measured.
    m_model->setTallies(done.algorithms);
    m_chart->setTallies(done.algorithms);
    fitTable();
    const double seconds = elapsedSeconds();
    const QString failure = done.failure.isFailure() ? done.failure.message : QString();
    const auto measured = int(done.algorithms.size());
    const auto planned = int(done.plan.limiterIds().size());
    const bool stopped = done.stopped;
    const QString version = done.serverVersion;
    showProgress(
        [=] {
            if (!failure.isEmpty())
                return tr("Failed: %1 (%2 of %3 algorithms measured)").arg(failure).arg(measured).arg(planned);
            if (stopped)
                return tr("Stopped: %1 of %2 algorithms measured.").arg(measured).arg(planned);
            return tr("Done: %n algorithm(s) compared in %1 s on Redis %2.", nullptr, measured)
                .arg(QLocale().toString(seconds, 'f', 1), version);
        },
        !failure.isEmpty());
}

bool AlgorithmsWindow::writeTable(const QString& path, QString* error) const
{
    return AlgorithmsExport::writeFile(result(), path, error);
}
