#include "scriptdoctor.h"

#include "doctorrules.h"
#include "functionlibrary.h"

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

} // namespace ScriptDoctor
