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

QString entries(int n)
{
    return n == 1 ? Text::tr("1 entry") : Text::tr("%1 entries").arg(n);
}

QString rate(double perMs)
{
    return QString::number(perMs, 'g', 4);
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

// The simulated clock moved past a TTL the script set: say that zsetlab let the key expire.
QString expiryClause(const ProbeScenario& s)
{
    if (s.expiredKeys == 0)
        return {};
    return Text::tr(" (between these calls the simulated time passed a TTL the script set, so zsetlab deleted the "
                    "key as Redis would have; %1 time(s))")
        .arg(s.expiredKeys);
}

void learnStyle(ProbeReport* report, const QVector<QVector<ReplyReading>>& readings, const ProbeSettings& settings)
{
    if (settings.replyStyle != ReplyStyle::Unknown) {
        report->replyStyle = settings.replyStyle;
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
}

QString touchList(const QVector<KeyTouch>& touches)
{
    QStringList shown;
    for (int i = 0; i < touches.size() && i < 8; ++i)
        shown << ProbeVerdict::describeTouch(touches[i]);
    if (touches.size() > 8)
        shown << Text::tr("and %1 more").arg(touches.size() - 8);
    return shown.join(QStringLiteral(", "));
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

    int problems = 0;
    QStringList& verdict = report->verdict;
    if (report->replyStyle == ReplyStyle::Unknown)
        verdict << Text::tr("zsetlab cannot read the replies: %1. The numbers below come from the sorted set "
                            "alone.")
                       .arg(report->replyStyleWhy);
    // A script that refuses with an error reply: say so once, with its words. Its other replies
    // are then admissions, even a count that repeats the limit.
    bool refusesWithErrors = false;
    for (const QVector<ReplyReading>& batch : readings) {
        const auto refusal
            = std::find_if(batch.cbegin(), batch.cend(), [](const ReplyReading& r) { return r.refusal; });
        if (refusal != batch.cend()) {
            refusesWithErrors = true;
            QString words = refusal->shown;
            if (words.startsWith(QLatin1String("(error) ")))
                words = words.mid(8);
            verdict << Text::tr("Calls over the limit got an error reply (\"%1\"): the script's way of refusing, "
                                "read as refusals.")
                           .arg(words.left(120));
            break;
        }
    }
    int limitPlusOne = 0, limitedScenarios = 0;
    for (int i = 0; i < report->scenarios.size(); ++i) {
        ProbeScenario& s = report->scenarios[i];
        if (s.limit > 0) {
            const AdmissionCount count = countAdmissions(report->replyStyle, readings.value(i), s.limit,
                                                         context.scriptReadsLimit && !refusesWithErrors);
            s.admitted = report->replyStyle == ReplyStyle::Unknown ? -1 : count.admitted;
            s.unclear = count.unclear;
            s.replyNote = count.note;
            const bool slides = s.kind == ProbeScenario::Kind::Slide || s.kind == ProbeScenario::Kind::Overlap;
            s.expectedAdmitted = slides ? s.calls : int(std::min<qint64>(s.calls, s.limit));
            if (s.admitted >= 0)
                s.problem = s.admitted > s.expectedAdmitted || (s.unclear == 0 && s.admitted < s.expectedAdmitted);
            if (!slides && s.admitted >= 0 && s.calls > s.limit) {
                ++limitedScenarios;
                limitPlusOne += s.admitted == s.expectedAdmitted + 1 ? 1 : 0;
            }
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
            verdict << Text::tr("%1 calls %2 apart %3%4; the replies read as %5%6.")
                           .arg(s.calls)
                           .arg(duration(double(s.spacingMicros) / 1000), storedClause(s), expiryClause(s),
                                replyStyleDescription(report->replyStyle),
                                report->replyStyleGiven ? Text::tr(" (as given)") : QString());
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
                               .arg(context.microseconds ? Text::tr("microsecond") : Text::tr("millisecond"));
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
        case ProbeScenario::Kind::Draws:
            verdict << Text::tr("%1 calls in one %2, to see the member's random part (%L3 values) repeat: they %4; "
                                "%L5 drew a value drawn before, where the birthday bound expects about %L6.")
                           .arg(s.calls)
                           .arg(context.microseconds ? Text::tr("microsecond") : Text::tr("millisecond"))
                           .arg(settings.randomMemberValues, 0, 'f', 0)
                           .arg(storedClause(s))
                           .arg(s.stored >= 0 ? s.calls - s.stored : 0)
                           .arg(s.expectedRepeats, 0, 'f', s.expectedRepeats < 10 ? 1 : 0);
            break;
        case ProbeScenario::Kind::Slide:
            verdict << Text::tr("%1 calls %2 apart, each after the previous one left the %3 window: %4%5.")
                           .arg(s.calls)
                           .arg(duration(double(s.spacingMicros) / 1000), duration(double(settings.windowMs)),
                                admittedClause(s), expiryClause(s));
            break;
        case ProbeScenario::Kind::Overlap:
            verdict << Text::tr("%1 calls %2 apart, so that each finds only the one before it in the %3 window: "
                                "%4%5.")
                           .arg(s.calls)
                           .arg(duration(double(s.spacingMicros) / 1000), duration(double(settings.windowMs)),
                                admittedClause(s), expiryClause(s));
            break;
        }
    }
    if (limitedScenarios > 0 && limitPlusOne == limitedScenarios)
        verdict << Text::tr("The script admits limit + 1 in every burst (%1 with limit %2): its comparison is off by "
                            "one. A count taken before the request is added must refuse at count >= limit (not "
                            "count > limit); a count that includes the request, at count > limit.")
                       .arg(settings.limit + 1)
                       .arg(settings.limit);

    // The expiry, seen on the first scenario's sorted set right after its calls.
    const ProbeScenario& first = report->scenarios.first();
    const double window = double(settings.windowMs);
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

    if (!report->foreign.isEmpty())
        verdict << Text::tr("Besides its own keys the script touched: %1. Pass every key a script uses in KEYS: Redis "
                            "Cluster refuses other keys (\"Script attempted to access a non local key\"), and a "
                            "key shared by every caller is changed by all of them.")
                       .arg(touchList(report->foreign));

    report->countsRight = problems == 0;
    // Counted as listed above: a burst with a limit is told in one sentence with the same burst
    // without one, and is one scenario, wrong if either run of it is.
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
    if (problems > 0)
        verdict << Text::tr("Verdict: the script counts wrong in %1 of %2 scenarios.").arg(listedWrong).arg(listed);
    else if (!report->foreign.isEmpty())
        verdict << Text::tr("Verdict: the script counted right in every scenario, but it touches keys it was not "
                            "given.");
    else if (report->ttlProblem)
        verdict << Text::tr("Verdict: the script counted right in every scenario, but its expiry is wrong.");
    else
        verdict << Text::tr("Verdict: the script counted right in every scenario.");
}

} // namespace ProbeVerdict
