#include "clustermap.h"

#include "keyslot.h"

#include <QCoreApplication>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ClusterMap)
};
} // namespace

bool ClusterMap::read(RedisConnection& connection, ClusterMap* map, QString* error)
{
    const RedisReply reply = connection.command({QByteArrayLiteral("CLUSTER"), QByteArrayLiteral("SLOTS")});
    if (reply.isError() || reply.type() != RedisReply::Type::Array) {
        *error = reply.isError()
            ? Text::tr("CLUSTER SLOTS failed on %1: %2").arg(connection.endpoint().address(), reply.text())
            : Text::tr("CLUSTER SLOTS on %1 gave no slot map.").arg(connection.endpoint().address());
        return false;
    }
    ClusterMap read;
    read.m_owner.fill(-1);
    for (const RedisReply& range : reply.elements()) {
        const auto& parts = range.elements();
        if (parts.size() < 3 || parts[2].elements().size() < 2) {
            *error = Text::tr("CLUSTER SLOTS on %1 gave a range that cannot be read.")
                         .arg(connection.endpoint().address());
            return false;
        }
        const long long first = parts[0].toInteger();
        const long long last = parts[1].toInteger();
        const auto& master = parts[2].elements();
        Node node;
        node.host = master[0].text();
        node.port = int(master[1].toInteger());
        if (master.size() > 2)
            node.id = master[2].bytes();
        // An empty host ("" or "?") means "the address you reached me by" (Redis 7).
        if (node.host.isEmpty() || node.host == QLatin1String("?"))
            node.host = connection.endpoint().host;
        if (first < 0 || last >= KeySlot::slotCount || first > last || node.port <= 0) {
            *error = Text::tr("CLUSTER SLOTS on %1 gave a range that cannot be read.")
                         .arg(connection.endpoint().address());
            return false;
        }
        qsizetype index = read.m_masters.indexOf(node);
        if (index < 0) {
            index = read.m_masters.size();
            read.m_masters.push_back(node);
        }
        for (long long slot = first; slot <= last; ++slot)
            read.m_owner[size_t(slot)] = qint16(index);
    }
    if (read.m_masters.isEmpty()) {
        *error
            = Text::tr("The cluster at %1 serves no slot yet: it is still being set up (redis-cli --cluster create).")
                  .arg(connection.endpoint().address());
        return false;
    }
    *map = std::move(read);
    return true;
}

int ClusterMap::masterOf(int slot) const
{
    if (slot < 0 || slot >= KeySlot::slotCount || m_masters.isEmpty())
        return -1;
    return m_owner[size_t(slot)];
}

int ClusterMap::masterOfKey(const QByteArray& key) const
{
    return masterOf(KeySlot::of(key));
}

bool ClusterMap::serves(const QByteArray& key, const RedisEndpoint& endpoint) const
{
    const int master = masterOfKey(key);
    return master >= 0 && endpoint.transport == RedisEndpoint::Transport::Tcp && m_masters[master].host == endpoint.host
        && m_masters[master].port == endpoint.port;
}

QVector<int> ClusterMap::slotCounts() const
{
    QVector<int> counts(m_masters.size(), 0);
    if (m_masters.isEmpty())
        return counts;
    for (const qint16 owner : m_owner)
        if (owner >= 0)
            ++counts[owner];
    return counts;
}

RedisEndpoint ClusterMap::endpointOf(const Node& node, const RedisEndpoint& like)
{
    RedisEndpoint endpoint = like;
    endpoint.transport = RedisEndpoint::Transport::Tcp;
    endpoint.socketPath.clear();
    endpoint.host = node.host;
    endpoint.port = node.port;
    endpoint.db = 0; // a cluster has database 0 only
    return endpoint;
}

ClusterRedirect ClusterRedirect::of(const RedisReply& reply)
{
    ClusterRedirect redirect;
    if (!reply.isServerError())
        return redirect;
    const QByteArray code = reply.errorCode();
    if (code != "MOVED" && code != "ASK")
        return redirect;
    // "MOVED 3999 127.0.0.1:6381"; an IPv6 host keeps its colons: the port follows the last one.
    const QList<QByteArray> words = reply.bytes().split(' ');
    if (words.size() < 3)
        return redirect;
    const QByteArray address = words[2].trimmed();
    const qsizetype colon = address.lastIndexOf(':');
    bool slotOk = false, portOk = false;
    const int slot = words[1].toInt(&slotOk);
    // "MOVED 3999 :6381": the node has no endpoint to announce; the caller's host is meant.
    const int port = colon >= 0 ? address.mid(colon + 1).toInt(&portOk) : 0;
    if (!slotOk || !portOk)
        return redirect;
    redirect.kind = code == "MOVED" ? Kind::Moved : Kind::Ask;
    redirect.slot = slot;
    redirect.node.host = QString::fromUtf8(address.left(colon));
    redirect.node.port = port;
    return redirect;
}

bool openForKey(RedisConnection& connection, const RedisEndpoint& endpoint, const QByteArray& key,
                const ConnectOptions& options, ClusterMap* map, QString* error, bool allowRemote)
{
    error->clear();
    // The given node first, then the ones the last map named: a master may be gone.
    QVector<RedisEndpoint> seeds {endpoint};
    for (const ClusterMap::Node& node : map->masters())
        if (!(ClusterMap::endpointOf(node, endpoint) == endpoint))
            seeds.push_back(ClusterMap::endpointOf(node, endpoint));
    RedisError firstError;
    for (const RedisEndpoint& seed : seeds) {
        if (!connection.open(seed, options)) {
            if (!firstError.isError())
                firstError = connection.lastError();
            continue;
        }
        if (connection.server().mode != QLatin1String("cluster"))
            return true;
        if (!ClusterMap::read(connection, map, error))
            return false;
        const int master = map->masterOfKey(key);
        if (master < 0) {
            *error = Text::tr("No master of the cluster serves slot %1 (of key %2): a node is down or the slots are "
                              "not all assigned. CLUSTER INFO on any node says more.")
                         .arg(KeySlot::of(key))
                         .arg(QString::fromUtf8(key));
            connection.close();
            return false;
        }
        if (map->serves(key, connection.endpoint()))
            return true;
        const RedisEndpoint target = ClusterMap::endpointOf(map->masters()[master], endpoint);
        if (endpoint.isLocal() && !target.isLocal() && !allowRemote) {
            *error = Text::tr("The cluster serves the key from %1, which is not on this machine. If that server is "
                              "yours to load, give its address (--redis redis://%1) with --allow-remote.")
                         .arg(target.address());
            connection.close();
            return false;
        }
        if (connection.open(target, options))
            return true;
        // The map names a master that does not answer: asking the other nodes again would name
        // it again, each try waiting out the connect timeout.
        *error = connection.lastError().message;
        return false;
    }
    *error = firstError.message;
    return false;
}
