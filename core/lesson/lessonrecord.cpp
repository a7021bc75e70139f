#include "lessonrecord.h"

#include "algorithms/comparisonresult.h"
#include "burst/burstengine.h"

#include <QHash>

LessonRecord::Run LessonRecord::runOf(const BurstEngine& engine)
{
    Run run;
    run.limiter = engine.plan().limiter->displayName();
    run.limiterId = engine.plan().limiter->id;
    run.limit = engine.plan().limit;
    const BurstSummary summary = engine.summary();
    run.sent = summary.sent;
    run.admitted = summary.admitted;
    run.refused = std::max<qint64>(summary.sent - summary.errors - summary.admitted, 0);
    run.admittedOverLimit = summary.admittedOverLimit;
    run.stored = summary.stored;
    run.members = summary.membersAtEnd >= 0 ? summary.membersAtEnd : summary.finalCount;
    const RequestLog& log = engine.log();
    const int kept = std::min(log.size(), maxRequests);
    run.requests.reserve(kept);
    for (int i = 0; i < kept; ++i) {
        Request request;
        request.now = log.now(i);
        request.member = log.member(i);
        request.added = log.added(i);
        request.count = log.count(i);
        request.truth = log.truth(i);
        request.admitted = log.isAdmitted(i);
        request.failed = !log.isDone(i) || log.isFailed(i);
        request.connection = log.connection(i);
        run.requests << request;
    }
    return run;
}

QVector<LessonRecord::Member> LessonRecord::membersOf(const Run& run)
{
    QVector<Member> members;
    QHash<QByteArray, int> index;
    for (int i = 0; i < run.requests.size(); ++i) {
        const Request& request = run.requests.at(i);
        if (request.failed || request.member.isEmpty())
            continue;
        int at = index.value(request.member, -1);
        if (at < 0) {
            at = int(members.size());
            index.insert(request.member, at);
            members.push_back({request.member, request.now, 0, i});
        }
        Member& member = members[at];
        member.writes += 1;
        member.score = request.now;
    }
    return members;
}

QVector<LessonRecord::Cost> LessonRecord::costsOf(const ComparisonResult& result)
{
    QVector<Cost> costs;
    for (const AlgorithmTally& tally : result.algorithms)
        costs.push_back({tally.id, tally.memoryBytesPerKey, tally.admitted});
    return costs;
}
