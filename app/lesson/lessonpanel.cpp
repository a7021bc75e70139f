#include "lessonpanel.h"

#include "clustermap.h"

#include "firecontrol.h"
#include "limiterexperiment.h"
#include "numberspanel.h"
#include "runview.h"
#include "serversession.h"
#include "zsetpanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

#include <cmath>
#include <set>

namespace {
// "The price of the fix" fires at most this many requests per algorithm (a window of a busy
// user's traffic can hold millions; the bytes per member stay the same).
constexpr qint64 maxPriceRequests = 20'000;

// Requests per ms in the user's traffic; a burst counts as its requests spread over one window.
double ratePerMs(const BurstPlan& traffic)
{
    const double window = double(std::max<qint64>(traffic.windowMs, 1));
    const Pacing& pacing = traffic.pacing;
    switch (pacing.kind) {
    case Pacing::Kind::Poisson:
        return pacing.perMs;
    case Pacing::Kind::Interval:
        return pacing.intervalMicros > 0 ? 1000.0 / double(pacing.intervalMicros) : 1.0;
    case Pacing::Kind::Bursts:
        return pacing.intervalMicros > 0 ? pacing.burstSize * 1000.0 / double(pacing.intervalMicros)
                                         : double(pacing.burstSize);
    case Pacing::Kind::Burst:
        break;
    }
    return double(traffic.requests) / window;
}

BurstPlan defaultTraffic()
{
    BurstPlan traffic;
    traffic.windowMs = 1000;
    traffic.pacing.kind = Pacing::Kind::Interval;
    traffic.pacing.intervalMicros = 1000;
    return traffic;
}
} // namespace

LessonPanel::LessonPanel(LessonStage stage, QWidget* parent)
    : QWidget(parent)
    , m_stage(std::move(stage))
{
    auto* layout = new QVBoxLayout(this);
    m_counter = new QLabel(this);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    applyFonts();
    m_body = new QTextBrowser(this);
    m_body->setOpenExternalLinks(false);
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("LessonResult"));
    m_result->installEventFilter(this); // its size once laid out: see bringResultIntoView
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_action = new QPushButton(this);
    m_back = new QPushButton(this);
    m_next = new QPushButton(this);
    m_askFirst = new QCheckBox(this);
    m_asksFirst = QSettings().value(QStringLiteral("lesson/askFirst"), true).toBool();
    m_askFirst->setChecked(m_asksFirst);
    connect(m_askFirst, &QCheckBox::toggled, this, &LessonPanel::setAsksFirst);

    m_question = new QWidget(this);
    auto* question = new QVBoxLayout(m_question);
    question->setContentsMargins(0, 0, 0, 0);
    m_prompt = new QLabel(m_question);
    m_prompt->setWordWrap(true);
    m_prompt->setTextFormat(Qt::RichText);
    m_guessLabel = new QLabel(m_question);
    m_guessNumber = new QSpinBox(m_question);
    m_guessNumber->setRange(-1, 1000000000);
    m_guessNumber->setGroupSeparatorShown(true);
    m_guessNumber->setValue(-1);
    m_guessChoice = new QComboBox(m_question);
    m_guessChoice->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_guessLabel->setBuddy(m_guessNumber);
    auto* guessRow = new QHBoxLayout;
    guessRow->addWidget(m_guessLabel);
    guessRow->addWidget(m_guessNumber);
    guessRow->addWidget(m_guessChoice, 1);
    guessRow->addStretch(1);
    question->addWidget(m_prompt);
    question->addLayout(guessRow);
    connect(m_guessNumber, &QSpinBox::valueChanged, this, [this](int value) {
        if (!m_guessNumber->isHidden())
            m_guesses[m_step] = value;
    });
    connect(m_guessChoice, &QComboBox::activated, this, [this](int index) {
        if (!m_guessChoice->isHidden())
            m_guesses[m_step] = index - 1; // item 0: no guess
    });

    auto* heading = new QHBoxLayout;
    heading->addWidget(m_counter);
    heading->addStretch(1);
    heading->addWidget(m_askFirst);
    auto* navigation = new QHBoxLayout;
    navigation->addWidget(m_back);
    navigation->addStretch(1);
    navigation->addWidget(m_next);
    layout->addLayout(heading);
    layout->addWidget(m_title);
    layout->addWidget(m_body, 1);
    layout->addWidget(m_question);
    layout->addWidget(m_action);
    layout->addWidget(m_result);
    layout->addLayout(navigation);
    connect(m_back, &QPushButton::clicked, this, &LessonPanel::back);
    connect(m_next, &QPushButton::clicked, this, &LessonPanel::next);
    connect(m_action, &QPushButton::clicked, this, &LessonPanel::runAction);
    m_price = new AlgorithmComparison(this);
    connect(m_price, &AlgorithmComparison::finished, this, [this](const ComparisonResult& result) {
        const AlgorithmTally* log = nullptr;
        for (const AlgorithmTally& tally : result.algorithms)
            log = tally.id == QLatin1String("sliding-log") ? &tally : log;
        finish([result] { return describePrice(result); }, nullptr, log ? log->admitted : -1);
    });
    retranslate();
}

void LessonPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::FontChange)
        applyFonts();
}

void LessonPanel::applyFonts()
{
    // The heading stays larger than the text as the window's text grows.
    QFont heading = font();
    heading.setBold(true);
    heading.setPointSizeF(font().pointSizeF() * 1.3);
    m_title->setFont(heading);
}

void LessonPanel::retranslate()
{
    m_back->setText(tr("◀ Back"));
    m_next->setText(tr("Next ▶"));
    m_action->setToolTip(tr("Do this step on the real Redis server."));
    m_askFirst->setText(tr("Ask the class first"));
    m_askFirst->setToolTip(tr("Before each step's action, ask the class to predict what Redis will do, enter "
                              "their guess, then compare it with the result."));
    m_guessLabel->setText(tr("The class's guess:"));
    m_guessNumber->setSpecialValueText(tr("no guess"));
    showStep();
}

int LessonPanel::stepCount() const
{
    return const_cast<LessonPanel*>(this)->steps().size();
}

void LessonPanel::goToStep(int index)
{
    m_step = std::clamp(index, 0, stepCount() - 1);
    m_resultOf = nullptr;
    m_showResult = false;
    m_answers.remove(m_step); // the result goes with the step's run
    showStep();
}

void LessonPanel::next()
{
    goToStep(m_step + 1);
}

void LessonPanel::back()
{
    goToStep(m_step - 1);
}

bool LessonPanel::hasAction() const
{
    return !const_cast<LessonPanel*>(this)->steps().value(m_step).actionLabel.isEmpty();
}

QString LessonPanel::stepTitle() const
{
    return const_cast<LessonPanel*>(this)->steps().value(m_step).title;
}

QString LessonPanel::stepLimiter() const
{
    return const_cast<LessonPanel*>(this)->steps().value(m_step).limiter;
}

bool LessonPanel::buildsOnPreviousStep() const
{
    return const_cast<LessonPanel*>(this)->steps().value(m_step).buildsOnPrevious;
}

QString LessonPanel::resultText() const
{
    return m_resultOf ? m_resultOf() : QString();
}

void LessonPanel::setAsksFirst(bool on)
{
    m_asksFirst = on;
    QSettings().setValue(QStringLiteral("lesson/askFirst"), on);
    const QSignalBlocker blocker(m_askFirst);
    m_askFirst->setChecked(on);
    showStep();
}

bool LessonPanel::hasQuestion() const
{
    return !const_cast<LessonPanel*>(this)->steps().value(m_step).question.prompt.isEmpty();
}

QString LessonPanel::questionText() const
{
    return const_cast<LessonPanel*>(this)->steps().value(m_step).question.prompt;
}

QStringList LessonPanel::questionChoices() const
{
    return const_cast<LessonPanel*>(this)->steps().value(m_step).question.choices;
}

void LessonPanel::setGuess(qint64 guess)
{
    m_guesses[m_step] = guess;
    showStep();
}

QString LessonPanel::guessVersusAnswer() const
{
    const qint64 guess = this->guess();
    const qint64 answer = this->answer();
    if (!m_asksFirst || !hasQuestion() || answer < 0)
        return QString();
    const QStringList choices = questionChoices();
    auto said = [&choices, this](qint64 value) {
        return choices.isEmpty() ? locale().toString(value) : choices.value(int(value));
    };
    if (guess < 0)
        return tr("Redis: %1 (no guess entered)").arg(said(answer));
    return (guess == answer ? tr("Class: %1 · Redis: %2 · the class was right")
                            : tr("Class: %1 · Redis: %2 · not what the class expected"))
        .arg(said(guess), said(answer));
}

void LessonPanel::showQuestion(const Step& step)
{
    const bool asking = m_asksFirst && !step.question.prompt.isEmpty();
    m_question->setVisible(asking);
    if (!asking)
        return;
    m_prompt->setText(tr("<b>Ask the class:</b> %1").arg(step.question.prompt.toHtmlEscaped()));
    const qint64 guess = m_guesses.value(m_step, -1);
    const bool choosing = !step.question.choices.isEmpty();
    m_guessNumber->setVisible(!choosing);
    m_guessChoice->setVisible(choosing);
    if (choosing) {
        m_guessChoice->clear();
        m_guessChoice->addItem(tr("no guess"));
        m_guessChoice->addItems(step.question.choices);
        m_guessChoice->setCurrentIndex(int(guess) + 1);
        m_guessLabel->setBuddy(m_guessChoice);
    } else {
        const QSignalBlocker blocker(m_guessNumber);
        m_guessNumber->setValue(int(std::min<qint64>(guess, m_guessNumber->maximum())));
        m_guessLabel->setBuddy(m_guessNumber);
    }
}

void LessonPanel::showStep()
{
    const QVector<Step> all = steps();
    const Step& step = all.at(m_step);
    m_counter->setText(tr("Step %1 of %2").arg(m_step + 1).arg(all.size()));
    m_title->setText(step.title);
    m_body->setHtml(step.body);
    m_action->setText(step.actionLabel);
    m_action->setVisible(!step.actionLabel.isEmpty());
    m_action->setEnabled(true);
    showQuestion(step);
    const QString result = resultText(); // made in the language of the moment
    QString shown = result.isEmpty() ? QString() : tr("<b>Result:</b> %1").arg(result.toHtmlEscaped());
    if (const QString compared = guessVersusAnswer(); !compared.isEmpty())
        shown += QStringLiteral("<br>") + tr("<b>Guess first:</b> %1").arg(compared.toHtmlEscaped());
    m_result->setText(shown);
    m_back->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < all.size());
}

void LessonPanel::runAction()
{
    const QVector<Step> all = steps();
    if (!all.at(m_step).action)
        return;
    if (!m_stage.session->isUsable()) {
        m_result->setText(tr("Not connected to Redis: connect first (Burst > Connect to Redis)."));
        return;
    }
    m_action->setEnabled(false);
    m_result->setText(tr("Running on %1…").arg(m_stage.session->endpoint().address()));
    all.at(m_step).action();
}

void LessonPanel::finish(std::function<QString()> result, QWidget* spotlight, qint64 answer)
{
    m_resultOf = std::move(result);
    if (answer >= 0)
        m_answers[m_step] = answer;
    else
        m_answers.remove(m_step);
    showStep();
    if (spotlight && m_stage.spotlight)
        m_stage.spotlight(spotlight);
    // In a panel that scrolls (a low screen, large text) the result may lie below the fold: it
    // comes into view once laid out, and as it grows (bringResultIntoView).
    m_showResult = true;
    bringResultIntoView();
    emit actionFinished();
}

ExperimentPlan LessonPanel::lessonPlan(const char* limiter, int requests, qint64 limit)
{
    ExperimentPlan plan;
    plan.burst.limiter = LimiterCatalog::builtin(limiter);
    plan.burst.requests = requests;
    plan.burst.clock = ClockKind::Frozen; // "in one millisecond", exactly, on any machine
    plan.burst.windowMs = 60000; // the ZSET stays to be looked at (a unique member's key expires after one window)
    plan.burst.limit = limit;
    return plan;
}

void LessonPanel::fire(const ExperimentPlan& plan, std::function<void()> then)
{
    auto* context = new QObject(this);
    connect(m_stage.experiment, &LimiterExperiment::allFinished, context, [context, then] {
        context->deleteLater();
        then();
    });
    if (!m_stage.fireControl->fire(plan)) {
        context->deleteLater();
        finish([error = m_stage.fireControl->error()] { return error; }, nullptr);
    }
}

LessonPanel::Ran LessonPanel::ran(int side) const
{
    const BurstEngine& engine = m_stage.experiment->engine(LimiterExperiment::Side(side));
    Ran ran;
    ran.limiter = engine.plan().limiter;
    ran.summary = engine.summary();
    const RequestLog& log = engine.log();
    for (int i = log.size() - 1; i >= 0 && ran.member.isEmpty(); --i) {
        if (log.isDone(i) && !log.isFailed(i))
            ran.member = log.member(i);
    }
    for (int i = 0; i < std::min(log.size(), 10); ++i) {
        ran.counts << log.count(i);
        ran.added << log.added(i);
    }
    return ran;
}

QString LessonPanel::whatRan(const Ran& ran)
{
    return ran.member.isEmpty()
        ? ran.limiter->displayName()
        : tr("%1, e.g. member %2").arg(ran.limiter->displayName(), QString::fromUtf8(ran.member));
}

QString LessonPanel::describeRun(const Ran& ran, bool withCounts)
{
    QString text = tr("%1: %L2 sent, %L3 stored, %Ln member(s) in the ZSET", nullptr, int(ran.summary.finalCount))
                       .arg(whatRan(ran))
                       .arg(ran.summary.sent)
                       .arg(ran.summary.stored);
    if (withCounts) {
        QStringList counts;
        QStringList added;
        for (const qint64 count : ran.counts)
            counts << QString::number(count);
        for (const int value : ran.added)
            added << QString::number(value);
        text += tr("; counts returned: %1; ZADD replied: %2")
                    .arg(counts.join(QStringLiteral(", ")), added.join(QStringLiteral(", ")));
    }
    return text;
}

namespace {
// The EXPIRE step's choices, from a PTTL reply: about a second, about 1000 s, no expiry.
qint64 expiryChoice(qint64 pttl)
{
    if (pttl == -1)
        return 2;
    if (pttl < 0)
        return -1; // no key, or no answer: nothing to compare
    return pttl > 10000 ? 1 : 0;
}
} // namespace

QVector<LessonPanel::Step> LessonPanel::steps()
{
    QVector<Step> all;
    const QString version = m_stage.session->isUsable() ? m_stage.session->server().version : tr("unknown");
    LimiterExperiment* experiment = m_stage.experiment;
    auto left = [experiment]() -> const BurstEngine& { return experiment->engine(LimiterExperiment::Left); };

    all.push_back({tr("A sliding-window limiter in a ZSET"),
                   tr("<p>One sorted set per client. Each request runs one Lua script, atomically:</p>"
                      "<ol><li><b>Remove</b> the entries older than the window (ZREMRANGEBYSCORE).</li>"
                      "<li><b>Add</b> this request: score = its time, member = its identity (ZADD).</li>"
                      "<li><b>Count</b> the entries (ZCARD): more than the limit means refuse.</li>"
                      "<li><b>Expire</b> the key when the client goes quiet (EXPIRE).</li></ol>"
                      "<p>The question of this lesson: what is the identity of a request?</p>"),
                   tr("Show the script"),
                   [this] {
                       if (m_stage.showScript)
                           m_stage.showScript(QStringLiteral("now"));
                       finish([] { return tr("lua/now.lua is open: the four steps are marked in its comments."); },
                              nullptr);
                   },
                   QString()});

    all.push_back({tr("Three requests in one millisecond"),
                   tr("<p>The script uses the timestamp as the member: <code>ZADD key now now</code>. Three "
                      "requests arrive in the same millisecond, as a burst easily does.</p>"
                      "<p>Watch the timeline: one filled square and two hollow diamonds in one millisecond, and "
                      "one row in the ZSET table.</p>"),
                   tr("Send 3 requests in one millisecond"),
                   [this] {
                       fire(lessonPlan("now", 3, 0), [this] {
                           const Ran left = ran(LimiterExperiment::Left);
                           finish([left] { return describeRun(left, true); }, m_stage.left, left.summary.finalCount);
                       });
                   },
                   QStringLiteral("now"),
                   {tr("3 requests arrive in the same millisecond. How many members will the ZSET hold?")}});

    all.push_back(
        {tr("Why: a member is unique"),
         tr("<p>A ZSET holds each member once. ZADD of a member that already exists does not add a "
            "second entry: it updates the score and replies <b>0</b>.</p>"
            "<p>The three requests carried the same <code>now</code>, so they were the same member: "
            "ZADD replied 1, then 0, then 0, and ZCARD stayed at 1.</p>"),
         tr("Show the member and its writes"),
         [this, left] {
             const QByteArray member = left().log().size() > 0 ? left().log().member(0) : QByteArray();
             m_stage.zset->selectMember(member);
             const int writes = m_stage.left->writes().writesOf(member);
             finish(
                 [member, writes] {
                     return tr("member %1 was written by %2 request(s)").arg(QString::fromUtf8(member)).arg(writes);
                 },
                 m_stage.zset, writes);
         },
         QString(),
         {tr("The ZSET holds one member. How many requests wrote it?")},
         true});

    all.push_back({tr("Atomic is not correct"),
                   tr("<p>Maybe it is a race? Send the burst over three connections at once. The script is "
                      "atomic: Redis runs one call at a time, in order, and no call sees another half done.</p>"
                      "<p>The result is the same: no race happened. The data collided, not the threads.</p>"),
                   tr("Send 30 requests over 3 connections"),
                   [this] {
                       ExperimentPlan plan = lessonPlan("now", 30, 0);
                       plan.burst.connections = 3;
                       fire(plan, [this] {
                           const Ran left = ran(LimiterExperiment::Left);
                           finish([left] { return describeRun(left, false); }, m_stage.left->numbers(),
                                  left.summary.finalCount);
                       });
                   },
                   QStringLiteral("now"),
                   {tr("30 requests over 3 connections at once, all in one millisecond. How many members will "
                       "the ZSET hold?")}});

    all.push_back({tr("The consequence: the burst goes through"),
                   tr("<p>Set a limit of 5 requests per window and send 20 in one millisecond. The count the "
                      "script returns never passes 1, so every request is admitted.</p>"
                      "<p>The counts chart shows the gap: the true number in the window climbs to 20, the "
                      "returned count stays flat.</p>"),
                   tr("Send 20 requests with limit 5"),
                   [this, left] {
                       fire(lessonPlan("now", 20, 5), [this] {
                           const Ran left = ran(LimiterExperiment::Left);
                           finish(
                               [left] {
                                   return tr("%1: %L2 admitted with limit 5; %L3 of them beyond the limit")
                                       .arg(whatRan(left))
                                       .arg(left.summary.admitted)
                                       .arg(left.summary.admittedOverLimit);
                               },
                               m_stage.left->numbers(), left.summary.admitted);
                       });
                   },
                   QStringLiteral("now"),
                   {tr("Limit 5: 20 requests arrive in one millisecond. How many will the limiter admit?")}});

    all.push_back({tr("The fix: a unique member"),
                   tr("<p>Keep the time as the <i>score</i> (it orders and trims the window) and give each "
                      "request a member of its own: an id the caller sends (<code>ZADD key now request_id</code>).</p>"
                      "<p>Left: the same 20 timestamps with member = now. Right: with a request id.</p>"),
                   tr("Compare both on the same timestamps"),
                   [this, experiment] {
                       ExperimentPlan plan = lessonPlan("now", 20, 5);
                       plan.compare = true;
                       plan.fix = LimiterCatalog::builtin("request-id");
                       fire(plan, [this] {
                           const Ran right = ran(LimiterExperiment::Right);
                           finish(
                               [left = ran(LimiterExperiment::Left), right] {
                                   return tr("%1: %L2 stored, %L3 beyond the limit; %4: %L5 stored, %L6 beyond the "
                                             "limit")
                                       .arg(whatRan(left))
                                       .arg(left.summary.stored)
                                       .arg(left.summary.admittedOverLimit)
                                       .arg(whatRan(right))
                                       .arg(right.summary.stored)
                                       .arg(right.summary.admittedOverLimit);
                               },
                               m_stage.runs, right.summary.admitted);
                       });
                   },
                   QStringLiteral("request-id"),
                   {tr("The same 20 requests and limit 5, each with a request id of its own. How many will the "
                       "limiter admit now?")}});

    all.push_back(
        {tr("Trap 1: math.random() is not random everywhere"),
         tr("<p>A common fix is <code>member = now .. '-' .. math.random()</code>. Redis 2.6 to 6.2 "
            "reseed Lua's generator with the same seed at the start of every script call, so the "
            "first <code>math.random()</code> of every call returns the same number (0.17082803611217) "
            "and the fix still collides. Redis 7 keeps one generator running.</p>"
            "<p>Your server is Redis %1.</p>")
             .arg(version.toHtmlEscaped()),
         tr("Send 100 requests in one millisecond with math.random()"),
         [this] {
             fire(lessonPlan("random", 100, 0), [this] {
                 const auto& server = m_stage.session->server();
                 const Ran left = ran(LimiterExperiment::Left);
                 finish(
                     [ran = left, reseeds = server.reseedsLuaRandomPerCall(), version = server.version]() -> QString {
                         return describeRun(ran, false)
                             + (reseeds ? tr(": this server reseeds per call, the fix collides here")
                                        : tr(": Redis %1 does not reseed per call; on 2.6 to 6.2 the "
                                             "same burst stores 1")
                                              .arg(version));
                     },
                     m_stage.zset, left.summary.finalCount);
             });
         },
         QStringLiteral("random"),
         {tr("100 requests in one millisecond, member = now .. '-' .. math.random(). How many members "
             "will the ZSET hold on this server?")}});

    all.push_back({tr("Trap 2: microseconds merge into text"),
                   tr("<p>\"Milliseconds collide, so use microseconds.\" But Lua writes a number into text with "
                      "14 significant digits: <code>'req:' .. 1710000000000123</code> becomes "
                      "<code>req:1.7100000000001e+15</code>. Every request in the same 100 µs gets the same "
                      "member (lua/microseconds.lua).</p>"
                      "<p>The burst below uses the wall clock in microseconds: the timestamps differ, the members "
                      "do not.</p>"),
                   tr("Send 300 requests with microsecond timestamps"),
                   [this, left] {
                       ExperimentPlan plan = lessonPlan("microseconds", 300, 0);
                       plan.burst.clock = ClockKind::SystemUs;
                       // Sent 50 at a time, the requests take their times microseconds apart, as
                       // a busy server's do: on a slow or loaded machine too.
                       plan.burst.pipeline = 50;
                       fire(plan, [this, left] {
                           const RequestLog& log = left().log();
                           std::set<qint64> distinct;
                           for (int i = 0; i < log.size(); ++i)
                               if (log.isDone(i))
                                   distinct.insert(log.now(i));
                           const Ran ran = this->ran(LimiterExperiment::Left);
                           finish(
                               [ran, timestamps = qint64(distinct.size())] {
                                   return tr("%1: %L2 distinct microsecond timestamps were stored as %L3 members")
                                       .arg(whatRan(ran))
                                       .arg(timestamps)
                                       .arg(ran.summary.stored);
                               },
                               m_stage.zset, ran.summary.finalCount);
                       });
                   },
                   QStringLiteral("microseconds"),
                   {tr("300 requests, each with its own microsecond timestamp in its member. How many members "
                       "will the ZSET hold?")}});

    all.push_back({tr("Trap 3: EXPIRE counts seconds"),
                   tr("<p>The article's script ends with <code>EXPIRE key window</code>, the window in "
                      "milliseconds. EXPIRE takes seconds: a 1000 ms window keeps an idle key for 1000 s, a "
                      "60000 ms window for 16.7 hours. The count stays right (ZREMRANGEBYSCORE trims), but idle "
                      "keys linger and use memory. PEXPIRE takes milliseconds.</p>"),
                   tr("Send 1 request and read the key's TTL"),
                   [this, left] {
                       ExperimentPlan plan = lessonPlan("now", 1, 0);
                       plan.burst.windowMs = 1000; // as the text says
                       fire(plan, [this, left] {
                           const QByteArray key = left().key();
                           const RedisEndpoint endpoint = m_stage.session->endpoint();
                           const ConnectOptions options = m_stage.session->options();
                           m_thread.post([this, key, endpoint, options] {
                               RedisConnection connection;
                               ClusterMap map; // on a cluster, the key's own master
                               QString why;
                               const qint64 ttl = openForKey(connection, endpoint, key, options, &map, &why)
                                   ? connection.command({"PTTL", key}).toInteger()
                                   : -3;
                               QMetaObject::invokeMethod(
                                   this,
                                   [this, ttl] {
                                       finish(
                                           [ran = ran(LimiterExperiment::Left), ttl] {
                                               return ttl > 0
                                                   ? tr("%1: window 1000 ms, TTL of the key %L2 s: %L3 times longer "
                                                        "than the window")
                                                         .arg(whatRan(ran))
                                                         .arg(double(ttl) / 1000.0, 0, 'f', 0)
                                                         .arg(double(ttl) / 1000.0, 0, 'f', 0)
                                                   : tr("%1: the key has no TTL (%2)").arg(whatRan(ran)).arg(ttl);
                                           },
                                           nullptr, expiryChoice(ttl));
                                   },
                                   Qt::QueuedConnection);
                           });
                       });
                   },
                   QStringLiteral("now"),
                   {tr("The script ends with EXPIRE key 1000 for a 1000 ms window. How long will an idle key stay?"),
                    {tr("about 1 second"), tr("about 17 minutes"), tr("until it is deleted")}}});

    const BurstPlan traffic = m_stage.traffic ? m_stage.traffic() : defaultTraffic();
    const ComparisonPlan price = pricePlan(traffic);
    QString capped;
    if (std::llround(ratePerMs(traffic) * double(price.burst.windowMs)) > maxPriceRequests)
        capped = tr(" (measured on the first %L1: each member costs about the same)").arg(maxPriceRequests);
    all.push_back(
        {tr("The price of the fix"),
         tr("<p>The unique member keeps the count exact, and it costs memory: the sliding log keeps one member per "
            "admitted request in the window, for every user. At your window of %L1 ms and rate of %2 requests "
            "per ms, one user's key holds %L3 members%4.</p>"
            "<p>The action fires them in one millisecond at the sliding log and at four cheaper algorithms on "
            "the real server, and reads each key's MEMORY USAGE. What the cheaper ones give up:</p>"
            "<ul><li><b>fixed-window</b>, one counter: across a window boundary up to twice the limit gets "
            "through.</li>"
            "<li><b>sliding-counter</b>, two counters: an estimate that assumes the previous window's requests "
            "came evenly.</li>"
            "<li><b>token-bucket</b> and <b>gcra</b>, one or two numbers: they limit a rate with a burst "
            "allowance, not the count in a sliding window.</li></ul>"
            "<p>View &gt; Compare Algorithms runs them all on other traffic.</p>")
             .arg(price.burst.windowMs)
             .arg(QLocale().toString(ratePerMs(traffic), 'g', 3))
             .arg(price.burst.requests)
             .arg(capped),
         tr("Measure the memory per user"),
         [this] { measurePrice(); },
         QString(),
         {tr("At your window and rate, how many entries will one user's sliding log keep?")}});
    return all;
}

ComparisonPlan LessonPanel::pricePlan(const BurstPlan& traffic)
{
    ComparisonPlan plan;
    plan.burst.windowMs = std::max<qint64>(traffic.windowMs, 1);
    const qint64 members
        = std::clamp<qint64>(std::llround(ratePerMs(traffic) * double(plan.burst.windowMs)), 1, maxPriceRequests);
    plan.burst.requests = int(members);
    plan.burst.pacing = Pacing(); // one burst
    plan.burst.clock = ClockKind::Frozen; // all in the window, none trimmed before the count
    plan.burst.limit = members; // every request admitted: the log holds them all
    plan.burst.pipeline = 64;
    plan.limiters = {QStringLiteral("sliding-log"), QStringLiteral("fixed-window"), QStringLiteral("sliding-counter"),
                     QStringLiteral("token-bucket"), QStringLiteral("gcra")};
    return plan;
}

void LessonPanel::measurePrice()
{
    const ComparisonPlan plan = pricePlan(m_stage.traffic ? m_stage.traffic() : defaultTraffic());
    if (!m_price->start(m_stage.session->endpoint(), plan, m_stage.session->options()))
        finish([error = m_price->planError()] { return error; }, nullptr);
}

QString LessonPanel::describePrice(const ComparisonResult& result)
{
    if (result.failure.isFailure())
        return tr("Failed: %1").arg(result.failure.message);
    QString log;
    QStringList cheaper;
    for (const AlgorithmTally& tally : result.algorithms) {
        const auto bytes = qint64(std::llround(tally.memoryBytesPerKey));
        if (tally.id == QLatin1String("sliding-log")) {
            const double perMember = tally.admitted > 0 ? tally.memoryBytesPerKey / double(tally.admitted) : 0;
            log = tr("sliding-log: %L1 members, %L2 bytes per user (about %L3 bytes per member)")
                      .arg(tally.admitted)
                      .arg(bytes)
                      .arg(perMember, 0, 'f', 0);
        } else {
            cheaper << tr("%1: %L2 bytes").arg(tally.id).arg(bytes);
        }
    }
    return tr("%1; cheaper: %2").arg(log, cheaper.join(QStringLiteral(", ")));
}

void LessonPanel::bringResultIntoView()
{
    for (QWidget* parent = parentWidget(); parent; parent = parent->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(parent)) {
            area->ensureWidgetVisible(m_result, 0, 0);
            return;
        }
}

bool LessonPanel::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_result && m_showResult && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
        QTimer::singleShot(0, this, [this] {
            if (m_showResult)
                bringResultIntoView();
        });
    return QWidget::eventFilter(watched, event);
}
