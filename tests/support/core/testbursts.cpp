#include "testbursts.h"

#include "replay/replayfile.h"

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

bool TestBursts::writeLongReplay(const QString& path, int requests, QString* error, QRandomGenerator* noise)
{
    RecordingInfo info;
    info.limiter = QStringLiteral("request-id");
    info.plan = QJsonObject {{QStringLiteral("requests"), requests}};
    info.key = QByteArrayLiteral("zsetlab:run:{long}");
    info.runTag = QByteArrayLiteral("long");
    info.startWallMs = 1'800'000'000'000;
    info.windowInNowUnits = 1000;
    info.limit = 100;
    info.requests = requests;
    RequestLog log;
    log.reset(requests, info.windowInNowUnits, info.limit, info.runTag);
    constexpr int batchSize = 1 << 16;
    std::vector<RequestRecord> batch;
    batch.reserve(batchSize);
    for (int i = 0; i < requests; ++i) {
        RequestRecord r;
        r.id = quint32(i);
        r.now = info.startWallMs + i / 50;
        r.sentMicros = i * 20;
        r.latencyMicros = noise && noise->bounded(20) == 0 ? 40 : 30;
        r.memberKind = RequestRecord::MemberKind::RequestId;
        r.added = 1;
        r.count = std::min(i, 50000);
        r.verdict = 1;
        batch.push_back(r);
        if (int(batch.size()) == batchSize || i + 1 == requests) {
            log.add(batch);
            batch.clear();
        }
    }
    return ReplayFile::save(path, Recording(info, log), error);
}
