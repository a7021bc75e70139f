#pragma once

#include "redis/privaterediscluster.h"
#include "redis/privateredisserver.h"
#include "redis/redisconnection.h"

// The test fixture: one private redis-server per test program, started on first use on its own
// unix socket, so no test depends on a server someone else started. Gone when the program ends.
namespace TestRedis {
// The shared server; QFAIL-style callers check isRunning().
PrivateRedisServer& server();
RedisEndpoint endpoint();
// A fresh connection to the shared server (asserts it opens).
bool connect(RedisConnection& connection);
// A private 3-master Redis Cluster on free 127.0.0.1 ports, started on first use (a few seconds).
PrivateRedisCluster& cluster();
// A key of the zsetlab prefix that no other test of this program uses.
QByteArray uniqueKey(const char* purpose);
} // namespace TestRedis
