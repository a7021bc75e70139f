#include "planmodel.h"

PlanModel::PlanModel(QObject* parent)
    : QObject(parent)
{ }

void PlanModel::setPlan(const ExperimentPlan& plan)
{
    m_plan = plan;
    emit changed();
}

void PlanModel::edit(const std::function<void(ExperimentPlan&)>& change)
{
    ExperimentPlan plan = m_plan;
    change(plan);
    setPlan(plan);
}

void PlanModel::useCustomLimiter(const LimiterRef& limiter)
{
    m_custom = limiter;
    edit([&limiter](ExperimentPlan& plan) { plan.burst.limiter = limiter; });
}
