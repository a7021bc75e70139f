#include "commandkeys.h"

#include <QList>

namespace CommandKeys {
namespace {
bool oneOf(const QByteArray& command, std::initializer_list<const char*> names)
{
    for (const char* name : names) {
        if (command == name)
            return true;
    }
    return false;
}

QVector<int> range(int from, int to, int step = 1)
{
    QVector<int> list;
    for (int i = from; i < to; i += step)
        list << i;
    return list;
}
} // namespace

Reach reach(const QByteArray& command)
{
    if (oneOf(command, {"TIME", "PING", "ECHO"}))
        return Reach::None;
    // Commands that list or empty the keyspace, compared by name (zsetlab never sends them).
    if (command == "FLUSHDB" || command == "FLUSHALL" || command == "KEYS")
        return Reach::Server;
    if (oneOf(command,
              {"SCAN", "RANDOMKEY", "DBSIZE", "SWAPDB", "SELECT", "PUBLISH", "SPUBLISH", "CONFIG", "DEBUG", "CLIENT",
               "SCRIPT", "FUNCTION", "SHUTDOWN", "SAVE", "BGSAVE", "INFO", "ACL", "SLOWLOG"}))
        return Reach::Server;
    if (oneOf(command, {"XREAD", "XREADGROUP", "SORT", "SORT_RO", "MIGRATE"}))
        return Reach::Unknown;
    return Reach::Keys;
}

QVector<int> keyArguments(const QByteArray& command, int argCount, const std::function<qint64(int)>& numberAt)
{
    if (reach(command) != Reach::Keys || argCount == 0)
        return {};
    if (oneOf(command,
              {"DEL", "UNLINK", "EXISTS", "TOUCH", "MGET", "WATCH", "SINTER", "SUNION", "SDIFF", "SINTERSTORE",
               "SUNIONSTORE", "SDIFFSTORE", "PFCOUNT", "PFMERGE", "RENAME", "RENAMENX"}))
        return range(0, argCount);
    if (oneOf(command, {"MSET", "MSETNX"}))
        return range(0, argCount, 2);
    if (oneOf(command,
              {"SMOVE", "LMOVE", "BLMOVE", "RPOPLPUSH", "BRPOPLPUSH", "COPY", "ZRANGESTORE", "GEOSEARCHSTORE", "LCS"}))
        return range(0, std::min(2, argCount));
    if (oneOf(command, {"BLPOP", "BRPOP", "BZPOPMIN", "BZPOPMAX"}))
        return range(0, argCount - 1);
    // A subcommand first, then the key: OBJECT ENCODING key, MEMORY USAGE key, PFDEBUG TODENSE key.
    if (oneOf(command, {"OBJECT", "MEMORY", "PFDEBUG"}))
        return argCount > 1 ? QVector<int> {1} : QVector<int> {};
    const bool destFirst = oneOf(command, {"ZUNIONSTORE", "ZINTERSTORE", "ZDIFFSTORE"});
    if (destFirst || oneOf(command, {"ZUNION", "ZINTER", "ZDIFF", "ZINTERCARD", "SINTERCARD", "LMPOP", "ZMPOP"})) {
        const int at = destFirst ? 1 : 0;
        const qint64 n = numberAt(at);
        QVector<int> keys = destFirst ? QVector<int> {0} : QVector<int> {};
        if (n > 0)
            keys << range(at + 1, std::min<int>(argCount, at + 1 + int(std::min<qint64>(n, argCount))));
        return keys;
    }
    return {0};
}

} // namespace CommandKeys
