#include "testbursts.h"

#include <QSignalSpy>
#include <QTest>

namespace TestBursts {
BurstPlan replayPlan(const LimiterRef& limiter)
{
    BurstPlan plan;
    plan.limiter = limiter;
    plan.requests = 600;
    plan.connections = 1;
    plan.pipeline = 16;
    plan.windowMs = 1000; // longer than the traffic: the keys (PEXPIRE window) outlive the run
    if (limiter->id == QLatin1String("microseconds"))
        plan.clock = ClockKind::SystemUs;
    auto nows = std::make_shared<std::vector<qint64>>();
    for (int i = 0; i < plan.requests; ++i)
        nows->push_back((1'800'000'000'000 + (i / 40) * 3) * plan.nowUnitsPerMs());
    plan.replayNows = nows;
    plan.limit = 60;
    plan.seed = 7;
    return plan;
}

namespace {
// Fires plan on engine and waits (at most 120 s) for its summary.
BurstSummary runOn(BurstEngine& engine, const RedisEndpoint& endpoint, const BurstPlan& plan)
{
    QSignalSpy finished(&engine, &BurstEngine::finished);
    if (!engine.start(endpoint, plan))
        qFatal("the plan does not start: %s", qPrintable(engine.planError()));
    if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 120000))
        qFatal("the burst did not finish within 120 s");
    return finished.at(0).at(0).value<BurstSummary>();
}
} // namespace

BurstSummary runToTheEnd(const RedisEndpoint& endpoint, const BurstPlan& plan, QByteArray* key)
{
    BurstEngine engine;
    BurstSummary summary = runOn(engine, endpoint, plan);
    if (key)
        *key = engine.key();
    return summary;
}

Recording recordToTheEnd(const RedisEndpoint& endpoint, const BurstPlan& plan)
{
    BurstEngine engine;
    const BurstSummary summary = runOn(engine, endpoint, plan);
    if (summary.failure.isFailure() || summary.errors != 0)
        qFatal("the burst failed: %s", qPrintable(summary.failure.message + summary.errorMessages.join(u' ')));
    return Recording::fromEngine(engine);
}
} // namespace TestBursts
