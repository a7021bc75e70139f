// ScriptProbe, one scenario: its setup, its calls, what Redis kept of them, and its keys deleted.

#include "scriptprobe.h"

#include "base/printabletext.h"
#include "limiters/zsetkeys.h"
#include "runawayguard.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QUuid>

#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptProbe)
};

constexpr int shownReplies = 5;
constexpr int shownMembers = 5;

QString joinArgs(const RedisArgs& args)
{
    QStringList shown;
    for (const QByteArray& arg : args)
        shown << QString::fromUtf8(arg);
    return shown.join(QStringLiteral(", "));
}

// Under a limit, after calls that answered, an error the script raised itself without a line
// (redis.error_reply('rate limited')) is its way of refusing: not a Lua error, nor the server's
// (WRONGTYPE, OOM, an ACL refusal, a cluster's redirection).
bool isRefusalByError(const RedisReply& reply, const ProbeScenario& scenario, const QVector<ReplyReading>& readings)
{
    if (!reply.isServerError() || scenario.limit <= 0 || readings.isEmpty())
        return false;
    static const QList<QByteArray> servers {"WRONGTYPE", "NOSCRIPT", "OOM",        "CROSSSLOT",  "NOPERM",
                                            "BUSY",      "MOVED",    "ASK",        "TRYAGAIN",   "CLUSTERDOWN",
                                            "LOADING",   "READONLY", "MASTERDOWN", "NOREPLICAS", "EXECABORT"};
    const QByteArray& text = reply.bytes();
    if (servers.contains(reply.errorCode()) || text.contains("user_script") || text.contains("user_function")
        || text.contains("Script attempted") || text.contains("Error running script"))
        return false;
    return std::any_of(readings.cbegin(), readings.cend(), [](const ReplyReading& r) { return !r.refusal; });
}
} // namespace

bool ScriptProbe::runSetup(RedisConnection& connection, const CallValues& values, const ProbeScenario& scenario,
                           QList<QByteArray>* keys, ProbeReport* report)
{
    for (const SetupCommand& setup : std::as_const(m_setup)) {
        const RedisArgs command = setup.expand(values);
        auto fail = [&](const QString& why) {
            report->failure = ProbeReport::Failure::Script;
            report->failureMessage
                = Text::tr("The setup command \"%1\" (%2) was not run for the %3 scenario: %4")
                      .arg(setup.text(), printableText(joinArgs(command).toUtf8()), scenario.name, why);
            return false;
        };
        QList<QByteArray> touched;
        if (m_checkSetupKeys) {
            // The server says which of the arguments are keys: every one must be the scenario's.
            RedisArgs getkeys {QByteArrayLiteral("COMMAND"), QByteArrayLiteral("GETKEYS")};
            getkeys << command;
            const RedisReply reply = connection.command(getkeys);
            if (reply.isError())
                return fail(Text::tr("Redis cannot tell its keys (%1)").arg(reply.text()));
            for (const RedisReply& key : reply.elements()) {
                if (!key.bytes().startsWith(scenario.key))
                    return fail(Text::tr("it names %1, which is not a key of the probe (they start with %2)")
                                    .arg(printableText(key.bytes()), QString::fromUtf8(scenario.key)));
                touched << key.bytes();
            }
            if (touched.isEmpty())
                return fail(Text::tr("it names no key"));
        } else {
            // The given server's ACL user of the probe may touch no other key.
            for (const QByteArray& word : command) {
                if (word.startsWith(scenario.key))
                    touched << word;
            }
        }
        for (const QByteArray& key : std::as_const(touched)) {
            if (!keys->contains(key))
                keys->append(key); // deleted with the scenario's keys
        }
        const RedisReply reply = connection.command(command);
        if (reply.isError())
            return fail(reply.text());
    }
    return true;
}

void ScriptProbe::expireAsTimePasses(RedisConnection& connection, const QList<QByteArray>& keys, qint64 gapMicros,
                                     ProbeScenario* scenario)
{
    // The probe's clock jumps; Redis's does not. Move each key's TTL on by the jump, so that a key
    // expires when the simulated time passes its TTL, as it would in real use.
    for (const QByteArray& key : keys) {
        const qint64 ttl = connection.command({QByteArrayLiteral("PTTL"), key}).toInteger();
        if (ttl < 0)
            continue; // no key, or no expiry
        const qint64 left = ttl - gapMicros / 1000;
        if (left <= 0) {
            connection.command({QByteArrayLiteral("DEL"), key});
            ++scenario->expiredKeys;
        } else {
            connection.command({QByteArrayLiteral("PEXPIRE"), key, QByteArray::number(left)});
        }
    }
}

bool ScriptProbe::runScenario(RedisConnection& connection, ScriptRunner& runner, RunawayGuard& guard,
                              ScriptKeyWatch* watch, ProbeScenario* scenario, QVector<ReplyReading>* readings,
                              ProbeReport* report)
{
    CallValues values = scenarioValues(scenario);
    QList<QByteArray> named; // every key the calls named, in order: the ones to read and delete
    // Only where the simulated clock jumps by seconds can it pass a TTL.
    const bool jumps = scenario->kind == ProbeScenario::Kind::Spread || scenario->kind == ProbeScenario::Kind::Slide
        || scenario->kind == ProbeScenario::Kind::Overlap;
    QElapsedTimer clock;
    clock.start();
    values.nowMicros = m_baseMicros;
    values.seq = m_seq + 1;
    values.uuid = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    bool ok = m_setup.isEmpty() || runSetup(connection, values, *scenario, &named, report);
    // Real time: the server's clock at the first call, from which the waits are measured.
    const bool realTime = scenario->windowMs > 0;
    qint64 startMicros = 0;
    qint64 lastCallMicros = 0;
    for (int i = 0; i < scenario->calls && ok; ++i) {
        if (realTime && connection.isOpen()) {
            if (i == 0)
                startMicros = serverClockMicros(connection);
            if (!waitBeforeCall(connection, scenario, i, startMicros, report))
                break;
            lastCallMicros = serverClockMicros(connection);
        }
        const qint64 previous = values.nowMicros;
        values.nowMicros = m_baseMicros
            + (scenario->kind == ProbeScenario::Kind::Rate ? std::llround(i * 1000.0 / scenario->perMs)
                                                           : i * scenario->spacingMicros);
        if (jumps && i > 0 && connection.isOpen())
            expireAsTimePasses(connection, named, values.nowMicros - previous, scenario);
        values.seq = ++m_seq;
        values.uuid = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
        const RedisArgs keys = m_call.expandKeys(values);
        const RedisArgs args = m_call.expandArgs(values);
        nameCallKeys(keys, values, &named);
        RedisReply reply;
        if (m_cancelled) {
            reply = RedisReply::connectionLost(QStringLiteral("cancelled"));
        } else {
            guard.arm(&connection); // the call waits the guard's bound, then the command timeout again
            reply = runner.run(connection, keys, args);
            guard.disarm();
        }
        if (watch)
            watch->poll();
        ok = takeReply(reply, connection, guard, {i, keys, args}, scenario, readings, report);
    }
    ok = ok && report->failure == ProbeReport::Failure::None;
    scenario->elapsedMs = double(clock.nsecsElapsed()) / 1e6;
    if (ok && realTime && connection.isOpen() && !m_cancelled)
        checkExpiry(connection, named, lastCallMicros, scenario, report);
    endScenario(connection, named, scenario, report);
    return ok;
}

CallValues ScriptProbe::scenarioValues(ProbeScenario* scenario) const
{
    CallValues values;
    values.key = m_runKey + ':' + scenario->name.toUtf8();
    scenario->key = values.key;
    values.windowMs = scenario->windowMs > 0 ? scenario->windowMs : m_settings.windowMs;
    values.limit = scenario->limit > 0 ? scenario->limit : ProbeSettings::noLimit;
    return values;
}

void ScriptProbe::endScenario(RedisConnection& connection, const QList<QByteArray>& named, ProbeScenario* scenario,
                              ProbeReport* report) const
{
    if (connection.isOpen() && !m_cancelled)
        readStored(connection, named, scenario);
    if (connection.isOpen()) {
        RedisArgs del {QByteArrayLiteral("DEL")};
        del << named;
        connection.command(del);
    }
    report->keys << named;
}

void ScriptProbe::nameCallKeys(const RedisArgs& keys, const CallValues& values, QList<QByteArray>* named) const
{
    auto nameKey = [named](const QByteArray& key) {
        if (ZsetKeys::isOwnKey(key) && !named->contains(key))
            named->append(key);
    };
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
}

bool ScriptProbe::takeReply(const RedisReply& reply, RedisConnection& connection, const RunawayGuard& guard,
                            const ProbeCall& call, ProbeScenario* scenario, QVector<ReplyReading>* readings,
                            ProbeReport* report) const
{
    if (m_cancelled) {
        report->failure = ProbeReport::Failure::Cancelled;
        report->failureMessage = Text::tr("The probe was cancelled.");
        return false;
    }
    if (m_memory) {
        const QString stop = m_memory->pollIfDue();
        if (!stop.isEmpty()) {
            report->failure = ProbeReport::Failure::Eviction;
            report->failureMessage = stop;
            return false;
        }
    }
    if (guard.outcome() != RunawayGuard::Outcome::None) {
        report->failure = ProbeReport::Failure::Runaway;
        report->failureMessage = guard.message();
        // A killed script's error names the line it was running.
        report->failureLine = reply.isServerError() ? ScriptError::fromReply(reply.text()).line : 0;
        if (report->failureLine > 0)
            report->failureMessage += Text::tr(" It was running line %1 of the %2 scenario's call %3.")
                                          .arg(report->failureLine)
                                          .arg(scenario->name)
                                          .arg(call.index + 1);
        return false;
    }
    if (reply.isConnectionLost()) {
        report->failure = ProbeReport::Failure::Connection;
        report->failureMessage = classifyReplyError(reply, connection.endpoint()).message;
        return false;
    }
    ReplyReading reading;
    if (isRefusalByError(reply, *scenario, *readings)) {
        reading.refusal = true;
        reading.shown = reply.toDisplayString();
    } else if (reply.isServerError()) {
        QString why = ScriptRunner::describeFailure(reply, call.keys.value(0));
        while (why.endsWith(QLatin1Char('.')))
            why.chop(1);
        report->failure = ProbeReport::Failure::Script;
        report->failureLine = ScriptError::fromReply(reply.text()).line;
        report->failureMessage
            = Text::tr("The script failed on call %1 of the %2 scenario: %3. The call was KEYS = [%4], "
                       "ARGV = [%5]; fix the script, or describe its arguments with --keys and --args.")
                  .arg(call.index + 1)
                  .arg(scenario->name, why, joinArgs(call.keys), joinArgs(call.args));
        return false;
    } else {
        reading = ReplyReading::read(reply);
    }
    if (scenario->replies.size() < shownReplies)
        scenario->replies << reading.shown;
    readings->append(reading);
    return true;
}

void ScriptProbe::readStored(RedisConnection& connection, const QList<QByteArray>& named, ProbeScenario* scenario)
{
    for (const QByteArray& key : named) {
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
