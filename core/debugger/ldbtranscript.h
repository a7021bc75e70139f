#pragma once

// LdbTranscript: the lines of the server's Lua debugger (LDB) read into steps, calls and values.

#include "redis/redisreply.h"
#include "results/zsetreader.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

// One line of a Redis Lua debugger (LDB) reply. LDB answers every debugger command with an array
// of status strings, each starting with a marker: "* Stopped at 23, stop reason = step over",
// "-> 23  local added = ...", "<redis> ZADD k 1 1" (Valkey 8: "<command> ZADD k 1 1"), "<reply> 0",
// "<value> now = 1.71e+12", "<endsession>". Anything without a known marker is a Message ("No such variable.").
struct LdbLine
{
    enum class Kind {
        Stopped, // "* Stopped at N, stop reason = R": number = N, text = R
        Source, // "-> N   text" (current) or "   N   text": number, text, current, breakpoint
        RedisCall, // "<redis> CMD ARGS": text = the command as LDB shows it (at most 10 arguments)
        Reply, // "<reply> 0": text = the reply in LDB's readable form
        Error, // "<error> -WRONGTYPE ..."
        Value, // "<value> now = 1.71e+12" (name = "now") or "<value> {}" from "print VAR"
        Debug, // "<debug> line 3: ..." from redis.debug()
        ReturnValue, // "<retval> ..." from the debugger's eval command
        Hint, // "<hint> ..."
        EndSession, // "<endsession>": the script ended; its own reply follows as a separate reply
        Message,
    };
    Kind kind = Kind::Message;
    int number = 0;
    QByteArray name;
    QByteArray text;
    bool current = false;
    bool breakpoint = false;
};

// One redis.call the script made, as the debugger logged it.
struct DebugCall
{
    QString command; // "ZADD zsetlab:x 1710000000000 1710000000000"
    QString reply; // "0", "\"+OK\"", "[\"a\",\"1\"]" (LDB's readable form); empty if none came
    QString error; // "-WRONGTYPE ..." when the call failed
    bool failed() const { return !error.isEmpty(); }
};

struct DebugVariable
{
    QString name;
    QString value; // as LDB prints it: numbers with %g ("1.71e+12"), strings quoted; see exactNumbers()
    QString printed; // LDB's own text when value was made exact from it
};

// Where a debugging session stands after one debugger command: the line it stopped at, what the
// script did since the previous stop, its local variables and the ZSET it works on.
struct DebugStep
{
    int line = 0; // the line about to run; for an ended session, the line an error names (or 0)
    QString lineText; // that line's source text, as the debugger shows it
    QString stopReason; // "step over", "break point", "redis.breakpoint() called", "timeout reached, ..."
    bool ended = false; // the script has finished (or failed); no more steps
    QVector<DebugCall> calls; // the redis.call()s run since the previous stop, in order
    QVector<DebugVariable> locals; // the current frame's local variables ("print")
    QStringList debugOutput; // redis.debug() lines
    QStringList messages; // anything else the debugger said
    QVector<ZsetEntry> zset; // the ZSET's first members by rank, with their scores
    qint64 zsetSize = -1; // ZCARD; -1 when it could not be read
    QString zsetNote; // where the contents were read, and why there
};

// Reads LDB replies. Pure functions: no connection, so captured transcripts can be tested.
namespace LdbTranscript {
LdbLine parseLine(const QByteArray& line);
// An LDB reply is an array of status strings; any other reply gives no lines.
QVector<LdbLine> parse(const RedisReply& reply);
// Folds a transcript into a step: the stop, the calls with their replies, the locals.
DebugStep toStep(const QVector<LdbLine>& lines);
// LDB prints numbers with C's %g: six digits, so a millisecond time 1796110592123 shows as
// 1.79611e+12, and now - window prints the same. A local the script defines as tonumber(ARGV[i])
// (or ARGV[i], or a sum or difference of such locals and literals) is shown with its exact value
// when that value prints as LDB printed it; any other rounded number is marked as rounded.
void exactNumbers(QVector<DebugVariable>* locals, const QList<QByteArray>& sourceLines, const RedisArgs& argv);
// Adds the "print" transcript's variables to a step.
void addLocals(DebugStep* step, const QVector<LdbLine>& printLines);
// The last reply of a transcript of a debugger "redis" command, or false when there is none.
bool lastReply(const QVector<LdbLine>& lines, QByteArray* reply);

// Parses one value in LDB's readable form of a Redis reply: "0", "\"a\\n\"", "NULL",
// "[\"m\",\"1\"]" (arrays are flattened). *complete is false when the text ends early: LDB trims
// long replies to its maxlen and appends " ...".
bool parseReadableValue(const QByteArray& text, QList<QByteArray>* values, bool* complete = nullptr);
// Undoes sdscatrepr: "\"a\\x01\\\"\"" -> a\x01". False when text is not one quoted string.
bool unquote(const QByteArray& text, QByteArray* bytes);
// The script line a Lua error from Redis names: "user_script:3: attempt ..." or, for errors from
// redis.call on Redis 7, "... script: <sha>, on @user_script:4.". 0 when none is named.
int errorLine(const QString& redisError);
} // namespace LdbTranscript

Q_DECLARE_METATYPE(DebugStep)
