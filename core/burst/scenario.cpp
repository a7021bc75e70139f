#include "scenario.h"

#include "base/cappedfile.h"
#include "base/fieldreader.h"
#include "base/outputfile.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(Scenario)
};

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
    const QJsonObject experimentJson = experiment.toJson();
    for (auto it = experimentJson.begin(); it != experimentJson.end(); ++it)
        json[it.key()] = it.value();
    if (timelineMs) {
        QJsonObject view;
        view[QStringLiteral("timeline_ms")] = QJsonArray {timelineMs->first, timelineMs->second};
        json[QStringLiteral("view")] = view;
    }
    if (!recording.isEmpty())
        json[QStringLiteral("recording")] = QString::fromLatin1(recording.toBase64());
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
    if (!fields.ok())
        return false;
    if (!json.contains(QLatin1String("plan"))) {
        *error = Text::tr("plan: missing; a scenario needs the burst's settings.");
        return false;
    }
    if (!result.experiment.readJson(json, error))
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
    if (const QJsonValue carried = json.value(QLatin1String("recording")); !carried.isUndefined()) {
        const auto decoded
            = QByteArray::fromBase64Encoding(carried.toString().toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!carried.isString() || !decoded || decoded.decoded.isEmpty()) {
            *error = Text::tr("recording: expected a replay file's bytes in base64.");
            return false;
        }
        result.recording = decoded.decoded;
    }
    const QString invalid = result.experiment.burst.validate();
    if (!invalid.isEmpty()) {
        *error = QStringLiteral("plan.") + invalid;
        return false;
    }
    *scenario = result;
    return true;
}

bool Scenario::load(const QString& path, Scenario* scenario, QString* error)
{
    const CappedFile file = CappedFile::read(path, maxFileBytes);
    if (file.status == CappedFile::Status::CannotOpen) {
        *error = Text::tr("Cannot open the scenario %1: %2.").arg(path, file.why);
        return false;
    }
    if (file.status == CappedFile::Status::TooLarge) {
        *error = Text::tr("%1 holds more than %2 bytes: too large for a scenario file. Give the path of a "
                          "scenario's JSON file.")
                     .arg(path)
                     .arg(maxFileBytes);
        return false;
    }
    if (!fromJson(file.bytes, scenario, error)) {
        *error = QStringLiteral("%1: %2").arg(path, *error);
        return false;
    }
    return true;
}

bool Scenario::save(const QString& path, QString* error) const
{
    // Only over a regular file or as a new one, whole or not at all (OutputFile).
    return OutputFile::write(path, QJsonDocument(toJson()).toJson(QJsonDocument::Indented), error);
}
