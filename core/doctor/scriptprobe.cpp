#include "scriptprobe.h"

#include "base/printabletext.h"
#include "functionlibrary.h"
#include "limiters/zsetkeys.h"
#include "probeverdict.h"
#include "redis/clustermap.h"
#include "redis/keyslot.h"
#include "redis/privaterediscluster.h"
#include "redis/privateredisserver.h"
#include "redis/scriptsandbox.h"
#include "runawayguard.h"
#include "scriptdoctor.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QScopeGuard>

#include <cmath>
#include <memory>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptProbe)
};

// Keys the script makes under KEYS[1] beyond the ones it names in its text: a few fixed
// suffixes are learned from the private run and deleted on the given server too; a new key per
// call cannot be named, so such a script does not run on a server zsetlab did not start.
constexpr int maxLearnedSuffixes = 16;

// The private server answers other clients 50 ms into a busy script, so a runaway is ended soon.
QStringList privateServerArguments()
{
    return {QStringLiteral("--lua-time-limit"), QStringLiteral("50")};
}
} // namespace

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
    m_clock = examination.clockName();
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
    ProbeReport report = blankReport();
    if (!m_setupError.isEmpty()) {
        report.failure = ProbeReport::Failure::Script;
        report.failureMessage = m_setupError;
        return report;
    }
    bool givenIsCluster = false;
    if (!checkGiven(endpoint, options, &givenIsCluster, &report))
        return report;
    ProbeReport trial = runTrial(endpoint, options, givenIsCluster);
    if (trial.failure != ProbeReport::Failure::None || staysPrivate(endpoint, &trial))
        return trial;
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

bool ScriptProbe::checkGiven(const RedisEndpoint& endpoint, const ConnectOptions& options, bool* isCluster,
                             ProbeReport* report)
{
    // The given server first: a wrong URL or password fails before anything runs.
    RedisConnection check;
    {
        std::lock_guard<std::mutex> lock(m_connectionMutex);
        m_connection = &check; // cancel() reaches it: a silent server answers no handshake
    }
    const bool opened = check.open(endpoint, options);
    {
        std::lock_guard<std::mutex> lock(m_connectionMutex);
        m_connection = nullptr;
    }
    if (!opened) {
        report->failure = ProbeReport::Failure::Connection;
        report->failureMessage = check.lastError().message;
        return false;
    }
    *isCluster = check.server().mode == QLatin1String("cluster");
    return true;
}

ProbeReport ScriptProbe::runTrial(const RedisEndpoint& endpoint, const ConnectOptions& options, bool givenIsCluster)
{
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
        ProbeReport report = blankReport();
        report.failure = ProbeReport::Failure::Connection;
        report.failureMessage = Text::tr("zsetlab runs a script on a private redis-server of its own first, to see "
                                         "which keys it touches, and cannot start one: %1")
                                    .arg(startError);
        return report;
    }
    // The trial's reads keep the user's timeouts too (a setup command that blocks, say).
    ProbeReport trial = runOnPrivate(trialEndpoint, options, ZsetKeys::freshRunKey());
    trial.screened = true;
    trial.ranOnTarget = false;
    trial.screenVersion = trial.serverVersion;
    if (trial.failure != ProbeReport::Failure::None && trial.failure != ProbeReport::Failure::Cancelled)
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

bool ScriptProbe::staysPrivate(const RedisEndpoint& endpoint, ProbeReport* trial) const
{
    if (m_library && trial->foreign.isEmpty() && trial->foreignNote.isEmpty()) {
        trial->verdict.prepend(
            Text::tr("The probe called the function %1 with FCALL on a private redis-server that "
                     "zsetlab started (Redis %2), not on %3: loading a library (FUNCTION LOAD) "
                     "changes the functions every client of a server sees, so zsetlab loads one "
                     "only on a server of its own.")
                .arg(QString::fromUtf8(m_settings.function), trial->serverVersion, endpoint.address()));
        return true;
    }
    if (!trial->foreign.isEmpty() || !trial->foreignNote.isEmpty()) {
        const QString why = trial->foreign.isEmpty()
            ? trial->foreignNote
            : Text::tr("it touched keys other than the ones the probe gave it");
        trial->verdict.prepend(Text::tr("The probe ran only on a private redis-server that zsetlab started (Redis "
                                        "%1), not on %2: %3. That private server, with everything the script left "
                                        "on it, is gone.")
                                   .arg(trial->serverVersion, endpoint.address(), why));
        return true;
    }
    return false;
}

ProbeReport ScriptProbe::runOnPrivate(const RedisEndpoint& endpoint, const ConnectOptions& given,
                                      const QByteArray& runKey)
{
    ScriptSandbox sandbox;
    sandbox.allowFunctions(m_library); // a library is loaded only here, on zsetlab's own server
    ScriptSandboxing sandboxing;
    ConnectOptions own;
    own.ownServer = true;
    own.connectTimeout = given.connectTimeout;
    own.commandTimeout = given.commandTimeout;
    // Every key: the private server holds nothing but the trial's, and MONITOR shows which keys
    // the script touched (the finding the trial is for). Its commands are the given server's.
    QString why;
    if (sandbox.enter(endpoint, own, {QByteArrayLiteral("*")}, &sandboxing, &why) != ScriptSandbox::Outcome::Made) {
        ProbeReport failed;
        failed.failure = ProbeReport::Failure::Connection;
        failed.failureMessage
            = Text::tr("zsetlab could not make the temporary ACL user the script runs as: %1").arg(why);
        return failed;
    }
    ProbeReport report = runOn(sandbox.asUser(endpoint), own, Stage::Private, runKey, &endpoint);
    sandbox.leave(&sandboxing);
    report.sandbox = sandboxing;
    if (sandboxing.refusedKeys.isEmpty() && sandboxing.refusedCommands.isEmpty())
        return report;
    // Not the script's failure to run but the finding: it reached beyond its keys.
    if (report.failure == ProbeReport::Failure::Script) {
        report.failure = ProbeReport::Failure::None;
        report.failureMessage.clear();
    }
    for (const QByteArray& key : std::as_const(sandboxing.refusedKeys))
        report.foreign << KeyTouch {"REFUSED", key, endpoint.db, 1};
    if (!sandboxing.refusedCommands.isEmpty()) {
        QStringList commands;
        for (const QByteArray& command : std::as_const(sandboxing.refusedCommands))
            commands << printableText(command).toUpper();
        report.foreignNote
            = Text::tr("it ran %1, which reaches beyond the probe's own keys (another database, "
                       "another server, or the server's state); Redis refused it, as the script ran "
                       "as a temporary ACL user that may run only the commands a limiter needs on its keys")
                  .arg(commands.join(QStringLiteral(", ")));
    }
    report.countsRight = false;
    return report;
}

ProbeReport ScriptProbe::runOnGiven(const RedisEndpoint& endpoint, const ConnectOptions& options,
                                    const ProbeReport& trial)
{
    // A trial shows what the script did on the private server, not what it does later (a script
    // may behave until a time has passed): on a server zsetlab did not start the calls run as a
    // temporary ACL user that may touch only the probe's keys, so Redis itself refuses the rest.
    const QByteArray runKey = ZsetKeys::freshRunKey();
    // A server that evicts keys when full: a call of the script may write any amount.
    MemoryWatch memory;
    {
        RedisConnection first;
        QString why;
        const auto admission
            = first.open(endpoint, options) ? memory.admit(first, options, -1, &why) : MemoryWatch::Admission::Lost;
        if (admission != MemoryWatch::Admission::Admitted) {
            ProbeReport failed;
            failed.failure = admission == MemoryWatch::Admission::Refused ? ProbeReport::Failure::Eviction
                                                                          : ProbeReport::Failure::Connection;
            failed.failureMessage = why.isEmpty() ? first.lastError().message : why;
            return failed;
        }
    }
    m_memory = &memory;
    const auto forgetMemory = qScopeGuard([this] { m_memory = nullptr; });
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
    if (!sandboxing.refusedCommands.isEmpty()) {
        if (report.failure == ProbeReport::Failure::Script) {
            report.failure = ProbeReport::Failure::None;
            report.failureMessage.clear();
        }
        QStringList commands;
        for (const QByteArray& command : std::as_const(sandboxing.refusedCommands))
            commands << printableText(command).toUpper();
        report.countsRight = false;
        report.verdict.prepend(
            Text::tr("On %1 the script ran %2, which reaches beyond the probe's own keys (another database, another "
                     "server, or the server's state). Redis refused it: the script ran as the temporary ACL user %3, "
                     "which may run only the commands a limiter needs on its keys, so nothing there was changed.")
                .arg(endpoint.address(), commands.join(QStringLiteral(", ")), sandboxing.user));
    }
    return report;
}

ProbeReport ScriptProbe::blankReport() const
{
    ProbeReport report;
    report.clockControlled = m_call.carriesTime();
    report.clock = report.clockControlled ? QStringLiteral("argument") : m_clock;
    return report;
}

ProbeReport ScriptProbe::runOn(const RedisEndpoint& endpoint, const ConnectOptions& options, Stage stage,
                               const QByteArray& runKey, const RedisEndpoint* guardAs)
{
    ProbeReport report = blankReport();
    // Every read keeps the command timeout (--timeout), SCRIPT LOAD and the setup commands
    // included; only the script's own calls wait longer, bounded by the guard (runScenario()).
    RunawayGuard guard(m_settings.scriptTimeout, stage == Stage::Private, options.commandTimeout);
    // Every scenario's keys share the hash tag of one run key: on a cluster they live on one
    // master, and the calls, the guard and the watch all go to it (the server itself otherwise).
    m_runKey = runKey;
    m_checkSetupKeys = stage == Stage::Private;
    RedisConnection connection;
    // cancel() reaches the connection from its opening on (a silent server answers no handshake).
    {
        std::lock_guard<std::mutex> lock(m_connectionMutex);
        m_connection = &connection;
    }
    auto forgetConnection = [this] {
        std::lock_guard<std::mutex> lock(m_connectionMutex);
        m_connection = nullptr;
    };
    const auto forget = qScopeGuard(forgetConnection);
    ScriptKeyWatch watch;
    ScriptKeyWatch* watching = stage == Stage::Private ? &watch : nullptr;
    RedisEndpoint guardNode;
    if (!connectRun(connection, endpoint, options, guardAs, guard, watching, &guardNode, &report))
        return report;
    const RedisEndpoint node = connection.endpoint();
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
    const QVector<QVector<ReplyReading>> readings = runScenarios(connection, runner, guard, watching, &report);
    forgetConnection();
    if (guard.outcome() != RunawayGuard::Outcome::None && report.failure != ProbeReport::Failure::Runaway) {
        report.failure = ProbeReport::Failure::Runaway;
        report.failureMessage = guard.message();
    }
    if (watching && connection.isOpen() && report.failure == ProbeReport::Failure::None)
        readWatch(watch, connection, guardNode, &report);
    if (!connection.isOpen() && !report.keys.isEmpty() && guard.outcome() == RunawayGuard::Outcome::None)
        deleteAfterCut(node, options, report.keys);
    if (report.failure == ProbeReport::Failure::None)
        judge(readings, &report);
    return report;
}

bool ScriptProbe::connectRun(RedisConnection& connection, const RedisEndpoint& endpoint, const ConnectOptions& options,
                             const RedisEndpoint* guardAs, RunawayGuard& guard, ScriptKeyWatch* watch,
                             RedisEndpoint* guardNode, ProbeReport* report)
{
    QString why;
    ClusterMap map;
    if (!openForKey(connection, endpoint, m_runKey, options, &map, &why)) {
        report->failure = ProbeReport::Failure::Connection;
        report->failureMessage = why.isEmpty() ? connection.lastError().message : why;
        return false;
    }
    *guardNode = connection.endpoint();
    if (guardAs) {
        guardNode->user = guardAs->user;
        guardNode->password = guardAs->password;
        guardNode->helloHandshake = guardAs->helloHandshake;
    }
    if (!guard.start(*guardNode, options, &why)) {
        report->failure = ProbeReport::Failure::Connection;
        report->failureMessage = why;
        return false;
    }
    if (watch && !watch->start(*guardNode, &why)) { // MONITOR: not the sandbox's user
        report->failure = ProbeReport::Failure::Connection;
        report->failureMessage = why;
        return false;
    }
    return true;
}

QVector<QVector<ReplyReading>> ScriptProbe::runScenarios(RedisConnection& connection, ScriptRunner& runner,
                                                         RunawayGuard& guard, ScriptKeyWatch* watch,
                                                         ProbeReport* report)
{
    // Whole seconds, so that a script in seconds sees every short scenario inside one second.
    m_baseMicros = QDateTime::currentMSecsSinceEpoch() / 1000 * 1'000'000;
    QVector<ProbeScenario> plan = this->plan(report->clockControlled);

    QVector<QVector<ReplyReading>> readings;
    for (ProbeScenario& scenario : plan) {
        QVector<ReplyReading> replies;
        const bool ok = runScenario(connection, runner, guard, watch, &scenario, &replies, report);
        report->scenarios << scenario;
        readings << replies;
        if (!ok)
            break;
    }
    return readings;
}

void ScriptProbe::readWatch(ScriptKeyWatch& watch, RedisConnection& connection, const RedisEndpoint& guardNode,
                            ProbeReport* report)
{
    QString why;
    const bool finished = watch.finish(connection, &why);
    if (finished)
        sortTouches(watch, guardNode, report);
    if (connection.server().mode == QLatin1String("cluster"))
        checkSlots(report);
    if (!finished || !why.isEmpty())
        report->foreignNote = Text::tr("MONITOR could not tell every key the script touched (%1)").arg(why);
}

void ScriptProbe::deleteAfterCut(const RedisEndpoint& node, const ConnectOptions& options,
                                 const QList<QByteArray>& keys)
{
    // Cancelled or cut off mid-scenario: delete what the calls may have written on a fresh
    // connection, if the server still answers.
    RedisConnection cleanup;
    if (cleanup.open(node, options)) {
        RedisArgs del {QByteArrayLiteral("DEL")};
        del << keys;
        cleanup.command(del);
    }
}

void ScriptProbe::judge(const QVector<QVector<ReplyReading>>& readings, ProbeReport* report) const
{
    ProbeVerdict::Context context;
    context.settings = &m_settings;
    context.microseconds
        = m_call.uses(CallTemplate::Placeholder::NowUs) || m_call.uses(CallTemplate::Placeholder::NowNs);
    context.scriptReadsLimit = m_scriptReadsLimit;
    ProbeVerdict::judge(report, readings, context);
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
