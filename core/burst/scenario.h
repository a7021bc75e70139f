#pragma once

#include "experimentplan.h"

#include <QJsonObject>
#include <QString>

#include <optional>

// A scenario file: what to fire (an ExperimentPlan: the burst plan and compare mode) with the view
// around it (language, timeline range), as JSON with a schema version, so a lesson or a
// documentation picture can be replayed exactly.
struct Scenario
{
    static constexpr const char* schema = "zsetlab.scenario/1";

    QString title;
    QString description;
    QString language; // "en", "vi", or empty: the system's
    ExperimentPlan experiment;
    std::optional<std::pair<double, double>> timelineMs; // visible range, ms since start
    // The run it carries, as a replay file's bytes (docs/replay-format.md): opened, it shows that
    // run, the same numbers every time, before anything is fired. Empty: none.
    QByteArray recording;

    QJsonObject toJson() const;
    // Reads a scenario; false with a message that names the field and what was expected.
    static bool fromJson(const QByteArray& bytes, Scenario* scenario, QString* error);
    // A scenario file is read up to this many bytes; a longer one (or /dev/zero, a FIFO that does
    // not end) is refused.
    static constexpr qint64 maxFileBytes = 8 * 1024 * 1024;
    // The largest run a scenario carries (its replay bytes, before base64).
    static constexpr qint64 maxRecordingBytes = 4 * 1024 * 1024;
    static bool load(const QString& path, Scenario* scenario, QString* error);
    bool save(const QString& path, QString* error) const;
};
