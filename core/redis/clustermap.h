#pragma once

#include "redisconnection.h"
#include "redisendpoint.h"

#include <QByteArray>
#include <QString>
#include <QVector>

#include <array>

// Which master of a Redis Cluster serves which hash slot, read from CLUSTER SLOTS. Routing is
// ours (Debian 12 packages no C cluster client for hiredis 0.14): a key goes to the master of
// KeySlot::of(key); a MOVED reply means the map is old (read it again), an ASK reply means one
// command must go to another node after ASKING (a slot being moved).
class ClusterMap
{
public:
    struct Node
    {
        QString host;
        int port = 0;
        QByteArray id;
        bool operator==(const Node& other) const { return host == other.host && port == other.port; }
    };

    // Reads the map from a node of a cluster. False, with *error, when the server is not a
    // cluster node or its answer cannot be read.
    static bool read(RedisConnection& connection, ClusterMap* map, QString* error);

    bool isEmpty() const { return m_masters.isEmpty(); }
    const QVector<Node>& masters() const { return m_masters; }
    // The master serving `slot`, as an index into masters(); -1 when no master serves it.
    int masterOf(int slot) const;
    int masterOfKey(const QByteArray& key) const;
    // True when `endpoint` is (a TCP connection to) the master that serves `key`.
    bool serves(const QByteArray& key, const RedisEndpoint& endpoint) const;
    // How many slots each master serves (by masters() index).
    QVector<int> slotCounts() const;
    // `like` (user, password, options) pointed at a node.
    static RedisEndpoint endpointOf(const Node& node, const RedisEndpoint& like);

private:
    QVector<Node> m_masters;
    std::array<qint16, 16384> m_owner {};
};

// A MOVED or ASK error: the slot and the node to ask.
struct ClusterRedirect
{
    enum class Kind { None, Moved, Ask };
    Kind kind = Kind::None;
    int slot = -1;
    ClusterMap::Node node;

    static ClusterRedirect of(const RedisReply& reply);
    bool isRedirect() const { return kind != Kind::None; }
};

// Opens a connection for work on `key` (and the keys that share its hash tag): on a single
// server, to `endpoint`; on a cluster, to the master that serves the key's slot, found through
// `endpoint` or, when that node is gone, any node of `*map` (refreshed on the way). A node that
// is not on this machine while `endpoint` is, is refused unless allowRemote: firing at a server
// elsewhere needs the user's consent. False with connection.lastError() or *error set.
bool openForKey(RedisConnection& connection, const RedisEndpoint& endpoint, const QByteArray& key,
                const ConnectOptions& options, ClusterMap* map, QString* error, bool allowRemote = false);
