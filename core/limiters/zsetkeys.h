#pragma once

#include <QByteArray>
#include <QString>

class RedisConnection;

// zsetlab's keys: every key it writes starts with "zsetlab:", so it never touches data it did
// not create. It never lists keys (no KEYS, no FLUSHDB/FLUSHALL): it deletes the keys it knows.
namespace ZsetKeys {
inline constexpr char prefix[] = "zsetlab:";

// A key no earlier run used: zsetlab:run:{<time>-<random>}, its name a hash tag (keyslot.h).
QByteArray freshRunKey();
// The key of one of a run's users, its own limiter: "zsetlab:run:{T-R}" -> "zsetlab:run:{T-R:u7}",
// a hash tag of its own so that on a cluster the users spread over the nodes while each user's
// keys stay on one; a key without a closing hash tag gets ":u7" appended.
QByteArray userOfRun(const QByteArray& runKey, int user);
// A user-named key, kept under the prefix: "limiter" -> "zsetlab:limiter"; "zsetlab:x" stays.
QByteArray userKey(const QString& name);
// Empty when `name` can name a key; else why not. A control character would act on the terminal
// each time the key is shown, and U+FFFD stands for bytes that were not UTF-8: the key written
// would not be the one given.
QString userKeyProblem(const QString& name);
bool isOwnKey(const QByteArray& key);
// The keys a built-in limiter may create beside a run's ZSET (the sequence counter): the
// companions of the catalog's stores.
QList<QByteArray> companionKeys(const QByteArray& zsetKey);
// Deletes the ZSET and every companion a built-in limiter makes; refuses (returns false) keys
// outside the prefix. A run deletes through its own limiter's store instead.
bool deleteRunKeys(RedisConnection& connection, const QByteArray& zsetKey);
} // namespace ZsetKeys
