#pragma once

#include "burst/burstplan.h"

#include <QCommandLineOption>
#include <QHash>
#include <QStringList>

#include <vector>

class QCommandLineParser;

// The options of a command that set fields of the burst plan, made from PlanFields (flag, value
// name, help) with the defaults that suit the command, and read through PlanFields: every command
// names, checks and explains a field alike, and as scenario files do.
class PlanOptions
{
public:
    // fields: PlanFields names, in the order --help lists them; defaults and help by field name
    // (a default is shown in the help; a field's own help is used when none is given here).
    PlanOptions(const QStringList& fields, const QHash<QString, QString>& defaults,
                const QHash<QString, QString>& help = {});

    void addTo(QCommandLineParser& parser) const;
    // Fills the plan's fields from what was typed and the defaults; false with a message that
    // names the flag.
    bool read(const QCommandLineParser& parser, BurstPlan* plan, QString* error) const;
    const QCommandLineOption& option(const QString& field) const;

private:
    QStringList m_fields;
    std::vector<QCommandLineOption> m_options;
};
