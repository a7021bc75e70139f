#pragma once

#include "privateredisserver.h"
#include "redisendpoint.h"

#include <QString>

#include <chrono>
#include <memory>
#include <vector>

// A Redis Cluster of zsetlab's own, for demos and tests: N masters on free 127.0.0.1 ports (each
// a PrivateRedisServer with its private folder, a password of its own and the cluster bus on port
// + 10000), joined by `redis-cli --cluster create`. Everything stops, and the folders go, when this
// object is destroyed or the owning process dies, as for one private server.
class PrivateRedisCluster
{
public:
    // extraArguments go to every node's redis-server (e.g. --lua-time-limit 50).
    explicit PrivateRedisCluster(int masters = minMasters, QStringList extraArguments = {});
    ~PrivateRedisCluster();
    PrivateRedisCluster(const PrivateRedisCluster&) = delete;
    PrivateRedisCluster& operator=(const PrivateRedisCluster&) = delete;

    // redis-cli --cluster create asks for three masters at least.
    static constexpr int minMasters = 3;
    static constexpr int maxMasters = 16;

    // Starts the masters, assigns the slots and waits until every node says cluster_state:ok.
    // False with errorString() on failure (nothing is left running).
    bool start(std::chrono::milliseconds timeout = std::chrono::seconds(30));
    void stop();
    bool isRunning() const;

    int size() const { return int(m_nodes.size()); }
    // Node i over TCP with the cluster's password: any node takes any command and redirects.
    RedisEndpoint endpoint(int node = 0) const;
    PrivateRedisServer& node(int index) { return *m_nodes[size_t(index)]; }
    int port(int node) const { return m_ports.value(node); }
    QString password() const { return m_password; }
    QString errorString() const { return m_error; }

    // redis-cli on PATH (it joins the nodes), or empty.
    static QString redisCli();
    // Runs redis-cli with the cluster's password (through REDISCLI_AUTH, not on the command line):
    // e.g. {"--cluster", "reshard", ...}. False with errorString() when it fails or times out.
    bool runRedisCli(const QStringList& arguments, std::chrono::milliseconds timeout, QByteArray* output = nullptr);

private:
    bool startNode();
    bool waitUntilHealthy(std::chrono::milliseconds timeout);

    int m_masters;
    QStringList m_extraArguments;
    QString m_password;
    std::vector<std::unique_ptr<PrivateRedisServer>> m_nodes;
    QVector<int> m_ports;
    QString m_error;
};
