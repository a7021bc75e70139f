#include "scriptprobe.h"

#include "scriptdoctor.h"
#include "zsetkeys.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QUuid>

#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptProbe)
};

constexpr int shownReplies = 5;
constexpr int shownMembers = 5;

QString entries(int n)
{
    return n == 1 ? Text::tr("1 entry") : Text::tr("%1 entries").arg(n);
}

QString rate(double perMs)
{
    return QString::number(perMs, 'g', 4);
}

QString duration(double ms)
{
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(QString::number(ms, 'g', 3));
    if (ms < 120'000)
        return QStringLiteral("%1 s").arg(QString::number(ms / 1000, 'g', 4));
    if (ms < 2 * 3'600'000)
        return QStringLiteral("%1 min").arg(QString::number(ms / 60'000, 'f', 1));
    return QStringLiteral("%1 h").arg(QString::number(ms / 3'600'000, 'f', 1));
}

QString joinArgs(const RedisArgs& args)
{
    QStringList shown;
    for (const QByteArray& arg : args)
        shown << QString::fromUtf8(arg);
    return shown.join(QStringLiteral(", "));
}

// "with limit 5, 20 were admitted (a correct limiter admits 5)"
QString admittedClause(const ProbeScenario& s, bool withLimit = true)
{
    const QString lead = withLimit ? Text::tr("with limit %1, ").arg(s.limit) : QString();
    if (s.admitted < 0)
        return lead + Text::tr("the replies do not say how many were admitted");
    QString text = s.unclear > 0
        ? lead
            + Text::tr("%1 were admitted and %2 replies were unclear (%3)")
                  .arg(s.admitted)
                  .arg(s.unclear)
                  .arg(s.replyNote)
        : lead + (s.admitted == 1 ? Text::tr("1 was admitted") : Text::tr("%1 were admitted").arg(s.admitted));
    if (s.problem)
        text += Text::tr(" (a correct limiter admits %1)").arg(s.expectedAdmitted);
    return text;
}

QString storedClause(const ProbeScenario& s)
{
    if (s.stored < 0)
        return Text::tr("left no sorted set under the keys they named");
    QString text = Text::tr("were stored as %1").arg(entries(s.stored));
    if (s.problem)
        text += Text::tr(" (a correct limiter stores %1)").arg(s.expectedStored);
    return text;
}
} // namespace

const ProbeScenario* ProbeReport::scenario(const QString& name) const
{
    for (const ProbeScenario& s : scenarios) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

QJsonObject ProbeReport::toJson() const
{
    QJsonArray list;
    for (const ProbeScenario& s : scenarios) {
        QJsonObject o;
        o.insert(QStringLiteral("name"), s.name);
        o.insert(QStringLiteral("calls"), s.calls);
        o.insert(QStringLiteral("per_ms"), s.perMs);
        o.insert(QStringLiteral("spacing_us"), double(s.spacingMicros));
        o.insert(QStringLiteral("limit"), double(s.limit));
        o.insert(QStringLiteral("elapsed_ms"), s.elapsedMs);
        o.insert(QStringLiteral("stored"), s.stored);
        o.insert(QStringLiteral("expected_stored"), s.expectedStored);
        o.insert(QStringLiteral("admitted"), s.admitted);
        o.insert(QStringLiteral("expected_admitted"), s.expectedAdmitted);
        o.insert(QStringLiteral("unclear"), s.unclear);
        o.insert(QStringLiteral("reply_note"), s.replyNote);
        o.insert(QStringLiteral("ttl_ms"), double(s.ttlMs));
        o.insert(QStringLiteral("members"), QJsonArray::fromStringList(s.members));
        o.insert(QStringLiteral("replies"), QJsonArray::fromStringList(s.replies));
        o.insert(QStringLiteral("problem"), s.problem);
        list.append(o);
    }
    QJsonObject json;
    json.insert(QStringLiteral("server_version"), serverVersion);
    json.insert(QStringLiteral("clock_controlled"), clockControlled);
    json.insert(QStringLiteral("reply_style"), replyStyleName(replyStyle));
    if (!replyStyleWhy.isEmpty())
        json.insert(QStringLiteral("reply_style_why"), replyStyleWhy);
    json.insert(QStringLiteral("counts_right"), countsRight);
    json.insert(QStringLiteral("ttl_problem"), ttlProblem);
    json.insert(QStringLiteral("verdict"), QJsonArray::fromStringList(verdict));
    json.insert(QStringLiteral("scenarios"), list);
    if (failure != Failure::None) {
        static const char* const names[] = {"none", "connection", "script", "cancelled"};
        QJsonObject f;
        f.insert(QStringLiteral("kind"), QLatin1String(names[int(failure)]));
        f.insert(QStringLiteral("message"), failureMessage);
        f.insert(QStringLiteral("line"), failureLine);
        json.insert(QStringLiteral("failure"), f);
    }
    return json;
}

ScriptProbe::ScriptProbe(LimiterScript script, CallTemplate call, ProbeSettings settings)
    : m_script(std::move(script))
    , m_call(std::move(call))
    , m_settings(std::move(settings))
{
    // What the script does with its keys and its limit decides what to clean up and how to read
    // count replies.
    const ScriptExamination examination = ScriptDoctor::examine(m_script.source(), m_call);
    m_keySuffixes = examination.keySuffixes;
    m_scriptReadsLimit = examination.readsLimit;
}

void ScriptProbe::cancel()
{
    m_cancelled = true;
    std::lock_guard<std::mutex> lock(m_connectionMutex);
    if (m_connection)
        m_connection->interrupt();
}

ProbeReport ScriptProbe::run(const RedisEndpoint& endpoint, const ConnectOptions& options)
{
    ProbeReport report;
    report.clockControlled = m_call.carriesTime();
    RedisConnection connection;
    if (!connection.open(endpoint, options)) {
        report.failure = ProbeReport::Failure::Connection;
        report.failureMessage = connection.lastError().message;
        return report;
    }
    {
        std::lock_guard<std::mutex> lock(m_connectionMutex);
        m_connection = &connection;
    }
    auto forgetConnection = [this] {
        std::lock_guard<std::mutex> lock(m_connectionMutex);
        m_connection = nullptr;
    };
    report.serverVersion = connection.server().version;
    ScriptRunner runner(m_script);
    if (!runner.load(connection)) {
        report.failure = connection.isOpen() ? ProbeReport::Failure::Script : ProbeReport::Failure::Connection;
        report.failureMessage = runner.error();
        report.failureLine = runner.errorLine();
        forgetConnection();
        return report;
    }

    // Whole seconds, so that a script in seconds sees every short scenario inside one second.
    m_baseMicros = QDateTime::currentMSecsSinceEpoch() / 1000 * 1'000'000;
    QVector<ProbeScenario> plan;
    auto add = [&plan](ProbeScenario::Kind kind, const QString& name, int calls, qint64 spacing, qint64 limit,
                       double perMs = 0) {
        ProbeScenario s;
        s.kind = kind;
        s.name = name;
        s.calls = calls;
        s.spacingMicros = spacing;
        s.limit = limit;
        s.perMs = perMs;
        plan << s;
    };
    const ProbeSettings& p = m_settings;
    if (report.clockControlled) {
        const qint64 spread = std::clamp<qint64>(p.windowMs * 1000 / (2 * std::max(1, p.spreadCalls)), 1000, 1'000'000);
        add(ProbeScenario::Kind::Spread, QStringLiteral("spread"), p.spreadCalls, spread, 0);
    }
    // Without a {now} in the call the script reads the server's clock: the calls go back to back.
    const QString together = report.clockControlled ? QStringLiteral("same-now") : QStringLiteral("back-to-back");
    add(ProbeScenario::Kind::SameNow, together, p.sameNowCalls, 0, 0);
    add(ProbeScenario::Kind::SameNow, together + QStringLiteral("-limit"), p.sameNowCalls, 0, p.limit);
    if (report.clockControlled) {
        for (const double perMs : p.ratesPerMs) {
            const QString name = QStringLiteral("rate-") + rate(perMs);
            const qint64 spacing = std::llround(1000.0 / perMs);
            add(ProbeScenario::Kind::Rate, name, p.callsPerRate, spacing, 0, perMs);
            add(ProbeScenario::Kind::Rate, name + QStringLiteral("-limit"), p.callsPerRate, spacing, p.limit, perMs);
        }
        add(ProbeScenario::Kind::Slide, QStringLiteral("slide"), p.slideCalls, (p.windowMs + 1000) * 1000, 1);
    }

    QVector<QVector<ReplyReading>> readings;
    for (ProbeScenario& scenario : plan) {
        QVector<ReplyReading> replies;
        const bool ok = runScenario(connection, runner, &scenario, &replies, &report);
        report.scenarios << scenario;
        readings << replies;
        if (!ok)
            break;
    }
    forgetConnection();
    if (!connection.isOpen() && !report.keys.isEmpty()) {
        // Cancelled or cut off mid-scenario: delete what the calls may have written on a fresh
        // connection, if the server still answers.
        RedisConnection cleanup;
        if (cleanup.open(endpoint, options)) {
            RedisArgs del {QByteArrayLiteral("DEL")};
            del << report.keys;
            cleanup.command(del);
        }
    }
    if (report.failure == ProbeReport::Failure::None)
        judge(&report, readings);
    return report;
}

bool ScriptProbe::runScenario(RedisConnection& connection, ScriptRunner& runner, ProbeScenario* scenario,
                              QVector<ReplyReading>* readings, ProbeReport* report)
{
    CallValues values;
    values.key = ZsetKeys::freshRunKey() + ':' + scenario->name.toUtf8();
    values.windowMs = m_settings.windowMs;
    values.limit = scenario->limit > 0 ? scenario->limit : ProbeSettings::noLimit;
    QList<QByteArray> named; // every key the calls named, in order: the ones to read and delete
    auto nameKey = [&named](const QByteArray& key) {
        if (ZsetKeys::isOwnKey(key) && !named.contains(key))
            named << key;
    };
    QElapsedTimer clock;
    clock.start();
    bool ok = true;
    for (int i = 0; i < scenario->calls && ok; ++i) {
        values.nowMicros = m_baseMicros
            + (scenario->kind == ProbeScenario::Kind::Rate ? std::llround(i * 1000.0 / scenario->perMs)
                                                           : i * scenario->spacingMicros);
        values.seq = ++m_seq;
        values.uuid = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
        const RedisArgs keys = m_call.expandKeys(values);
        const RedisArgs args = m_call.expandArgs(values);
        for (const QByteArray& key : keys) {
            nameKey(key);
            for (const QByteArray& companion : ZsetKeys::companionKeys(key))
                nameKey(companion);
            for (const QByteArray& suffix : std::as_const(m_keySuffixes))
                nameKey(key + suffix);
        }
        for (const CallTemplate::Token& token : m_call.args()) {
            for (const CallTemplate::Piece& piece : token) {
                if (piece.isPlaceholder && piece.placeholder == CallTemplate::Placeholder::Key)
                    nameKey(CallTemplate::expand(token, values));
            }
        }
        const RedisReply reply = m_cancelled ? RedisReply::connectionLost(QStringLiteral("cancelled"))
                                             : runner.run(connection, keys, args);
        if (m_cancelled) {
            report->failure = ProbeReport::Failure::Cancelled;
            report->failureMessage = Text::tr("The probe was cancelled.");
            ok = false;
        } else if (reply.isConnectionLost()) {
            report->failure = ProbeReport::Failure::Connection;
            report->failureMessage = classifyReplyError(reply, connection.endpoint()).message;
            ok = false;
        } else if (reply.isServerError()) {
            QString why = ScriptRunner::describeFailure(reply, keys.value(0));
            while (why.endsWith(QLatin1Char('.')))
                why.chop(1);
            report->failure = ProbeReport::Failure::Script;
            report->failureLine = ScriptError::fromReply(reply.text()).line;
            report->failureMessage
                = Text::tr("The script failed on call %1 of the %2 scenario: %3. The call was KEYS = [%4], "
                           "ARGV = [%5]; fix the script, or describe its arguments with --keys and --args.")
                      .arg(i + 1)
                      .arg(scenario->name, why, joinArgs(keys), joinArgs(args));
            ok = false;
        } else {
            const ReplyReading reading = ReplyReading::read(reply);
            if (scenario->replies.size() < shownReplies)
                scenario->replies << reading.shown;
            readings->append(reading);
        }
    }
    scenario->elapsedMs = double(clock.nsecsElapsed()) / 1e6;

    if (connection.isOpen() && !m_cancelled) {
        for (const QByteArray& key : std::as_const(named)) {
            if (connection.command({QByteArrayLiteral("TYPE"), key}).bytes() != "zset")
                continue;
            const qint64 count = connection.command({QByteArrayLiteral("ZCARD"), key}).toInteger();
            if (scenario->stored < 0) {
                scenario->stored = 0;
                const RedisReply members = connection.command(
                    {QByteArrayLiteral("ZRANGE"), key, QByteArrayLiteral("0"), QByteArray::number(shownMembers - 1)});
                for (const RedisReply& member : members.elements())
                    scenario->members << member.text();
                scenario->ttlMs = connection.command({QByteArrayLiteral("PTTL"), key}).toInteger();
            }
            scenario->stored += int(count);
        }
    }
    if (connection.isOpen()) {
        RedisArgs del {QByteArrayLiteral("DEL")};
        del << named;
        connection.command(del);
    }
    report->keys << named;
    return ok;
}

void ScriptProbe::judge(ProbeReport* report, const QVector<QVector<ReplyReading>>& readings) const
{
    // The first scenario teaches the reply style: no limit, and (unless the script reads its own
    // clock) calls spread so that a correct limiter stores every one of them.
    report->replyStyle = inferReplyStyle(readings.value(0), &report->replyStyleWhy);

    const bool micro = m_call.uses(CallTemplate::Placeholder::NowUs);
    int problems = 0;
    QStringList& verdict = report->verdict;
    if (report->replyStyle == ReplyStyle::Unknown)
        verdict << Text::tr("zsetlab cannot read the replies: %1. The numbers below come from the sorted set "
                            "alone.")
                       .arg(report->replyStyleWhy);
    for (int i = 0; i < report->scenarios.size(); ++i) {
        ProbeScenario& s = report->scenarios[i];
        if (s.limit > 0) {
            const AdmissionCount count
                = countAdmissions(report->replyStyle, readings.value(i), s.limit, m_scriptReadsLimit);
            s.admitted = report->replyStyle == ReplyStyle::Unknown ? -1 : count.admitted;
            s.unclear = count.unclear;
            s.replyNote = count.note;
            s.expectedAdmitted
                = s.kind == ProbeScenario::Kind::Slide ? s.calls : int(std::min<qint64>(s.calls, s.limit));
            if (s.admitted >= 0)
                s.problem = s.admitted > s.expectedAdmitted || (s.unclear == 0 && s.admitted < s.expectedAdmitted);
        } else {
            s.expectedStored = s.calls;
            s.problem = s.stored >= 0 && s.stored < s.calls;
        }
        problems += s.problem ? 1 : 0;
    }

    for (int i = 0; i < report->scenarios.size(); ++i) {
        const ProbeScenario& s = report->scenarios[i];
        const ProbeScenario* limited = i + 1 < report->scenarios.size() ? &report->scenarios[i + 1] : nullptr;
        switch (s.kind) {
        case ProbeScenario::Kind::Spread:
            verdict << Text::tr("%1 calls %2 apart %3; the replies read as %4.")
                           .arg(s.calls)
                           .arg(duration(double(s.spacingMicros) / 1000), storedClause(s),
                                replyStyleDescription(report->replyStyle));
            break;
        case ProbeScenario::Kind::SameNow:
        case ProbeScenario::Kind::Rate:
            if (s.limit > 0)
                break; // told with the scenario before it
            {
                QString lead;
                if (s.kind == ProbeScenario::Kind::Rate)
                    lead = Text::tr("%1 calls at %2 per ms (over %3)")
                               .arg(s.calls)
                               .arg(rate(s.perMs), duration(double(s.calls - 1) / s.perMs));
                else if (report->clockControlled)
                    lead = Text::tr("%1 calls in one %2")
                               .arg(s.calls)
                               .arg(micro ? Text::tr("microsecond") : Text::tr("millisecond"));
                else
                    lead = Text::tr("%1 calls sent back to back (%2; the script reads the server's clock)")
                               .arg(s.calls)
                               .arg(duration(s.elapsedMs));
                QString sentence = lead + QLatin1Char(' ') + storedClause(s);
                if (limited && limited->limit > 0)
                    sentence += QStringLiteral("; ") + admittedClause(*limited);
                verdict << sentence + QLatin1Char('.');
            }
            break;
        case ProbeScenario::Kind::Slide:
            verdict << Text::tr("%1 calls %2 apart, each after the previous one left the %3 window: %4.")
                           .arg(s.calls)
                           .arg(duration(double(s.spacingMicros) / 1000), duration(double(m_settings.windowMs)),
                                admittedClause(s));
            break;
        }
    }

    // The expiry, seen on the first scenario's sorted set right after its calls.
    const ProbeScenario& first = report->scenarios.first();
    const double window = double(m_settings.windowMs);
    if (first.stored >= 0) {
        if (first.ttlMs == -1) {
            report->ttlProblem = true;
            verdict << Text::tr("The sorted set has no expiry: the keys of idle clients stay for ever.");
        } else if (first.ttlMs == -2) {
            report->ttlProblem = true;
            verdict << Text::tr("The sorted set was gone right after the calls: its expiry deletes it at once.");
        } else if (first.ttlMs > 10 * window) {
            report->ttlProblem = true;
            verdict << Text::tr("The sorted set expires after %1, %2 times the %3 window: idle keys linger.")
                           .arg(duration(double(first.ttlMs)))
                           .arg(std::llround(double(first.ttlMs) / window))
                           .arg(duration(window));
        } else if (first.ttlMs < window / 2) {
            report->ttlProblem = true;
            verdict << Text::tr("The sorted set expires after %1, before the %2 window ends: requests still in "
                                "the window are forgotten.")
                           .arg(duration(double(first.ttlMs)), duration(window));
        } else {
            verdict << Text::tr("The sorted set expires after %1 (window %2).")
                           .arg(duration(double(first.ttlMs)), duration(window));
        }
    }

    report->countsRight = problems == 0;
    if (problems > 0)
        verdict << Text::tr("Verdict: the script counts wrong in %1 of %2 scenarios.")
                       .arg(problems)
                       .arg(report->scenarios.size());
    else if (report->ttlProblem)
        verdict << Text::tr("Verdict: the script counted right in every scenario, but its expiry is wrong.");
    else
        verdict << Text::tr("Verdict: the script counted right in every scenario.");
}
