#include "burstpanel.h"

#include "burst/planmodel.h"
#include "widgets/wholetextcombobox.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {
QSpinBox* spinBox(int min, int max, int value, QWidget* parent)
{
    auto* box = new QSpinBox(parent);
    box->setRange(min, max);
    box->setValue(value);
    box->setGroupSeparatorShown(true);
    box->setAccelerated(true);
    return box;
}
} // namespace

BurstPanel::BurstPanel(PlanModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
{
    auto* layout = new QVBoxLayout(this);

    // The member strategy: the one choice this tool is about.
    auto* memberBox = new QGroupBox(this);
    m_memberBox = memberBox;
    auto* memberLayout = new QVBoxLayout(memberBox);
    m_member = new QButtonGroup(this);
    auto* now = new QRadioButton(memberBox);
    auto* unique = new QRadioButton(memberBox);
    m_member->addButton(now, 0);
    m_member->addButton(unique, 1);
    m_nowButton = now;
    m_uniqueButton = unique;
    m_uniqueKind = new WholeTextComboBox(memberBox);
    auto* uniqueRow = new QHBoxLayout;
    uniqueRow->addWidget(unique);
    uniqueRow->addWidget(m_uniqueKind, 1);
    auto* custom = new QRadioButton(memberBox);
    custom->setEnabled(false);
    m_member->addButton(custom, 2);
    m_customButton = custom;
    m_customEdit = new QPushButton(memberBox);
    auto* customRow = new QHBoxLayout;
    customRow->addWidget(custom);
    customRow->addWidget(m_customEdit, 1);
    memberLayout->addWidget(now);
    memberLayout->addLayout(uniqueRow);
    memberLayout->addLayout(customRow);
    m_strategyHint = new QLabel(memberBox);
    m_strategyHint->setWordWrap(true);
    memberLayout->addWidget(m_strategyHint);
    m_compare = new QCheckBox(memberBox);
    memberLayout->addWidget(m_compare);
    layout->addWidget(memberBox);

    auto* burstBox = new QGroupBox(this);
    m_burstBox = burstBox;
    auto* form = new QFormLayout(burstBox);
    // A choice whose text is longer than the room beside its label goes below it, whole (a
    // projector's large text, Vietnamese).
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_requests = spinBox(1, BurstPlan::maxRequests, 200, burstBox);
    m_connections = spinBox(1, BurstPlan::maxConnections, 1, burstBox);
    m_pipeline = spinBox(1, BurstPlan::maxPipeline, 1, burstBox);
    m_pacing = new WholeTextComboBox(burstBox);
    m_pacing->addItem(QString(), int(Pacing::Kind::Burst));
    m_pacing->addItem(QString(), int(Pacing::Kind::Interval));
    m_pacing->addItem(QString(), int(Pacing::Kind::Poisson));
    m_pacingValue = new QDoubleSpinBox(burstBox);
    m_clock = new WholeTextComboBox(burstBox);
    m_clock->addItem(QString(), int(ClockKind::SystemMs));
    m_clock->addItem(QString(), int(ClockKind::SystemUs));
    m_clock->addItem(QString(), int(ClockKind::Frozen));
    m_clock->addItem(QString(), int(ClockKind::Schedule));
    m_window = spinBox(1, 24 * 3600 * 1000, 1000, burstBox);
    m_limit = spinBox(0, 1'000'000'000, 10, burstBox);
    m_users = spinBox(1, BurstPlan::maxUsers, 1, burstBox);
    form->addRow(new QLabel(burstBox), m_requests); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_connections); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_pipeline); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_pacing); // its text: retranslate()
    form->addRow(QString(), m_pacingValue);
    form->addRow(new QLabel(burstBox), m_clock); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_window); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_limit); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_users); // its text: retranslate()
    layout->addWidget(burstBox);

    auto* buttons = new QHBoxLayout;
    m_fire = new QPushButton(this);
    m_fire->setDefault(true);
    m_stop = new QPushButton(this);
    m_reset = new QPushButton(this);
    buttons->addWidget(m_fire, 2);
    buttons->addWidget(m_stop, 1);
    buttons->addWidget(m_reset, 1);
    layout->addLayout(buttons);
    layout->addStretch(1);

    // Long item texts must not make the panel wide: combos shrink and elide.
    for (QComboBox* combo : {m_uniqueKind, m_pacing, m_clock}) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(12);
    }
    connect(m_fire, &QPushButton::clicked, this, &BurstPanel::fireRequested);
    connect(m_stop, &QPushButton::clicked, this, &BurstPanel::stopRequested);
    connect(m_reset, &QPushButton::clicked, this, &BurstPanel::resetRequested);
    connect(m_customEdit, &QPushButton::clicked, this, &BurstPanel::customScriptRequested);

    // Each field edits the model; the model's changes come back through showPlan().
    auto edit = [this](auto change) {
        if (!m_showing)
            m_model->edit(change);
    };
    connect(m_member, &QButtonGroup::idToggled, this, [this](int, bool checked) {
        if (checked)
            editMember();
    });
    connect(m_uniqueKind, &QComboBox::activated, this, [this] {
        if (!m_uniqueButton->isChecked() && !m_compare->isChecked())
            m_uniqueButton->setChecked(true); // edits the member
        else
            editMember();
    });
    connect(m_compare, &QCheckBox::toggled, this,
            [edit](bool on) { edit([on](ExperimentPlan& p) { p.compare = on; }); });
    auto number = [this, edit](QSpinBox* box, auto field) {
        connect(box, &QSpinBox::valueChanged, this,
                [edit, field](int value) { edit([field, value](ExperimentPlan& p) { field(p.burst, value); }); });
    };
    number(m_requests, [](BurstPlan& plan, int value) { plan.requests = value; });
    number(m_connections, [](BurstPlan& plan, int value) { plan.connections = value; });
    number(m_pipeline, [](BurstPlan& plan, int value) { plan.pipeline = value; });
    number(m_window, [](BurstPlan& plan, int value) { plan.windowMs = value; });
    number(m_limit, [](BurstPlan& plan, int value) { plan.limit = value; });
    number(m_users, [](BurstPlan& plan, int value) { plan.users = value; });
    connect(m_pacing, &QComboBox::currentIndexChanged, this, [this] {
        updatePacingField();
        editPacing();
    });
    connect(m_pacingValue, &QDoubleSpinBox::valueChanged, this, &BurstPanel::editPacing);
    connect(m_clock, &QComboBox::currentIndexChanged, this, [this, edit] {
        const auto clock = ClockKind(m_clock->currentData().toInt());
        edit([clock](ExperimentPlan& p) { p.burst.clock = clock; });
    });
    connect(m_model, &PlanModel::changed, this, &BurstPanel::showPlan);
    fillLimiters();
    retranslate();
    showPlan();
    setRunning(false);
    applyFonts();
}

void BurstPanel::fillLimiters()
{
    m_fixes = LimiterCatalog::withRole(LimiterEntry::Role::Fix) + LimiterCatalog::withRole(LimiterEntry::Role::Trap);
    if (m_model->customLimiter())
        m_fixes << m_model->customLimiter();
    const bool showing = m_showing;
    m_showing = true;
    m_uniqueKind->clear();
    for (int i = 0; i < m_fixes.size(); ++i)
        m_uniqueKind->addItem(m_fixes[i]->displayName(), i);
    m_showing = showing;
}

LimiterRef BurstPanel::chosenFix() const
{
    return m_fixes.value(m_uniqueKind->currentData().toInt(), m_model->plan().fix);
}

void BurstPanel::editMember()
{
    if (m_showing)
        return;
    const LimiterRef fix = chosenFix();
    LimiterRef limiter = LimiterCatalog::builtin("now");
    if (m_uniqueButton->isChecked())
        limiter = fix;
    else if (m_customButton->isChecked() && m_model->customLimiter())
        limiter = m_model->customLimiter();
    m_model->edit([&](ExperimentPlan& p) {
        p.burst.limiter = limiter;
        p.fix = fix;
    });
}

void BurstPanel::editPacing()
{
    if (m_showing)
        return;
    Pacing pacing;
    pacing.kind = Pacing::Kind(m_pacing->currentData().toInt());
    if (pacing.kind == Pacing::Kind::Interval)
        pacing.intervalMicros = qint64(m_pacingValue->value());
    else if (pacing.kind == Pacing::Kind::Poisson)
        pacing.perMs = m_pacingValue->value();
    m_model->edit([pacing](ExperimentPlan& p) { p.burst.pacing = pacing; });
}

void BurstPanel::showPlan()
{
    const ExperimentPlan& plan = m_model->plan();
    const BurstPlan& burst = plan.burst;
    m_showing = true;
    if (m_model->customLimiter() && !m_fixes.contains(m_model->customLimiter()))
        fillLimiters();
    // The combo shows the burst's own fix, or compare mode's.
    const LimiterRef shownFix
        = burst.limiter->role == LimiterEntry::Role::Bug || plan.compare ? plan.fix : burst.limiter;
    const int fixIndex = int(m_fixes.indexOf(shownFix));
    if (fixIndex >= 0)
        m_uniqueKind->setCurrentIndex(m_uniqueKind->findData(fixIndex));
    m_customButton->setEnabled(bool(m_model->customLimiter()));
    if (burst.limiter->role == LimiterEntry::Role::Bug)
        m_nowButton->setChecked(true);
    else if (burst.limiter == m_model->customLimiter() && burst.limiter->role == LimiterEntry::Role::Custom)
        m_customButton->setChecked(true);
    else
        m_uniqueButton->setChecked(true);
    m_compare->setChecked(plan.compare);
    m_requests->setValue(burst.requests);
    m_connections->setValue(burst.connections);
    m_pipeline->setValue(burst.pipeline);
    m_pacing->setCurrentIndex(m_pacing->findData(int(burst.pacing.kind)));
    updatePacingField();
    if (burst.pacing.kind == Pacing::Kind::Interval)
        m_pacingValue->setValue(double(burst.pacing.intervalMicros));
    else if (burst.pacing.kind == Pacing::Kind::Poisson)
        m_pacingValue->setValue(burst.pacing.perMs);
    m_clock->setCurrentIndex(m_clock->findData(int(burst.clock)));
    m_window->setValue(int(std::min<qint64>(burst.windowMs, m_window->maximum())));
    m_limit->setValue(int(std::min<qint64>(burst.limit, m_limit->maximum())));
    m_users->setValue(burst.users);
    m_showing = false;
    retranslate(); // the texts that name the script
    setRunning(m_running);
}

void BurstPanel::retranslate()
{
    m_memberBox->setTitle(tr("ZSET member of each request"));
    m_nowButton->setText(tr("member = now (the bug)"));
    m_nowButton->setToolTip(LimiterCatalog::builtin("now")->displaySummary() + QStringLiteral(" (lua/now.lua)"));
    m_uniqueButton->setText(tr("unique member"));
    m_uniqueButton->setToolTip(tr("Each request gets a member of its own; choose how beside it."));
    for (int i = 0; i < m_uniqueKind->count(); ++i) {
        const LimiterRef& limiter = m_fixes.at(m_uniqueKind->itemData(i).toInt());
        m_uniqueKind->setItemText(i, limiter->isBuiltin() ? limiter->displayName() : tr("your script"));
        m_uniqueKind->setItemData(i, limiter->displaySummary(), Qt::ToolTipRole);
    }
    m_uniqueKind->setToolTip(tr("How the unique member is made."));
    const LimiterRef custom = m_model->customLimiter();
    m_customButton->setText(custom ? tr("your script: %1").arg(custom->script.name()) : tr("your script"));
    m_customButton->setToolTip(tr("Fire your own limiter script; open it in the script doctor first."));
    m_customEdit->setText(tr("Script Doctor…"));
    m_customEdit->setToolTip(tr("Open, edit, check and probe your own limiter script, then use it for bursts."));
    m_compare->setText(tr("Compare side by side"));
    m_compare->setToolTip(tr("Fire the same timestamps at member = now (left) and at the unique member "
                             "(right), on two keys."));
    m_burstBox->setTitle(tr("Burst"));
    auto* form = static_cast<QFormLayout*>(m_burstBox->layout());
    auto label = [form](QWidget* field, const QString& text, const QString& tooltip) {
        if (auto* l = qobject_cast<QLabel*>(form->labelForField(field))) {
            l->setText(text);
            l->setBuddy(field); // the & shortcut focuses the field
        }
        field->setToolTip(tooltip);
    };
    label(m_requests, tr("&Requests"), tr("How many requests the burst sends."));
    label(m_connections, tr("&Connections"),
          tr("How many connections send at once, like app servers sharing one limiter."));
    label(m_pipeline, tr("&Pipeline"),
          tr("How many calls each connection keeps in flight before waiting for answers."));
    label(m_pacing, tr("P&acing"),
          tr("When requests are sent: all at once, evenly spaced, or at random (Poisson) "
             "arrival times."));
    m_pacingValue->setToolTip(tr("The interval in microseconds, or the mean arrivals per millisecond."));
    label(m_clock, tr("C&lock"),
          tr("The 'now' each request carries. The schedule clock is exact and repeatable on any "
             "machine; the wall clock shows what a real server sees."));
    label(m_window, tr("&Window"), tr("The sliding window of the limiter, in milliseconds."));
    label(m_limit, tr("&Limit"), tr("Admit a request while the count is at most this; 0 = no limit."));
    label(m_users, tr("&Users"),
          tr("Spread the requests over this many client keys, each its own limiter, as an API gateway sees its "
             "callers (on a cluster they spread over the masters)."));
    m_pacing->setItemText(0, tr("burst (as fast as possible)"));
    m_pacing->setItemText(1, tr("evenly, one every … µs"));
    m_pacing->setItemText(2, tr("Poisson, … per ms on average"));
    m_clock->setItemText(m_clock->findData(int(ClockKind::SystemMs)), tr("wall clock, ms (System.currentTimeMillis)"));
    m_clock->setItemText(m_clock->findData(int(ClockKind::SystemUs)), tr("wall clock, µs"));
    m_clock->setItemText(m_clock->findData(int(ClockKind::Frozen)), tr("frozen: one now for all"));
    m_clock->setItemText(m_clock->findData(int(ClockKind::Schedule)), tr("schedule: the pacing's own timestamps"));
    m_window->setSuffix(tr(" ms"));
    m_limit->setSpecialValueText(tr("none"));
    m_fire->setText(tr("Fire"));
    m_fire->setToolTip(tr("Send the burst to Redis (F5)."));
    m_stop->setText(tr("Stop"));
    m_stop->setToolTip(tr("Stop sending; what was answered stays on screen (Esc)."));
    m_reset->setText(tr("Reset"));
    m_reset->setToolTip(tr("Clear the views and delete this burst's keys from Redis (Ctrl+R)."));
    updatePacingField();
    updateStrategyHint();
}

void BurstPanel::applyFonts()
{
    // Relative to the panel's font, so that zooming the application scales them too.
    QFont strong = font();
    strong.setPointSizeF(strong.pointSizeF() * 1.25);
    strong.setBold(true);
    m_nowButton->setFont(strong);
    m_uniqueButton->setFont(strong);
    m_customButton->setFont(strong);
    QFont bold = font();
    bold.setBold(true);
    m_fire->setFont(bold);
}

void BurstPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();
    else if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void BurstPanel::updatePacingField()
{
    const auto kind = Pacing::Kind(m_pacing->currentData().toInt());
    m_pacingValue->setEnabled(kind != Pacing::Kind::Burst);
    if (kind == Pacing::Kind::Interval) {
        m_pacingValue->setDecimals(0);
        m_pacingValue->setRange(1, 60'000'000);
        m_pacingValue->setSuffix(tr(" µs"));
        if (m_pacingValue->value() < 1 || m_pacingValue->value() > 100000)
            m_pacingValue->setValue(250);
    } else if (kind == Pacing::Kind::Poisson) {
        m_pacingValue->setDecimals(3);
        m_pacingValue->setRange(0.001, 1000);
        m_pacingValue->setSuffix(tr(" per ms"));
        if (m_pacingValue->value() > 1000)
            m_pacingValue->setValue(2);
    } else {
        m_pacingValue->setSuffix(QString());
    }
}

void BurstPanel::updateStrategyHint()
{
    const ExperimentPlan& plan = m_model->plan();
    if (plan.burst.clients.size() > 1)
        m_strategyHint->setText(tr("%n simulated app server(s), each with its own clock and connection.", nullptr,
                                   int(plan.burst.clients.size())));
    else if (plan.compare)
        m_strategyHint->setText(
            tr("Left: member = now. Right: the same timestamps with the %1 member.").arg(plan.fix->displayName()));
    else
        m_strategyHint->setText(plan.burst.limiter->displaySummary());
}

void BurstPanel::setRunning(bool running)
{
    m_running = running;
    m_fire->setEnabled(!running);
    m_stop->setEnabled(running);
    for (QWidget* field :
         std::initializer_list<QWidget*> {m_requests, m_connections, m_pipeline, m_pacing, m_clock, m_window, m_limit,
                                          m_users, m_uniqueKind, m_compare, m_nowButton, m_uniqueButton, m_customEdit})
        field->setEnabled(!running);
    m_customButton->setEnabled(!running && m_model->customLimiter());
    m_pacingValue->setEnabled(!running && Pacing::Kind(m_pacing->currentData().toInt()) != Pacing::Kind::Burst);
}
