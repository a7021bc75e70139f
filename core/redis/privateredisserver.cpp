#include "privateredisserver.h"

#include "redisconnection.h"
#include "serverprograms.h"
#include "tlscertificates.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QThread>

#include <QRandomGenerator>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(PrivateRedisServer)
};

// A small supervisor between zsetlab and redis-server. When it gets SIGTERM (from stop(), or from
// the kernel when zsetlab dies: PR_SET_PDEATHSIG), it stops redis-server, waits for it and removes
// the private folder. "wait" returns early when a trapped signal arrives, hence the second wait.
const char supervisorScript[] = R"sh(dir=$1; shift
"$@" & pid=$!
trap 'kill -TERM $pid 2>/dev/null' TERM INT HUP
wait $pid
wait $pid
rm -rf "$dir"
)sh";
} // namespace

PrivateRedisServer::PrivateRedisServer(QStringList extraArguments, QByteArray configLines, PrivateTls tls)
    : m_extraArguments(std::move(extraArguments))
    , m_configLines(std::move(configLines))
    , m_tls(std::move(tls))
{ }

namespace {
bool loopbackPortIsFree(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(quint16(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool free = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return free;
}
} // namespace

int PrivateRedisServer::freeLoopbackPort(int alsoFreeAt)
{
    for (int attempt = 0; attempt < 200; ++attempt) {
        const int port = int(QRandomGenerator::global()->bounded(20000, 45000));
        if (loopbackPortIsFree(port) && (alsoFreeAt == 0 || loopbackPortIsFree(port + alsoFreeAt)))
            return port;
    }
    return 0;
}

QString PrivateRedisServer::tlsFolder() const
{
    return m_tls.enabled && !m_folder.isEmpty() ? m_folder + QStringLiteral("/tls") : QString();
}

QString PrivateRedisServer::caFile() const
{
    const QString folder = tlsFolder();
    return folder.isEmpty() ? folder : folder + QStringLiteral("/ca.crt");
}

RedisEndpoint PrivateRedisServer::tlsEndpoint() const
{
    RedisEndpoint endpoint;
    if (!m_tls.enabled || m_tlsPort == 0)
        return endpoint;
    endpoint.port = m_tlsPort;
    endpoint.tls.enabled = true;
    endpoint.tls.caFile = caFile();
    if (m_tls.requireClientCertificate) {
        endpoint.tls.certFile = tlsFolder() + QStringLiteral("/client.crt");
        endpoint.tls.keyFile = tlsFolder() + QStringLiteral("/client.key");
    }
    return endpoint;
}

// The CA and the certificates, made once per server; a loopback port for TLS.
bool PrivateRedisServer::prepareTls()
{
    if (!m_tls.enabled || m_certificates)
        return true;
    auto certificates = std::make_unique<TlsCertificates>();
    QString why;
    TlsCertificates::Pair server, client;
    if (certificates->createAuthority(QStringLiteral("zsetlab throw-away CA"), &why))
        server = certificates->issue(QStringLiteral("zsetlab private redis-server"), m_tls.names, m_tls.validFrom,
                                     m_tls.validUntil, false, &why);
    if (server.isValid())
        client = certificates->issue(QStringLiteral("zsetlab client"), {}, -3600, 30LL * 24 * 3600, true, &why);
    if (!client.isValid()) {
        m_error = Text::tr("Cannot make certificates for the private TLS server: %1").arg(why);
        return false;
    }
    m_serverCertificate = server.certificate;
    m_serverKey = server.key;
    m_clientCertificate = client.certificate;
    m_clientKey = client.key;
    m_certificates = std::move(certificates);
    m_tlsPort = freeLoopbackPort();
    if (m_tlsPort == 0) {
        m_error = Text::tr("Found no free port on 127.0.0.1 for the private TLS server.");
        return false;
    }
    return true;
}

bool PrivateRedisServer::writeTlsFiles()
{
    if (!m_tls.enabled)
        return true;
    const QString folder = tlsFolder();
    QString why;
    const bool written = QDir().mkpath(folder)
        && TlsCertificates::write(caFile(), m_certificates->authority().certificate, &why)
        && TlsCertificates::write(folder + QStringLiteral("/server.crt"), m_serverCertificate, &why)
        && TlsCertificates::write(folder + QStringLiteral("/server.key"), m_serverKey, &why)
        && TlsCertificates::write(folder + QStringLiteral("/client.crt"), m_clientCertificate, &why)
        && TlsCertificates::write(folder + QStringLiteral("/client.key"), m_clientKey, &why);
    if (!written)
        m_error = Text::tr("Cannot write the private TLS server's certificates: %1").arg(why);
    return written;
}

QStringList PrivateRedisServer::tlsArguments() const
{
    if (!m_tls.enabled)
        return {};
    const QString folder = tlsFolder();
    return {QStringLiteral("--tls-port"),
            QString::number(m_tlsPort),
            QStringLiteral("--bind"),
            QStringLiteral("127.0.0.1"),
            QStringLiteral("--tls-cert-file"),
            folder + QStringLiteral("/server.crt"),
            QStringLiteral("--tls-key-file"),
            folder + QStringLiteral("/server.key"),
            QStringLiteral("--tls-ca-cert-file"),
            caFile(),
            QStringLiteral("--tls-auth-clients"),
            m_tls.requireClientCertificate ? QStringLiteral("yes") : QStringLiteral("no")};
}

PrivateRedisServer::~PrivateRedisServer()
{
    stop();
}

QString PrivateRedisServer::executable()
{
    return ServerPrograms::server();
}

QString PrivateRedisServer::socketPath() const
{
    return m_folder.isEmpty() ? QString() : m_folder + QStringLiteral("/redis.sock");
}

qint64 PrivateRedisServer::serverPid() const
{
    // The supervisor's only child is redis-server.
    if (!m_process)
        return 0;
    QFile children(QStringLiteral("/proc/%1/task/%1/children").arg(m_process->processId()));
    if (!children.open(QIODevice::ReadOnly))
        return 0;
    return children.readAll().trimmed().split(' ').value(0).toLongLong();
}

bool PrivateRedisServer::isRunning() const
{
    return m_process && m_process->state() == QProcess::Running;
}

bool PrivateRedisServer::start(std::chrono::milliseconds timeout)
{
    stop();
    m_error.clear();
    const QString server = executable();
    if (server.isEmpty()) {
        const QString chosen = qEnvironmentVariable("ZSETLAB_REDIS_SERVER");
        m_error = chosen.isEmpty()
            ? Text::tr("redis-server is not installed (not on PATH). Install it (Debian: apt-get install "
                       "redis-server) or give the URL of a running server.")
            : Text::tr("ZSETLAB_REDIS_SERVER names %1, which is not a program here: give a path or a name on PATH, "
                       "or unset it for redis-server.")
                  .arg(chosen);
        return false;
    }

    m_dir = std::make_unique<QTemporaryDir>(QDir::tempPath() + QStringLiteral("/zsetlab-redis-XXXXXX"));
    if (!m_dir->isValid()) {
        m_error = Text::tr("Cannot create a private folder for redis-server in %1: %2")
                      .arg(QDir::tempPath(), m_dir->errorString());
        m_dir.reset();
        return false;
    }
    m_folder = m_dir->path();
    QFile::setPermissions(m_folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    if (!prepareTls()) {
        stop();
        return false;
    }
    return launch(timeout);
}

bool PrivateRedisServer::restart(std::chrono::milliseconds timeout)
{
    if (m_folder.isEmpty())
        return start(timeout);
    // The supervisor removes the folder when redis-server ends: let it finish before the folder
    // is made again, or it would remove the new one.
    stopProcess();
    m_error.clear();
    if (!QDir().mkpath(m_folder)) {
        m_error = Text::tr("Cannot make the private folder %1 again.").arg(m_folder);
        stop();
        return false;
    }
    QFile::setPermissions(m_folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return launch(timeout);
}

namespace {
// /bin/sh's arguments: the supervisor script, then redis-server's (its config file first), then
// `more` (TLS, the caller's).
QStringList supervisorArguments(const QString& folder, const QString& server, const QStringList& configFile,
                                const QString& socket, const QStringList& more)
{
    QStringList arguments {QStringLiteral("-c"),
                           QString::fromLatin1(supervisorScript),
                           QStringLiteral("zsetlab-redis"),
                           folder,
                           server,
                           QStringLiteral("--port"),
                           QStringLiteral("0"),
                           QStringLiteral("--unixsocket"),
                           socket,
                           QStringLiteral("--unixsocketperm"),
                           QStringLiteral("700"),
                           QStringLiteral("--dir"),
                           folder,
                           QStringLiteral("--save"),
                           QString(),
                           QStringLiteral("--appendonly"),
                           QStringLiteral("no"),
                           QStringLiteral("--daemonize"),
                           QStringLiteral("no"),
                           QStringLiteral("--logfile"),
                           folder + QStringLiteral("/redis.log")};
    arguments << more;
    const qsizetype serverAt = arguments.indexOf(server);
    for (qsizetype i = 0; i < configFile.size(); ++i)
        arguments.insert(serverAt + 1 + i, configFile[i]);
    return arguments;
}

// The last lines redis-server and its log said, for a server that did not start.
QString lastWords(const QString& folder, QProcess& process)
{
    QFile log(folder + QStringLiteral("/redis.log"));
    QString why = log.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(log.readAll()).trimmed() : QString();
    why = QString(QString::fromLocal8Bit(process.readAll()).trimmed() + QLatin1Char('\n') + why).trimmed();
    const QStringList lines = why.split(QLatin1Char('\n'));
    return lines.mid(qMax(0, lines.size() - 4)).join(QLatin1Char('\n'));
}
} // namespace

bool PrivateRedisServer::launch(std::chrono::milliseconds timeout)
{
    const QString server = executable();
    QStringList configFile; // redis-server's first argument, when there is one
    if (!m_configLines.isEmpty()) {
        QFile file(m_folder + QStringLiteral("/redis.conf"));
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
            || !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner) || file.write(m_configLines) < 0) {
            m_error = Text::tr("Cannot write %1: %2").arg(file.fileName(), file.errorString());
            stop();
            return false;
        }
        configFile << file.fileName();
    }
    if (!writeTlsFiles()) {
        stop();
        return false;
    }
    const QStringList arguments
        = supervisorArguments(m_folder, server, configFile, socketPath(), tlsArguments() + m_extraArguments);
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels); // fatal config errors go to stderr
    const pid_t owner = getpid();
    m_process->setChildProcessModifier([owner] {
        // Runs in the child between fork and exec: ask the kernel to SIGTERM the supervisor when
        // zsetlab dies, even by SIGKILL.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != owner)
            ::raise(SIGTERM);
    });
    m_process->start(QStringLiteral("/bin/sh"), arguments);
    if (!m_process->waitForStarted(5000)) {
        m_error = Text::tr("Cannot run /bin/sh to start redis-server: %1").arg(m_process->errorString());
        stop();
        return false;
    }

    // Poll until the server answers PING. Starting takes a few milliseconds; the deadline only
    // matters when something is wrong (a bad option, a full disk).
    const QDeadlineTimer deadline(timeout);
    ConnectOptions options;
    options.connectTimeout = std::chrono::milliseconds(500);
    options.commandTimeout = std::chrono::milliseconds(1000);
    while (true) {
        if (QFile::exists(socketPath())) {
            RedisConnection probe;
            const bool up = probe.open(endpoint(), options)
                || probe.lastError().kind == RedisError::Kind::PasswordRequired; // requirepass given
            if (up) {
                QObject::connect(m_process.get(), &QProcess::finished, m_process.get(), [this] {
                    if (m_onExit)
                        m_onExit();
                });
                return true;
            }
        }
        if (m_process->state() != QProcess::Running || deadline.hasExpired())
            break;
        m_process->waitForFinished(10); // also the pause between two probes
    }
    const QString why = lastWords(m_folder, *m_process);
    m_error = m_process->state() == QProcess::Running ? Text::tr("The private redis-server did not start in time.")
                                                      : Text::tr("The private redis-server did not start.");
    if (!why.isEmpty())
        m_error += QLatin1Char(' ') + Text::tr("Its log says:") + QLatin1Char('\n') + why;
    stop();
    return false;
}

void PrivateRedisServer::stop()
{
    stopProcess();
    if (m_dir) {
        m_dir->remove();
        m_dir.reset();
    }
    m_folder.clear();
}

void PrivateRedisServer::stopProcess()
{
    if (m_process) {
        QObject::disconnect(m_process.get(), &QProcess::finished, nullptr, nullptr); // not by itself
        if (m_process->state() != QProcess::NotRunning) {
            m_process->terminate();
            if (!m_process->waitForFinished(5000)) {
                if (const qint64 pid = serverPid())
                    ::kill(static_cast<pid_t>(pid), SIGKILL);
                m_process->kill();
                m_process->waitForFinished(2000);
            }
        }
        m_process.reset();
    }
}
