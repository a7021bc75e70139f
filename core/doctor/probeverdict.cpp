#include "probeverdict.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptProbe)
};

using ProbeVerdict::duration;

void learnStyle(ProbeReport* report, const QVector<QVector<ReplyReading>>& readings, const ProbeSettings& settings)
{
    if (settings.replyStyle != ReplyStyle::Unknown) {
        report->replyStyle = settings.replyStyle;
        report->replyElement = settings.replyElement;
        report->replyStyleGiven = true;
        return;
    }
    // The first scenario has no limit (and, unless the script reads its own clock, spreads its
    // calls so that a correct limiter stores every one); the limited ones start under the limit.
    QVector<QVector<ReplyReading>> unlimited;
    QVector<LimitedReplies> limited;
    for (int i = 0; i < report->scenarios.size(); ++i) {
        if (report->scenarios[i].limit > 0)
            limited.append({report->scenarios[i].limit, readings.value(i)});
        else
            unlimited.append(readings.value(i));
    }
    report->replyStyle = learnReplyStyle(unlimited, limited, &report->replyStyleWhy);
    // An element that changes kind when calls are refused says more than a style read from the
    // first one: {"true", wait} is "true" for refused calls too, a slot's name is no number.
    const ReplyDecision decision = learnReplyDecision(limited);
    if (decision.isKnown() && (decision.element > 0 || report->replyStyle == ReplyStyle::Unknown)) {
        report->decision = decision;
        report->replyStyleWhy.clear();
    }
}

// A script that refuses with an error reply: say so once, with its words. Its other replies
// are then admissions, even a count that repeats the limit.
bool sayErrorRefusals(ProbeReport* report, const QVector<QVector<ReplyReading>>& readings)
{
    for (const QVector<ReplyReading>& batch : readings) {
        const auto refusal
            = std::find_if(batch.cbegin(), batch.cend(), [](const ReplyReading& r) { return r.refusal; });
        if (refusal == batch.cend())
            continue;
        QString words = refusal->shown;
        if (words.startsWith(QLatin1String("(error) ")))
            words = words.mid(8);
        report->verdict << Text::tr("Calls over the limit got an error reply (\"%1\"): the script's way of refusing, "
                                    "read as refusals.")
                               .arg(words.left(120));
        return true;
    }
    return false;
}

AdmissionCount admissionsOf(const ProbeReport& report, const QVector<ReplyReading>& readings, qint64 limit,
                            bool scriptReadsLimit)
{
    if (report.decision.isKnown())
        return countAdmissions(report.decision, readings);
    return countAdmissions(report.replyStyle, readingsOfElement(readings, report.replyElement), limit,
                           scriptReadsLimit);
}

// Counts one limited scenario's admissions against what a correct limiter admits.
void countLimited(ProbeReport* report, ProbeScenario& s, const QVector<ReplyReading>& readings, bool readsLimit)
{
    const bool read = report->decision.isKnown() || report->replyStyle != ReplyStyle::Unknown;
    const AdmissionCount count = admissionsOf(*report, readings, s.limit, readsLimit);
    s.admitted = read ? count.admitted : -1;
    s.unclear = count.unclear;
    s.replyNote = count.note;
    report->admissionsRead = report->admissionsRead && read;
    using Kind = ProbeScenario::Kind;
    const bool slides = s.kind == Kind::Slide || s.kind == Kind::Overlap;
    if (s.kind == Kind::Window || s.kind == Kind::Refill) {
        const AdmissionCount after = admissionsOf(*report, readings.mid(s.burstCalls), s.limit, readsLimit);
        s.admittedAfterWait = read && after.unclear == 0 ? after.admitted : -1;
    }
    if (s.kind == Kind::Refill) {
        s.expectedAdmitted = -1; // told, not judged: how capacity comes back is the algorithm's choice
        return;
    }
    s.expectedAdmitted = slides  ? s.calls
        : s.kind == Kind::Window ? int(2 * std::min<qint64>(s.burstCalls, s.limit))
                                 : int(std::min<qint64>(s.calls, s.limit));
    if (s.admitted >= 0)
        s.problem = s.admitted > s.expectedAdmitted || (s.unclear == 0 && s.admitted < s.expectedAdmitted);
}

// The expiry, seen on the first scenario's sorted set right after its calls, and in real time
// on every key a call wrote.
void judgeExpiry(ProbeReport* report, const ProbeSettings& settings)
{
    QStringList& verdict = report->verdict;
    const ProbeScenario& first = report->scenarios.first();
    const double window = double(settings.windowMs);
    if (first.stored >= 0) {
        if (first.ttlMs == -1) {
            report->ttlProblem = true;
            verdict << Text::tr("The sorted set has no expiry: the keys of idle clients stay for ever.");
        } else if (first.ttlMs == -2) {
            report->ttlProblem = report->ttlTooShort = true;
            verdict << Text::tr("The sorted set was gone right after the calls: its expiry deletes it at once.");
        } else if (first.ttlMs > 10 * window) {
            report->ttlProblem = true;
            verdict << Text::tr("The sorted set expires after %1, %2 times the %3 window: idle keys linger.")
                           .arg(duration(double(first.ttlMs)))
                           .arg(std::llround(double(first.ttlMs) / window))
                           .arg(duration(window));
        } else if (first.ttlMs < window / 2) {
            report->ttlProblem = report->ttlTooShort = true;
            verdict << Text::tr("The sorted set expires after %1, before the %2 window ends: requests still in "
                                "the window are forgotten.")
                           .arg(duration(double(first.ttlMs)), duration(window));
        } else {
            verdict << Text::tr("The sorted set expires after %1 (window %2).")
                           .arg(duration(double(first.ttlMs)), duration(window));
        }
    }
    if (const ProbeScenario* expiry = report->scenario(QStringLiteral("expiry")); expiry && expiry->keysLeft > 0)
        report->ttlProblem = report->ttlProblem || expiry->leftTtlMs == -1 || expiry->leftTtlMs > 10 * expiry->windowMs;
}

// The last sentence: counted as listed above, where a burst with a limit is told in one sentence
// with the same burst without one, and is one scenario, wrong if either run of it is.
void sumUp(ProbeReport* report, int problems)
{
    int listed = 0;
    int listedWrong = 0;
    for (int i = 0; i < report->scenarios.size(); ++i) {
        const ProbeScenario& s = report->scenarios[i];
        const bool twin = s.kind == ProbeScenario::Kind::SameNow || s.kind == ProbeScenario::Kind::Rate;
        if (twin && s.limit > 0 && i > 0 && report->scenarios[i - 1].kind == s.kind
            && report->scenarios[i - 1].limit == 0) {
            listedWrong += s.problem && !report->scenarios[i - 1].problem ? 1 : 0;
            continue;
        }
        ++listed;
        listedWrong += s.problem ? 1 : 0;
    }
    QStringList& verdict = report->verdict;
    if (problems > 0)
        verdict << Text::tr("Verdict: the script counts wrong in %1 of %2 scenarios.").arg(listedWrong).arg(listed);
    else if (!report->admissionsRead)
        verdict << Text::tr("Verdict: nothing the probe could read went wrong, but the replies did not say which "
                            "calls were admitted, so there is no verdict on admissions. Say how they read with "
                            "--reply STYLE, or STYLE@N for the Nth element of an array reply (e.g. limited@2 for "
                            "{\"true\", wait}, allowed=value for a slot's name or nil).");
    else if (!report->foreign.isEmpty())
        verdict << Text::tr("Verdict: the script counted right in every scenario, but it touches keys it was not "
                            "given.");
    else if (report->ttlProblem)
        verdict << Text::tr("Verdict: the script counted right in every scenario, but its expiry is wrong.");
    else
        verdict << Text::tr("Verdict: the script counted right in every scenario.");
}
} // namespace

namespace ProbeVerdict {

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

QString describeTouch(const KeyTouch& touch)
{
    const QString command = QString::fromUtf8(touch.command);
    if (touch.key.isEmpty())
        return Text::tr("%1 (no key: it reaches the whole database or server)").arg(command);
    QString key = QString::fromUtf8(touch.key.left(120));
    if (touch.db != 0)
        key += Text::tr(" in database %1").arg(touch.db);
    return command + QLatin1Char(' ') + key;
}

void judge(ProbeReport* report, const QVector<QVector<ReplyReading>>& readings, const Context& context)
{
    const ProbeSettings& settings = *context.settings;
    learnStyle(report, readings, settings);
    QStringList& verdict = report->verdict;
    if (report->replyStyle == ReplyStyle::Unknown && !report->decision.isKnown())
        verdict << Text::tr("zsetlab cannot read the replies: %1. The numbers below come from what Redis stored "
                            "alone.")
                       .arg(report->replyStyleWhy);
    const bool refusesWithErrors = sayErrorRefusals(report, readings);
    int problems = 0, limitPlusOne = 0, limitedScenarios = 0;
    for (int i = 0; i < report->scenarios.size(); ++i) {
        ProbeScenario& s = report->scenarios[i];
        if (s.limit > 0) {
            countLimited(report, s, readings.value(i), context.scriptReadsLimit && !refusesWithErrors);
            const bool burst = s.kind == ProbeScenario::Kind::SameNow || s.kind == ProbeScenario::Kind::Rate;
            if (burst && s.admitted >= 0 && s.calls > s.limit) {
                ++limitedScenarios;
                limitPlusOne += s.admitted == s.expectedAdmitted + 1 ? 1 : 0;
            }
        } else {
            s.expectedStored = s.calls;
            s.problem = s.stored >= 0 && s.stored < s.calls;
        }
        problems += s.problem ? 1 : 0;
    }
    tellScenarios(report, context);
    if (limitedScenarios > 0 && limitPlusOne == limitedScenarios)
        verdict << Text::tr("The script admits limit + 1 in every burst (%1 with limit %2): its comparison is off by "
                            "one. A count taken before the request is added must refuse at count >= limit (not "
                            "count > limit); a count that includes the request, at count > limit.")
                       .arg(settings.limit + 1)
                       .arg(settings.limit);
    judgeExpiry(report, settings);
    if (!report->foreign.isEmpty())
        verdict << Text::tr("Besides its own keys the script touched: %1. Pass every key a script uses in KEYS: Redis "
                            "Cluster refuses other keys (\"Script attempted to access a non local key\"), and a "
                            "key shared by every caller is changed by all of them.")
                       .arg(touchList(report->foreign));
    report->countsRight = problems == 0;
    sumUp(report, problems);
}

} // namespace ProbeVerdict
