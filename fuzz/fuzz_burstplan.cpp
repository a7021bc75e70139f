// Fuzzes the parsing and validation of a burst plan: the pacing, clock and strategy names that
// come from the command line and the GUI, and BurstPlan::validate(), the gate in front of the
// engine. A plan that validates must be one the engine can schedule.
//
// Input: text lines, as the seeds in fuzz/corpus/fuzz_burstplan show:
//   pace, clock, strategy, requests, connections, pipeline, window ms, limit, key,
//   clock offsets (comma separated), seed. Missing lines keep the plan's defaults.
#include "burst/burstplan.h"
#include "limiters/limitercatalog.h"
#include "limiters/limiterscript.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {
// Scheduling allocates one offset per request: keep each input fast.
constexpr int maxScheduled = 4096;

void setNumber(const QList<QByteArray>& lines, int index, qint64* value)
{
    if (index >= lines.size())
        return;
    bool ok = false;
    const qint64 parsed = lines[index].trimmed().toLongLong(&ok);
    if (ok)
        *value = parsed;
}

void setInt(const QList<QByteArray>& lines, int index, int* value)
{
    qint64 wide = *value;
    setNumber(lines, index, &wide);
    *value = static_cast<int>(wide); // truncation on purpose: validate() sees what a cast would give
}

QString line(const QList<QByteArray>& lines, int index)
{
    return index < lines.size() ? QString::fromUtf8(lines[index]) : QString();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QList<QByteArray> lines = input.split('\n');
    BurstPlan plan;

    QString error;
    Pacing pacing;
    if (Pacing::parse(line(lines, 0), &pacing, &error)) {
        // toString() is what the GUI and the JSON show; it must read back as the same pacing.
        Pacing again;
        QString againError;
        if (!Pacing::parse(pacing.toString(), &again, &againError) || again.kind != pacing.kind
            || again.intervalMicros != pacing.intervalMicros
            || std::abs(again.perMs - pacing.perMs) > pacing.perMs * 1e-5)
            abort();
        plan.pacing = pacing;
    } else if (error.isEmpty()) {
        abort(); // a refusal without a reason
    }

    ClockKind clock = ClockKind::SystemMs;
    if (parseClock(line(lines, 1), &clock)) {
        if (clockName(clock) != line(lines, 1))
            abort();
        plan.clock = clock;
    }
    // A catalog id names a built-in limiter; anything else names none.
    if (const LimiterRef limiter = LimiterCatalog::find(line(lines, 2))) {
        if (limiter->id != line(lines, 2) || !limiter->isBuiltin())
            abort();
        plan.limiter = limiter;
    }

    setInt(lines, 3, &plan.requests);
    setInt(lines, 4, &plan.connections);
    setInt(lines, 5, &plan.pipeline);
    setNumber(lines, 6, &plan.windowMs);
    setNumber(lines, 7, &plan.limit);
    if (lines.size() > 8)
        plan.key = lines[8];
    if (lines.size() > 9) {
        for (const QByteArray& offset : lines[9].split(',')) {
            bool ok = false;
            const qint64 value = offset.trimmed().toLongLong(&ok);
            if (ok)
                plan.clockOffsetsMs << value;
        }
    }
    qint64 seed = 1;
    setNumber(lines, 10, &seed);
    plan.seed = static_cast<quint64>(seed);

    const QString invalid = plan.validate();
    if (!invalid.isEmpty())
        return 0;

    // A valid plan: the ranges the engine relies on hold.
    if (plan.requests < 1 || plan.requests > BurstPlan::maxRequests || plan.connections < 1
        || plan.connections > BurstPlan::maxConnections || plan.pipeline < 1 || plan.pipeline > BurstPlan::maxPipeline
        || plan.windowMs < 1 || plan.limit < 0)
        abort();
    if (!plan.key.isEmpty() && !plan.key.startsWith("zsetlab:"))
        abort(); // never a key outside zsetlab's prefix
    if (plan.windowInNowUnits() < plan.windowMs)
        abort(); // overflowed
    (void)plan.script();

    if (plan.requests <= maxScheduled) {
        const std::vector<qint64> schedule = plan.scheduleMicros();
        if (schedule.size() != static_cast<size_t>(plan.requests) || schedule.front() != 0)
            abort();
        for (size_t i = 1; i < schedule.size(); ++i) {
            if (schedule[i] < schedule[i - 1])
                abort(); // the workers send in id order and wait for each offset
        }
    }
    return 0;
}
