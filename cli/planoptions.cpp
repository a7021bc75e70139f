#include "planoptions.h"

#include "burst/planfields.h"

#include <QCommandLineParser>
#include <QJsonObject>

PlanOptions::PlanOptions(const QStringList& fields, const QHash<QString, QString>& defaults,
                         const QHash<QString, QString>& help)
    : m_fields(fields)
{
    for (const QString& name : fields) {
        const PlanFields::Field* field = PlanFields::field(name);
        Q_ASSERT_X(field && field->flag, "PlanOptions", "a plan field with a flag");
        QString text = help.value(name, PlanFields::helpText(*field));
        if (defaults.contains(name))
            text += QStringLiteral(" Default: %1.").arg(defaults.value(name));
        QStringList flags {QString::fromLatin1(field->flag)};
        if (field->oldFlag)
            flags << QString::fromLatin1(field->oldFlag);
        if (field->valueName)
            m_options.emplace_back(flags, text, QString::fromLatin1(field->valueName), defaults.value(name));
        else
            m_options.emplace_back(flags, text);
    }
}

void PlanOptions::addTo(QCommandLineParser& parser) const
{
    for (const QCommandLineOption& option : m_options)
        parser.addOption(option);
}

const QCommandLineOption& PlanOptions::option(const QString& field) const
{
    return m_options.at(size_t(m_fields.indexOf(field)));
}

bool PlanOptions::read(const QCommandLineParser& parser, BurstPlan* plan, QString* error) const
{
    QJsonObject typed;
    for (int i = 0; i < m_fields.size(); ++i) {
        const QCommandLineOption& option = m_options[size_t(i)];
        if (option.valueName().isEmpty())
            typed[m_fields[i]] = parser.isSet(option);
        else if (parser.isSet(option) || !option.defaultValues().isEmpty())
            typed[m_fields[i]] = parser.value(option);
    }
    return PlanFields::fromCommandLine(typed, plan, error);
}
