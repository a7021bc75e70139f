#pragma once

#include "experimentplan.h"

#include <QObject>

#include <functional>

// The one owner of what the window fires. The Burst panel edits it field by field; scenarios,
// saved settings and the Script Doctor set it whole. Nothing fires from widget state: Fire reads
// plan() here.
class PlanModel : public QObject
{
    Q_OBJECT
public:
    explicit PlanModel(QObject* parent = nullptr);

    const ExperimentPlan& plan() const { return m_plan; }
    void setPlan(const ExperimentPlan& plan);
    // Changes some fields: edit(plan) runs on a copy that then becomes the plan.
    void edit(const std::function<void(ExperimentPlan&)>& change);

    // The user's own script, offered beside the catalog's limiters once chosen (null: none).
    LimiterRef customLimiter() const { return m_custom; }
    // Offers it, and makes it the burst's limiter (compare mode can take it as its fix).
    void useCustomLimiter(const LimiterRef& limiter);

signals:
    void changed();

private:
    ExperimentPlan m_plan;
    LimiterRef m_custom;
};
