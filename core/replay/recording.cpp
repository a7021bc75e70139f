#include "recording.h"

#include "burst/burstengine.h"
#include "burst/burstplan.h"
#include "burst/planfields.h"
#include "limiters/zsetkeys.h"
#include "results/burstsummary.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>

QString zsetKnowledgeName(ZsetKnowledge knowledge)
{
    switch (knowledge) {
    case ZsetKnowledge::Flow:
        return QStringLiteral("flow");
    case ZsetKnowledge::Replies:
        return QStringLiteral("replies");
    case ZsetKnowledge::Watched:
        return QStringLiteral("watched");
    case ZsetKnowledge::CountsOnly:
        break;
    }
    return QStringLiteral("counts-only");
}

bool parseZsetKnowledge(const QString& name, ZsetKnowledge* knowledge)
{
    for (const ZsetKnowledge k :
         {ZsetKnowledge::Flow, ZsetKnowledge::Replies, ZsetKnowledge::CountsOnly, ZsetKnowledge::Watched}) {
        if (zsetKnowledgeName(k) == name) {
            *knowledge = k;
            return true;
        }
    }
    return false;
}

QByteArray scoreText(double score)
{
    if (std::isfinite(score) && score == std::floor(score) && std::fabs(score) < 9007199254740992.0)
        return QByteArray::number(qint64(score));
    if (std::isinf(score))
        return score > 0 ? QByteArrayLiteral("inf") : QByteArrayLiteral("-inf");
    return QByteArray::number(score, 'g', 17);
}

QJsonObject ReplayState::toJson(bool withMembers) const
{
    QJsonObject json;
    json[QStringLiteral("request")] = request;
    json[QStringLiteral("requests")] = requests;
    json[QStringLiteral("now")] = now;
    json[QStringLiteral("user")] = user;
    json[QStringLiteral("key")] = QString::fromUtf8(key);
    json[QStringLiteral("state_from")] = zsetKnowledgeName(knowledge);
    json[QStringLiteral("members")] = members >= 0 ? QJsonValue(members) : QJsonValue();
    json[QStringLiteral("count_returned")] = countReturned >= 0 ? QJsonValue(countReturned) : QJsonValue();
    json[QStringLiteral("true_count")] = trueCount >= 0 ? QJsonValue(trueCount) : QJsonValue();
    json[QStringLiteral("added")] = added >= 0 ? QJsonValue(added) : QJsonValue();
    json[QStringLiteral("member")] = member.isNull() ? QJsonValue() : QJsonValue(QString::fromUtf8(member));
    json[QStringLiteral("admitted")] = admitted;
    json[QStringLiteral("error")] = error.isEmpty() ? QJsonValue() : QJsonValue(error);
    json[QStringLiteral("overwritten")] = overwritten;
    json[QStringLiteral("admitted_beyond_limit")] = admittedBeyondLimitSoFar;
    if (withMembers) {
        QJsonArray list;
        for (const ReplayMember& m : memberList)
            list.append(QJsonObject {{QStringLiteral("member"), QString::fromUtf8(m.member)},
                                     {QStringLiteral("score"), m.score},
                                     {QStringLiteral("request"), m.request + 1},
                                     {QStringLiteral("writes"), m.writes}});
        json[QStringLiteral("member_list")] = list;
    }
    return json;
}

RecordingInfo Recording::infoOf(const BurstPlan& plan, const BurstSummary& summary)
{
    RecordingInfo info;
    info.plan = PlanFields::toJson(plan);
    info.limiter = plan.limiter->id;
    const LimiterEntry& limiter = *plan.limiter;
    if (!limiter.isBuiltin()) {
        info.script = limiter.script.source();
        info.knowledge = ZsetKnowledge::Replies;
    } else if (limiter.role == LimiterEntry::Role::Algorithm || limiter.store.kind() != LimiterStore::Kind::SortedSet) {
        info.knowledge = ZsetKnowledge::CountsOnly;
    }
    info.serverName = summary.serverName;
    // The server's own version: Valkey's redis_version is the Redis it is compatible with.
    info.serverVersion = summary.serverOwnVersion.isEmpty() ? summary.serverVersion : summary.serverOwnVersion;
    info.key = summary.key;
    info.nowUnitsPerMs = plan.nowUnitsPerMs();
    info.windowInNowUnits = plan.windowInNowUnits();
    info.limit = plan.limit;
    info.users = plan.users;
    info.requests = plan.requests;
    info.madeBy = QStringLiteral("zsetlab " ZSETLAB_VERSION);
    return info;
}

Recording Recording::fromEngine(const BurstEngine& engine, const QString& source, ZsetHistoryBuilder* history)
{
    RecordingInfo info = infoOf(engine.plan(), engine.summary());
    info.source = source;
    info.key = engine.key();
    info.runTag = engine.log().runTag();
    info.startWallMs = engine.startMs();
    return Recording(std::move(info), engine.sharedLog(), history);
}

Recording::Recording(RecordingInfo info, RequestLog log, ZsetHistoryBuilder* history)
    : Recording(std::move(info), std::make_shared<const RequestLog>(std::move(log)), history)
{ }

Recording::Recording(RecordingInfo info, std::shared_ptr<const RequestLog> log, ZsetHistoryBuilder* history)
    : m_info(std::move(info))
    , m_log(std::move(log))
{
    if (history)
        m_history = history->finish(*m_log);
    else
        m_history.build(*m_log);
    index();
    setSeeded(std::move(m_info.seeded));
}

Recording::Recording(RecordingInfo info, RequestLog log, WatchedWrites watched)
    : m_info(std::move(info))
    , m_log(std::make_shared<const RequestLog>(std::move(log)))
    , m_watched(std::move(watched))
{
    m_info.knowledge = ZsetKnowledge::Watched;
    m_info.users = 1;
    const size_t n = size_t(m_log->keepsRequests() ? m_log->truthPrefix() : 0);
    m_watched.scores.resize(n, 0);
    m_watched.ends.resize(n, ZsetHistory::alive);
    m_watched.seededEnds.resize(m_info.seeded.size(), ZsetHistory::alive);
    m_history.buildFromEnds(*m_log, m_watched.ends);
    index();
    m_seededEnd = m_watched.seededEnds;
}

double Recording::scoreOf(int write) const
{
    return m_watched.scores.empty() ? double(m_log->now(write)) : m_watched.scores[size_t(write)];
}

void ReplayTotals::add(const RequestLog& log, int i)
{
    ++sent;
    if (log.isFailed(i)) {
        ++errors;
        return;
    }
    const int added = log.added(i);
    stored += added == 1;
    overwritten += added == 0;
    addedUnknown += added < 0;
    admitted += log.isAdmitted(i);
    admittedBeyondLimit += log.isAdmittedOverLimit(i);
    maxCount = std::max(maxCount, log.count(i));
}

void Recording::index()
{
    const int n = requests();
    const int bs = ZsetHistory::blockSize;
    // One entry per block, and one after the last: the whole run's figures.
    m_totalsBefore.assign(size_t(n / bs) + 2, {});
    m_latestNowThrough.assign(size_t((n + bs - 1) / bs), 0);
    ReplayTotals totals;
    qint64 latest = std::numeric_limits<qint64>::min();
    for (int i = 0; i < n; ++i) {
        if (i % bs == 0)
            m_totalsBefore[size_t(i / bs)] = totals;
        totals.add(*m_log, i);
        latest = std::max(latest, m_log->now(i));
        m_latestNowThrough[size_t(i / bs)] = latest;
    }
    for (size_t b = size_t((n + bs - 1) / bs); b < m_totalsBefore.size(); ++b)
        m_totalsBefore[b] = totals;
}

ReplayTotals Recording::totalsFrom(int i, int last) const
{
    i = std::max(i, 0);
    last = last < 0 ? requests() - 1 : std::min(last, requests() - 1);
    ReplayTotals all = totalsThrough(last);
    const ReplayTotals before = totalsThrough(i - 1);
    all.sent -= before.sent;
    all.errors -= before.errors;
    all.stored -= before.stored;
    all.overwritten -= before.overwritten;
    all.addedUnknown -= before.addedUnknown;
    all.admitted -= before.admitted;
    all.admittedBeyondLimit -= before.admittedBeyondLimit;
    all.maxCount = 0;
    for (int r = i; r <= last; ++r)
        all.maxCount = std::max(all.maxCount, m_log->count(r));
    return all;
}

int Recording::lastRequestThrough(qint64 now) const
{
    // The latest nows grow block by block: the first block holding a later now holds the answer.
    const auto block = std::upper_bound(m_latestNowThrough.begin(), m_latestNowThrough.end(), now);
    if (block == m_latestNowThrough.end())
        return requests() - 1;
    int r = int(block - m_latestNowThrough.begin()) * ZsetHistory::blockSize;
    while (m_log->now(r) <= now)
        ++r;
    return r - 1;
}

ReplayTotals Recording::totalsThrough(int i) const
{
    if (i < 0 || isEmpty())
        return {};
    i = std::min(i, requests() - 1);
    const int block = i / ZsetHistory::blockSize;
    ReplayTotals totals = m_totalsBefore[size_t(block)];
    for (int r = block * ZsetHistory::blockSize; r <= i; ++r)
        totals.add(*m_log, r);
    return totals;
}

template<typename Test>
int Recording::nextWhere(qint64 ReplayTotals::*figure, int i, Test test) const
{
    const int bs = ZsetHistory::blockSize;
    for (int r = std::max(i + 1, 0); r < requests(); ++r) {
        const size_t block = size_t(r / bs);
        if (r % bs == 0 && m_totalsBefore[block + 1].*figure == m_totalsBefore[block].*figure) {
            r += bs - 1; // none in this block
            continue;
        }
        if (test(r))
            return r;
    }
    return -1;
}

int Recording::nextOverwrite(int i) const
{
    return nextWhere(&ReplayTotals::overwritten, i, [this](int r) { return m_log->added(r) == 0; });
}

int Recording::nextBeyondLimit(int i) const
{
    return nextWhere(&ReplayTotals::admittedBeyondLimit, i, [this](int r) { return m_log->isAdmittedOverLimit(r); });
}

QByteArray Recording::keyOfUser(int user) const
{
    return m_info.users > 1 ? ZsetKeys::userOfRun(m_info.key, user) : m_info.key;
}

int Recording::seededAliveAfter(int i, int user, std::vector<ReplayMember>* list) const
{
    int alive = 0;
    for (size_t k = 0; k < m_seededEnd.size(); ++k) {
        const SeededMember& seeded = m_info.seeded[k];
        if (seeded.user != user || m_seededEnd[k] <= i)
            continue;
        ++alive;
        if (list)
            list->push_back({seeded.member, seeded.score, -1, 0});
    }
    return alive;
}

void Recording::setSeeded(std::vector<SeededMember> seeded)
{
    m_info.seeded = std::move(seeded);
    const auto& members = m_info.seeded;
    m_seededEnd.assign(members.size(), ZsetHistory::alive);
    if (members.empty())
        return;
    // The flow the history follows: each answered request of a user trims that user's members
    // with a score of at most now - window, then writes its own member (ZADD: a seeded one again
    // is the history's from then on).
    const int users = std::max(m_info.users, 1);
    std::vector<std::vector<int>> byScore(static_cast<size_t>(users));
    std::vector<QHash<QByteArray, int>> byMember(static_cast<size_t>(users));
    for (int k = 0; k < int(members.size()); ++k) {
        const int user = std::clamp(members[size_t(k)].user, 0, users - 1);
        byScore[size_t(user)].push_back(k);
        byMember[size_t(user)].insert(members[size_t(k)].member, k);
    }
    for (auto& list : byScore)
        std::sort(list.begin(), list.end(),
                  [&](int a, int b) { return members[size_t(a)].score < members[size_t(b)].score; });
    std::vector<size_t> trimmed(size_t(users), 0);
    std::vector<qint64> latest(size_t(users), std::numeric_limits<qint64>::min());
    for (int r = 0; r < requests(); ++r) {
        if (m_log->isFailed(r))
            continue;
        const size_t user = size_t(std::clamp(m_log->userOf(r), 0, users - 1));
        latest[user] = std::max(latest[user], m_log->now(r));
        const std::vector<int>& list = byScore[user];
        while (trimmed[user] < list.size()
               && members[size_t(list[trimmed[user]])].score <= latest[user] - m_info.windowInNowUnits) {
            qint32& end = m_seededEnd[size_t(list[trimmed[user]])];
            end = std::min(end, qint32(r));
            ++trimmed[user];
        }
        if (m_history.wrote(r)) {
            if (const auto found = byMember[user].constFind(m_log->member(r)); found != byMember[user].cend()) {
                qint32& end = m_seededEnd[size_t(*found)];
                end = std::min(end, qint32(r));
            }
        }
    }
}

ReplayState Recording::stateAt(int i, bool withMembers, int memberLimit) const
{
    ReplayState state;
    state.requests = requests();
    state.knowledge = m_info.knowledge;
    if (isEmpty())
        return state;
    i = std::clamp(i, 0, requests() - 1);
    state.request = i + 1;
    state.now = m_log->now(i);
    state.user = m_log->userOf(i);
    state.key = keyOfUser(state.user);
    if (m_info.knowledge != ZsetKnowledge::CountsOnly)
        state.members = m_history.sizeAfter(i) + seededAliveAfter(i, state.user, nullptr);
    state.countReturned = m_log->isFailed(i) ? -1 : m_log->count(i);
    state.trueCount = m_log->truth(i);
    state.added = m_log->added(i);
    if (m_log->memberKind(i) != RequestRecord::MemberKind::Unknown && !m_log->isFailed(i))
        state.member = m_log->member(i);
    state.error = m_log->error(i);
    state.admitted = m_log->isAdmitted(i);
    state.admittedBeyondLimit = m_log->isAdmittedOverLimit(i);
    const ReplayTotals totals = totalsThrough(i);
    state.overwritten = totals.overwritten;
    state.admittedBeyondLimitSoFar = totals.admittedBeyondLimit;
    if (withMembers && m_info.knowledge != ZsetKnowledge::CountsOnly) {
        std::vector<int> writes = m_history.writesAliveAfter(*m_log, i, state.user);
        if (memberLimit >= 0 && writes.size() > size_t(memberLimit)) {
            // The first by score, chosen before any member's text is copied.
            std::nth_element(writes.begin(), writes.begin() + memberLimit, writes.end(), [this](int a, int b) {
                const double scoreA = scoreOf(a);
                const double scoreB = scoreOf(b);
                return scoreA != scoreB ? scoreA < scoreB : m_log->member(a) < m_log->member(b);
            });
            writes.resize(size_t(memberLimit));
        }
        state.memberList.reserve(writes.size());
        for (const int w : writes)
            state.memberList.push_back({m_log->member(w), scoreOf(w), w, m_history.writesOfMemberThrough(w)});
        seededAliveAfter(i, state.user, &state.memberList);
        std::sort(state.memberList.begin(), state.memberList.end(), [](const ReplayMember& a, const ReplayMember& b) {
            return a.score != b.score ? a.score < b.score : a.member < b.member;
        });
        if (memberLimit >= 0 && state.memberList.size() > size_t(memberLimit))
            state.memberList.resize(size_t(memberLimit));
    }
    return state;
}

RequestBatch Recording::batch() const
{
    RequestBatch batch;
    batch.runTag = m_info.runTag;
    batch.startWallMs = m_info.startWallMs;
    batch.nowUnitsPerMs = m_info.nowUnitsPerMs;
    batch.limit = m_info.limit;
    batch.requests = requests();
    auto finished = std::make_shared<std::vector<RequestRecord>>();
    auto counted = std::make_shared<std::vector<CountedRequest>>();
    finished->reserve(size_t(requests()));
    counted->reserve(size_t(requests()));
    for (int i = 0; i < requests(); ++i) {
        finished->push_back(m_log->record(i));
        counted->push_back(m_log->counted(i));
    }
    batch.finished = std::move(finished);
    batch.counted = std::move(counted);
    batch.summary = summaryThrough(requests() - 1);
    return batch;
}

BurstSummary Recording::summaryThrough(int i) const
{
    BurstSummary summary;
    summary.serverVersion = m_info.serverVersion;
    summary.serverName = m_info.serverName;
    summary.limiter = m_info.limiter;
    summary.key = m_info.key;
    summary.clock = m_info.plan.value(QLatin1String("clock")).toString();
    summary.pacing = m_info.plan.value(QLatin1String("pace")).toString();
    summary.requests = m_info.requests;
    // A watched app's limit is an argument of its calls: not known, not "none".
    summary.limit = m_info.knowledge == ZsetKnowledge::Watched ? -1 : m_info.limit;
    summary.users = m_info.users;
    const ReplayTotals totals = totalsThrough(i);
    summary.sent = totals.sent;
    summary.errors = totals.errors;
    summary.stored = totals.stored;
    summary.overwritten = totals.overwritten;
    summary.addedUnknown = totals.addedUnknown;
    summary.lost = totals.addedUnknown > 0 ? 0 : totals.sent - totals.errors - totals.stored;
    summary.admitted = totals.admitted;
    summary.admittedOverLimit = totals.admittedBeyondLimit;
    summary.maxCount = totals.maxCount;
    if (i >= 0 && !isEmpty() && m_info.knowledge != ZsetKnowledge::CountsOnly)
        summary.membersAtEnd = m_history.sizeAfter(std::min(i, requests() - 1))
            + seededAliveAfter(std::min(i, requests() - 1), m_log->userOf(std::min(i, requests() - 1)), nullptr);
    return summary;
}

size_t Recording::memoryBytes() const
{
    return m_log->memoryBytes() + m_history.memoryBytes() + m_totalsBefore.capacity() * sizeof(ReplayTotals)
        + m_watched.scores.capacity() * sizeof(double) + m_watched.ends.capacity() * sizeof(qint32)
        + m_latestNowThrough.capacity() * sizeof(qint64);
}
