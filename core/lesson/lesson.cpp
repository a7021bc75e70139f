#include "lesson.h"

#include "burst/limiterexperiment.h"
#include "redis/clustermap.h"
#include "redis/serversession.h"

#include <QCoreApplication>
#include <QLocale>

#include <cmath>
#include <random>
#include <set>

namespace {
// The lesson's texts keep the context they have always had in the translations.
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LessonPanel)
};
} // namespace

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

Lesson::Lesson(LessonServices services, QObject* parent)
    : QObject(parent)
    , m_services(std::move(services))
{
    m_price = new AlgorithmComparison(this);
    connect(m_price, &AlgorithmComparison::finished, this, [this](const ComparisonResult& result) {
        const AlgorithmTally* log = nullptr;
        for (const AlgorithmTally& tally : result.algorithms)
            log = tally.id == QLatin1String("sliding-log") ? &tally : log;
        if (result.failure.isFailure())
            return refuse([result] { return describePrice(result); });
        finish([result] { return describePrice(result); }, log ? log->admitted : -1);
    });
}

Lesson::~Lesson() = default;

int Lesson::stepCount() const
{
    return const_cast<Lesson*>(this)->steps().size();
}

Lesson::Step Lesson::step() const
{
    return const_cast<Lesson*>(this)->steps().value(m_step);
}

void Lesson::goToStep(int index)
{
    m_step = std::clamp(index, 0, stepCount() - 1);
    m_resultOf = nullptr;
    m_running = false;
    m_answered = false;
    m_spotlight = Spotlight::None;
    m_expiry = {};
    m_record = {};
    m_pointedMember.clear();
    m_answers.remove(m_step); // the result goes with the step's run
    emit changed();
}

void Lesson::next()
{
    goToStep(m_step + 1);
}

void Lesson::back()
{
    goToStep(m_step - 1);
}

QString Lesson::stepTitle() const
{
    return step().title;
}

QString Lesson::stepSetup() const
{
    return step().setup;
}

QString Lesson::stepExplanation() const
{
    return step().explanation;
}

Lesson::Spotlight Lesson::stepShows() const
{
    return step().shows;
}

QString Lesson::partName(Spotlight part)
{
    switch (part) {
    case Spotlight::Script:
        return Text::tr("the script");
    case Spotlight::Timeline:
        return Text::tr("the timeline");
    case Spotlight::Numbers:
        return Text::tr("the figures");
    case Spotlight::Counts:
        return Text::tr("the counts chart");
    case Spotlight::Runs:
        return Text::tr("both runs");
    case Spotlight::Zset:
        return Text::tr("the ZSET table");
    case Spotlight::Expiry:
        return Text::tr("the key's TTL against the window");
    case Spotlight::Price:
        return Text::tr("the memory per user of each algorithm");
    case Spotlight::None:
        break;
    }
    return QString();
}

QString Lesson::actionLabel() const
{
    return step().actionLabel;
}

bool Lesson::hasAction() const
{
    return !step().actionLabel.isEmpty();
}

QString Lesson::stepLimiter() const
{
    return step().limiter;
}

QString Lesson::resultText() const
{
    if (m_running)
        return Text::tr("Running on %1…").arg(m_runningOn);
    return m_resultOf ? m_resultOf() : QString();
}

void Lesson::setAsksFirst(bool on)
{
    m_asksFirst = on;
    emit changed();
}

bool Lesson::hasQuestion() const
{
    return !step().question.prompt.isEmpty();
}

QString Lesson::questionText() const
{
    return step().question.prompt;
}

QStringList Lesson::questionChoices() const
{
    return step().question.choices;
}

void Lesson::setGuess(qint64 guess)
{
    m_guesses[m_step] = guess;
    emit changed();
}

QString Lesson::guessVersusAnswer() const
{
    const qint64 guess = this->guess();
    const qint64 answer = this->answer();
    if (!m_asksFirst || !hasQuestion() || answer < 0)
        return QString();
    const QStringList choices = questionChoices();
    auto said = [&choices](qint64 value) {
        return choices.isEmpty() ? QLocale().toString(value) : choices.value(int(value));
    };
    if (guess < 0)
        return Text::tr("Redis: %1 (no guess entered)").arg(said(answer));
    return (guess == answer ? Text::tr("Class: %1 · Redis: %2 · the class was right")
                            : Text::tr("Class: %1 · Redis: %2 · not what the class expected"))
        .arg(said(guess), said(answer));
}

QString Lesson::answerText() const
{
    const qint64 answer = this->answer();
    if (answer < 0)
        return QString();
    const QStringList choices = questionChoices();
    return choices.isEmpty() ? QLocale().toString(answer) : choices.value(int(answer));
}

void Lesson::runAction()
{
    const Step current = step();
    if (!current.action)
        return;
    if (!m_services.session->isUsable()) {
        refuse([] { return Text::tr("Not connected to Redis: connect first (Burst > Connect to Redis)."); });
        return;
    }
    m_running = true;
    m_answered = false;
    m_runningOn = m_services.session->endpoint().address();
    m_resultOf = nullptr;
    m_spotlight = Spotlight::None;
    m_record = {};
    emit changed();
    current.action();
}

void Lesson::finish(std::function<QString()> result, qint64 answer)
{
    m_running = false;
    m_answered = true;
    m_resultOf = std::move(result);
    m_spotlight = step().shows;
    m_record = recordOfStep();
    if (answer >= 0)
        m_answers[m_step] = answer;
    else
        m_answers.remove(m_step);
    emit changed();
    emit actionFinished();
}

void Lesson::refuse(std::function<QString()> reason)
{
    m_running = false;
    m_answered = false;
    m_resultOf = std::move(reason);
    m_spotlight = Spotlight::None;
    m_record = {};
    m_answers.remove(m_step);
    emit changed();
    emit actionFinished();
}

LessonRecord Lesson::recordOfStep() const
{
    LessonRecord record;
    switch (step().shows) {
    case Spotlight::Runs:
    case Spotlight::Timeline:
    case Spotlight::Numbers:
    case Spotlight::Counts:
    case Spotlight::Zset: {
        const BurstEngine& left = m_services.experiment->engine(LimiterExperiment::Left);
        record.runs << LessonRecord::runOf(left);
        record.windowMs = left.plan().windowMs;
        if (step().shows == Spotlight::Runs)
            record.runs << LessonRecord::runOf(m_services.experiment->engine(LimiterExperiment::Right));
        record.members = LessonRecord::membersOf(record.runs.first());
        break;
    }
    case Spotlight::Expiry:
        record.windowMs = m_expiry.windowMs;
        record.ttlMs = m_expiry.ttlMs;
        break;
    case Spotlight::Price:
        record.costs = LessonRecord::costsOf(m_price->result());
        break;
    case Spotlight::Script:
    case Spotlight::None:
        break;
    }
    return record;
}

int Lesson::writesOf(const QByteArray& member) const
{
    const RequestLog& log = m_services.experiment->engine(LimiterExperiment::Left).log();
    int writes = 0;
    for (int i = 0; i < log.size(); ++i)
        writes += log.isDone(i) && !log.isFailed(i) && log.member(i) == member ? 1 : 0;
    return writes;
}

ExperimentPlan Lesson::lessonPlan(const char* limiter, int requests, qint64 limit)
{
    ExperimentPlan plan;
    plan.burst.limiter = LimiterCatalog::builtin(limiter);
    plan.burst.requests = requests;
    plan.burst.clock = ClockKind::Frozen; // "in one millisecond", exactly, on any machine
    plan.burst.windowMs = 60000; // the ZSET stays to be looked at (a unique member's key expires after one window)
    plan.burst.limit = limit;
    return plan;
}

void Lesson::fire(const ExperimentPlan& plan, const std::function<void()>& then)
{
    auto* context = new QObject(this);
    connect(m_services.experiment, &LimiterExperiment::allFinished, context, [context, then] {
        context->deleteLater();
        then();
    });
    QString error;
    if (!m_services.fire || !m_services.fire(plan, &error)) {
        context->deleteLater();
        refuse([error] { return error; });
    }
}

Lesson::Ran Lesson::ran(int side) const
{
    const BurstEngine& engine = m_services.experiment->engine(LimiterExperiment::Side(side));
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

QString Lesson::whatRan(const Ran& ran)
{
    return ran.member.isEmpty()
        ? ran.limiter->displayName()
        : Text::tr("%1, e.g. member %2").arg(ran.limiter->displayName(), QString::fromUtf8(ran.member));
}

QString Lesson::describeRun(const Ran& ran, bool withCounts)
{
    QString text = Text::tr("%1: %L2 sent, %L3 stored, %Ln member(s) in the ZSET", nullptr, int(ran.summary.finalCount))
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
        text += Text::tr("; counts returned: %1; ZADD replied: %2")
                    .arg(counts.join(QStringLiteral(", ")), added.join(QStringLiteral(", ")));
    }
    return text;
}

namespace {
// The EXPIRE step's choices, from a PTTL reply: about a second, a minute, 17 minutes (1000 s),
// 17 hours (60000 s); each stands for the TTLs nearer to it than to its neighbours.
qint64 expiryChoice(qint64 pttl)
{
    if (pttl < 0)
        return -1; // no key, no expiry, or no answer: no choice says so
    if (pttl <= 10'000)
        return 0;
    if (pttl <= 300'000)
        return 1;
    return pttl <= 4 * 3'600'000 ? 2 : 3;
}

// Step 8's requests: 300 distinct microseconds 1 to 5 apart, from a fixed seed, within one
// millisecond of a fixed instant.
constexpr int microsecondRequests = 300;
std::vector<qint64> microsecondSchedule()
{
    std::mt19937 generator(8); // mt19937's output is the same on every standard library
    std::vector<qint64> nows;
    qint64 now = 1'765'000'000'000'000; // December 2025, in microseconds
    for (int i = 0; i < microsecondRequests; ++i) {
        nows.push_back(now);
        now += 1 + qint64(generator() % 3);
    }
    return nows;
}
} // namespace

QVector<Lesson::Step> Lesson::steps()
{
    QVector<Step> all;
    // "Redis 7.0.15", "Valkey 8.1.1"; what it does keys on the Redis version it is compatible with.
    const QString serverName
        = m_services.session->isUsable() ? m_services.session->server().displayName() : Text::tr("unknown");
    LimiterExperiment* experiment = m_services.experiment;
    auto left = [experiment]() -> const BurstEngine& { return experiment->engine(LimiterExperiment::Left); };

    // Each setup says what is about to happen and asks; only the explanation, shown once Redis
    // answered, says why, and it names the part of the window that shows it (partName()).
    all.push_back({Text::tr("A sliding-window limiter in a ZSET"),
                   Text::tr("<p>This lesson is about a script from an article on rate limiting with Redis "
                            "(\"the article\" from here on). It keeps one sorted set per client, and each request "
                            "runs it once, atomically:</p>"
                            "<ol><li><b>Remove</b> the entries older than the window (ZREMRANGEBYSCORE).</li>"
                            "<li><b>Add</b> this request: score = its time, member = its identity (ZADD).</li>"
                            "<li><b>Count</b> the entries (ZCARD): more than the limit means refuse.</li>"
                            "<li><b>Expire</b> the key when the client goes quiet (EXPIRE).</li></ol>"
                            "<p>The question of this lesson: what is the identity of a request?</p>"),
                   Text::tr("<p>The script is shown with its four steps marked: remove, add, count, expire. Look "
                            "at step 2, the ZADD: its member is <code>now</code>, the request's "
                            "millisecond.</p>"),
                   Text::tr("Show the script"),
                   [this] { finish([] { return Text::tr("lua/now.lua is shown: its four steps are marked."); }); },
                   QString(),
                   {},
                   Spotlight::Script});

    all.push_back({Text::tr("Three requests in one millisecond"),
                   Text::tr("<p>The article's script uses the timestamp as the member: <code>ZADD key now "
                            "now</code>. Three requests arrive in the same millisecond, as a burst easily "
                            "does.</p>"),
                   Text::tr("<p>On the timeline, the millisecond holds one filled square, the request that made "
                            "the member, and two hollow diamonds: requests whose ZADD replied 0 because the member "
                            "was there already.</p>"),
                   Text::tr("Send 3 requests in one millisecond"),
                   [this] {
                       fire(lessonPlan("now", 3, 0), [this] {
                           const Ran left = ran(LimiterExperiment::Left);
                           finish([left] { return describeRun(left, true); }, left.summary.finalCount);
                       });
                   },
                   QStringLiteral("now"),
                   {Text::tr("3 requests arrive in the same millisecond. How many members will the ZSET hold?")},
                   Spotlight::Timeline});

    all.push_back({Text::tr("Who wrote that member?"),
                   Text::tr("<p>Step 2's burst in one millisecond left one member in the ZSET. The action sends "
                            "that burst again, looks the member up and counts the requests that wrote it.</p>"),
                   Text::tr("<p>A ZSET holds each member once. ZADD of a member that already exists adds no second "
                            "entry: it updates the score and replies <b>0</b>.</p>"
                            "<p>The three requests carried the same <code>now</code>, so they were the same member: "
                            "the ZSET table shows it once, with the writes of all three.</p>"),
                   Text::tr("Show the member and its writes"),
                   [this, left] {
                       // Fires step 2's burst itself: the step means the same alone as after step 2.
                       fire(lessonPlan("now", 3, 0), [this, left] {
                           const QByteArray member = left().log().size() > 0 ? left().log().member(0) : QByteArray();
                           m_pointedMember = member;
                           const int writes = writesOf(member);
                           finish(
                               [member, writes, limiter = left().plan().limiter->displayName()] {
                                   return Text::tr("%1: member %2 was written by %3 request(s)")
                                       .arg(limiter, QString::fromUtf8(member))
                                       .arg(writes);
                               },
                               writes);
                       });
                   },
                   QStringLiteral("now"),
                   {Text::tr("Step 2's burst left one member in the ZSET. How many requests wrote it?")},
                   Spotlight::Zset});

    all.push_back({Text::tr("Is it a race?"),
                   Text::tr("<p>Maybe the clients raced each other? Send the burst over three connections at once: "
                            "30 requests, all in the same millisecond.</p>"),
                   Text::tr("<p>The script is atomic: Redis runs one call at a time, in order, and no call sees "
                            "another half done. The figures say what one connection said: no race happened. The "
                            "data collided, not the threads: atomic is not correct.</p>"),
                   Text::tr("Send 30 requests over 3 connections"),
                   [this] {
                       ExperimentPlan plan = lessonPlan("now", 30, 0);
                       plan.burst.connections = 3;
                       fire(plan, [this] {
                           const Ran left = ran(LimiterExperiment::Left);
                           finish([left] { return describeRun(left, false); }, left.summary.finalCount);
                       });
                   },
                   QStringLiteral("now"),
                   {Text::tr("30 requests over 3 connections at once, all in one millisecond. How many members will "
                             "the ZSET hold?")},
                   Spotlight::Numbers});

    all.push_back({Text::tr("A limit of 5"),
                   Text::tr("<p>Now the limiter has a job: at most 5 requests per window. Send 20 requests in one "
                            "millisecond.</p>"),
                   Text::tr("<p>The count the script returns never passes 1, so every request is admitted: the "
                            "burst goes through. The counts chart shows the gap: the true number in the window "
                            "climbs to 20 while the returned count stays flat, and each mark on the limit line is a "
                            "request admitted beyond the limit.</p>"),
                   Text::tr("Send 20 requests with limit 5"),
                   [this] {
                       fire(lessonPlan("now", 20, 5), [this] {
                           const Ran left = ran(LimiterExperiment::Left);
                           finish(
                               [left] {
                                   return Text::tr("%1: %L2 admitted with limit 5; %L3 of them beyond the limit")
                                       .arg(whatRan(left))
                                       .arg(left.summary.admitted)
                                       .arg(left.summary.admittedOverLimit);
                               },
                               left.summary.admitted);
                       });
                   },
                   QStringLiteral("now"),
                   {Text::tr("Limit 5: 20 requests arrive in one millisecond. How many will the limiter admit?")},
                   Spotlight::Counts});

    all.push_back(
        {Text::tr("The fix: a unique member"),
         Text::tr("<p>Keep the time as the <i>score</i> (it orders and trims the window) and give each "
                  "request a member of its own: an id the caller sends (<code>ZADD key now request_id</code>).</p>"
                  "<p>The same 20 timestamps and limit 5 run twice, side by side: left with member = now, right "
                  "with a request id.</p>"),
         Text::tr("<p>With a member of its own, each request is one entry: the count climbs 1, 2, 3, … and the "
                  "limiter refuses from the sixth request on. Both runs show it: the same timestamps, only the "
                  "member differs.</p>"),
         Text::tr("Compare on the same timestamps"),
         [this] {
             ExperimentPlan plan = lessonPlan("now", 20, 5);
             plan.compare = true;
             plan.fix = LimiterCatalog::builtin("request-id");
             fire(plan, [this] {
                 const Ran right = ran(LimiterExperiment::Right);
                 finish(
                     [left = ran(LimiterExperiment::Left), right] {
                         return Text::tr("%1: %L2 stored, %L3 beyond the limit; %4: %L5 stored, %L6 beyond the "
                                         "limit")
                             .arg(whatRan(left))
                             .arg(left.summary.stored)
                             .arg(left.summary.admittedOverLimit)
                             .arg(whatRan(right))
                             .arg(right.summary.stored)
                             .arg(right.summary.admittedOverLimit);
                     },
                     right.summary.admitted);
             });
         },
         QStringLiteral("request-id"),
         {Text::tr("The same 20 requests and limit 5, each with a request id of its own. How many will the "
                   "limiter admit now?")},
         Spotlight::Runs});

    all.push_back({Text::tr("Trap 1: math.random() in the member"),
                   Text::tr("<p>A common fix, the article's own, puts a random number beside the time: "
                            "<code>member = now .. '-' .. math.random()</code>. Send 100 requests in one "
                            "millisecond with it.</p><p>Your server is %1.</p>")
                       .arg(serverName.toHtmlEscaped()),
                   Text::tr("<p>Redis 2.6 to 6.2 reseed Lua's generator with one seed at every script call: the "
                            "first <code>math.random()</code> of each call is 0.17082803611217, and the fix "
                            "collides there. Redis 7 keeps one generator running. The ZSET table shows the "
                            "members this server made.</p>"),
                   Text::tr("Send 100 requests with math.random()"),
                   [this] {
                       fire(lessonPlan("random", 100, 0), [this] {
                           const auto& server = m_services.session->server();
                           const Ran left = ran(LimiterExperiment::Left);
                           finish(
                               [ran = left, reseeds = server.reseedsLuaRandomPerCall(),
                                name = server.displayName()]() -> QString {
                                   return describeRun(ran, false)
                                       + (reseeds ? Text::tr(": this server reseeds per call, the fix collides here")
                                                  : Text::tr(": %1 does not reseed per call").arg(name));
                               },
                               left.summary.finalCount);
                       });
                   },
                   QStringLiteral("random"),
                   {Text::tr("100 requests in one millisecond, member = now .. '-' .. math.random(). How many members "
                             "will the ZSET hold on this server?")},
                   Spotlight::Zset});

    all.push_back(
        {Text::tr("Trap 2: microseconds in the member"),
         Text::tr("<p>\"Milliseconds collide, so use microseconds\": lua/microseconds.lua makes the member as text, "
                  "<code>'req:' .. now</code>, with <code>now</code> in microseconds. The burst sends 300 "
                  "requests, each at a microsecond of its own, all within one millisecond.</p>"),
         Text::tr("<p>Lua writes a number into text with 14 significant digits: <code>'req:' .. "
                  "1710000000000123</code> becomes <code>req:1.7100000000001e+15</code>. Every request in the same "
                  "100 µs gets the same member: the timestamps differ, the members do not. The ZSET table shows "
                  "the members whole.</p>"),
         Text::tr("Send 300 requests in microseconds"),
         [this, left] {
             ExperimentPlan plan = lessonPlan("microseconds", microsecondRequests, 0);
             plan.burst.clock = ClockKind::SystemUs;
             // The same 300 distinct microseconds on every machine and in every run: the
             // handout, the web page and the class see one answer.
             plan.burst.replayNows = std::make_shared<const std::vector<qint64>>(microsecondSchedule());
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
                         return Text::tr("%1: %L2 distinct microsecond timestamps were stored as %L3 members")
                             .arg(whatRan(ran))
                             .arg(timestamps)
                             .arg(ran.summary.stored);
                     },
                     ran.summary.finalCount);
             });
         },
         QStringLiteral("microseconds"),
         {Text::tr("300 requests, 300 different microsecond timestamps, each in its request's member. How many "
                   "members will the ZSET hold?")},
         Spotlight::Zset});

    all.push_back(expiryStep());
    all.push_back(priceStep());
    return all;
}

Lesson::Step Lesson::expiryStep()
{
    return {Text::tr("Trap 3: how long does an idle key stay?"),
            Text::tr("<p>The article's script ends with <code>EXPIRE key window</code>, the window in "
                     "milliseconds, so that the key of a client that goes quiet goes away. Send one request with a "
                     "1000 ms window and read the key's TTL.</p>"),
            Text::tr("<p>EXPIRE takes seconds: a 1000 ms window keeps an idle key for 1000 s, a 60000 ms window for "
                     "16.7 hours. The chart sets the key's TTL against the window. The count stays right "
                     "(ZREMRANGEBYSCORE trims), but idle keys linger and use memory. PEXPIRE takes "
                     "milliseconds.</p>"),
            Text::tr("Send 1 request and read the key's TTL"),
            [this] {
                ExperimentPlan plan = lessonPlan("now", 1, 0);
                plan.burst.windowMs = 1000; // as the text says
                fire(plan, [this] { readExpiry(); });
            },
            QStringLiteral("now"),
            {Text::tr("The script ends with EXPIRE key 1000 for a 1000 ms window. How long will an idle key stay?"),
             {Text::tr("about 1 second"), Text::tr("about 1 minute"), Text::tr("about 17 minutes"),
              Text::tr("about 17 hours")}},
            Spotlight::Expiry};
}

void Lesson::readExpiry()
{
    const BurstEngine& engine = m_services.experiment->engine(LimiterExperiment::Left);
    const QByteArray key = engine.key();
    const qint64 windowMs = engine.plan().windowMs;
    const RedisEndpoint endpoint = m_services.session->endpoint();
    const ConnectOptions options = m_services.session->options();
    m_thread.post([this, key, windowMs, endpoint, options] {
        RedisConnection connection;
        ClusterMap map; // on a cluster, the key's own master
        QString why;
        const qint64 ttl = openForKey(connection, endpoint, key, options, &map, &why)
            ? connection.command({"PTTL", key}).toInteger()
            : -3;
        QMetaObject::invokeMethod(
            this,
            [this, ttl, windowMs] {
                m_expiry = {windowMs, ttl};
                finish(
                    [ran = ran(LimiterExperiment::Left), ttl, windowMs] {
                        return ttl > 0
                            ? Text::tr("%1: window %L2 ms, TTL of the key %L3 s: %L4 times longer than the window")
                                  .arg(whatRan(ran))
                                  .arg(windowMs)
                                  .arg(double(ttl) / 1000.0, 0, 'f', 0)
                                  .arg(double(ttl) / double(std::max<qint64>(windowMs, 1)), 0, 'f', 0)
                            : Text::tr("%1: the key has no TTL (%2)").arg(whatRan(ran)).arg(ttl);
                    },
                    expiryChoice(ttl));
            },
            Qt::QueuedConnection);
    });
}

Lesson::Step Lesson::priceStep()
{
    const BurstPlan traffic = m_services.traffic ? m_services.traffic() : defaultTraffic();
    const ComparisonPlan price = pricePlan(traffic);
    QString capped;
    if (std::llround(ratePerMs(traffic) * double(price.burst.windowMs)) > maxPriceRequests)
        capped = Text::tr(" (measured on the first %L1: each member costs about the same)").arg(maxPriceRequests);
    return {Text::tr("The price of the fix"),
            Text::tr("<p>The unique member keeps the count exact. What does it cost? At your window of %L1 ms and "
                     "rate of %2 requests per ms, the action fires one user's full window in one millisecond%3 at "
                     "the sliding log and at four cheaper algorithms on the real server, and reads each key's "
                     "MEMORY USAGE.</p>")
                .arg(price.burst.windowMs)
                .arg(QLocale().toString(ratePerMs(traffic), 'g', 3))
                .arg(capped),
            Text::tr("<p>The sliding log keeps one member per admitted request in the window, for every user: "
                     "the chart shows the memory per user of each algorithm. The cheaper ones give up "
                     "exactness: <b>fixed-window</b> lets up to twice the limit through across a window "
                     "boundary, <b>sliding-counter</b> estimates, <b>token-bucket</b> and <b>gcra</b> limit a "
                     "rate, not a count in the window.</p>"),
            Text::tr("Measure the memory per user"),
            [this] { measurePrice(); },
            QString(),
            {Text::tr("At your window and rate, how many entries will one user's sliding log keep?")},
            Spotlight::Price};
}

ComparisonPlan Lesson::pricePlan(const BurstPlan& traffic)
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

void Lesson::measurePrice()
{
    const ComparisonPlan plan = pricePlan(m_services.traffic ? m_services.traffic() : defaultTraffic());
    if (!m_price->start(m_services.session->endpoint(), plan, m_services.session->options()))
        refuse([error = m_price->planError()] { return error; });
}

QString Lesson::describePrice(const ComparisonResult& result)
{
    if (result.failure.isFailure())
        return Text::tr("Failed: %1").arg(result.failure.message);
    QString log;
    qint64 least = -1;
    qint64 most = -1;
    for (const AlgorithmTally& tally : result.algorithms) {
        const auto bytes = qint64(std::llround(tally.memoryBytesPerKey));
        if (tally.id == QLatin1String("sliding-log")) {
            const double perMember = tally.admitted > 0 ? tally.memoryBytesPerKey / double(tally.admitted) : 0;
            log = Text::tr("sliding-log: %L1 members, %L2 bytes per user (about %L3 bytes a member)")
                      .arg(tally.admitted)
                      .arg(bytes)
                      .arg(perMember, 0, 'f', 0);
        } else {
            least = least < 0 ? bytes : std::min(least, bytes);
            most = std::max(most, bytes);
        }
    }
    return Text::tr("%1; the cheaper ones: %L2 to %L3 bytes").arg(log).arg(least).arg(most);
}
