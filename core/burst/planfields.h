#pragma once

#include "burstplan.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

// The one mapping between a BurstPlan and its fields by name. Scenario files, the window's saved
// settings and the command line's options all read and write a plan through it, so that a field
// cannot be dropped on one path and kept on another.
namespace PlanFields {
struct Field
{
    const char* name; // in JSON: "window_ms"
    const char* flag; // on the command line, without "--": "window"; nullptr: none
    const char* valueName; // for --help: "MS"
    const char* help; // for --help (English, like the rest of the CLI); see helpText()
    const char* oldFlag = nullptr; // an earlier name of the flag, still accepted: "strategy"
};
const QVector<Field>& fields();
QString helpText(const Field& field);
const Field* field(const QString& name);

// Every field of the plan but its key (a file or a setting never names a key to write).
QJsonObject toJson(const BurstPlan& plan);
// Reads the fields present into *plan; absent ones keep their value. false with the first
// problem, named by its path ("plan.requests: expected ...").
bool fromJson(const QJsonObject& json, BurstPlan* plan, QString* error, const QString& path = QStringLiteral("plan"));
// The same fields as typed on a command line, under their names (values are the typed text;
// a flag without value is true). Problems name the flag ("--requests must be ...").
bool fromCommandLine(const QJsonObject& typed, BurstPlan* plan, QString* error);
} // namespace PlanFields
