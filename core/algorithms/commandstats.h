#pragma once

#include <QByteArray>
#include <QtGlobal>

class RedisConnection;

// One line of INFO commandstats: how often the server ran a command and the microseconds it spent
// in it. Read before and after a run, the difference is the server's own time per call (the
// network and the client are not in it). Counts every client's calls: on a shared server others'
// calls of the same command are in the difference too.
struct CommandStats
{
    qint64 calls = 0;
    qint64 usec = 0;
    bool known = false; // false: the server did not answer INFO commandstats

    // command in lower case: "evalsha". A command never called yet reads as 0 calls, known.
    static CommandStats read(RedisConnection& connection, const QByteArray& command);
    // Parses the text of INFO commandstats.
    static CommandStats parse(const QByteArray& info, const QByteArray& command);
    // Microseconds per call from `before` to `after`; -1 when unknown or no call was made.
    static double usecPerCall(const CommandStats& before, const CommandStats& after);
};
