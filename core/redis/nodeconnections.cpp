#include "nodeconnections.h"

#include <QCoreApplication>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(NodeConnections)
};
} // namespace

bool NodeConnections::open(const RedisEndpoint& endpoint, const ConnectOptions& options, QString* error,
                           bool allowRemote)
{
    m_map = {};
    m_nodes.clear();
    auto given = std::make_unique<RedisConnection>();
    if (!given->open(endpoint, options)) {
        *error = given->lastError().message;
        return false;
    }
    if (given->server().mode != QLatin1String("cluster")) {
        m_nodes.push_back(std::move(given));
        return true;
    }
    ClusterMap map;
    if (!ClusterMap::read(*given, &map, error))
        return false;
    for (const ClusterMap::Node& master : map.masters()) {
        const RedisEndpoint node = ClusterMap::endpointOf(master, endpoint);
        if (endpoint.isLocal() && !node.isLocal() && !allowRemote) {
            *error = Text::tr("The cluster has a master at %1, which is not on this machine: zsetlab does not "
                              "write to a server elsewhere without consent.")
                         .arg(node.address());
            return false;
        }
        auto connection = std::make_unique<RedisConnection>();
        if (!connection->open(node, options)) {
            *error = Text::tr("The cluster's master %1: %2").arg(node.address(), connection->lastError().message);
            return false;
        }
        m_nodes.push_back(std::move(connection));
    }
    if (m_nodes.empty()) {
        *error = Text::tr("The cluster has no master serving slots: redis-cli --cluster fix repairs it.");
        return false;
    }
    m_map = map;
    return true;
}
