#include "testredis.h"

#include "limiters/zsetkeys.h"

#include <QCoreApplication>
#include <QtTest>

#include <memory>

namespace TestRedis {

PrivateRedisServer& server()
{
    static std::unique_ptr<PrivateRedisServer> instance;
    if (!instance) {
        instance = std::make_unique<PrivateRedisServer>();
        if (!instance->start())
            qFatal("cannot start the test redis-server: %s", qPrintable(instance->errorString()));
        // Stopped before QCoreApplication goes, so its QProcess dies on the thread that made it.
        qAddPostRoutine([] { instance.reset(); });
    }
    return *instance;
}

PrivateRedisCluster& cluster()
{
    static std::unique_ptr<PrivateRedisCluster> instance;
    if (!instance) {
        instance = std::make_unique<PrivateRedisCluster>(3);
        if (!instance->start())
            qFatal("cannot start the test Redis Cluster: %s", qPrintable(instance->errorString()));
        qAddPostRoutine([] { instance.reset(); });
    }
    return *instance;
}

RedisEndpoint endpoint()
{
    return server().endpoint();
}

bool connect(RedisConnection& connection)
{
    if (!connection.open(endpoint())) {
        qWarning("cannot connect to the test redis-server: %s", qPrintable(connection.lastError().message));
        return false;
    }
    return true;
}

QByteArray uniqueKey(const char* purpose)
{
    static int counter = 0;
    return QByteArray(ZsetKeys::prefix) + "test:" + purpose + ':' + QByteArray::number(++counter);
}

} // namespace TestRedis
