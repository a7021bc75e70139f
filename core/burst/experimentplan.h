#pragma once

#include "burstplan.h"

#include <QJsonObject>
#include <QMetaType>

// What one press of Fire does: a burst plan alone, or in compare mode the same timestamps twice,
// first at the bug (member = now, left), then replayed at `fix` (right). A plain value with one
// owner in the window (PlanModel); scenarios, settings, the lesson and headless exports hand it
// over whole.
struct ExperimentPlan
{
    BurstPlan burst;
    bool compare = false;
    LimiterRef fix = LimiterCatalog::builtin("request-id"); // the right side in compare mode

    // What the left side fires: burst, with the bug's limiter in compare mode.
    BurstPlan leftPlan() const;

    // {"compare", "unique_strategy", "plan"}: what a scenario file and the saved settings hold.
    QJsonObject toJson() const;
    // Reads those fields; absent ones keep their value. false with the first problem, named.
    bool readJson(const QJsonObject& json, QString* error);
};

Q_DECLARE_METATYPE(ExperimentPlan)
