#pragma once

// WatchShadow: the shadow of each watched key, kept from MONITOR lines within bounds.

#include "keypattern.h"
#include "monitorline.h"
#include "watchreport.h"
#include "zsetshadow.h"

#include <QHash>
#include <QSet>

#include <deque>
#include <memory>
#include <set>

// Bounds on what a watch keeps in memory.
struct WatchLimits
{
    int keys = 10000; // keys watched at once; later ones are counted in droppedKeys
    int recordsPerKey = 100000; // ZADD records kept per key between two snapshots
    int sourcesPerKey = 32;
    qint64 truthPerKey = 2000000; // requests kept for the true count; beyond: unknown
    // The copy of a key's members: a key past either bound is followed no further (its figures
    // stay as they were then, and it is counted in cappedKeys); the copies of all keys together
    // are bounded by memberBytes too, the key that would pass it being the one left.
    qint64 membersPerKey = 1000000;
    qint64 memberBytes = qint64(256) << 20; // as ZsetShadow::bytes() counts them
    int scripts = 64; // script bodies kept (from EVAL, SCRIPT LOAD and SCRIPT SHOW)
    qint64 scriptBytes = qint64(256) << 10; // the largest body kept (a limiter's is a few KB)
    qint64 scriptBytesInAll = qint64(4) << 20; // the bodies kept, in all
};

// Replays a MONITOR stream onto copies of the sorted sets whose keys match the patterns, and
// counts, per key, the requests and the ZADDs that found their member there already (overwrites).
// Groups each EVAL/EVALSHA with the "[db lua]" commands its script ran (they follow it at once:
// Redis runs one command at a time). Plain values in, WatchSnapshot out; no Redis, no threads.
class WatchShadow
{
public:
    using Limits = WatchLimits;
    struct KeyName
    {
        int db = 0;
        QByteArray key;
    };

    // db < 0: every database.
    explicit WatchShadow(QList<KeyPattern> patterns = {}, int db = -1, Limits limits = Limits());
    ~WatchShadow();

    bool watches(int db, const QByteArray& key) const;
    // The stream is Valkey 8.1's, which may leave `"` and `\` unescaped (MonitorLine::parse).
    void setQuotesMayBeUnescaped(bool may) { m_quotesMayBeUnescaped = may; }
    // Parses and replays one line; false (and the line counted as dropped) when it is not one.
    bool feed(const QByteArray& rawLine);
    void feed(const MonitorLine& line);

    // Keys seen for the first time since the previous call that held members the watch did not
    // see (or may have). The caller may read them once and hand the result to setKnownState().
    QList<KeyName> takeKeysToRead();
    // The key's members as read at this point of the stream: its state is known from here on.
    void setKnownState(int db, const QByteArray& key, const std::vector<ZsetShadow::Member>& members);

    qint64 commandsSeen() const { return m_commandsSeen; }
    QByteArray scriptBody(const QByteArray& sha) const { return m_scripts.value(sha); }
    QList<QByteArray> scriptShas() const { return m_scripts.keys(); }
    // SHA1s of scripts called by EVALSHA whose body the stream never showed (each once): a server
    // that answers SCRIPT SHOW (Valkey 8+) can tell, and setScriptBody() keeps its answer.
    QList<QByteArray> takeScriptsToRead();
    // A script's body read from the server; kept when its SHA1 is `sha`.
    void setScriptBody(const QByteArray& sha, const QByteArray& body);

    // The figures of every key now; with takeRecords, the ZADD records since the previous take. A
    // key's last record stays back while the script call that made it may still remove members
    // (its removedAfter), unless this is the watch's last snapshot (`last`).
    WatchSnapshot snapshot(bool takeRecords = true, bool last = false);
    // The copy of one key's set, or null when the watch does not follow the key.
    const ZsetShadow* members(int db, const QByteArray& key) const;
    // The figures of one key (no records); exists == false when the watch does not know it.
    WatchedKey figures(int db, const QByteArray& key) const;

private:
    struct Key;
    struct KeyId
    {
        int db = 0;
        QByteArray key;
        bool operator==(const KeyId& other) const { return db == other.db && key == other.key; }
        friend size_t qHash(const KeyId& id, size_t seed = 0) { return qHashMulti(seed, id.db, id.key); }
    };
    struct ScriptCall
    {
        qint64 id = 0;
        bool active = false;
        WatchSource::Kind kind = WatchSource::Kind::Script;
        QByteArray sourceId;
        QByteArray sourceKey; // 's' + sourceId, the key of Key::sourceIndex
    };
    enum class Command : quint8;
    static Command commandNamed(const QByteArray& upperCaseName);

    Key* keyFor(int db, const QByteArray& key, bool create);
    void touch(Key* key, const MonitorLine& line);
    void countRequest(Key* key, const MonitorLine& line);
    struct ZaddOptions;
    void applyZadd(Key* key, const MonitorLine& line);
    // The key's first ZADD record: what the recording starts from (Key::preexisting).
    void beginRecords(Key* key);
    // One member and score of a ZADD, and its record.
    void zaddMember(Key* key, const MonitorLine& line, const QByteArray& member, double given,
                    const ZaddOptions& options);
    void applyZincrby(Key* key, const MonitorLine& line);
    void applyRemove(Key* key, const MonitorLine& line, Command command);
    void applyExpire(Key* key, const MonitorLine& line, Command command);
    void applyRename(const MonitorLine& line, bool onlyIfAbsent);
    void deleteKey(Key* key, bool known);
    // The key's copy reached a bound: it is followed no further.
    void capIfPastBounds(Key* key);
    void cap(Key* key);
    void record(Key* key, const WatchRecord& record);
    void beginScriptCall(Command command, const QByteArray& target);
    void noteScript(const QByteArray& body, const QByteArray& sha);
    WatchedKey figuresOf(Key& key, bool takeRecords, bool last = false);
    void apply(const MonitorLine& line);
    // apply()'s steps. Follows EVAL, EVALSHA and FCALL and the commands their scripts run; false
    // when the line began a script call (nothing else to do).
    bool followScriptCall(const MonitorLine& line, Command command);
    // The commands over several keys or a whole database (FLUSHDB, SWAPDB, DEL, RENAME, the ones
    // that leave keys unknown); false for any other.
    bool applyToKeys(const MonitorLine& line, Command command);
    // A command on the key that is its first argument.
    void applyToKey(const MonitorLine& line, Command command, const QByteArray& commandName);

    QList<KeyPattern> m_patterns;
    int m_db = -1;
    Limits m_limits;
    QHash<KeyId, std::shared_ptr<Key>> m_keys; // never removed: a Key* stays valid
    Key* m_lastKey = nullptr; // the previous line's: a script's commands follow one another on one key
    MonitorLine m_line; // feed(QByteArray)'s, reused: it keeps its buffers from one line to the next
    QList<KeyName> m_toRead;
    QHash<QByteArray, QByteArray> m_scripts; // SHA1 -> body
    QList<QByteArray> m_scriptsToRead;
    bool m_quotesMayBeUnescaped = false;
    QSet<QByteArray> m_scriptsAsked;
    ScriptCall m_call;
    qint64 m_nowUs = 0;
    qint64 m_commandsSeen = 0;
    qint64 m_droppedLines = 0;
    qint64 m_droppedKeys = 0;
    qint64 m_cappedKeys = 0;
    qint64 m_memberBytes = 0; // ZsetShadow::bytes() of every key's copy
    qint64 m_scriptBytes = 0; // of the bodies in m_scripts
    qint64 m_scriptsNotKept = 0; // bodies past the bounds
    bool m_askNoMore = false; // the server told a body past the bound: SCRIPT SHOW is not asked again
    qint64 m_scriptCalls = 0;
};
