#include "scriptdoctor.h"

#include "doctorrules.h"
#include "functionlibrary.h"
#include "scriptprobe.h"

#include <QCoreApplication>

#include <algorithm>

bool ScriptExamination::hasProblem() const
{
    return count(ScriptFinding::Severity::Warning) + count(ScriptFinding::Severity::Error) > 0;
}

QString ScriptExamination::clockName() const
{
    switch (clock) {
    case Clock::ServerTime:
        return QStringLiteral("TIME");
    case Clock::KeyTtl:
        return QStringLiteral("PTTL");
    case Clock::None:
        break;
    }
    return QStringLiteral("none");
}

bool ScriptExamination::countsWrong() const
{
    return count(ScriptFinding::Severity::Error) > 0;
}

bool ScriptExamination::hasWarnings() const
{
    return count(ScriptFinding::Severity::Warning) > 0;
}

int ScriptExamination::count(ScriptFinding::Severity severity) const
{
    return int(std::count_if(findings.begin(), findings.end(),
                             [severity](const ScriptFinding& finding) { return finding.severity == severity; }));
}

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptDoctor)
};
// The library a script is, or derives from, and what is known to be wrong with that version.
ScriptFinding knownLimiterFinding(const LimiterRecognition& known)
{
    const KnownLimiter& limiter = *known.limiter;
    ScriptFinding finding;
    finding.line = 1;
    const QString issue = known.issue().isEmpty()
        ? Text::tr("No issue of these versions is known to zsetlab: what follows is the doctor's own reading.")
        : Text::tr("Known issue: %1 Reported at %2.").arg(known.issue(), QString::fromUtf8(limiter.issueUrl));
    const QString library = QString::fromUtf8(limiter.library);
    const QString call = limiter.call.isKnown()
        ? Text::tr("Read and probe it as %1 calls it: %2.").arg(library, limiter.call.options())
        : Text::tr("Check it as %1 calls it: give --keys and --args in the order the library passes KEYS and ARGV "
                   "(its source shows them), so that the findings below and the live probe describe real calls.")
              .arg(library);
    QString fix;
    if (limiter.issue && limiter.fixedIn)
        fix = Text::tr("Upgrade to %1 %2 or later, which fixes it.").arg(library, QString::fromUtf8(limiter.fixedIn));
    else if (limiter.issue && limiter.fixedBy)
        fix = Text::tr("It is fixed upstream by %1; zsetlab does not know the first release with it. Take a release "
                       "that has it, or change the script as the findings below say.")
                  .arg(QString::fromUtf8(limiter.fixedBy));
    else if (limiter.issue)
        fix = Text::tr("zsetlab knows of no release of %1 that fixes it: change the script as the findings below say.")
                  .arg(library);
    fix = fix.isEmpty() ? call : fix + QLatin1Char(' ') + call;
    if (known.match == LimiterRecognition::Match::Same) {
        finding.code = QStringLiteral("known-limiter");
        // A known issue is a warning: whether it bites depends on the calls, and only the live
        // probe can show that it does (weighProbe makes it an error then).
        finding.severity = limiter.issue ? ScriptFinding::Severity::Warning : ScriptFinding::Severity::Info;
        finding.title = Text::tr("This is the limiter of %1").arg(known.libraryName());
        finding.explanation = (known.sameBytes ? Text::tr("Its text is the one published at %1, byte for byte.")
                                               : Text::tr("Its code is the one published at %1; only its layout or "
                                                          "comments differ."))
                                  .arg(QString::fromUtf8(limiter.source))
            + QLatin1Char(' ') + issue;
        finding.suggestion = fix;
        return finding;
    }
    finding.code = QStringLiteral("derived-limiter");
    finding.severity = ScriptFinding::Severity::Info;
    finding.title = Text::tr("Derived from the limiter of %1").arg(known.libraryName());
    QStringList changes;
    if (known.changedLines.size() == 1)
        changes << Text::tr("Line %1 is new or changed.").arg(known.changedLines.first());
    else if (!known.changedLines.isEmpty())
        changes << Text::tr("Lines %1 are new or changed.").arg(known.changedLinesText());
    if (!known.commandsAdded.isEmpty())
        changes << Text::tr("Redis calls added: %1.").arg(QString::fromLatin1(known.commandsAdded.join(", ")));
    if (!known.commandsDropped.isEmpty())
        changes << Text::tr("Redis calls removed: %1.").arg(QString::fromLatin1(known.commandsDropped.join(", ")));
    // Still made, but fewer (or more) times than the original makes them: not removed.
    const auto counted = [](const QList<CommandCount>& list) {
        QStringList shown;
        for (const CommandCount& c : list)
            shown << QStringLiteral("%1 (%2 → %3)").arg(QString::fromLatin1(c.command)).arg(c.known).arg(c.here);
        return shown.join(QStringLiteral(", "));
    };
    if (!known.commandsFewer.isEmpty())
        changes << Text::tr("Redis calls made fewer times: %1.").arg(counted(known.commandsFewer));
    if (!known.commandsMore.isEmpty())
        changes << Text::tr("Redis calls made more times: %1.").arg(counted(known.commandsMore));
    finding.explanation = Text::tr("%1% of the code of the version published at %2 is here.")
                              .arg(qRound(known.shared * 100))
                              .arg(QString::fromUtf8(limiter.source))
        + QLatin1Char(' ') + changes.join(QLatin1Char(' ')) + QLatin1Char(' ') + issue;
    finding.suggestion
        = limiter.issue ? Text::tr("Check whether your changes keep the original's issue. %1").arg(fix) : fix;
    return finding;
}

// A known library's issue that counts wrong, beside what the probe measured on the calls given.
int weighKnownIssue(ScriptExamination* examination, const ProbeReport& report)
{
    const KnownLimiter* limiter = examination->known.limiter;
    if (!limiter || !limiter->issue || !limiter->countsWrong)
        return 0;
    int changed = 0;
    const QString shown = Text::tr("The live probe measured a wrong count on these calls (its verdict says where), "
                                   "as this issue predicts.");
    const QString notShown = Text::tr("The live probe did not show it on these calls, so it stays a warning: it "
                                      "depends on how the library is called and on timing the probe did not meet.");
    for (ScriptFinding& finding : examination->findings) {
        if (finding.code != QLatin1String("known-limiter") && finding.code != QLatin1String("derived-limiter"))
            continue;
        const QString& note = report.countsWrong() ? shown : notShown;
        if (finding.explanation.endsWith(note))
            continue;
        finding.explanation += QLatin1Char(' ') + note;
        if (report.countsWrong() && finding.code == QLatin1String("known-limiter"))
            finding.severity = ScriptFinding::Severity::Error;
        ++changed;
    }
    return changed;
}

} // namespace

namespace ScriptDoctor {

ScriptExamination examine(const QByteArray& source, const CallTemplate& call, const QByteArray& appKey,
                          const QByteArray& function)
{
    const FunctionLibrary library = FunctionLibrary::read(source);
    ScriptExamination examination = library.isLibrary()
        ? DoctorRules::examineLibrary(library, source, call, appKey, function)
        : DoctorRules::examineScript(source, call, appKey);
    examination.known = KnownLimiters::recognize(source);
    if (examination.known.match != LimiterRecognition::Match::None)
        examination.findings.prepend(knownLimiterFinding(examination.known));
    return examination;
}

QString severityName(ScriptFinding::Severity severity)
{
    switch (severity) {
    case ScriptFinding::Severity::Info:
        return QStringLiteral("info");
    case ScriptFinding::Severity::Warning:
        return QStringLiteral("warning");
    case ScriptFinding::Severity::Error:
        return QStringLiteral("error");
    }
    return {};
}

int weighProbe(ScriptExamination* examination, const ProbeReport& report)
{
    if (report.failure != ProbeReport::Failure::None)
        return 0;
    int changed = weighKnownIssue(examination, report);
    // Few random values: the probe's draws show the repeats the reading predicts.
    if (const ProbeScenario* draws = report.scenario(QStringLiteral("draws")); draws && draws->stored >= 0) {
        const QString seen = Text::tr("The live probe saw it: %1 calls at one %2 were stored as %3 entries on Redis "
                                      "%4, %5 of them drew a value drawn before.")
                                 .arg(draws->calls)
                                 .arg(report.clockControlled ? Text::tr("now") : Text::tr("moment"))
                                 .arg(draws->stored)
                                 .arg(report.serverVersion)
                                 .arg(draws->calls - draws->stored);
        for (ScriptFinding& finding : examination->findings) {
            if (finding.code == QLatin1String("member-random-few") && !finding.explanation.endsWith(seen)) {
                finding.explanation += QLatin1Char(' ') + seen;
                ++changed;
            }
        }
    }
    const ProbeScenario* together = report.clockControlled ? report.scenario(QStringLiteral("same-now"))
                                                           : report.scenario(QStringLiteral("back-to-back"));
    if (!together || together->calls < 2 || together->stored != together->calls)
        return changed;
    static const QStringList collide {QStringLiteral("member-is-time"), QStringLiteral("member-is-constant"),
                                      QStringLiteral("member-random-reseeded"), QStringLiteral("lossy-time")};
    for (ScriptFinding& finding : examination->findings) {
        if (finding.severity != ScriptFinding::Severity::Error || !collide.contains(finding.code))
            continue;
        finding.severity = ScriptFinding::Severity::Info;
        finding.explanation += QLatin1Char(' ')
            + Text::tr("The live probe disagrees, and its count wins: %1 calls sharing one %2 were stored as %1 "
                       "members on Redis %3, so members did not collide in these calls. A reading cannot follow "
                       "everything a script does, such as a loop that changes the member until it is free.")
                  .arg(together->calls)
                  .arg(report.clockControlled ? Text::tr("now") : Text::tr("moment"), report.serverVersion);
        ++changed;
    }
    return changed;
}

} // namespace ScriptDoctor
