#include "clusterbench.h"

#include "benchsupport.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "redis/clustermap.h"
#include "redis/keyslot.h"
#include "redis/privaterediscluster.h"
#include "redis/redisconnection.h"
#include "redisbenchmark.h"

#include <QTimer>

#include <chrono>
#include <memory>
#include <vector>

namespace {
struct Setting
{
    int connections;
    int pipeline;
};

constexpr std::chrono::minutes runTimeout {10};

// One counter of INFO <section>: `field` on the line that starts with `linePrefix`, e.g.
// ("commandstats", "cmdstat_evalsha:", "calls"). 0 when the line is absent (nothing counted yet),
// -1 when INFO failed.
qint64 infoCounter(RedisConnection& node, const QByteArray& section, const QByteArray& linePrefix,
                   const QByteArray& field)
{
    const RedisReply reply = node.command({QByteArrayLiteral("INFO"), section});
    if (reply.isError())
        return -1;
    for (const QByteArray& line : reply.bytes().split('\n')) {
        if (!line.startsWith(linePrefix))
            continue;
        for (const QByteArray& pair : line.mid(linePrefix.size()).trimmed().split(',')) {
            const qsizetype equals = pair.indexOf('=');
            if (equals > 0 && pair.left(equals) == field)
                return pair.mid(equals + 1).toLongLong();
        }
    }
    return 0;
}

// The masters of the cluster, one control connection each, and what they have run so far.
class Masters
{
public:
    bool open(const PrivateRedisCluster& cluster, QString* error)
    {
        for (int i = 0; i < cluster.size(); ++i) {
            auto connection = std::make_unique<RedisConnection>();
            if (!connection->open(cluster.endpoint(i))) {
                *error = connection->lastError().message;
                return false;
            }
            m_nodes.push_back(std::move(connection));
        }
        return true;
    }
    int size() const { return int(m_nodes.size()); }
    RedisConnection& node(int index) { return *m_nodes[size_t(index)]; }

    // EVALSHA calls node `index` ran (the calls it refused, e.g. with MOVED, are not counted).
    qint64 evalshaCalls(int index)
    {
        return infoCounter(node(index), QByteArrayLiteral("commandstats"), QByteArrayLiteral("cmdstat_evalsha:"),
                           QByteArrayLiteral("calls"));
    }
    // MOVED replies of all masters together.
    qint64 movedReplies()
    {
        qint64 total = 0;
        for (int i = 0; i < size(); ++i)
            total += infoCounter(node(i), QByteArrayLiteral("errorstats"), QByteArrayLiteral("errorstat_MOVED:"),
                                 QByteArrayLiteral("count"));
        return total;
    }

private:
    std::vector<std::unique_ptr<RedisConnection>> m_nodes;
};

// What one client did in one run: its figure and the serving master's own account of it.
struct Measured
{
    double rps = -1;
    qint64 calls = 0; // EVALSHA calls the serving master ran during the run
    qint64 moved = 0; // MOVED replies of all masters during the run
    qint64 members = 0; // ZCARD of the key after the run
    QString problem; // why there is no figure, when there is none
};

// Counts around a run on `key`, then deletes the key and its companions on the serving master.
class Witness
{
public:
    Witness(Masters& masters, int serving, const QByteArray& key)
        : m_masters(masters)
        , m_serving(serving)
        , m_key(key)
        , m_calls(masters.evalshaCalls(serving))
        , m_moved(masters.movedReplies())
    { }

    void finish(Measured* measured)
    {
        measured->calls = m_masters.evalshaCalls(m_serving) - m_calls;
        measured->moved = m_masters.movedReplies() - m_moved;
        RedisConnection& node = m_masters.node(m_serving);
        measured->members = node.command({QByteArrayLiteral("ZCARD"), m_key}).toInteger();
        ZsetKeys::deleteRunKeys(node, m_key);
    }

private:
    Masters& m_masters;
    int m_serving;
    QByteArray m_key;
    qint64 m_calls;
    qint64 m_moved;
};

// A key with a hash tag of its own in a slot that node 0 does not serve: zsetlab is given node 0
// and has to route, as it must for most keys on a cluster.
QByteArray chooseKey(const ClusterMap& map, int entryMaster)
{
    for (int i = 0; i < 1000; ++i) {
        QByteArray key
            = i == 0 ? QByteArrayLiteral("zsetlab:run:{bench}") : "zsetlab:run:{bench-" + QByteArray::number(i) + '}';
        if (map.masterOfKey(key) != entryMaster)
            return key;
    }
    return QByteArrayLiteral("zsetlab:run:{bench}");
}

int nodeOfMaster(const PrivateRedisCluster& cluster, const ClusterMap::Node& master)
{
    for (int i = 0; i < cluster.size(); ++i)
        if (cluster.port(i) == master.port)
            return i;
    return -1;
}

int masterOfNode(const PrivateRedisCluster& cluster, const ClusterMap& map, int node)
{
    for (int i = 0; i < map.masters().size(); ++i)
        if (map.masters()[i].port == cluster.port(node))
            return i;
    return -1;
}

Measured runZsetlab(Masters& masters, int serving, const RedisEndpoint& entry, const QByteArray& key, int requests,
                    const Setting& setting)
{
    BurstPlan plan = Bench::requestIdPlan(requests, setting.connections, setting.pipeline);
    plan.key = key;
    plan.keepKey = true; // counted and deleted by the witness
    Measured measured;
    Witness witness(masters, serving, key);
    BurstEngine engine;
    QTimer::singleShot(runTimeout, &engine, &BurstEngine::stop);
    const BurstSummary summary = Bench::runBurst(engine, entry, plan);
    witness.finish(&measured);
    if (summary.failure.isFailure())
        measured.problem = summary.failure.message;
    else if (summary.stopped)
        measured.problem = QStringLiteral("stopped after %1 min").arg(runTimeout.count());
    else
        measured.rps = summary.throughputRps;
    if (summary.errors > 0)
        measured.problem = QStringLiteral("%1 errors (%2)")
                               .arg(summary.errors)
                               .arg(summary.errorMessages.join(QStringLiteral("; ")));
    return measured;
}

Measured runRedisBenchmark(Masters& masters, int serving, const QString& program, const QStringList& target,
                           const QByteArray& key, const QString& member, int requests, const Setting& setting)
{
    Measured measured;
    Witness witness(masters, serving, key);
    const QByteArray sha1 = LimiterCatalog::builtin("request-id")->script.sha1();
    const RedisBenchmark::Result result
        = RedisBenchmark::run(program, target, requests, setting.connections, setting.pipeline,
                              RedisBenchmark::requestIdCall(sha1, key, member), runTimeout);
    witness.finish(&measured);
    measured.rps = result.rps;
    if (result.rps < 0)
        measured.problem = QStringLiteral("exit code %1%2")
                               .arg(result.exitCode)
                               .arg(result.firstError.isEmpty() ? QString() : QStringLiteral(": ") + result.firstError);
    return measured;
}

QString pair(qint64 first, qint64 second)
{
    return QString::number(first) + QStringLiteral(" / ") + QString::number(second);
}
} // namespace

namespace ClusterBench {
int run(const Options& options, QTextStream& out)
{
    const QString program = RedisBenchmark::program();
    if (program.isEmpty()) {
        out << "redis-benchmark not found (Debian: apt-get install redis-tools)" << Qt::endl;
        return 3;
    }
    PrivateRedisCluster cluster(PrivateRedisCluster::minMasters);
    if (!cluster.start()) {
        out << cluster.errorString() << Qt::endl;
        return 3;
    }
    Masters masters;
    QString error;
    if (!masters.open(cluster, &error)) {
        out << error << Qt::endl;
        return 3;
    }
    // EVALSHA runs only a script the node itself has: redis-benchmark loads none, and zsetlab
    // loads it where it sends its calls. Every master gets it, so any of them could take a call.
    const LimiterScript& script = LimiterCatalog::builtin("request-id")->script;
    for (int i = 0; i < masters.size(); ++i) {
        const RedisReply loaded
            = masters.node(i).command({QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("LOAD"), script.source()});
        if (loaded.isError() || loaded.bytes() != script.sha1()) {
            out << "SCRIPT LOAD failed on 127.0.0.1:" << cluster.port(i) << ": " << loaded.text() << Qt::endl;
            return 3;
        }
    }
    ClusterMap map;
    if (!ClusterMap::read(masters.node(0), &map, &error)) {
        out << error << Qt::endl;
        return 3;
    }
    const QByteArray key = chooseKey(map, masterOfNode(cluster, map, 0));
    const int serving = nodeOfMaster(cluster, map.masters().value(map.masterOfKey(key)));
    if (serving < 0) {
        out << "No master of the cluster serves " << key << Qt::endl;
        return 3;
    }
    const QString servingAddress = QStringLiteral("127.0.0.1:%1").arg(cluster.port(serving));
    QStringList ports;
    for (int i = 0; i < cluster.size(); ++i)
        ports << QString::number(cluster.port(i));

    out << "zsetlab burst engine vs redis-benchmark on a Redis Cluster: Redis " << masters.node(0).server().version
        << ", " << cluster.size() << " masters on 127.0.0.1 (ports " << ports.join(QStringLiteral(", ")) << ")\n";
    out << "same script (lua/request-id.lua, loaded on every master), one member per request, one key "
        << QString::fromUtf8(key) << " (slot " << KeySlot::of(key) << ", served by " << servingAddress << ")\n";
    out << options.requests << " requests per run, " << options.rounds << " alternating rounds, median requests/s\n";
    out << "zsetlab: the burst engine given node 0 (127.0.0.1:" << cluster.port(0)
        << "); it routes every lane to the master that serves the key\n";
    out << "redis-benchmark: aimed at " << servingAddress
        << " itself, where a cluster client sends every call on this key; its --cluster mode cannot route a key "
           "it is given (see below)\n";
    out << "calls: EVALSHA calls " << servingAddress << " ran (INFO commandstats); members: ZCARD after each run; "
        << "both summed over the rounds, of " << qint64(options.requests) * options.rounds << "\n\n";
    out << QStringLiteral("%1 %2 %3 %4 %5   %6 %7\n")
               .arg(QStringLiteral("setting"), -16)
               .arg(QStringLiteral("redis-benchmark"), 16)
               .arg(QStringLiteral("zsetlab"), 12)
               .arg(QStringLiteral("ratio"), 8)
               .arg(QStringLiteral("target"), 8)
               .arg(QStringLiteral("calls (rb / zs)"), -22)
               .arg(QStringLiteral("members (rb / zs)"));
    out.flush();

    const QStringList direct = RedisBenchmark::targetArguments(cluster.endpoint(serving));
    const Setting settings[] = {{1, 1}, {50, 1}, {50, 16}};
    const Setting goal = settings[2];
    bool allMet = true;
    qint64 zsetlabMoved = 0;
    QStringList problems;
    for (const Setting& setting : settings) {
        const QString name = QStringLiteral("C=%1 P=%2").arg(setting.connections).arg(setting.pipeline);
        std::vector<double> reference;
        std::vector<double> ours;
        qint64 rbCalls = 0, zsCalls = 0, rbMembers = 0, zsMembers = 0;
        for (int round = 0; round < options.rounds; ++round) {
            const Measured rb = runRedisBenchmark(masters, serving, program, direct, key,
                                                  QStringLiteral("__rand_int__"), options.requests, setting);
            const Measured zs = runZsetlab(masters, serving, cluster.endpoint(0), key, options.requests, setting);
            reference.push_back(rb.rps);
            ours.push_back(zs.rps);
            rbCalls += rb.calls;
            zsCalls += zs.calls;
            rbMembers += rb.members;
            zsMembers += zs.members;
            zsetlabMoved += zs.moved;
            if (!rb.problem.isEmpty())
                problems << name + QStringLiteral(", redis-benchmark: ") + rb.problem;
            if (!zs.problem.isEmpty())
                problems << name + QStringLiteral(", zsetlab: ") + zs.problem;
        }
        const double rb = Bench::median(reference);
        const double zs = Bench::median(ours);
        const double ratio = rb > 0 && zs > 0 ? zs / rb : 0;
        allMet = allMet && ratio >= 0.9;
        out << QStringLiteral("%1 %2 %3 %4 %5   %6 %7\n")
                   .arg(name, -16)
                   .arg(rb, 16, 'f', 0)
                   .arg(zs, 12, 'f', 0)
                   .arg(ratio, 8, 'f', 2)
                   .arg(ratio >= 0.9 ? QStringLiteral("met") : QStringLiteral("MISSED"), 8)
                   .arg(pair(rbCalls, zsCalls), -22)
                   .arg(pair(rbMembers, zsMembers));
        out.flush();
    }
    for (const QString& problem : problems)
        out << "  " << problem << "\n";
    out << "MOVED replies during zsetlab's runs: " << zsetlabMoved
        << " (its lanes connect to the serving master through the slot map)\n";
    out << (allMet ? "throughput target met at every setting\n" : "throughput target MISSED somewhere\n");

    // What redis-benchmark --cluster makes of the same call, at the goal's setting.
    QStringList viaCluster {QStringLiteral("--cluster")};
    viaCluster << RedisBenchmark::targetArguments(cluster.endpoint(0));
    out << "\nredis-benchmark --cluster (entry 127.0.0.1:" << cluster.port(0) << "), C=" << goal.connections
        << " P=" << goal.pipeline << ", " << options.requests << " requests, the same call on "
        << QString::fromUtf8(key) << ":\n";
    const auto tryMember = [&](const char* label, const QString& member) {
        const Measured measured
            = runRedisBenchmark(masters, serving, program, viaCluster, key, member, options.requests, goal);
        out << label
            << (measured.rps >= 0 ? QStringLiteral("%1 requests/s printed").arg(measured.rps, 0, 'f', 0)
                                  : measured.problem)
            << "; " << servingAddress << " ran " << measured.calls << " calls, the masters answered " << measured.moved
            << " with MOVED\n";
    };
    tryMember("  key as given:     ", QStringLiteral("__rand_int__"));
    // A {tag} anywhere in the command makes redis-benchmark re-read the slot map after a MOVED
    // reply and go on; in the member it leaves the key as it is.
    tryMember("  {tag} in member:  ", QStringLiteral("__rand_int__{tag}"));
    out << "  redis-benchmark --cluster connects each client to one master and routes by a {tag} it writes into "
           "the command itself (a slot of that client's master), never by the key: a fixed key goes to every "
           "master through its clients, the masters that do not serve it answer MOVED, and redis-benchmark stops at "
           "the first MOVED or, with "
           "a {tag} in the command, counts it as a finished request. Its figure for one key is therefore not a "
           "throughput; the table's reference is redis-benchmark at the master that serves the key.\n";
    return 0;
}
} // namespace ClusterBench
