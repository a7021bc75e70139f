#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

// One line of Redis's MONITOR output (Redis 7.0, src/replication.c replicationFeedMonitors):
//   1796103280.421510 [0 unix:/tmp/s.sock] "EVALSHA" "15be1f..." "1" "rl:user1" "1710000000000"
//   1796103280.421543 [0 lua] "ZADD" "rl:user1" "1710000000000" "1710000000000"
// The time is seconds.microseconds, then the database and who sent it (a client's address, or
// "lua" for a command a script ran), then every argument quoted as sdscatrepr() writes it.
struct MonitorLine
{
    qint64 timeUs = 0; // microseconds since the epoch, by the server's clock
    int db = 0;
    QByteArray source; // "lua", "unix:/path/to.sock", "127.0.0.1:50412", "[::1]:6379"
    QList<QByteArray> arguments; // the command name first, unescaped (binary safe)

    bool fromScript() const { return source == "lua"; }
    // The command name in upper case ("ZADD"), as clients may send it in any case.
    QByteArray command() const;

    // Parses one line (with or without its line end). On failure returns false and sets *error to
    // what is wrong with the line; `line` may be anything, such as a cut-off or foreign line.
    // quotesMayBeUnescaped: from Valkey 8.1, whose MONITOR left `"` and `\` unescaped
    // (valkey-io/valkey#2035): a line that does not read as Redis escapes it is read that way.
    static bool parse(const QByteArray& line, MonitorLine* out, QString* error = nullptr,
                      bool quotesMayBeUnescaped = false);
};
