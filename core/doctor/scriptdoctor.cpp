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
} // namespace

namespace ScriptDoctor {

ScriptExamination examine(const QByteArray& source, const CallTemplate& call, const QByteArray& appKey,
                          const QByteArray& function)
{
    const FunctionLibrary library = FunctionLibrary::read(source);
    if (library.isLibrary())
        return DoctorRules::examineLibrary(library, source, call, appKey, function);
    return DoctorRules::examineScript(source, call, appKey);
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
    const ProbeScenario* together = report.clockControlled ? report.scenario(QStringLiteral("same-now"))
                                                           : report.scenario(QStringLiteral("back-to-back"));
    if (!together || together->calls < 2 || together->stored != together->calls)
        return 0;
    static const QStringList collide {QStringLiteral("member-is-time"), QStringLiteral("member-is-constant"),
                                      QStringLiteral("member-random-reseeded"), QStringLiteral("lossy-time")};
    int changed = 0;
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
