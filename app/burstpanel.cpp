#include "burstpanel.h"

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

BurstPanel::BurstPanel(QWidget* parent)
    : QWidget(parent)
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
    now->setChecked(true);
    m_uniqueKind = new QComboBox(memberBox);
    m_uniqueKind->addItem(QString(), int(MemberStrategy::RequestId));
    m_uniqueKind->addItem(QString(), int(MemberStrategy::Random));
    m_uniqueKind->addItem(QString(), int(MemberStrategy::Sequence));
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
    m_requests = spinBox(1, BurstPlan::maxRequests, 200, burstBox);
    m_connections = spinBox(1, BurstPlan::maxConnections, 1, burstBox);
    m_pipeline = spinBox(1, BurstPlan::maxPipeline, 1, burstBox);
    m_pacing = new QComboBox(burstBox);
    m_pacing->addItem(QString(), int(Pacing::Kind::Burst));
    m_pacing->addItem(QString(), int(Pacing::Kind::Interval));
    m_pacing->addItem(QString(), int(Pacing::Kind::Poisson));
    m_pacingValue = new QDoubleSpinBox(burstBox);
    m_clock = new QComboBox(burstBox);
    m_clock->addItem(QString(), int(ClockKind::SystemMs));
    m_clock->addItem(QString(), int(ClockKind::SystemUs));
    m_clock->addItem(QString(), int(ClockKind::Frozen));
    m_clock->addItem(QString(), int(ClockKind::Schedule));
    m_window = spinBox(1, 24 * 3600 * 1000, 1000, burstBox);
    m_limit = spinBox(0, 1'000'000'000, 10, burstBox);
    form->addRow(new QLabel(burstBox), m_requests); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_connections); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_pipeline); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_pacing); // its text: retranslate()
    form->addRow(QString(), m_pacingValue);
    form->addRow(new QLabel(burstBox), m_clock); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_window); // its text: retranslate()
    form->addRow(new QLabel(burstBox), m_limit); // its text: retranslate()
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
    connect(m_compare, &QCheckBox::toggled, this, &BurstPanel::compareModeChanged);
    connect(m_customEdit, &QPushButton::clicked, this, &BurstPanel::customScriptRequested);
    connect(m_compare, &QCheckBox::toggled, this, &BurstPanel::updateStrategyHint);
    connect(m_member, &QButtonGroup::idToggled, this, &BurstPanel::updateStrategyHint);
    connect(m_uniqueKind, &QComboBox::currentIndexChanged, this, [this] {
        m_uniqueButton->setChecked(true);
        updateStrategyHint();
    });
    connect(m_pacing, &QComboBox::currentIndexChanged, this, &BurstPanel::updatePacingField);
    retranslate();
    setRunning(false);
    applyFonts();
}

void BurstPanel::retranslate()
{
    m_memberBox->setTitle(tr("ZSET member of each request"));
    m_nowButton->setText(tr("member = now (the bug)"));
    m_nowButton->setToolTip(tr("ZADD key now now: the timestamp is the member, so requests in the same millisecond "
                               "overwrite one entry (lua/now.lua)."));
    m_uniqueButton->setText(tr("unique member"));
    m_uniqueButton->setToolTip(tr("Each request gets a member of its own; choose how beside it."));
    m_uniqueKind->setItemText(m_uniqueKind->findData(int(MemberStrategy::RequestId)), tr("request id"));
    m_uniqueKind->setItemText(m_uniqueKind->findData(int(MemberStrategy::Random)), tr("random"));
    m_uniqueKind->setItemText(m_uniqueKind->findData(int(MemberStrategy::Sequence)), tr("sequence"));
    if (m_uniqueKind->findData(int(MemberStrategy::Custom)) >= 0)
        m_uniqueKind->setItemText(m_uniqueKind->findData(int(MemberStrategy::Custom)), tr("your script"));
    m_uniqueKind->setToolTip(tr("How the unique member is made: an id sent per request (lua/request-id.lua), "
                                "now .. '-' .. math.random() (lua/random.lua), or now .. '-' .. a server INCR "
                                "(lua/sequence.lua)."));
    m_customButton->setText(m_customScript.isValid() ? tr("your script: %1").arg(m_customScript.name())
                                                     : tr("your script"));
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
    if (m_clients.size() > 1)
        m_strategyHint->setText(tr("%n simulated app server(s), each with its own clock and connection.", nullptr,
                                   int(m_clients.size())));
    else if (!m_compare->isChecked() && m_customButton->isChecked())
        m_strategyHint->setText(tr("Your script, called as KEYS %1 ARGV %2.")
                                    .arg(m_callTemplate ? m_callTemplate->keysText() : QString(),
                                         m_callTemplate ? m_callTemplate->argsText() : QString()));
    else if (m_compare->isChecked())
        m_strategyHint->setText(
            tr("Left: member = now. Right: the same timestamps with the %1 member.").arg(m_uniqueKind->currentText()));
    else if (m_nowButton->isChecked())
        m_strategyHint->setText(tr("Requests in one millisecond share one member."));
    else
        m_strategyHint->setText(tr("Every request keeps an entry of its own."));
}

void BurstPanel::setCustomScript(const LimiterScript& script, std::shared_ptr<const CallTemplate> call,
                                 ReplyStyle style)
{
    m_customScript = script;
    m_callTemplate = std::move(call);
    m_replyStyle = style;
    m_customButton->setEnabled(true);
    m_customButton->setChecked(true);
    // In compare mode the script can be the right-hand side.
    const int index = m_uniqueKind->findData(int(MemberStrategy::Custom));
    if (index < 0)
        m_uniqueKind->addItem(QString(), int(MemberStrategy::Custom));
    retranslate();
}

MemberStrategy BurstPanel::uniqueStrategy() const
{
    return MemberStrategy(m_uniqueKind->currentData().toInt());
}

void BurstPanel::setUniqueStrategy(MemberStrategy strategy)
{
    const int index = m_uniqueKind->findData(int(strategy));
    if (index < 0)
        return;
    const bool nowChecked = m_nowButton->isChecked();
    m_uniqueKind->setCurrentIndex(index); // checks "unique member"
    if (nowChecked)
        m_nowButton->setChecked(true);
    updateStrategyHint();
}

bool BurstPanel::compareMode() const
{
    return m_compare->isChecked();
}

void BurstPanel::setCompareMode(bool on)
{
    m_compare->setChecked(on);
}

BurstPlan BurstPanel::plan() const
{
    BurstPlan plan;
    plan.strategy = m_nowButton->isChecked() ? MemberStrategy::Now
        : m_customButton->isChecked()        ? MemberStrategy::Custom
                                             : uniqueStrategy();
    if (m_customScript.isValid()) { // carried along: compare mode may fire it on the right
        plan.customScript = m_customScript;
        plan.callTemplate = m_callTemplate;
        plan.replyStyle = m_replyStyle;
    }
    plan.requests = m_requests->value();
    plan.connections = m_connections->value();
    plan.pipeline = m_pipeline->value();
    plan.pacing.kind = Pacing::Kind(m_pacing->currentData().toInt());
    if (plan.pacing.kind == Pacing::Kind::Interval)
        plan.pacing.intervalMicros = qint64(m_pacingValue->value());
    else if (plan.pacing.kind == Pacing::Kind::Poisson)
        plan.pacing.perMs = m_pacingValue->value();
    plan.clock = ClockKind(m_clock->currentData().toInt());
    plan.windowMs = m_window->value();
    plan.limit = m_limit->value();
    plan.clients = m_clients;
    return plan;
}

void BurstPanel::setPlan(const BurstPlan& plan)
{
    m_clients = plan.clients;
    if (plan.strategy == MemberStrategy::Now) {
        m_nowButton->setChecked(true);
    } else if (plan.strategy != MemberStrategy::Custom) {
        m_uniqueKind->setCurrentIndex(m_uniqueKind->findData(int(plan.strategy)));
        m_uniqueButton->setChecked(true);
    }
    m_requests->setValue(plan.requests);
    m_connections->setValue(plan.connections);
    m_pipeline->setValue(plan.pipeline);
    m_pacing->setCurrentIndex(m_pacing->findData(int(plan.pacing.kind)));
    updatePacingField();
    if (plan.pacing.kind == Pacing::Kind::Interval)
        m_pacingValue->setValue(double(plan.pacing.intervalMicros));
    else if (plan.pacing.kind == Pacing::Kind::Poisson)
        m_pacingValue->setValue(plan.pacing.perMs);
    m_clock->setCurrentIndex(m_clock->findData(int(plan.clock)));
    m_window->setValue(int(std::min<qint64>(plan.windowMs, m_window->maximum())));
    m_limit->setValue(int(std::min<qint64>(plan.limit, m_limit->maximum())));
    updateStrategyHint();
}

void BurstPanel::setRunning(bool running)
{
    m_fire->setEnabled(!running);
    m_stop->setEnabled(running);
    for (QWidget* field :
         std::initializer_list<QWidget*> {m_requests, m_connections, m_pipeline, m_pacing, m_clock, m_window, m_limit,
                                          m_uniqueKind, m_compare, m_nowButton, m_uniqueButton})
        field->setEnabled(!running);
    m_pacingValue->setEnabled(!running && Pacing::Kind(m_pacing->currentData().toInt()) != Pacing::Kind::Burst);
}
