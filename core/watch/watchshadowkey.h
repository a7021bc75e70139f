#pragma once

// Internal to WatchShadow: a watched key's shadow (WatchShadow::Key) and the commands the shadow
// replays (WatchShadow::Command), shared by the stream (watchshadow.cpp) and what each write
// command does to a key (watchshadowwrites.cpp).

#include "watchshadow.h"

#include <limits>
#include <set>

struct WatchShadow::Key
{
    WatchedKey figures; // counters and sources; records are kept below
    ZsetShadow members;
    // One score per request still inside the set's trims, as if each request had kept a member of
    // its own: the count a limiter with unique members would see.
    std::multiset<double> truth;
    bool truthKnown = false;
    double lowestWritten = std::numeric_limits<double>::infinity(); // since the state became unknown
    static constexpr qint64 noDeadline = -1;
    qint64 expiresAtMs = noDeadline;
    qint64 lastCallId = -1;
    int currentSource = -1; // the source of the request being replayed, in figures.sources
    QByteArray currentSourceKey; // its key in sourceIndex
    QVector<WatchRecord> records;
    QHash<QByteArray, int> sourceIndex;
    bool recordsBegun = false; // a ZADD of the key was recorded
    qint64 lastRecordCall = -1; // the script call that made the last record (-1: a plain command)
    std::vector<WatchMember> removed; // since the key's previous ZADD record (members' sink)
    std::vector<WatchMember> preexisting; // not handed on yet
    bool capped = false; // its copy reached a bound (WatchLimits): followed no further
    qint64 sizeAtCap = 0;
};

// The commands the shadow replays, found once per line by name instead of comparing the name with
// each in turn.
enum class WatchShadow::Command : quint8 {
    Other,
    Eval, // EVAL, EVAL_RO
    EvalSha, // EVALSHA, EVALSHA_RO
    Fcall, // FCALL, FCALL_RO
    Script,
    FlushAll,
    FlushDb,
    SwapDb,
    Delete, // DEL, UNLINK
    Rename,
    RenameNx,
    // Commands that leave a key's content to something the shadow does not replay: its state is
    // unknown afterwards. The key is the first argument, the second, or any (ZMPOP, BZPOPMIN:
    // which key they popped from is not in the line).
    UnknownFirst,
    UnknownSecond,
    UnknownAny,
    Zadd,
    Zincrby,
    Zrem,
    ZremRangeByScore,
    ZremRangeByRank,
    ZremRangeByLex,
    ZpopMin,
    ZpopMax,
    Expire,
    Pexpire,
    ExpireAt,
    PexpireAt,
    Persist,
};

// A ZADD's flags (CH changes nothing the shadow keeps).
struct WatchShadow::ZaddOptions
{
    bool nx = false;
    bool xx = false;
    bool gt = false;
    bool lt = false;
    bool incr = false;
};
