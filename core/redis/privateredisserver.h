#pragma once

// PrivateRedisServer: a redis-server that zsetlab starts, owns and stops, on a unix socket (and TLS
// on loopback).

#include "redisendpoint.h"

#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <chrono>
#include <functional>
#include <memory>

class TlsCertificates;

// A private server that also speaks TLS on a loopback port, with certificates of a throw-away
// CA made in its private folder. The fields other than enabled shape the server's certificate,
// so that tests can give it an expired one or one for another name.
struct PrivateTls
{
    bool enabled = false;
    bool requireClientCertificate = false; // tls-auth-clients yes: clients get a certificate too
    QStringList names {QStringLiteral("127.0.0.1"), QStringLiteral("localhost")};
    qint64 validFrom = -3600; // seconds from now
    qint64 validUntil = 30LL * 24 * 3600;
};

// A redis-server of zsetlab's own: a unix socket in a private temporary folder, no TCP port, no
// persistence. It stops, and its folder goes, when this object is destroyed, and also when the
// owning process dies without cleaning up (the child gets SIGTERM from the kernel; see start()).
// Create and destroy it on a long-lived thread, normally the main thread: the kernel signals the
// server when the thread that started it ends.
class PrivateRedisServer
{
public:
    // configLines go into a file in the private folder (readable by its owner only), not on the
    // command line, where any local user could read them: passwords.
    explicit PrivateRedisServer(QStringList extraArguments = {}, QByteArray configLines = {}, PrivateTls tls = {});
    ~PrivateRedisServer();
    PrivateRedisServer(const PrivateRedisServer&) = delete;
    PrivateRedisServer& operator=(const PrivateRedisServer&) = delete;

    // redis-server on PATH, or empty.
    static QString executable();

    // Starts the server and waits until it answers PING. False with errorString() on failure.
    bool start(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // Starts a new redis-server on the same socket (empty, as after a crash and restart): clients
    // that keep the URL find it again. Stops the current one first if it still runs.
    bool restart(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    void stop();
    bool isRunning() const;
    // Called (on the thread that started the server) when redis-server ends by itself: killed,
    // crashed or shut down by a client; not after stop() or restart(). Do not destroy or restart
    // the server from inside the call: queue that.
    void setExitHandler(std::function<void()> handler) { m_onExit = std::move(handler); }

    RedisEndpoint endpoint() const { return RedisEndpoint::unixSocket(socketPath()); }
    // With PrivateTls: rediss://127.0.0.1:port, trusting the private CA, with a client certificate
    // when the server asks for one. Else empty.
    RedisEndpoint tlsEndpoint() const;
    int tlsPort() const { return m_tlsPort; }
    // The private CA's certificate (PEM), to pass as --tls-ca; empty without TLS.
    QString caFile() const;
    QString tlsFolder() const;
    // A random port from 20000 to 44999 on 127.0.0.1 that nothing listens on (a bind would
    // succeed), nor on port + alsoFreeAt when that is not 0 (a cluster node's bus port); 0 when
    // none is found. Another program may take it before the server binds it.
    static int freeLoopbackPort(int alsoFreeAt = 0);
    QString socketPath() const;
    QString folder() const { return m_folder; }
    qint64 serverPid() const;
    QString errorString() const { return m_error; }

private:
    bool launch(std::chrono::milliseconds timeout);
    bool prepareTls();
    bool writeTlsFiles();
    QStringList tlsArguments() const;
    void stopProcess();

    QStringList m_extraArguments;
    QByteArray m_configLines;
    PrivateTls m_tls;
    std::unique_ptr<TlsCertificates> m_certificates; // made once: a restart keeps them
    QByteArray m_serverCertificate, m_serverKey, m_clientCertificate, m_clientKey;
    int m_tlsPort = 0;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<QProcess> m_process;
    QString m_folder;
    QString m_error;
    std::function<void()> m_onExit;
};
