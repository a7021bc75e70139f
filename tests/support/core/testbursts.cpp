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

BurstSummary runToTheEnd(const RedisEndpoint& endpoint, const BurstPlan& plan, QByteArray* key)
{
    BurstEngine engine;
    QSignalSpy finished(&engine, &BurstEngine::finished);
    if (!engine.start(endpoint, plan))
        qFatal("the plan does not start: %s", qPrintable(engine.planError()));
    if (!QTest::qWaitFor([&] { return finished.count() == 1; }, 120000))
        qFatal("the burst did not finish within 120 s");
    if (key)
        *key = engine.key();
    return finished.at(0).at(0).value<BurstSummary>();
}
} // namespace TestBursts
