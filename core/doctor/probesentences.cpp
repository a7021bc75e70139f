// The probe's verdict in sentences: one per scenario, with the numbers.

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

QString unitName(bool microseconds)
{
    return microseconds ? Text::tr("microsecond") : Text::tr("millisecond");
}

// How a script without {now} in its call tells time, for the sentence on its back-to-back calls.
QString clockPhrase(const QString& clock)
{
    if (clock == QLatin1String("TIME"))
        return Text::tr("the script reads the server's clock (TIME)");
    if (clock == QLatin1String("PTTL"))
        return Text::tr("the script tells time by its keys' TTL (PTTL)");
    return Text::tr("the script reads no clock: its window is its keys' expiry");
}

QString burstSentence(const ProbeReport& report, const ProbeScenario& s, const ProbeScenario* limited,
                      const ProbeVerdict::Context& context)
{
    QString lead;
    if (s.kind == ProbeScenario::Kind::Rate)
        lead = Text::tr("%1 calls at %2 per ms (over %3)")
                   .arg(s.calls)
                   .arg(rate(s.perMs), duration(double(s.calls - 1) / s.perMs));
    else if (report.clockControlled)
        lead = Text::tr("%1 calls in one %2").arg(s.calls).arg(unitName(context.microseconds));
    else
        lead = Text::tr("%1 calls sent back to back (%2; %3)")
                   .arg(s.calls)
                   .arg(duration(s.elapsedMs), clockPhrase(report.clock));
    QString sentence = lead + QLatin1Char(' ') + storedClause(s);
    if (limited && limited->limit > 0)
        sentence += QStringLiteral("; ") + admittedClause(*limited);
    return sentence + QLatin1Char('.');
}

// Real time: a burst, the server's clock waited out past the window, a burst again.
QString windowSentence(const ProbeScenario& s)
{
    const int later = s.calls - s.burstCalls;
    QString told;
    if (s.admitted < 0)
        told = Text::tr("the replies do not say how many were admitted");
    else
        told = Text::tr("%1 of the first and %2 of the later ones were admitted")
                   .arg(s.admitted - std::max(0, s.admittedAfterWait))
                   .arg(std::max(0, s.admittedAfterWait));
    if (s.problem)
        told += Text::tr(" (a correct limiter admits %1 each time: a new window starts with the whole limit)")
                    .arg(s.limit);
    return Text::tr("In real time, with a %1 window: %2 calls back to back, then, once the server's clock had "
                    "moved %3 on, %4 more: %5.")
        .arg(duration(double(s.windowMs)))
        .arg(s.burstCalls)
        .arg(duration(s.waitedMs))
        .arg(later)
        .arg(told);
}

QString refillSentence(const ProbeScenario& s)
{
    QString told;
    if (s.admittedAfterWait < 0)
        told = Text::tr("the reply does not say whether it was admitted");
    else if (s.admitted - s.admittedAfterWait > s.limit)
        told = Text::tr("the burst already passed the limit, so this call says nothing of how capacity comes back");
    else if (s.admittedAfterWait > 0)
        told = Text::tr("it was admitted: the limiter gives capacity back as time passes (as a token bucket, GCRA or "
                        "a leaky bucket does)");
    else
        told = Text::tr("it was refused: the limiter frees capacity only when whole requests leave the window (as a "
                        "sliding log, a fixed window or an expiring counter does)");
    return Text::tr("%1 calls back to back, then one more when the server's clock had moved %2 on, half the %3 "
                    "window: %4.")
        .arg(s.burstCalls)
        .arg(duration(s.waitedMs), duration(double(s.windowMs)), told);
}

QString expirySentence(const ProbeScenario& s)
{
    const QString lead = Text::tr("One call, then the server's clock waited out %1 (the %2 window and a margin): ")
                             .arg(duration(s.waitedMs), duration(double(s.windowMs)));
    if (s.keysLeft <= 0)
        return lead + Text::tr("the keys it wrote were gone, as they should be.");
    if (s.leftTtlMs == -1)
        return lead
            + Text::tr("%1 of its keys were still there, one without expiry: the keys of idle clients stay for "
                       "ever.")
                  .arg(s.keysLeft);
    return lead
        + Text::tr("%1 of its keys were still there, for %2 more.").arg(s.keysLeft).arg(duration(double(s.leftTtlMs)));
}

void tellScenario(ProbeReport* report, int i, const ProbeVerdict::Context& context)
{
    const ProbeSettings& settings = *context.settings;
    const ProbeScenario& s = report->scenarios[i];
    const ProbeScenario* limited = i + 1 < report->scenarios.size() ? &report->scenarios[i + 1] : nullptr;
    QStringList& verdict = report->verdict;
    switch (s.kind) {
    case ProbeScenario::Kind::Spread:
        verdict << Text::tr("%1 calls %2 apart %3%4; the replies read as %5.")
                       .arg(s.calls)
                       .arg(duration(double(s.spacingMicros) / 1000), storedClause(s), expiryClause(s),
                            ProbeVerdict::replyReadingText(*report));
        break;
    case ProbeScenario::Kind::SameNow:
    case ProbeScenario::Kind::Rate:
        if (s.limit == 0)
            verdict << burstSentence(*report, s, limited, context); // the limited twin is told with it
        break;
    case ProbeScenario::Kind::Draws:
        verdict << Text::tr("%1 calls in one %2, to see the member's random part (%L3 values) repeat: they %4; "
                            "%L5 drew a value drawn before, where the birthday bound expects about %L6.")
                       .arg(s.calls)
                       .arg(unitName(context.microseconds))
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
    case ProbeScenario::Kind::Window:
        verdict << windowSentence(s);
        break;
    case ProbeScenario::Kind::Refill:
        verdict << refillSentence(s);
        break;
    case ProbeScenario::Kind::Expiry:
        verdict << expirySentence(s);
        break;
    }
}
} // namespace

namespace ProbeVerdict {

QString replyReadingText(const ProbeReport& report)
{
    if (report.decision.isKnown())
        return Text::tr("%1 (learned from the calls under a limit: the first ones, admitted, all had the one, later "
                        "ones the other)")
            .arg(report.decision.describe());
    QString text = replyStyleDescription(report.replyStyle);
    if (report.replyElement > 0)
        text = Text::tr("element %1 of the reply: %2").arg(report.replyElement + 1).arg(text);
    return report.replyStyleGiven ? text + Text::tr(" (as given)") : text;
}

void tellScenarios(ProbeReport* report, const Context& context)
{
    // Without a spread scenario, whose sentence says it, how the replies read comes first.
    if (!report->clockControlled && (report->replyStyle != ReplyStyle::Unknown || report->decision.isKnown()))
        report->verdict << Text::tr("The replies read as %1.").arg(replyReadingText(*report));
    for (int i = 0; i < report->scenarios.size(); ++i)
        tellScenario(report, i, context);
    if (!report->clockControlled && !report->scenario(QStringLiteral("window")))
        report->verdict << Text::tr("The call carries no window, so the probe could not shorten one to run the "
                                    "script in real time: how long its entries or slots last is the script's own.");
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

} // namespace ProbeVerdict
