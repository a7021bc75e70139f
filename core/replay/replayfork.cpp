#include "replayfork.h"

#include "burst/planfields.h"
#include "limiters/zsetkeys.h"
#include "redis/nodeconnections.h"

#include <QCoreApplication>

#include <algorithm>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ReplayFork)
};

bool failWith(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}
} // namespace

int ReplayFork::originalUser(const Recording& recording, int from, int forkUser)
{
    return (from + forkUser) % std::max(recording.info().users, 1);
}

bool ReplayFork::plan(const Recording& recording, int from, const ForkChange& change, BurstPlan* plan, QString* error)
{
    if (from < 0 || from >= recording.requests())
        return failWith(error,
                        Text::tr("A fork starts at a request of the run: from 1 to %L1.").arg(recording.requests()));
    BurstPlan fork;
    QString why;
    if (!PlanFields::fromJson(recording.info().plan, &fork, &why))
        return failWith(error, Text::tr("The replay's plan does not read (%1): it cannot be fired again.").arg(why));
    if (!fork.limiter->isBuiltin() && !change.limiter)
        return failWith(error,
                        Text::tr("The replay ran your own script, which it does not carry as a limiter: choose "
                                 "one of zsetlab's limiters for the fork."));
    if (from > 0 && recording.info().knowledge == ZsetKnowledge::CountsOnly)
        return failWith(error,
                        Text::tr("This limiter keeps no members zsetlab can copy: fork it from the first "
                                 "request, or record a limiter that keeps a ZSET."));
    if (change.limiter)
        fork.limiter = change.limiter;
    if (change.limit)
        fork.limit = *change.limit;
    if (change.windowMs)
        fork.windowMs = *change.windowMs;
    // The timestamps of the original from `from` on, in its unit; the clock keeps its unit.
    auto nows = std::make_shared<std::vector<qint64>>();
    nows->reserve(size_t(recording.requests() - from));
    for (int i = from; i < recording.requests(); ++i)
        nows->push_back(recording.log().now(i));
    fork.replayNows = std::move(nows);
    fork.requests = recording.requests() - from;
    fork.clients.clear();
    fork.clockOffsetsMs.clear();
    fork.connections = 1;
    fork.key = ZsetKeys::freshRunKey();
    fork.reuseKey = from > 0; // its own key, filled by seed() just before
    fork.keepKey = false;
    if (const QString invalid = fork.validate(); !invalid.isEmpty())
        return failWith(error, invalid);
    *plan = fork;
    return true;
}

std::vector<SeededMember> ReplayFork::seededMembers(const Recording& recording, int from, const BurstPlan& forkPlan)
{
    std::vector<SeededMember> seeded;
    if (from <= 0)
        return seeded; // the original's ZSET was empty before its first request
    for (int k = 0; k < forkPlan.users; ++k) {
        const int user = originalUser(recording, from, k);
        // The state after the last request of that user before `from` (none: empty).
        int last = from - 1;
        while (last >= 0 && recording.log().userOf(last) != user)
            --last;
        if (last < 0)
            continue;
        for (const ReplayMember& m : recording.stateAt(last, true).memberList)
            seeded.push_back({k, m.member, m.score});
    }
    return seeded;
}

bool ReplayFork::seed(NodeConnections& nodes, const Recording& recording, int from, const BurstPlan& forkPlan,
                      QString* error)
{
    constexpr qsizetype chunk = 500;
    const qint64 windowMs = std::max<qint64>(recording.info().windowInNowUnits / recording.info().nowUnitsPerMs, 1);
    const std::vector<SeededMember> seeded = seededMembers(recording, from, forkPlan);
    for (int k = 0; k < forkPlan.users; ++k) {
        const QByteArray key = forkPlan.userKey(forkPlan.key, k);
        RedisConnection& connection = nodes.forKey(key);
        RedisArgs args;
        auto flush = [&]() {
            if (args.size() <= 2)
                return true;
            const RedisReply reply = connection.command(args);
            args = {};
            return !reply.isError()
                || failWith(error,
                            Text::tr("Could not copy the ZSET into the fork's key %1: %2")
                                .arg(QString::fromUtf8(key), reply.text()));
        };
        bool any = false;
        for (const SeededMember& m : seeded) {
            if (m.user != k)
                continue;
            if (args.size() == 0)
                args << QByteArrayLiteral("ZADD") << key;
            args << scoreText(m.score) << m.member;
            any = true;
            if (args.size() >= 2 + 2 * chunk && !flush())
                return false;
        }
        if (!flush())
            return false;
        // The limiter sets the TTL on its first call; until then the copy must not outlive the fork.
        if (any)
            connection.command(
                {QByteArrayLiteral("PEXPIRE"), key, QByteArray::number(std::max<qint64>(windowMs, 60'000))});
    }
    return true;
}
