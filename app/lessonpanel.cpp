#include "lessonpanel.h"

#include "burstpanel.h"
#include "mainwindow.h"
#include "numberspanel.h"
#include "runview.h"
#include "serversession.h"
#include "zsetpanel.h"

#include <QEvent>
#include <QFile>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <set>

LessonPanel::LessonPanel(MainWindow* window)
    : QWidget(window)
    , m_window(window)
{
    auto* layout = new QVBoxLayout(this);
    m_counter = new QLabel(this);
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    m_title->setFont(titleFont);
    m_body = new QTextBrowser(this);
    m_body->setOpenExternalLinks(false);
    m_result = new QLabel(this);
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_action = new QPushButton(this);
    m_back = new QPushButton(this);
    m_next = new QPushButton(this);
    auto* navigation = new QHBoxLayout;
    navigation->addWidget(m_back);
    navigation->addStretch(1);
    navigation->addWidget(m_next);
    layout->addWidget(m_counter);
    layout->addWidget(m_title);
    layout->addWidget(m_body, 1);
    layout->addWidget(m_action);
    layout->addWidget(m_result);
    layout->addLayout(navigation);
    connect(m_back, &QPushButton::clicked, this, &LessonPanel::back);
    connect(m_next, &QPushButton::clicked, this, &LessonPanel::next);
    connect(m_action, &QPushButton::clicked, this, &LessonPanel::runAction);
    retranslate();
}

void LessonPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void LessonPanel::retranslate()
{
    m_back->setText(tr("◀ Back"));
    m_next->setText(tr("Next ▶"));
    m_action->setToolTip(tr("Do this step on the real Redis server."));
    showStep();
}

int LessonPanel::stepCount() const
{
    return const_cast<LessonPanel*>(this)->steps().size();
}

void LessonPanel::goToStep(int index)
{
    m_step = std::clamp(index, 0, stepCount() - 1);
    m_resultText.clear();
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

QString LessonPanel::resultText() const
{
    return m_resultText;
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
    m_result->setText(m_resultText.isEmpty() ? QString() : tr("<b>Result:</b> %1").arg(m_resultText.toHtmlEscaped()));
    m_back->setEnabled(m_step > 0);
    m_next->setEnabled(m_step + 1 < all.size());
}

void LessonPanel::runAction()
{
    const QVector<Step> all = steps();
    if (!all.at(m_step).action)
        return;
    if (!m_window->session()->isUsable()) {
        m_result->setText(tr("Not connected to Redis: connect first (Burst > Connect to Redis)."));
        return;
    }
    m_action->setEnabled(false);
    m_result->setText(tr("Running on %1…").arg(m_window->session()->endpoint().address()));
    all.at(m_step).action();
}

void LessonPanel::finish(const QString& result, QWidget* spotlight)
{
    m_resultText = result;
    showStep();
    if (spotlight)
        m_window->spotlight(spotlight);
    emit actionFinished();
}

BurstPlan LessonPanel::lessonPlan(MemberStrategy strategy, int requests, qint64 limit) const
{
    BurstPlan plan;
    plan.strategy = strategy;
    plan.requests = requests;
    plan.clock = ClockKind::Frozen; // "in one millisecond", exactly, on any machine
    plan.windowMs = 1000;
    plan.limit = limit;
    return plan;
}

void LessonPanel::fire(const BurstPlan& plan, bool compare, MemberStrategy unique, std::function<void()> then)
{
    m_window->burstPanel()->setPlan(plan);
    m_window->burstPanel()->setUniqueStrategy(unique);
    m_window->burstPanel()->setCompareMode(compare);
    auto* context = new QObject(this);
    connect(m_window->experiment(), &LimiterExperiment::allFinished, context, [context, then] {
        context->deleteLater();
        then();
    });
    m_window->fire();
    if (!m_window->experiment()->isRunning()) {
        context->deleteLater();
        finish(m_window->experiment()->error(), nullptr);
    }
}

QString LessonPanel::describeRun(bool withCounts) const
{
    const BurstEngine& engine = m_window->experiment()->engine(LimiterExperiment::Left);
    const BurstSummary summary = engine.summary();
    QString text = tr("%1 sent, %2 stored, %3 member(s) in the ZSET")
                       .arg(summary.sent)
                       .arg(summary.stored)
                       .arg(summary.finalCount);
    if (withCounts) {
        QStringList counts;
        QStringList added;
        for (int i = 0; i < std::min(engine.log().size(), 10); ++i) {
            counts << QString::number(engine.log().count(i));
            added << QString::number(engine.log().added(i));
        }
        text += tr("; counts returned: %1; ZADD replied: %2")
                    .arg(counts.join(QStringLiteral(", ")), added.join(QStringLiteral(", ")));
    }
    return text;
}

QVector<LessonPanel::Step> LessonPanel::steps()
{
    QVector<Step> all;
    const QString version = m_window->session()->isUsable() ? m_window->session()->server().version : tr("unknown");

    all.push_back({tr("A sliding-window limiter in a ZSET"),
                   tr("<p>One sorted set per client. Each request runs one Lua script, atomically:</p>"
                      "<ol><li><b>Remove</b> the entries older than the window (ZREMRANGEBYSCORE).</li>"
                      "<li><b>Add</b> this request: score = its time, member = its identity (ZADD).</li>"
                      "<li><b>Count</b> the entries (ZCARD): more than the limit means refuse.</li>"
                      "<li><b>Expire</b> the key when the client goes quiet (EXPIRE).</li></ol>"
                      "<p>The question of this lesson: what is the identity of a request?</p>"),
                   tr("Show the script"), [this] {
                       m_window->showScriptView(MemberStrategy::Now);
                       finish(tr("lua/now.lua is open: the four steps are marked in its comments."), nullptr);
                   }});

    all.push_back({tr("Three requests in one millisecond"),
                   tr("<p>The script uses the timestamp as the member: <code>ZADD key now now</code>. Three "
                      "requests arrive in the same millisecond, as a burst easily does.</p>"
                      "<p>Watch the timeline: one filled square and two hollow diamonds in one millisecond, and "
                      "one row in the ZSET table.</p>"),
                   tr("Send 3 requests in one millisecond"), [this] {
                       fire(lessonPlan(MemberStrategy::Now, 3, 0), false, MemberStrategy::RequestId,
                            [this] { finish(describeRun(true), m_window->runView(LimiterExperiment::Left)); });
                   }});

    all.push_back({tr("Why: a member is unique"),
                   tr("<p>A ZSET holds each member once. ZADD of a member that already exists does not add a "
                      "second entry: it updates the score and replies <b>0</b>.</p>"
                      "<p>The three requests carried the same <code>now</code>, so they were the same member: "
                      "ZADD replied 1, then 0, then 0, and ZCARD stayed at 1.</p>"),
                   tr("Show the member and its writes"), [this] {
                       const BurstEngine& engine = m_window->experiment()->engine(LimiterExperiment::Left);
                       const QByteArray member = engine.log().size() > 0 ? engine.log().member(0) : QByteArray();
                       m_window->zsetPanel()->selectMember(member);
                       finish(tr("member %1 was written by %2 request(s)")
                                  .arg(QString::fromUtf8(member))
                                  .arg(m_window->runView(LimiterExperiment::Left)->writes().writesOf(member)),
                              m_window->zsetPanel());
                   }});

    all.push_back({tr("Atomic is not correct"),
                   tr("<p>Maybe it is a race? Send the burst over three connections at once. The script is "
                      "atomic: Redis runs one call at a time, in order, and no call sees another half done.</p>"
                      "<p>The result is the same: no race happened. The data collided, not the threads.</p>"),
                   tr("Send 30 requests over 3 connections"), [this] {
                       BurstPlan plan = lessonPlan(MemberStrategy::Now, 30, 0);
                       plan.connections = 3;
                       fire(plan, false, MemberStrategy::RequestId, [this] {
                           finish(describeRun(false), m_window->runView(LimiterExperiment::Left)->numbers());
                       });
                   }});

    all.push_back({tr("The consequence: the burst goes through"),
                   tr("<p>Set a limit of 5 requests per window and send 20 in one millisecond. The count the "
                      "script returns never passes 1, so every request is admitted.</p>"
                      "<p>The counts chart shows the gap: the true number in the window climbs to 20, the "
                      "returned count stays flat.</p>"),
                   tr("Send 20 requests with limit 5"), [this] {
                       fire(lessonPlan(MemberStrategy::Now, 20, 5), false, MemberStrategy::RequestId, [this] {
                           const BurstSummary summary
                               = m_window->experiment()->engine(LimiterExperiment::Left).summary();
                           finish(tr("%1 admitted with limit 5; %2 of them beyond the limit")
                                      .arg(summary.admitted)
                                      .arg(summary.admittedOverLimit),
                                  m_window->runView(LimiterExperiment::Left)->numbers());
                       });
                   }});

    all.push_back(
        {tr("The fix: a unique member"),
         tr("<p>Keep the time as the <i>score</i> (it orders and trims the window) and give each "
            "request a member of its own: an id the caller sends (<code>ZADD key now request_id</code>).</p>"
            "<p>Left: the same 20 timestamps with member = now. Right: with a request id.</p>"),
         tr("Compare both on the same timestamps"), [this] {
             fire(lessonPlan(MemberStrategy::Now, 20, 5), true, MemberStrategy::RequestId, [this] {
                 const BurstSummary left = m_window->experiment()->engine(LimiterExperiment::Left).summary();
                 const BurstSummary right = m_window->experiment()->engine(LimiterExperiment::Right).summary();
                 finish(tr("member = now: %1 stored, %2 beyond the limit; request id: %3 stored, %4 beyond the limit")
                            .arg(left.stored)
                            .arg(left.admittedOverLimit)
                            .arg(right.stored)
                            .arg(right.admittedOverLimit),
                        m_window->runsArea());
             });
         }});

    all.push_back({tr("Trap 1: math.random() is not random everywhere"),
                   tr("<p>A common fix is <code>member = now .. '-' .. math.random()</code>. Redis 2.6 to 6.2 "
                      "reseed Lua's generator with the same seed at the start of every script call, so the "
                      "first <code>math.random()</code> of every call returns the same number (0.17082803611217) "
                      "and the fix still collides. Redis 7 keeps one generator running.</p>"
                      "<p>Your server is Redis %1.</p>")
                       .arg(version.toHtmlEscaped()),
                   tr("Send 100 requests in one millisecond with math.random()"), [this] {
                       fire(lessonPlan(MemberStrategy::Random, 100, 0), false, MemberStrategy::RequestId, [this] {
                           const auto& server = m_window->session()->server();
                           QString result = describeRun(false);
                           result += server.reseedsLuaRandomPerCall()
                               ? tr(": this server reseeds per call, the fix collides here")
                               : tr(": Redis %1 does not reseed per call; on 2.6 to 6.2 the same burst stores 1")
                                     .arg(server.version);
                           finish(result, m_window->zsetPanel());
                       });
                   }});

    all.push_back({tr("Trap 2: microseconds merge into text"),
                   tr("<p>\"Milliseconds collide, so use microseconds.\" But Lua writes a number into text with "
                      "14 significant digits: <code>'req:' .. 1710000000000123</code> becomes "
                      "<code>req:1.7100000000001e+15</code>. Every request in the same 100 µs gets the same "
                      "member (lua/microseconds.lua).</p>"
                      "<p>The burst below uses the wall clock in microseconds: the timestamps differ, the members "
                      "do not.</p>"),
                   tr("Send 300 requests with microsecond timestamps"), [this] {
                       BurstPlan plan = lessonPlan(MemberStrategy::Custom, 300, 0);
                       plan.clock = ClockKind::SystemUs;
                       QFile file(QStringLiteral(":/lua/microseconds.lua"));
                       file.open(QIODevice::ReadOnly);
                       plan.customScript
                           = LimiterScript::fromSource(QStringLiteral("microseconds.lua"), file.readAll());
                       m_window->burstPanel()->setCustomScript(plan.customScript, nullptr, ReplyStyle::CountWithCall);
                       fire(plan, false, MemberStrategy::RequestId, [this] {
                           const RequestLog& log = m_window->experiment()->engine(LimiterExperiment::Left).log();
                           std::set<qint64> distinct;
                           for (int i = 0; i < log.size(); ++i)
                               if (log.isDone(i))
                                   distinct.insert(log.now(i));
                           const BurstSummary summary
                               = m_window->experiment()->engine(LimiterExperiment::Left).summary();
                           finish(tr("%1 distinct microsecond timestamps were stored as %2 members")
                                      .arg(distinct.size())
                                      .arg(summary.stored),
                                  m_window->zsetPanel());
                       });
                   }});

    all.push_back(
        {tr("Trap 3: EXPIRE counts seconds"),
         tr("<p>The article's script ends with <code>EXPIRE key window</code>, the window in "
            "milliseconds. EXPIRE takes seconds: a 1000 ms window keeps an idle key for 1000 s, a "
            "60000 ms window for 16.7 hours. The count stays right (ZREMRANGEBYSCORE trims), but idle "
            "keys linger and use memory. PEXPIRE takes milliseconds.</p>"),
         tr("Send 1 request and read the key's TTL"), [this] {
             fire(lessonPlan(MemberStrategy::Now, 1, 0), false, MemberStrategy::RequestId, [this] {
                 const QByteArray key = m_window->experiment()->engine(LimiterExperiment::Left).key();
                 const RedisEndpoint endpoint = m_window->session()->endpoint();
                 const ConnectOptions options = m_window->session()->options();
                 m_thread.post([this, key, endpoint, options] {
                     RedisConnection connection;
                     const qint64 ttl
                         = connection.open(endpoint, options) ? connection.command({"PTTL", key}).toInteger() : -3;
                     QMetaObject::invokeMethod(
                         this,
                         [this, ttl] {
                             finish(ttl > 0 ? tr("window 1000 ms, TTL of the key %1 s: %2 times longer than the window")
                                                  .arg(double(ttl) / 1000.0, 0, 'f', 0)
                                                  .arg(double(ttl) / 1000.0, 0, 'f', 0)
                                            : tr("the key has no TTL (%1)").arg(ttl),
                                    nullptr);
                         },
                         Qt::QueuedConnection);
                 });
             });
         }});
    return all;
}
