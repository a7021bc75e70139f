#include "fieldreader.h"

#include <QCoreApplication>

#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Scenario)
};
} // namespace

FieldReader::FieldReader(const QJsonObject& object, QString path, QString* error)
    : m_object(object)
    , m_source(Source::Json)
    , m_path(std::move(path))
    , m_error(error)
{ }

FieldReader::FieldReader(const QJsonObject& object, QHash<QString, QString> flags, QString* error)
    : m_object(object)
    , m_source(Source::CommandLine)
    , m_flags(std::move(flags))
    , m_error(error)
{ }

QString FieldReader::name(const QString& field) const
{
    if (m_source == Source::CommandLine)
        return QStringLiteral("--") + m_flags.value(field, field);
    return m_path.isEmpty() ? field : m_path + QLatin1Char('.') + field;
}

QString FieldReader::shown(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return QLatin1Char('"') + value.toString() + QLatin1Char('"');
    case QJsonValue::Double: {
        const double number = value.toDouble();
        if (std::floor(number) == number && std::abs(number) < 9.0e15)
            return QString::number(qint64(number));
        return QString::number(number, 'g', 17);
    }
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Array:
        return Text::tr("a list");
    case QJsonValue::Object:
        return Text::tr("an object");
    case QJsonValue::Undefined:
        break;
    }
    return Text::tr("nothing");
}

bool FieldReader::fail(const QString& field, const QString& expected, const QJsonValue& got, const QString& detail)
{
    if (!ok())
        return false;
    if (m_source == Source::CommandLine)
        *m_error = Text::tr("%1 must be %2, not %3.").arg(name(field), expected, shown(got));
    else
        *m_error = Text::tr("%1: expected %2, got %3.").arg(name(field), expected, shown(got));
    if (!detail.isEmpty()) {
        m_error->chop(1);
        *m_error += QStringLiteral(" (%1).").arg(detail);
    }
    return false;
}

bool FieldReader::integer(const char* field, qint64 min, qint64 max, qint64* value)
{
    const QJsonValue json = m_object.value(QLatin1String(field));
    if (json.isUndefined() || !ok())
        return ok();
    const QString expected = Text::tr("a whole number from %1 to %2").arg(min).arg(max);
    qint64 result = 0;
    bool whole = false;
    if (m_source == Source::CommandLine && json.isString()) {
        result = json.toString().trimmed().toLongLong(&whole);
    } else if (json.isDouble()) {
        const double number = json.toDouble();
        whole = std::floor(number) == number && std::abs(number) < 9.2e18;
        result = whole ? qint64(number) : 0;
    }
    if (!whole || result < min || result > max)
        return fail(QLatin1String(field), expected, json);
    *value = result;
    return true;
}

bool FieldReader::number(const char* field, double min, double max, double* value)
{
    const QJsonValue json = m_object.value(QLatin1String(field));
    if (json.isUndefined() || !ok())
        return ok();
    bool isNumber = json.isDouble();
    double result = json.toDouble();
    if (m_source == Source::CommandLine && json.isString())
        result = json.toString().trimmed().toDouble(&isNumber);
    if (!isNumber || !(result >= min) || result > max)
        return fail(QLatin1String(field), Text::tr("a number from %1 to %2").arg(min).arg(max), json);
    *value = result;
    return true;
}

bool FieldReader::text(const char* field, QString* value)
{
    const QJsonValue json = m_object.value(QLatin1String(field));
    if (json.isUndefined() || !ok())
        return ok();
    if (!json.isString())
        return fail(QLatin1String(field), Text::tr("text"), json);
    *value = json.toString();
    return true;
}

bool FieldReader::boolean(const char* field, bool* value)
{
    const QJsonValue json = m_object.value(QLatin1String(field));
    if (json.isUndefined() || !ok())
        return ok();
    if (!json.isBool())
        return fail(QLatin1String(field), Text::tr("true or false"), json);
    *value = json.toBool();
    return true;
}

bool FieldReader::parsed(const char* field, const QString& expected,
                         const std::function<bool(const QString& text, QString* why)>& parse)
{
    QString text;
    if (!has(field) || !this->text(field, &text))
        return ok();
    QString why;
    if (parse(text, &why))
        return true;
    // A parser's own message names its field first ("pace: ..."): the reader names it already.
    const QString prefix = QLatin1String(field) + QStringLiteral(": ");
    if (why.startsWith(prefix))
        why = why.mid(prefix.size());
    while (why.endsWith(QLatin1Char('.')))
        why.chop(1);
    return fail(QLatin1String(field), expected, m_object.value(QLatin1String(field)), why);
}
