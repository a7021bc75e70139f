#pragma once

// Recording: a finished run kept request by request, to be stepped through, saved and opened.

#include "results/burstsummary.h"
#include "results/requestbatch.h"
#include "results/requestlog.h"
#include "zsethistory.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <memory>
#include <vector>

class BurstEngine;
struct BurstPlan;

// What a recording says about the ZSET at a request.
enum class ZsetKnowledge {
    Flow, // a catalog limiter whose flow zsetlab knows: the members are rebuilt exactly
    Replies, // a user's script: the members its replies named, trimmed as a sliding log would be
    CountsOnly, // a limiter that names no member (a counter, a bucket): the replies' counts only
    Watched, // an app's key watched through MONITOR, which showed every write and removal: exact
};
QString zsetKnowledgeName(ZsetKnowledge knowledge);
bool parseZsetKnowledge(const QString& name, ZsetKnowledge* knowledge);

// A member a user's ZSET held before the run's first request: a what-if goes on from another
// run's ZSET (ReplayFork::seed).
struct SeededMember
{
    int user = 0;
    QByteArray member;
    double score = 0;
};

// A score as Redis writes it: a whole number in digits, else the shortest text that reads back.
QByteArray scoreText(double score);

// What MONITOR showed of a watched key (ZsetKnowledge::Watched), per request: the score its ZADD
// wrote and the request before which that write left the set; the same end for each seeded member.
struct WatchedWrites
{
    std::vector<double> scores;
    std::vector<qint32> ends; // ZsetHistory::alive: still there at the end; the request itself: wrote nothing
    std::vector<qint32> seededEnds;
};

// Everything a recording holds besides its requests.
struct RecordingInfo
{
    QString source = QStringLiteral("burst"); // burst, compare, lesson
    QJsonObject plan; // PlanFields::toJson of the plan fired
    QString limiter; // the limiter's id (a user's script: its file name); "strategy" in the file
    QByteArray script; // a user's script, its source
    ZsetKnowledge knowledge = ZsetKnowledge::Flow;
    QString serverName; // "redis", "valkey"
    QString serverVersion;
    QByteArray key; // the run's key (with users: user u's key is derived from it)
    QByteArray runTag; // request ids are "<runTag>:<id>"
    qint64 startWallMs = 0;
    qint64 nowUnitsPerMs = 1;
    qint64 windowInNowUnits = 0;
    qint64 limit = 0;
    int users = 1;
    int requests = 0; // planned
    QString madeBy; // "zsetlab 0.9.0"
    std::vector<SeededMember> seeded; // none unless the run went on from another's ZSET
};

// The state of a recorded run right after one request.
struct ReplayMember
{
    QByteArray member;
    double score = 0;
    int request = 0; // the request that wrote it (0-based; -1: it was there before the first)
    int writes = 0; // how many requests wrote this member so far
};

struct ReplayState
{
    int request = 0; // 1-based: the state after the first `request` requests
    int requests = 0;
    qint64 now = 0;
    int user = 0;
    QByteArray key; // the ZSET of the request's user
    ZsetKnowledge knowledge = ZsetKnowledge::Flow;
    qint64 members = -1; // how many members that ZSET held; -1 unknown (CountsOnly)
    qint64 countReturned = -1; // the count the script answered; -1 none (failed, or no count)
    qint64 trueCount = -1; // the user's requests in the window
    int added = -1; // ZADD's reply: 1, 0, -1 unknown
    QByteArray member; // what the request wrote
    QString error;
    bool admitted = false;
    bool admittedBeyondLimit = false;
    qint64 overwritten = 0; // so far, every user
    qint64 admittedBeyondLimitSoFar = 0; // so far, every user
    std::vector<ReplayMember> memberList; // by score, then member, as ZRANGE WITHSCORES
    QJsonObject toJson(bool withMembers) const;
};

// The run's figures over its first requests.
struct ReplayTotals
{
    qint64 sent = 0;
    qint64 errors = 0;
    qint64 stored = 0; // ZADD added a member
    qint64 overwritten = 0; // ZADD replied 0
    qint64 addedUnknown = 0; // the reply did not say
    qint64 admitted = 0;
    qint64 admittedBeyondLimit = 0;
    qint64 maxCount = 0;
    void add(const RequestLog& log, int i);
};

class Recording
{
public:
    // The engine's run as it ended (its log is shared, not copied: the engine starts its next run
    // on a new one). `history`: built while the run went on
    // (the rest is built here), or none.
    static Recording fromEngine(const BurstEngine& engine, const QString& source = QStringLiteral("burst"),
                                ZsetHistoryBuilder* history = nullptr);
    static RecordingInfo infoOf(const BurstPlan& plan, const BurstSummary& summary);
    // A recording of `log`; the history is built here, or finished from `history`.
    Recording(RecordingInfo info, RequestLog log, ZsetHistoryBuilder* history = nullptr);
    Recording(RecordingInfo info, std::shared_ptr<const RequestLog> log, ZsetHistoryBuilder* history = nullptr);
    // A watched key's recording: the history is what MONITOR showed (info.knowledge: Watched).
    Recording(RecordingInfo info, RequestLog log, WatchedWrites watched);
    Recording() = default;

    const RecordingInfo& info() const { return m_info; }
    const RequestLog& log() const { return *m_log; }
    const ZsetHistory& history() const { return m_history; }
    // Empty unless the knowledge is Watched.
    const WatchedWrites& watched() const { return m_watched; }
    // The requests recorded in order from the first: a stopped run records those it finished.
    int requests() const { return m_history.requests(); }
    bool isEmpty() const { return requests() == 0; }
    QByteArray keyOfUser(int user) const;

    // The members each user's ZSET held before the first request (a what-if's): they count, and
    // are listed, until trimmed or written again.
    void setSeeded(std::vector<SeededMember> seeded);
    // Per seeded member (info().seeded): the request that trimmed or wrote it again, or
    // ZsetHistory::alive. It counts in its user's ZSET after request i while its end is above i.
    const std::vector<qint32>& seededEnds() const { return m_seededEnd; }
    // The state right after request i (0-based; clamped); members listed when asked: all of them,
    // or the first memberLimit by score (a picture shows a screenful; `members` still counts all).
    ReplayState stateAt(int i, bool withMembers, int memberLimit = -1) const;
    // The figures of requests 0..i (all zero for i < 0).
    ReplayTotals totalsThrough(int i) const;
    // The figures of requests i..last (-1: the end): what a fork from i is compared with, as far
    // as it went.
    ReplayTotals totalsFrom(int i, int last = -1) const;
    // The next request after i that overwrote a member (or was admitted beyond the limit); -1 none.
    int nextOverwrite(int i) const;
    int nextBeyondLimit(int i) const;
    // The request right before the first whose `now` is later than `now` (-1: even the first
    // is): where a slider over time stands. In O(log n) plus one block, in any order of nows.
    int lastRequestThrough(qint64 now) const;
    // The whole run as one batch, as the engine hands its views (to draw an opened replay).
    RequestBatch batch() const;
    // The run's figures over requests 0..i, as a summary (the figures panel's; i < 0: none yet).
    BurstSummary summaryThrough(int i) const;
    // Bytes held in memory, for the benchmark.
    size_t memoryBytes() const;

private:
    void index();
    // How many seeded members of `user` are still there after request i; listed when asked.
    int seededAliveAfter(int i, int user, std::vector<ReplayMember>* list) const;
    template<typename Test>
    int nextWhere(qint64 ReplayTotals::*figure, int i, Test test) const;

    double scoreOf(int write) const;

    RecordingInfo m_info;
    std::shared_ptr<const RequestLog> m_log = std::make_shared<const RequestLog>(); // never null
    ZsetHistory m_history;
    WatchedWrites m_watched;
    std::vector<ReplayTotals> m_totalsBefore; // per block: the figures of the blocks before it
    std::vector<qint64> m_latestNowThrough; // per block: the latest now up to its last request
    std::vector<qint32> m_seededEnd; // per seeded member: the request that trimmed or rewrote it
};
