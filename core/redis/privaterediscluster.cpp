#include "privaterediscluster.h"

#include "redisconnection.h"
#include "serverprograms.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QThread>

#include <unistd.h>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(PrivateRedisCluster)
};
} // namespace

PrivateRedisCluster::PrivateRedisCluster(int masters, QStringList extraArguments)
    : m_masters(std::clamp(masters, minMasters, maxMasters))
    , m_extraArguments(std::move(extraArguments))
{ }

PrivateRedisCluster::~PrivateRedisCluster()
{
    stop();
}

QString PrivateRedisCluster::redisCli()
{
    return ServerPrograms::cli();
}

RedisEndpoint PrivateRedisCluster::endpoint(int node) const
{
    RedisEndpoint endpoint;
    endpoint.transport = RedisEndpoint::Transport::Tcp;
    endpoint.host = QStringLiteral("127.0.0.1");
    endpoint.port = m_ports.value(node);
    endpoint.password = m_password;
    return endpoint;
}

bool PrivateRedisCluster::isRunning() const
{
    if (m_nodes.empty())
        return false;
    for (const auto& node : m_nodes)
        if (!node->isRunning())
            return false;
    return true;
}

bool PrivateRedisCluster::startNode()
{
    // A few tries: a free port may be taken between the check and the bind.
    for (int attempt = 0; attempt < 5; ++attempt) {
        const int port = PrivateRedisServer::freeLoopbackPort(10000); // and its cluster bus port
        if (port == 0) {
            m_error = Text::tr("Found no free pair of ports (port and port + 10000) on 127.0.0.1 for a cluster node.");
            return false;
        }
        auto node = std::make_unique<PrivateRedisServer>(
            QStringList {QStringLiteral("--port"), QString::number(port), QStringLiteral("--bind"),
                         QStringLiteral("127.0.0.1"), QStringLiteral("--protected-mode"), QStringLiteral("yes"),
                         QStringLiteral("--cluster-enabled"), QStringLiteral("yes"),
                         QStringLiteral("--cluster-config-file"), QStringLiteral("nodes.conf"),
                         QStringLiteral("--cluster-node-timeout"), QStringLiteral("2000"),
                         // A master that dies takes only its own slots down: the others go on
                         // serving theirs, as the fault demos and tests expect.
                         QStringLiteral("--cluster-require-full-coverage"), QStringLiteral("no")}
                + m_extraArguments,
            // In its private folder, not on the command line, where any local user could read it.
            QByteArray("requirepass " + m_password.toLatin1() + "\nmasterauth " + m_password.toLatin1() + '\n'));
        if (node->start()) {
            m_nodes.push_back(std::move(node));
            m_ports.push_back(port);
            return true;
        }
        m_error = node->errorString();
    }
    return false;
}

bool PrivateRedisCluster::start(std::chrono::milliseconds timeout)
{
    stop();
    m_error.clear();
    if (redisCli().isEmpty()) {
        m_error = Text::tr("redis-cli is not installed (not on PATH); it joins the nodes into a cluster. Install it "
                           "(Debian: apt-get install redis-tools).");
        return false;
    }
    const QDeadlineTimer deadline(timeout);
    m_password = QString::number(QRandomGenerator::system()->generate64(), 36)
        + QString::number(QRandomGenerator::system()->generate64(), 36);
    for (int i = 0; i < m_masters; ++i) {
        if (!startNode()) {
            stop();
            return false;
        }
    }
    QStringList create {QStringLiteral("--cluster"), QStringLiteral("create")};
    for (int i = 0; i < m_masters; ++i)
        create << QStringLiteral("127.0.0.1:%1").arg(m_ports[i]);
    create << QStringLiteral("--cluster-replicas") << QStringLiteral("0") << QStringLiteral("--cluster-yes");
    const auto left = std::chrono::milliseconds(std::max<qint64>(1000, deadline.remainingTime()));
    if (!runRedisCli(create, left) || !waitUntilHealthy(std::chrono::milliseconds(deadline.remainingTime()))) {
        const QString why = m_error;
        stop();
        m_error = why;
        return false;
    }
    return true;
}

bool PrivateRedisCluster::runRedisCli(const QStringList& arguments, std::chrono::milliseconds timeout,
                                      QByteArray* output)
{
    QProcess cli;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("REDISCLI_AUTH"), m_password);
    cli.setProcessEnvironment(environment);
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(redisCli(), arguments);
    const bool ended = cli.waitForFinished(int(timeout.count()));
    const QByteArray said = cli.readAll();
    if (output)
        *output = said;
    if (ended && cli.exitStatus() == QProcess::NormalExit && cli.exitCode() == 0)
        return true;
    if (!ended) {
        cli.kill();
        cli.waitForFinished(2000);
    }
    const QStringList lines = QString::fromLocal8Bit(said).trimmed().split(QLatin1Char('\n'));
    m_error = Text::tr("redis-cli %1 %2. It said:\n%3")
                  .arg(arguments.mid(0, 2).join(QLatin1Char(' ')),
                       ended ? Text::tr("failed") : Text::tr("did not finish in time"),
                       lines.mid(std::max(0, int(lines.size()) - 6)).join(QLatin1Char('\n')));
    return false;
}

bool PrivateRedisCluster::waitUntilHealthy(std::chrono::milliseconds timeout)
{
    // redis-cli returns once the nodes agree on the configuration; each node still has to see
    // every slot served before it takes commands (cluster_state:ok).
    const QDeadlineTimer deadline(timeout);
    ConnectOptions options;
    options.connectTimeout = std::chrono::milliseconds(500);
    options.commandTimeout = std::chrono::milliseconds(1000);
    int healthy = 0;
    while (!deadline.hasExpired()) {
        healthy = 0;
        for (int i = 0; i < size(); ++i) {
            RedisConnection connection;
            if (!connection.open(endpoint(i), options))
                break;
            const RedisReply info = connection.command({QByteArrayLiteral("CLUSTER"), QByteArrayLiteral("INFO")});
            if (!info.bytes().contains("cluster_state:ok"))
                break;
            ++healthy;
        }
        if (healthy == size())
            return true;
        QThread::msleep(20); // the nodes gossip every 100 ms; this only paces the polls
    }
    m_error = Text::tr("The private cluster did not become healthy in time (%1 of %2 nodes said cluster_state:ok).")
                  .arg(healthy)
                  .arg(size());
    return false;
}

void PrivateRedisCluster::stop()
{
    for (auto& node : m_nodes)
        node->stop();
    m_nodes.clear();
    m_ports.clear();
}
