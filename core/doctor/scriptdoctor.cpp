#include "scriptdoctor.h"

#include "doctorrules.h"

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

ScriptExamination examine(const QByteArray& source, const CallTemplate& call, const QByteArray& appKey)
{
    const LuaFlow::Reading reading = LuaFlow::read(source, call);
    ScriptExamination examination;
    const LuaSyntax syntax = LuaSyntax::check(source);
    examination.compiles = syntax.compiles;
    examination.findings = DoctorRules::Doctor(source, call, reading, appKey).findings(syntax);
    examination.keySuffixes = reading.keySuffixes;
    examination.readsLimit = reading.readsLimit;
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

} // namespace ScriptDoctor
