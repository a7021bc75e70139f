// ScriptProbe: which scenarios run, and the real-time ones for scripts that take no time in their
// call, waited out on the server's clock.

#include "scriptprobe.h"

#include "base/printabletext.h"

#include <QCoreApplication>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptProbe)
};

// How long past a window's end the probe waits before it counts on the window being over: the
// server's timer and a script's rounding (PEXPIRE, PTTL) may lag a little.
qint64 marginMs(qint64 windowMs)
{
    return std::max<qint64>(20, windowMs / 10);
}

// A wait is at most this long in one WAIT, so that the connection's own timeout never fires.
constexpr qint64 longestWaitMs = 500;
// What WAIT may overshoot by (a server's timer at hz 10), read out on TIME instead.
constexpr qint64 finalStretchMs = 120;
// Bounds the loop that waits for the server's clock (the final stretch reads TIME a millisecond
// apart): a clock that does not move ends the wait.
constexpr int maxWaits = 1000;

bool usesWindow(const CallTemplate& call, bool seconds)
{
    using P = CallTemplate::Placeholder;
    return seconds ? call.uses(P::WindowS) : (call.uses(P::Window) || call.uses(P::WindowUs) || call.uses(P::WindowNs));
}

} // namespace

// The server's clock in microseconds (TIME); -1 when it did not answer.
qint64 ScriptProbe::serverClockMicros(RedisConnection& connection)
{
    const RedisReply reply = connection.command({QByteArrayLiteral("TIME")});
    if (reply.elements().size() != 2)
        return -1;
    bool seconds = false, micros = false;
    const qint64 s = reply.elements()[0].bytes().toLongLong(&seconds);
    const qint64 us = reply.elements()[1].bytes().toLongLong(&micros);
    return seconds && micros ? s * 1'000'000 + us : -1;
}

namespace {
// Waits until the server's clock reads `until` (microseconds), and returns the server's clock
// then; -1 when it stopped answering. A long wait is the server's own deadline: WAIT for more
// replicas than any server has returns when its timeout runs out, but only as often as the
// server's timer checks (every 100 ms at Redis's default hz). The last stretch reads TIME until
// the moment has come, a millisecond apart.
qint64 waitUntil(RedisConnection& connection, qint64 until)
{
    qint64 now = ScriptProbe::serverClockMicros(connection);
    for (int i = 0; now >= 0 && now < until && i < maxWaits; ++i) {
        const qint64 leftMs = (until - now) / 1000;
        if (leftMs > finalStretchMs) {
            const qint64 ms = std::min(leftMs - finalStretchMs, longestWaitMs);
            const RedisReply reply
                = connection.command({QByteArrayLiteral("WAIT"), QByteArrayLiteral("1000000"), QByteArray::number(ms)});
            if (reply.isConnectionLost())
                return -1;
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(1)); // paces the reads of TIME
        }
        now = ScriptProbe::serverClockMicros(connection);
    }
    return now;
}
} // namespace

QVector<ProbeScenario> ScriptProbe::plan(bool clockControlled) const
{
    QVector<ProbeScenario> plan;
    auto add = [&plan](ProbeScenario::Kind kind, const QString& name, int calls, qint64 spacing, qint64 limit,
                       double perMs = 0) {
        ProbeScenario s;
        s.kind = kind;
        s.name = name;
        s.calls = calls;
        s.spacingMicros = spacing;
        s.limit = limit;
        s.perMs = perMs;
        plan << s;
    };
    const ProbeSettings& p = m_settings;
    if (clockControlled) {
        const qint64 spread
            = std::clamp<qint64>(p.windowMs * 1000 / (qint64(2) * std::max(1, p.spreadCalls)), 1000, 1'000'000);
        add(ProbeScenario::Kind::Spread, QStringLiteral("spread"), p.spreadCalls, spread, 0);
    }
    // Without a {now} in the call the script reads the server's clock: the calls go back to back.
    const QString together = clockControlled ? QStringLiteral("same-now") : QStringLiteral("back-to-back");
    add(ProbeScenario::Kind::SameNow, together, p.sameNowCalls, 0, 0);
    add(ProbeScenario::Kind::SameNow, together + QStringLiteral("-limit"), p.sameNowCalls, 0, p.limit);
    if (!clockControlled) {
        const qint64 window = realTimeWindowMs();
        if (window <= 0)
            return plan;
        const int burst = int(p.limit) + 2;
        add(ProbeScenario::Kind::Window, QStringLiteral("window"), 2 * burst, 0, p.limit);
        plan.last().burstCalls = burst;
        add(ProbeScenario::Kind::Refill, QStringLiteral("refill"), burst + 1, 0, p.limit);
        plan.last().burstCalls = burst;
        add(ProbeScenario::Kind::Expiry, QStringLiteral("expiry"), 1, 0, p.limit);
        for (int i = plan.size() - 3; i < plan.size(); ++i)
            plan[i].windowMs = window;
        return plan;
    }
    for (const double perMs : p.ratesPerMs) {
        const QString name = QStringLiteral("rate-") + QString::number(perMs, 'g', 4);
        const qint64 spacing = std::llround(1000.0 / perMs);
        add(ProbeScenario::Kind::Rate, name, p.callsPerRate, spacing, 0, perMs);
        add(ProbeScenario::Kind::Rate, name + QStringLiteral("-limit"), p.callsPerRate, spacing, p.limit, perMs);
    }
    add(ProbeScenario::Kind::Slide, QStringLiteral("slide"), p.slideCalls, (p.windowMs + 1000) * 1000, 1);
    add(ProbeScenario::Kind::Overlap, QStringLiteral("overlap"), p.overlapCalls, (p.windowMs / 2 + 1000) * 1000, 2);
    if (p.randomMemberValues > 0) {
        // Enough draws for about ten repeats (n^2 / 2v), within bounds: not seeing one is then rare.
        const int draws = int(
            std::clamp(std::ceil(std::sqrt(20 * p.randomMemberValues)), 100.0, double(std::max(100, p.maxDraws))));
        add(ProbeScenario::Kind::Draws, QStringLiteral("draws"), draws, 0, 0);
        plan.last().expectedRepeats
            = draws + p.randomMemberValues * std::expm1(draws * std::log1p(-1 / p.randomMemberValues));
    }
    return plan;
}

qint64 ScriptProbe::realTimeWindowMs() const
{
    // The window the calls carry, shortened: in whole seconds when that is all the call says.
    bool fine = usesWindow(m_call, false), seconds = usesWindow(m_call, true);
    for (const SetupCommand& setup : m_setup) {
        fine = fine || usesWindow(setup.call(), false);
        seconds = seconds || usesWindow(setup.call(), true);
    }
    if (fine)
        return m_settings.realTimeWindowMs;
    if (seconds)
        return std::max<qint64>(1000, (m_settings.realTimeWindowMs + 999) / 1000 * 1000);
    return 0; // the call carries no window: none to shorten
}

bool ScriptProbe::waitBeforeCall(RedisConnection& connection, ProbeScenario* scenario, int index, qint64 startMicros,
                                 ProbeReport* report)
{
    const bool window = scenario->kind == ProbeScenario::Kind::Window;
    if ((!window && scenario->kind != ProbeScenario::Kind::Refill) || index != scenario->burstCalls)
        return true;
    const qint64 wait = window ? scenario->windowMs + marginMs(scenario->windowMs) : scenario->windowMs / 2;
    const qint64 reached = waitUntil(connection, startMicros + wait * 1000);
    if (reached < 0) {
        report->failure = ProbeReport::Failure::Connection;
        report->failureMessage = Text::tr("The server stopped answering while the probe waited on its clock in the "
                                          "%1 scenario.")
                                     .arg(scenario->name);
        return false;
    }
    scenario->waitedMs = double(reached - startMicros) / 1000;
    return true;
}

void ScriptProbe::checkExpiry(RedisConnection& connection, const QList<QByteArray>& keys, qint64 lastCallMicros,
                              ProbeScenario* scenario, ProbeReport* report)
{
    if (scenario->kind != ProbeScenario::Kind::Expiry || keys.isEmpty())
        return;
    const qint64 reached
        = waitUntil(connection, lastCallMicros + (scenario->windowMs + marginMs(scenario->windowMs)) * 1000);
    if (reached < 0) {
        report->failure = ProbeReport::Failure::Connection;
        report->failureMessage = Text::tr("The server stopped answering while the probe waited on its clock in the "
                                          "%1 scenario.")
                                     .arg(scenario->name);
        return;
    }
    scenario->waitedMs = double(reached - lastCallMicros) / 1000;
    scenario->keysLeft = 0;
    scenario->leftTtlMs = -2;
    for (const QByteArray& key : keys) {
        const qint64 ttl = connection.command({QByteArrayLiteral("PTTL"), key}).toInteger();
        if (ttl == -2)
            continue;
        ++scenario->keysLeft;
        if (ttl == -1 || scenario->leftTtlMs == -1)
            scenario->leftTtlMs = -1;
        else
            scenario->leftTtlMs = std::max(scenario->leftTtlMs, ttl);
    }
}
