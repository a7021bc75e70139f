#pragma once

// WatchReport: what a watch learned about an app's sorted sets, as plain values.

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QMetaType>
#include <QString>
#include <QVector>

#include <utility>
#include <vector>

// What zsetlab watch learned about the app's sorted sets, as plain values: the window and the CLI
// read these, never the shadow itself.

// A member of a watched set and its score.
using WatchMember = std::pair<QByteArray, double>;

// One ZADD of one member, for the timeline and the key's recording.
struct WatchRecord
{
    enum class Outcome : quint8 {
        Stored, // the member was new: the request got a member of its own
        Overwrote, // the member was there already: the request did not add to the count
        Skipped, // XX on a new member, or GT/LT refused the score: nothing written
    };
    qint64 timeUs = 0; // the server's clock, from the MONITOR line
    double score = 0;
    QByteArray member;
    Outcome outcome = Outcome::Stored;
    // Right after this ZADD: the set's size (what a ZCARD that follows it counts, as a limiter's
    // script does) and the requests in the window had each kept its own member (-1 unknown).
    qint64 sizeAfter = -1;
    qint64 truthAfter = -1;
    // The members that left the set since the key's previous ZADD (trimmed, removed, expired), with
    // the scores they had: with the records in order, the set at each request, exactly.
    std::vector<WatchMember> removedBefore;
    // The members the same script call removed after this ZADD (a trim after the write, its own
    // member taken back when refused): gone when the request's call ended.
    std::vector<WatchMember> removedAfter;
};

// Where a key's requests came from: a script (by SHA1) or a client's own commands (by address).
struct WatchSource
{
    enum class Kind { Script, Client };
    Kind kind = Kind::Client;
    QByteArray id; // the script's SHA1 (or "function NAME"), or the client's address
    qint64 requests = 0;
    qint64 overwrites = 0;
};

struct WatchedKey
{
    int db = 0;
    QByteArray key;
    qint64 requests = 0; // script calls that touched the key, plus plain ZADD commands
    qint64 zadds = 0; // members given to ZADD
    qint64 overwrites = 0; // ... of which were in the set already
    qint64 overwritesOfTime = 0; // ... and whose member is its own score: "the member is the time"
    qint64 distinctMembers = 0; // members ZADD created (each request that got a member of its own)
    qint64 size = 0; // members now: what ZCARD answers, the count the limiter sees
    qint64 trueCount = -1; // requests in the set's window had each kept its own member; -1 unknown
    bool stateKnown = false; // false: the key may hold members from before the watch that it never saw
    // Its copy reached the watch's bound (WatchLimits::membersPerKey or memberBytes): followed no
    // further, its figures are those of that moment.
    bool capped = false;
    bool exists = false;
    qint64 expiresAtUs = -1; // the key's deadline by the server's clock; -1 none
    QVector<WatchSource> sources;
    qint64 otherSources = 0; // requests from sources beyond the ones kept
    // The ZADDs since the previous snapshot (each snapshot hands on only what is new), oldest first;
    // droppedRecords counts those left out over the whole watch to keep memory bounded.
    QVector<WatchRecord> records;
    qint64 droppedRecords = 0;
    // Members the set held before its first ZADD record that no record wrote (handed on once, as
    // records are): what a recording of the key starts from.
    std::vector<WatchMember> preexisting;

    QString verdict() const;
    QJsonObject toJson() const;
};

// The whole watch at one moment.
struct WatchSnapshot
{
    qint64 elapsedMs = 0;
    qint64 commandsSeen = 0; // MONITOR lines read
    qint64 droppedLines = 0; // lines that were not MONITOR lines, or keys beyond the bound
    qint64 scriptCalls = 0;
    qint64 droppedKeys = 0;
    qint64 cappedKeys = 0; // keys whose copy reached the bound of members: followed no further
    qint64 scriptsNotKept = 0; // script bodies past the bounds (too long, too many)
    QVector<WatchedKey> keys;
    // The bodies of the scripts seen in the stream (EVAL, SCRIPT LOAD), by SHA1 in lower case:
    // what the window opens in the Script Doctor.
    QHash<QByteArray, QByteArray> scripts;

    qint64 requests() const;
    qint64 overwrites() const;
    // One snapshot of several streams (a cluster's masters, each watched on its own): the counts
    // added up, the keys of all of them (a key on two nodes, while a slot moves, is listed twice).
    static WatchSnapshot merged(const QVector<WatchSnapshot>& parts);
    // "3,412 of 9,870 requests overwrote a member: the member is the time. Use a unique member ..."
    QString verdict() const;
};

// Moved in memory as bytes when a list of them grows: the shadow and the window append hundreds
// of thousands of records a second to per-key lists.
Q_DECLARE_TYPEINFO(WatchRecord, Q_RELOCATABLE_TYPE);
Q_DECLARE_METATYPE(WatchRecord)
Q_DECLARE_METATYPE(WatchedKey)
Q_DECLARE_METATYPE(WatchSnapshot)
