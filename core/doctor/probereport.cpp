// ProbeReport's JSON and the setup commands the probe runs before a scenario.

#include "scriptprobe.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptProbe)
};
} // namespace

const ProbeScenario* ProbeReport::scenario(const QString& name) const
{
    for (const ProbeScenario& s : scenarios) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

namespace {
QJsonObject scenarioJson(const ProbeScenario& s)
{
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
    if (s.windowMs > 0) { // real time
        o.insert(QStringLiteral("window_ms"), double(s.windowMs));
        o.insert(QStringLiteral("burst_calls"), s.burstCalls);
        o.insert(QStringLiteral("waited_ms"), s.waitedMs);
        o.insert(QStringLiteral("admitted_after_wait"), s.admittedAfterWait);
        o.insert(QStringLiteral("keys_left"), s.keysLeft);
        o.insert(QStringLiteral("left_ttl_ms"), double(s.leftTtlMs));
    }
    return o;
}
} // namespace

QJsonObject ProbeReport::toJson() const
{
    QJsonArray list;
    for (const ProbeScenario& s : scenarios)
        list.append(scenarioJson(s));
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
    json.insert(QStringLiteral("clock"), clock);
    if (!setup.isEmpty())
        json.insert(QStringLiteral("setup"), QJsonArray::fromStringList(setup));
    json.insert(QStringLiteral("reply_style"), replyStyleName(replyStyle));
    json.insert(QStringLiteral("reply_style_given"), replyStyleGiven);
    if (replyElement > 0)
        json.insert(QStringLiteral("reply_element"), replyElement + 1);
    if (decision.isKnown()) {
        json.insert(QStringLiteral("reply_decision"),
                    QJsonObject {{QStringLiteral("element"), decision.element + 1},
                                 {QStringLiteral("admitted"), replyClassName(decision.admitted)},
                                 {QStringLiteral("refused"), replyClassName(decision.refused)},
                                 {QStringLiteral("reply_option"), decision.replyOption()}});
    }
    json.insert(QStringLiteral("admissions_read"), admissionsRead);
    if (!replyStyleWhy.isEmpty())
        json.insert(QStringLiteral("reply_style_why"), replyStyleWhy);
    json.insert(QStringLiteral("counts_right"), countsRight);
    json.insert(QStringLiteral("ttl_problem"), ttlProblem);
    json.insert(QStringLiteral("ttl_too_short"), ttlTooShort);
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
