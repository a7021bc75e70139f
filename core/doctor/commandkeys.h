#pragma once

#include <QByteArray>
#include <QVector>

#include <functional>

// Which arguments of a Redis command name keys, read from the command's name and (for the
// commands that count their keys) the number before them: what the doctor needs to tell which
// keys a script touches without running it. The live probe asks the server instead
// (COMMAND GETKEYS); this table covers what limiter scripts call and falls back to "the first
// argument is the key", which is right for most commands.
namespace CommandKeys {

enum class Reach {
    Keys, // the arguments keyArguments() names
    None, // no key and nothing beyond the script: TIME, PING, ECHO
    Server, // no key, but the whole database or server: FLUSHDB, SCAN, PUBLISH, CONFIG, ...
    Unknown, // keys that the arguments alone do not show (XREAD ... STREAMS)
};

// command: upper case. argCount: arguments after the command name. numberAt(i): the literal
// number at argument i, or -1 when it is not one (for ZUNIONSTORE's numkeys and the like).
Reach reach(const QByteArray& command);
QVector<int> keyArguments(const QByteArray& command, int argCount, const std::function<qint64(int)>& numberAt);

} // namespace CommandKeys
