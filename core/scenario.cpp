#include "scenario.h"

#include "clientprofile.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Scenario)
};

// Reads typed fields of one JSON object and remembers the first problem, named by its path.
class FieldReader
{
public:
    FieldReader(const QJsonObject& object, QString path, QString* error)
        : m_object(object)
        , m_path(std::move(path))
        , m_error(error)
    { }

    bool ok() const { return m_error->isEmpty(); }

    bool fail(const QString& field, const QString& expected, const QJsonValue& got)
    {
        if (!ok())
            return false;
        QString shown;
        switch (got.type()) {
        case QJsonValue::String:
            shown = QLatin1Char('"') + got.toString() + QLatin1Char('"');
            break;
        case QJsonValue::Double:
            shown = QString::number(got.toDouble());
            break;
        case QJsonValue::Bool:
            shown = got.toBool() ? QStringLiteral("true") : QStringLiteral("false");
            break;
        case QJsonValue::Null:
            shown = QStringLiteral("null");
            break;
        case QJsonValue::Array:
            shown = Text::tr("a list");
            break;
        case QJsonValue::Object:
            shown = Text::tr("an object");
            break;
        case QJsonValue::Undefined:
            shown = Text::tr("nothing");
            break;
        }
        *m_error = Text::tr("%1: expected %2, got %3.").arg(name(field), expected, shown);
        return false;
    }

    QString name(const QString& field) const { return m_path.isEmpty() ? field : m_path + QLatin1Char('.') + field; }

    bool has(const char* field) const { return m_object.contains(QLatin1String(field)); }

    void integer(const char* field, qint64 min, qint64 max, qint64* value)
    {
        const QJsonValue json = m_object.value(QLatin1String(field));
        if (json.isUndefined() || !ok())
            return;
        const double number = json.toDouble(std::nan(""));
        if (!json.isDouble() || std::floor(number) != number || number < double(min) || number > double(max)) {
            fail(QLatin1String(field), Text::tr("a whole number from %1 to %2").arg(min).arg(max), json);
            return;
        }
        *value = qint64(number);
    }

    void number(const char* field, double min, double max, double* value)
    {
        const QJsonValue json = m_object.value(QLatin1String(field));
        if (json.isUndefined() || !ok())
            return;
        if (!json.isDouble() || json.toDouble() < min || json.toDouble() > max) {
            fail(QLatin1String(field), Text::tr("a number from %1 to %2").arg(min).arg(max), json);
            return;
        }
        *value = json.toDouble();
    }

    void text(const char* field, QString* value)
    {
        const QJsonValue json = m_object.value(QLatin1String(field));
        if (json.isUndefined() || !ok())
            return;
        if (!json.isString()) {
            fail(QLatin1String(field), Text::tr("text"), json);
            return;
        }
        *value = json.toString();
    }

    void boolean(const char* field, bool* value)
    {
        const QJsonValue json = m_object.value(QLatin1String(field));
        if (json.isUndefined() || !ok())
            return;
        if (!json.isBool()) {
            fail(QLatin1String(field), Text::tr("true or false"), json);
            return;
        }
        *value = json.toBool();
    }

    QJsonValue value(const char* field) const { return m_object.value(QLatin1String(field)); }

private:
    QJsonObject m_object;
    QString m_path;
    QString* m_error;
};

QJsonObject planToJson(const BurstPlan& plan)
{
    QJsonObject json;
    json[QStringLiteral("strategy")] = strategyName(plan.strategy);
    json[QStringLiteral("requests")] = plan.requests;
    json[QStringLiteral("connections")] = plan.connections;
    json[QStringLiteral("pipeline")] = plan.pipeline;
    json[QStringLiteral("pace")] = plan.pacing.toString();
    json[QStringLiteral("clock")] = clockName(plan.clock);
    json[QStringLiteral("window_ms")] = plan.windowMs;
    json[QStringLiteral("limit")] = plan.limit;
    json[QStringLiteral("seed")] = qint64(plan.seed);
    if (!plan.clockOffsetsMs.isEmpty()) {
        QJsonArray offsets;
        for (const qint64 offset : plan.clockOffsetsMs)
            offsets.append(offset);
        json[QStringLiteral("clock_offsets_ms")] = offsets;
    }
    if (!plan.clients.isEmpty()) // the text people type, e.g. "rate=2;rate=2;rate=2,offset=40"
        json[QStringLiteral("clients")] = clientProfilesToString(plan.clients);
    return json;
}

bool planFromJson(const QJsonValue& value, BurstPlan* plan, QString* error)
{
    if (!value.isObject()) {
        *error = Text::tr("plan: expected an object with the burst's settings.");
        return false;
    }
    FieldReader fields(value.toObject(), QStringLiteral("plan"), error);
    QString text;
    if (fields.has("strategy")) {
        fields.text("strategy", &text);
        if (fields.ok() && (!parseStrategy(text, &plan->strategy)))
            return fields.fail(QStringLiteral("strategy"),
                               Text::tr("one of %1").arg(builtinStrategyNames().join(QStringLiteral(", "))),
                               fields.value("strategy"));
    }
    qint64 number = plan->requests;
    fields.integer("requests", 1, BurstPlan::maxRequests, &number);
    plan->requests = int(number);
    number = plan->connections;
    fields.integer("connections", 1, BurstPlan::maxConnections, &number);
    plan->connections = int(number);
    number = plan->pipeline;
    fields.integer("pipeline", 1, BurstPlan::maxPipeline, &number);
    plan->pipeline = int(number);
    if (fields.has("pace")) {
        fields.text("pace", &text);
        QString why;
        if (fields.ok() && !Pacing::parse(text, &plan->pacing, &why))
            return fields.fail(QStringLiteral("pace"), Text::tr("burst, interval:MICROS or poisson:PER_MS"),
                               fields.value("pace"));
    }
    if (fields.has("clock")) {
        fields.text("clock", &text);
        if (fields.ok() && !parseClock(text, &plan->clock))
            return fields.fail(QStringLiteral("clock"),
                               Text::tr("one of %1").arg(clockNames().join(QStringLiteral(", "))),
                               fields.value("clock"));
    }
    fields.integer("window_ms", 1, 365LL * 24 * 3600 * 1000, &plan->windowMs);
    fields.integer("limit", 0, 1'000'000'000, &plan->limit);
    number = qint64(plan->seed);
    fields.integer("seed", 0, std::numeric_limits<qint32>::max(), &number);
    plan->seed = quint64(number);
    if (fields.ok() && fields.has("clock_offsets_ms")) {
        const QJsonValue offsets = fields.value("clock_offsets_ms");
        if (!offsets.isArray())
            return fields.fail(QStringLiteral("clock_offsets_ms"), Text::tr("a list of milliseconds"), offsets);
        plan->clockOffsetsMs.clear();
        for (const QJsonValue& offset : offsets.toArray()) {
            if (!offset.isDouble() || std::abs(offset.toDouble()) > 86'400'000)
                return fields.fail(QStringLiteral("clock_offsets_ms"), Text::tr("whole milliseconds within one day"),
                                   offset);
            plan->clockOffsetsMs << qint64(offset.toDouble());
        }
    }
    if (fields.ok() && fields.has("clients")) {
        fields.text("clients", &text);
        QString why;
        if (fields.ok() && !parseClientProfiles(text, &plan->clients, &why)) {
            if (why.startsWith(QLatin1String("clients: "))) // the field is named once, by fail()
                why = why.mid(9);
            if (why.endsWith(QLatin1Char('.')))
                why.chop(1);
            return fields.fail(QStringLiteral("clients"),
                               Text::tr("app servers as \"rate=2;rate=2,offset=40\" (%1)").arg(why),
                               fields.value("clients"));
        }
    }
    return fields.ok();
}
} // namespace

QJsonObject Scenario::toJson() const
{
    QJsonObject json;
    json[QStringLiteral("schema")] = QLatin1String(schema);
    if (!title.isEmpty())
        json[QStringLiteral("title")] = title;
    if (!description.isEmpty())
        json[QStringLiteral("description")] = description;
    if (!language.isEmpty())
        json[QStringLiteral("language")] = language;
    json[QStringLiteral("compare")] = compare;
    json[QStringLiteral("unique_strategy")] = strategyName(uniqueStrategy);
    json[QStringLiteral("plan")] = planToJson(plan);
    if (timelineMs) {
        QJsonObject view;
        view[QStringLiteral("timeline_ms")] = QJsonArray {timelineMs->first, timelineMs->second};
        json[QStringLiteral("view")] = view;
    }
    return json;
}

bool Scenario::fromJson(const QByteArray& bytes, Scenario* scenario, QString* error)
{
    error->clear();
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        *error = Text::tr("Not valid JSON at character %1: %2.").arg(parseError.offset).arg(parseError.errorString());
        return false;
    }
    if (!document.isObject()) {
        *error = Text::tr("Expected a JSON object at the top of a scenario file.");
        return false;
    }
    const QJsonObject json = document.object();
    FieldReader fields(json, QString(), error);
    const QJsonValue schemaValue = json.value(QLatin1String("schema"));
    if (schemaValue.toString() != QLatin1String(schema)) {
        if (schemaValue.toString().startsWith(QLatin1String("zsetlab.scenario/")))
            *error = Text::tr("schema: this zsetlab reads %1; the file is %2 (made by another version).")
                         .arg(QLatin1String(schema), schemaValue.toString());
        else
            fields.fail(QStringLiteral("schema"), QStringLiteral("\"%1\"").arg(QLatin1String(schema)), schemaValue);
        return false;
    }
    Scenario result;
    fields.text("title", &result.title);
    fields.text("description", &result.description);
    fields.text("language", &result.language);
    if (fields.ok() && !result.language.isEmpty() && result.language != QLatin1String("en")
        && result.language != QLatin1String("vi"))
        return fields.fail(QStringLiteral("language"), Text::tr("\"en\" or \"vi\""),
                           json.value(QLatin1String("language")));
    fields.boolean("compare", &result.compare);
    if (fields.ok() && fields.has("unique_strategy")) {
        QString name;
        fields.text("unique_strategy", &name);
        if (fields.ok() && (!parseStrategy(name, &result.uniqueStrategy) || !isUniqueStrategy(result.uniqueStrategy)))
            return fields.fail(QStringLiteral("unique_strategy"), Text::tr("random, request-id or sequence"),
                               json.value(QLatin1String("unique_strategy")));
    }
    if (!fields.ok())
        return false;
    if (!json.contains(QLatin1String("plan"))) {
        *error = Text::tr("plan: missing; a scenario needs the burst's settings.");
        return false;
    }
    if (!planFromJson(json.value(QLatin1String("plan")), &result.plan, error))
        return false;
    if (json.contains(QLatin1String("view"))) {
        const QJsonValue view = json.value(QLatin1String("view"));
        const QJsonValue range = view.toObject().value(QLatin1String("timeline_ms"));
        if (!view.isObject()
            || (!range.isUndefined()
                && (!range.isArray() || range.toArray().size() != 2 || !range.toArray().at(0).isDouble()
                    || !range.toArray().at(1).isDouble()
                    || range.toArray().at(1).toDouble() <= range.toArray().at(0).toDouble()))) {
            *error = Text::tr("view.timeline_ms: expected [from, to] in milliseconds with from < to.");
            return false;
        }
        if (range.isArray())
            result.timelineMs = std::make_pair(range.toArray().at(0).toDouble(), range.toArray().at(1).toDouble());
    }
    const QString invalid = result.plan.validate();
    if (!invalid.isEmpty()) {
        *error = QStringLiteral("plan.") + invalid;
        return false;
    }
    *scenario = result;
    return true;
}

bool Scenario::load(const QString& path, Scenario* scenario, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = Text::tr("Cannot open the scenario %1: %2.").arg(path, file.errorString());
        return false;
    }
    if (file.size() > 1024 * 1024) {
        *error = Text::tr("%1 is %2 bytes: too large for a scenario file.").arg(path).arg(file.size());
        return false;
    }
    if (!fromJson(file.readAll(), scenario, error)) {
        *error = QStringLiteral("%1: %2").arg(path, *error);
        return false;
    }
    return true;
}

bool Scenario::save(const QString& path, QString* error) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly)) {
        *error = Text::tr("Cannot write %1: %2.").arg(path, file.errorString());
        return false;
    }
    file.write(QJsonDocument(toJson()).toJson(QJsonDocument::Indented));
    if (!file.commit()) {
        *error = Text::tr("Cannot write %1: %2.").arg(path, file.errorString());
        return false;
    }
    return true;
}
