#pragma once

#include <QHash>
#include <QJsonObject>
#include <QString>

#include <functional>

// Reads typed fields of one object and keeps the first problem, named as the user wrote it: a
// JSON path ("plan.requests") for files, a flag ("--requests") for command lines, where every
// value arrives as the text that was typed.
class FieldReader
{
public:
    enum class Source { Json, CommandLine };

    // path: "plan" names the fields "plan.x" (Json); flags: field -> flag (CommandLine).
    FieldReader(const QJsonObject& object, QString path, QString* error);
    FieldReader(const QJsonObject& object, QHash<QString, QString> flags, QString* error);

    bool ok() const { return m_error->isEmpty(); }
    bool has(const char* field) const { return m_object.contains(QLatin1String(field)); }
    QJsonValue value(const char* field) const { return m_object.value(QLatin1String(field)); }
    QString name(const QString& field) const;

    // Each reads the field into *value when present and right; else the first problem. false.
    bool integer(const char* field, qint64 min, qint64 max, qint64* value);
    bool number(const char* field, double min, double max, double* value);
    bool text(const char* field, QString* value);
    bool boolean(const char* field, bool* value);
    // Reads text and turns it into a value with parse(), which may say why it failed; expected
    // names what was wanted.
    bool parsed(const char* field, const QString& expected,
                const std::function<bool(const QString& text, QString* why)>& parse);

    // Records "<field>: expected <expected>, got <value>." (or "--flag must be ..."), with the
    // detail in brackets when there is one; false.
    bool fail(const QString& field, const QString& expected, const QJsonValue& got, const QString& detail = {});
    // The value as people read it: text in quotes, whole numbers without exponents.
    static QString shown(const QJsonValue& value);

private:
    QJsonObject m_object;
    Source m_source;
    QString m_path;
    QHash<QString, QString> m_flags;
    QString* m_error;
};
