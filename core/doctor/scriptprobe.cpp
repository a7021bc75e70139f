#include "scriptprobe.h"

#include "clustermap.h"
#include "functionlibrary.h"
#include "keyslot.h"
#include "printabletext.h"
#include "privaterediscluster.h"
#include "privateredisserver.h"
#include "probeverdict.h"
#include "runawayguard.h"
#include "scriptdoctor.h"
#include "scriptsandbox.h"
#include "zsetkeys.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QUuid>

#include <cmath>
#include <memory>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptProbe)
};

constexpr int shownReplies = 5;
constexpr int shownMembers = 5;
// Keys the script makes under KEYS[1] beyond the ones it names in its text: a few fixed
// suffixes are learned from the private run and deleted on the given server too; a new key per
// call cannot be named, so such a script does not run on a server zsetlab did not start.
constexpr int maxLearnedSuffixes = 16;

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

// The private server answers other clients 50 ms into a busy script, so a runaway is ended soon.
QStringList privateServerArguments()
{
    return {QStringLiteral("--lua-time-limit"), QStringLiteral("50")};
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
        o.insert(QStringLiteral("expired_keys"), s.expiredKeys);
        o.insert(QStringLiteral("members"), QJsonArray::fromStringList(s.members));
        o.insert(QStringLiteral("replies"), QJsonArray::fromStringList(s.replies));
        o.insert(QStringLiteral("problem"), s.problem);
        if (s.expectedRepeats >= 0)
            o.insert(QStringLiteral("expected_repeats"), s.expectedRepeats);
        list.append(o);
    }
    QJsonArray foreignKeys;
    for (const KeyTouch& touch : foreign) {
        QJsonObject o;
        o.insert(QStringLiteral("command"), QString::fromUtf8(touch.command));
        o.insert(QStringLiteral("key"), QString::fromUtf8(touch.key));
        o.insert(QStringLiteral("db"), touch.db);
        foreignKeys.append(o);
    }
    QJsonObject json;
    json.insert(QStringLiteral("server_version"), serverVersion);
    if (!function.isEmpty())
        json.insert(QStringLiteral("function"), QString::fromUtf8(function));
    json.insert(QStringLiteral("screened"), screened);
    json.insert(QStringLiteral("screen_version"), screenVersion);
    json.insert(QStringLiteral("ran_on_given_server"), ranOnTarget);
    json.insert(QStringLiteral("foreign_keys"), foreignKeys);
    if (!foreignNote.isEmpty())
        json.insert(QStringLiteral("foreign_note"), foreignNote);
    if (sandbox.mode != ScriptSandboxing::Mode::None)
        json.insert(QStringLiteral("sandbox"), sandbox.toJson());
    json.insert(QStringLiteral("clock_controlled"), clockControlled);
    if (!setup.isEmpty())
        json.insert(QStringLiteral("setup"), QJsonArray::fromStringList(setup));
    json.insert(QStringLiteral("reply_style"), replyStyleName(replyStyle));
    json.insert(QStringLiteral("reply_style_given"), replyStyleGiven);
    if (!replyStyleWhy.isEmpty())
        json.insert(QStringLiteral("reply_style_why"), replyStyleWhy);
    json.insert(QStringLiteral("counts_right"), countsRight);
    json.insert(QStringLiteral("ttl_problem"), ttlProblem);
    json.insert(QStringLiteral("verdict"), QJsonArray::fromStringList(verdict));
    json.insert(QStringLiteral("scenarios"), list);
    if (failure != Failure::None) {
        static const char* const names[] = {"none", "connection", "script", "cancelled", "runaway"};
        QJsonObject f;
        f.insert(QStringLiteral("kind"), QLatin1String(names[int(failure)]));
        f.insert(QStringLiteral("message"), failureMessage);
        f.insert(QStringLiteral("line"), failureLine);
        json.insert(QStringLiteral("failure"), f);
    }
    return json;
}

bool SetupCommand::parse(const QString& text, SetupCommand* command, QString* error)
{
    SetupCommand parsed;
    parsed.m_text = text.simplified();
    QString why;
    if (!CallTemplate::parse(CallTemplate::defaultKeys(), text, &parsed.m_call, &why)) {
        *error = Text::tr("--setup \"%1\": %2").arg(parsed.m_text, why.remove(QStringLiteral("--args: ")));
        return false;
    }
    const QVector<CallTemplate::Token>& words = parsed.m_call.args();
    if (words.size() < 2 || words.first().size() != 1 || words.first().first().isPlaceholder) {
        *error = Text::tr("--setup \"%1\": give a command and its arguments, e.g. \"HSET {key}:config limit "
                          "{limit}\"")
                     .arg(parsed.m_text);
        return false;
    }
    bool namesKey = false;
    for (const CallTemplate::Token& word : words) {
        if (!word.isEmpty() && word.first().isPlaceholder && word.first().placeholder == CallTemplate::Placeholder::Key)
            namesKey = true;
    }
    if (!namesKey) {
        *error = Text::tr("--setup \"%1\": a setup command works on the probe's keys only; name one that starts "
                          "with {key}, e.g. {key}:config")
                     .arg(parsed.m_text);
        return false;
    }
    *command = parsed;
    return true;
}

ScriptProbe::ScriptProbe(LimiterScript script, CallTemplate call, ProbeSettings settings)
    : m_script(std::move(script))
    , m_call(std::move(call))
    , m_settings(std::move(settings))
{
    for (const QString& text : std::as_const(m_settings.setup)) {
        SetupCommand command;
        if (!SetupCommand::parse(text, &command, &m_setupError))
            break;
        m_setup << command;
    }
    // What the script does with its keys and its limit decides what to clean up and how to read
    // count replies.
    const FunctionLibrary library = FunctionLibrary::read(m_script.source());
    m_library = library.isLibrary();
    if (m_library && m_settings.function.isEmpty())
        if (const LibraryFunction* first = library.functionOrFirst({}))
            m_settings.function = first->name;
    const ScriptExamination examination
        = ScriptDoctor::examine(m_script.source(), m_call, {}, m_library ? m_settings.function : QByteArray());
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
    if (!m_setupError.isEmpty()) {
        report.failure = ProbeReport::Failure::Script;
        report.failureMessage = m_setupError;
        return report;
    }
    bool givenIsCluster = false;
    {
        // The given server first: a wrong URL or password fails before anything runs.
        RedisConnection check;
        if (!check.open(endpoint, options)) {
            report.failure = ProbeReport::Failure::Connection;
            report.failureMessage = check.lastError().message;
            return report;
        }
        givenIsCluster = check.server().mode == QLatin1String("cluster");
    }

    // A cluster is tried on a private cluster: there a script that reaches keys it was not given,
    // or keys in two slots, fails as it would on the real one.
    std::unique_ptr<PrivateRedisServer> privateServer;
    std::unique_ptr<PrivateRedisCluster> privateCluster;
    bool started = false;
    QString startError;
    RedisEndpoint trialEndpoint;
    if (givenIsCluster) {
        privateCluster
            = std::make_unique<PrivateRedisCluster>(PrivateRedisCluster::minMasters, privateServerArguments());
        started = privateCluster->start();
        startError = privateCluster->errorString();
        trialEndpoint = privateCluster->endpoint();
    } else {
        privateServer = std::make_unique<PrivateRedisServer>(privateServerArguments());
        started = privateServer->start();
        startError = privateServer->errorString();
        trialEndpoint = privateServer->endpoint();
    }
    if (!started) {
        report.failure = ProbeReport::Failure::Connection;
        report.failureMessage = Text::tr("zsetlab runs a script on a private redis-server of its own first, to see "
                                         "which keys it touches, and cannot start one: %1")
                                    .arg(startError);
        return report;
    }
    ProbeReport trial = runOn(trialEndpoint, {}, Stage::Private, ZsetKeys::freshRunKey());
    trial.screened = true;
    trial.ranOnTarget = false;
    trial.screenVersion = trial.serverVersion;
    if (trial.failure != ProbeReport::Failure::None) {
        if (trial.failure != ProbeReport::Failure::Cancelled)
            trial.failureMessage
                = (givenIsCluster ? Text::tr("On a private Redis Cluster of %1 masters that zsetlab started to try the "
                                             "script first (%2 saw nothing of it): %3")
                                        .arg(PrivateRedisCluster::minMasters)
                                        .arg(endpoint.address(), trial.failureMessage)
                                  : Text::tr("On a private redis-server that zsetlab started to try the script "
                                             "first (%1 saw nothing of it): %2")
                                        .arg(endpoint.address(), trial.failureMessage));
        return trial;
    }
    if (m_library && trial.foreign.isEmpty() && trial.foreignNote.isEmpty()) {
        trial.verdict.prepend(
            Text::tr("The probe called the function %1 with FCALL on a private redis-server that "
                     "zsetlab started (Redis %2), not on %3: loading a library (FUNCTION LOAD) "
                     "changes the functions every client of a server sees, so zsetlab loads one "
                     "only on a server of its own.")
                .arg(QString::fromUtf8(m_settings.function), trial.serverVersion, endpoint.address()));
        return trial;
    }
    if (!trial.foreign.isEmpty() || !trial.foreignNote.isEmpty()) {
        const QString why = trial.foreign.isEmpty() ? trial.foreignNote
                                                    : Text::tr("it touched keys other than the ones the probe gave it");
        trial.verdict.prepend(Text::tr("The probe ran only on a private redis-server that zsetlab started (Redis "
                                       "%1), not on %2: %3. That private server, with everything the script left "
                                       "on it, is gone.")
                                  .arg(trial.serverVersion, endpoint.address(), why));
        return trial;
    }
    privateServer.reset();
    privateCluster.reset();
    report = runOnGiven(endpoint, options, trial);
    if (report.failure == ProbeReport::Failure::None && report.sandbox.refusedKeys.isEmpty() && report.ranOnTarget)
        report.verdict.prepend(
            (givenIsCluster ? Text::tr("A private Redis Cluster (Redis %1) ran the same calls first: the script "
                                       "touched no key but its own, so the probe ran it on %2.")
                            : Text::tr("A private redis-server (Redis %1) ran the same calls first: the script "
                                       "touched no key but its own, so the probe ran it on %2."))
                .arg(trial.serverVersion, endpoint.address()));
    return report;
}

ProbeReport ScriptProbe::runOnGiven(const RedisEndpoint& endpoint, const ConnectOptions& options,
                                    const ProbeReport& trial)
{
    // A trial shows what the script did on the private server, not what it does later (a script
    // may behave until a time has passed): on a server zsetlab did not start the calls run as a
    // temporary ACL user that may touch only the probe's keys, so Redis itself refuses the rest.
    const QByteArray runKey = ZsetKeys::freshRunKey();
    ScriptSandbox sandbox;
    ScriptSandboxing sandboxing;
    QString why;
    switch (sandbox.enter(endpoint, options, ScriptSandbox::patternsOfKey(runKey), &sandboxing, &why)) {
    case ScriptSandbox::Outcome::Made:
        break;
    case ScriptSandbox::Outcome::NotAllowed: {
        ProbeReport privateOnly = trial;
        privateOnly.foreignNote = why;
        privateOnly.verdict.prepend(
            Text::tr("The probe ran only on a private redis-server that zsetlab started (Redis %1), not on %2: there a "
                     "script of yours runs as a temporary ACL user that may touch only the probe's keys, and %3. "
                     "Connect as a user that may run ACL SETUSER, or give --trust-script to run it there with every "
                     "right of the connection's user.")
                .arg(trial.serverVersion, endpoint.address(), why));
        return privateOnly;
    }
    case ScriptSandbox::Outcome::Failed: {
        ProbeReport failed;
        failed.failure = ProbeReport::Failure::Connection;
        failed.failureMessage = Text::tr("zsetlab could not make the temporary ACL user the script runs as on %1: %2")
                                    .arg(endpoint.address(), why);
        return failed;
    }
    }
    const RedisEndpoint target = sandbox.asUser(endpoint);
    ProbeReport report = runOn(target, options, Stage::Given, runKey, sandbox.isMade() ? &endpoint : nullptr);
    report.screened = true;
    report.screenVersion = trial.serverVersion;
    sandbox.leave(&sandboxing);
    report.sandbox = sandboxing;
    if (!sandboxing.refusedKeys.isEmpty()) {
        // Not the script's failure to run but the finding: it reached for keys not its own.
        if (report.failure == ProbeReport::Failure::Script) {
            report.failure = ProbeReport::Failure::None;
            report.failureMessage.clear();
        }
        QStringList keys;
        for (const QByteArray& key : sandboxing.refusedKeys) {
            report.foreign << KeyTouch {"REFUSED", key, endpoint.db, 1};
            keys << printableText(key);
        }
        report.countsRight = false;
        report.verdict.prepend(
            Text::tr("On %1 the script reached for %2, outside the probe's own keys, although on the private "
                     "server it had not (a script may behave differently later, or elsewhere). Redis refused it: the "
                     "script ran as the temporary ACL user %3, which may touch only the probe's keys, so nothing "
                     "there was changed.")
                .arg(endpoint.address(), keys.join(QStringLiteral(", ")), sandboxing.user));
    }
    return report;
}

ProbeReport ScriptProbe::runOn(const RedisEndpoint& endpoint, const ConnectOptions& options, Stage stage,
                               const QByteArray& runKey, const RedisEndpoint* guardAs)
{
    ProbeReport report;
    report.clockControlled = m_call.carriesTime();
    RunawayGuard guard(m_settings.scriptTimeout, stage == Stage::Private);
    ConnectOptions callOptions = options;
    callOptions.commandTimeout = std::max(options.commandTimeout, guard.callTimeout());
    // Every scenario's keys share the hash tag of one run key: on a cluster they live on one
    // master, and the calls, the guard and the watch all go to it (the server itself otherwise).
    m_runKey = runKey;
    m_checkSetupKeys = stage == Stage::Private;
    RedisConnection connection;
    QString why;
    ClusterMap map;
    if (!openForKey(connection, endpoint, m_runKey, callOptions, &map, &why)) {
        report.failure = ProbeReport::Failure::Connection;
        report.failureMessage = why.isEmpty() ? connection.lastError().message : why;
        return report;
    }
    const RedisEndpoint node = connection.endpoint();
    RedisEndpoint guardNode = node;
    if (guardAs) {
        guardNode.user = guardAs->user;
        guardNode.password = guardAs->password;
    }
    if (!guard.start(guardNode, options, &why)) {
        report.failure = ProbeReport::Failure::Connection;
        report.failureMessage = why;
        return report;
    }
    ScriptKeyWatch watch;
    ScriptKeyWatch* watching = stage == Stage::Private ? &watch : nullptr;
    if (watching && !watch.start(node, &why)) {
        report.failure = ProbeReport::Failure::Connection;
        report.failureMessage = why;
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
    report.function = m_library ? m_settings.function : QByteArray();
    report.setup = m_settings.setup;
    ScriptRunner runner(m_script, report.function);
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
            const QString name = QStringLiteral("rate-") + QString::number(perMs, 'g', 4);
            const qint64 spacing = std::llround(1000.0 / perMs);
            add(ProbeScenario::Kind::Rate, name, p.callsPerRate, spacing, 0, perMs);
            add(ProbeScenario::Kind::Rate, name + QStringLiteral("-limit"), p.callsPerRate, spacing, p.limit, perMs);
        }
        add(ProbeScenario::Kind::Slide, QStringLiteral("slide"), p.slideCalls, (p.windowMs + 1000) * 1000, 1);
        add(ProbeScenario::Kind::Overlap, QStringLiteral("overlap"), p.overlapCalls, (p.windowMs / 2 + 1000) * 1000, 2);
        if (p.randomMemberValues > 0) {
            // Enough draws for about ten repeats (n^2 / 2v), within bounds: not seeing one is then rare.
            const int draws = int(
                std::clamp(std::ceil(std::sqrt(20 * p.randomMemberValues)), 100.0, double(std::max(100, p.maxDraws))));
            add(ProbeScenario::Kind::Draws, QStringLiteral("draws"), draws, 0, 0);
            plan.last().expectedRepeats
                = draws + p.randomMemberValues * std::expm1(draws * std::log1p(-1 / p.randomMemberValues));
        }
    }

    QVector<QVector<ReplyReading>> readings;
    for (ProbeScenario& scenario : plan) {
        QVector<ReplyReading> replies;
        const bool ok = runScenario(connection, runner, guard, watching, &scenario, &replies, &report);
        report.scenarios << scenario;
        readings << replies;
        if (!ok)
            break;
    }
    forgetConnection();
    if (guard.outcome() != RunawayGuard::Outcome::None && report.failure != ProbeReport::Failure::Runaway) {
        report.failure = ProbeReport::Failure::Runaway;
        report.failureMessage = guard.message();
    }
    if (watching && connection.isOpen() && report.failure == ProbeReport::Failure::None) {
        why.clear();
        const bool finished = watch.finish(connection, &why);
        if (finished)
            sortTouches(watch, node, &report);
        if (connection.server().mode == QLatin1String("cluster"))
            checkSlots(&report);
        if (!finished || !why.isEmpty())
            report.foreignNote = Text::tr("MONITOR could not tell every key the script touched (%1)").arg(why);
    }
    if (!connection.isOpen() && !report.keys.isEmpty() && guard.outcome() == RunawayGuard::Outcome::None) {
        // Cancelled or cut off mid-scenario: delete what the calls may have written on a fresh
        // connection, if the server still answers.
        RedisConnection cleanup;
        if (cleanup.open(node, options)) {
            RedisArgs del {QByteArrayLiteral("DEL")};
            del << report.keys;
            cleanup.command(del);
        }
    }
    if (report.failure == ProbeReport::Failure::None) {
        ProbeVerdict::Context context;
        context.settings = &m_settings;
        context.microseconds
            = m_call.uses(CallTemplate::Placeholder::NowUs) || m_call.uses(CallTemplate::Placeholder::NowNs);
        context.scriptReadsLimit = m_scriptReadsLimit;
        ProbeVerdict::judge(&report, readings, context);
    }
    return report;
}

void ScriptProbe::checkSlots(ProbeReport* report) const
{
    // Redis runs a script's access to a key it was not given when the key's slot happens to be on
    // the same master: the probe's keys and that key met by chance. Say what the real cluster does.
    for (const KeyTouch& touch : std::as_const(report->foreign)) {
        if (touch.key.isEmpty() || KeySlot::of(touch.key) == KeySlot::of(m_runKey))
            continue;
        report->failure = ProbeReport::Failure::Script;
        report->failureMessage
            = Text::tr("On a Redis Cluster a script may touch only keys in the slot of the keys it is given, and "
                       "this one touched %1, a key in another slot (%2) than the keys it was given (%3). It ran "
                       "only because one master serves both slots; where they are apart it fails with \"non local "
                       "key\". Pass every key the script uses in KEYS, with the hash tag of the first one.")
                  .arg(QString::fromUtf8(touch.key))
                  .arg(KeySlot::of(touch.key))
                  .arg(KeySlot::of(m_runKey));
        return;
    }
}

void ScriptProbe::sortTouches(const ScriptKeyWatch& watch, const RedisEndpoint& endpoint, ProbeReport* report)
{
    QList<QByteArray> learned;
    RedisArgs leftBehind {QByteArrayLiteral("DEL")};
    for (const KeyTouch& touch : watch.touches()) {
        QByteArray base;
        for (const ProbeScenario& s : std::as_const(report->scenarios)) {
            // The longest: "same-now-limit" is also under "same-now".
            if (!touch.key.isEmpty() && touch.db == endpoint.db && touch.key.startsWith(s.key)
                && s.key.size() > base.size())
                base = s.key;
        }
        if (base.isEmpty()) {
            report->foreign << touch;
            if (!touch.key.isEmpty() && touch.db == endpoint.db)
                leftBehind << touch.key;
            continue;
        }
        const QByteArray suffix = touch.key.mid(base.size());
        if (!suffix.isEmpty() && !m_keySuffixes.contains(suffix) && !learned.contains(suffix))
            learned << suffix;
    }
    if (learned.size() > maxLearnedSuffixes)
        report->foreignNote = Text::tr("the script made %1 different keys under the key it was given (such as %2), a "
                                       "new one per call, which zsetlab could not name to delete on a server it did "
                                       "not start")
                                  .arg(learned.size())
                                  .arg(QString::fromUtf8(report->scenarios.first().key + learned.first()));
    else
        m_keySuffixes << learned; // deleted by name on the given server
    // The private server goes next, and everything with it; delete what the script left outside
    // the probe's keys now all the same, so that nothing of it outlives the run even by a moment.
    RedisConnection cleanup;
    if (leftBehind.size() > 1 && cleanup.open(endpoint))
        cleanup.command(leftBehind);
}

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
    CallValues values;
    values.key = m_runKey + ':' + scenario->name.toUtf8();
    scenario->key = values.key;
    values.windowMs = m_settings.windowMs;
    values.limit = scenario->limit > 0 ? scenario->limit : ProbeSettings::noLimit;
    QList<QByteArray> named; // every key the calls named, in order: the ones to read and delete
    auto nameKey = [&named](const QByteArray& key) {
        if (ZsetKeys::isOwnKey(key) && !named.contains(key))
            named << key;
    };
    // Only where the simulated clock jumps by seconds can it pass a TTL.
    const bool jumps = scenario->kind == ProbeScenario::Kind::Spread || scenario->kind == ProbeScenario::Kind::Slide
        || scenario->kind == ProbeScenario::Kind::Overlap;
    QElapsedTimer clock;
    clock.start();
    values.nowMicros = m_baseMicros;
    values.seq = m_seq + 1;
    values.uuid = QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    bool ok = m_setup.isEmpty() || runSetup(connection, values, *scenario, &named, report);
    for (int i = 0; i < scenario->calls && ok; ++i) {
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
        RedisReply reply;
        if (m_cancelled) {
            reply = RedisReply::connectionLost(QStringLiteral("cancelled"));
        } else {
            guard.arm(&connection);
            reply = runner.run(connection, keys, args);
            guard.disarm();
        }
        if (watch)
            watch->poll();
        if (m_cancelled) {
            report->failure = ProbeReport::Failure::Cancelled;
            report->failureMessage = Text::tr("The probe was cancelled.");
            ok = false;
        } else if (guard.outcome() != RunawayGuard::Outcome::None) {
            report->failure = ProbeReport::Failure::Runaway;
            report->failureMessage = guard.message();
            // A killed script's error names the line it was running.
            report->failureLine = reply.isServerError() ? ScriptError::fromReply(reply.text()).line : 0;
            if (report->failureLine > 0)
                report->failureMessage += Text::tr(" It was running line %1 of the %2 scenario's call %3.")
                                              .arg(report->failureLine)
                                              .arg(scenario->name)
                                              .arg(i + 1);
            ok = false;
        } else if (reply.isConnectionLost()) {
            report->failure = ProbeReport::Failure::Connection;
            report->failureMessage = classifyReplyError(reply, connection.endpoint()).message;
            ok = false;
        } else if (isRefusalByError(reply, *scenario, *readings)) {
            ReplyReading reading;
            reading.refusal = true;
            reading.shown = reply.toDisplayString();
            if (scenario->replies.size() < shownReplies)
                scenario->replies << reading.shown;
            readings->append(reading);
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
