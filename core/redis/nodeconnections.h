#pragma once

#include "clustermap.h"
#include "redisconnection.h"

#include <QByteArray>
#include <QString>

#include <algorithm>
#include <memory>
#include <vector>

// One connection to every master of a cluster, or the one server: for work on many keys from one
// thread (an app's users, each with its key), each key's commands on the connection of the master
// that serves its slot. The slot map is read once; a key that moves later gets MOVED.
class NodeConnections
{
public:
    // Connects to `endpoint` and, when it is a cluster node, to every master. A master that is
    // not on this machine while `endpoint` is, is refused unless allowRemote. False with *error.
    bool open(const RedisEndpoint& endpoint, const ConnectOptions& options, QString* error, bool allowRemote = false);
    bool isCluster() const { return !m_map.isEmpty(); }
    // The first connection: the given server, or the master of slot map index 0.
    RedisConnection& first() { return *m_nodes.front(); }
    // The connection of the master that serves `key` (the server itself when not a cluster).
    RedisConnection& forKey(const QByteArray& key) { return *m_nodes[size_t(std::max(indexOfKey(key), 0))]; }
    // Its index in all(); -1 when no master serves the key's slot.
    int indexOfKey(const QByteArray& key) const { return m_map.isEmpty() ? 0 : m_map.masterOfKey(key); }
    const std::vector<std::unique_ptr<RedisConnection>>& all() const { return m_nodes; }
    // False when any of them was lost (the server dropped it, or it was never opened).
    bool allOpen() const
    {
        return !m_nodes.empty()
            && std::all_of(m_nodes.begin(), m_nodes.end(), [](const auto& connection) { return connection->isOpen(); });
    }

private:
    ClusterMap m_map;
    std::vector<std::unique_ptr<RedisConnection>> m_nodes; // by m_map.masters() index
};
