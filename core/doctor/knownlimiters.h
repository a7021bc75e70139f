#pragma once

// KnownLimiters: public libraries' limiter scripts that zsetlab knows by their tokens, with the
// known issue of each version and the release that fixed it.

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVector>

// What a script is made of, for comparing it with others: its tokens with comments and layout
// dropped (a string is its contents, whichever quotes it had), and the runs of consecutive
// tokens it holds. Holds no text of the script.
struct ScriptFingerprint
{
    static constexpr int runLength = 5; // tokens in a run

    QByteArray sha1; // of the exact text: what EVALSHA names
    QByteArray tokenDigest; // SHA1 of the tokens: equal for two layouts of one script
    int tokenCount = 0;
    QVector<quint32> runs; // a hash of each run, sorted, without repeats
    QList<QByteArray> commands; // what it asks of Redis, in order, upper case

    static ScriptFingerprint of(const QByteArray& source);
    // {"sha1": ..., "tokens": ..., "tokenCount": ..., "commands": [...], "runs": "hex"}: the
    // fields of an entry in the known limiters' table.
    QByteArray toJson() const;
};

// How a library calls its script, as the doctor's call templates: with them, the findings and the
// live probe describe the calls the library makes.
struct LibraryCall
{
    const char* keys; // --keys
    const char* args; // --args
    const char* setup; // --setup commands, apart by ';' ("" none): what the library writes first
    const char* reply; // --reply, "" when the probe learns it
    int windowMs; // --window, when the script needs one (a rate per second computed as {limit/window_s}); 0: any

    bool isKnown() const { return keys && *keys; }
    QStringList setupCommands() const;
    // --keys "..." --args "..." [--live [--setup "..."]... [--reply ...] [--window MS]]: what only
    // the live probe takes comes with --live
    QString options() const;
};

// One version of a public library's limiter script: where it comes from, what is known to be
// wrong with it and where that was fixed. The text is not kept, only its fingerprint.
struct KnownLimiter
{
    const char* id; // "redisson-rratelimiter-3.12"
    const char* library; // "Redisson RRateLimiter"
    const char* versions; // the releases that ship this text, "3.12.0 to 3.16.3"
    const char* source; // the text upstream, at a commit
    const char* issue; // what goes wrong (translatable, QT_TRANSLATE_NOOP("KnownLimiters", ...)); null: none known
    const char* issueUrl; // the upstream report
    const char* fixedIn; // the first release with the fix; null when none is known
    const char* fixedBy; // the upstream change that fixes it, when its first release is not known
    bool countsWrong; // the issue lets requests through or refuses them wrongly (an error, not a warning)
    LibraryCall call;
    const char* sha1; // of each text that ships these tokens (apart by spaces)
    const char* tokenDigest;
    int tokenCount;
    const char* commands; // space-separated
    const char* runs; // 8 hex digits a run
};

// A Redis command a script makes a different number of times than the known script.
struct CommandCount
{
    QByteArray command;
    int known = 0; // times in the known script
    int here = 0; // times in this one
};

// A script compared with the known limiters.
struct LimiterRecognition
{
    enum class Match {
        None,
        Same, // the same tokens: the known script, laid out or commented otherwise (or the same bytes)
        Derived, // most of its runs of tokens are the known script's
    };
    Match match = Match::None;
    const KnownLimiter* limiter = nullptr;
    bool sameBytes = false;
    double shared = 0; // the part of the known script's runs found in this one, 0..1
    double resemblance = 0; // of the closest known script, by Jaccard over runs (1 for Same), even under derivedAt
    QVector<int> changedLines; // 1-based lines holding tokens the known script does not have there
    // Redis commands this script makes that the known one does not, and the known one's that it
    // makes no more (removed); commands both make, fewer or more times here.
    QList<QByteArray> commandsAdded, commandsDropped;
    QList<CommandCount> commandsFewer, commandsMore;

    QString libraryName() const; // "Redisson RRateLimiter (3.12.0 to 3.16.3)"
    QString issue() const; // translated; empty when none is known
    // "lines 12-14, 20"
    QString changedLinesText() const;
};

namespace KnownLimiters {
const QVector<KnownLimiter>& table();
// The best match: the same tokens first, then the known script sharing the most runs, when it
// shares at least `derivedAt` of them with it (by Jaccard: runs in both over runs in either).
LimiterRecognition recognize(const QByteArray& source);
constexpr double derivedAt = 0.5;
// A script seen only by its SHA1 (EVALSHA in MONITOR); null when none has that text.
const KnownLimiter* bySha1(const QByteArray& sha1);
// For the watch: "Redisson RRateLimiter" for a known SHA1 or a body that is or derives from one;
// empty otherwise.
QString nameOf(const QByteArray& sha1, const QByteArray& body = QByteArray());
} // namespace KnownLimiters
