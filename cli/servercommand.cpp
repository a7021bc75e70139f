#include "servercommand.h"

#include "redis/privaterediscluster.h"
#include "redis/privateredisserver.h"
#include "redis/tlsoptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include "base/interrupts.h"

int runServerCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Start a private redis-server (unix socket in a private folder, no TCP port, no "
                       "persistence), print its URL on stdout and keep it running until Ctrl+C or SIGTERM.\n"
                       "With --cluster N: a Redis Cluster of N masters on free 127.0.0.1 ports (a password of "
                       "its own, private folders); prints the URL of one node (any node routes), then the "
                       "others on stderr.\n"
                       "With --tls: the server also speaks TLS on a free 127.0.0.1 port, with certificates of a "
                       "throw-away CA made in its private folder; prints the rediss:// URL on stdout and the CA "
                       "file to pass as --tls-ca on stderr.\n\n"
                       "Examples: zsetlab-cli server\n"
                       "          zsetlab-cli server --cluster 3\n"
                       "          zsetlab-cli server --tls"));
    parser.addHelpOption();
    const QCommandLineOption cluster(QStringLiteral("cluster"),
                                     QStringLiteral("Start a cluster of N masters (%1 to %2) instead of one server.")
                                         .arg(PrivateRedisCluster::minMasters)
                                         .arg(PrivateRedisCluster::maxMasters),
                                     QStringLiteral("N"));
    parser.addOption(cluster);
    const QCommandLineOption tls(QStringLiteral("tls"),
                                 QStringLiteral("Also speak TLS on a loopback port (throw-away CA and certificates)."));
    const QCommandLineOption clientCertificates(
        QStringLiteral("tls-auth-clients"),
        QStringLiteral("With --tls: ask clients for a certificate (one is made beside the CA)."));
    parser.addOption(tls);
    parser.addOption(clientCertificates);
    parser.addPositionalArgument(QStringLiteral("server"), QStringLiteral("The command."));
    if (!parser.parse(arguments)) {
        QTextStream(stderr) << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return 0;
    }

    if (parser.isSet(clientCertificates) && !parser.isSet(tls)) {
        QTextStream(stderr) << "--tls-auth-clients goes with --tls.\n";
        return 2;
    }
    if (parser.isSet(cluster) && parser.isSet(tls)) {
        QTextStream(stderr) << "--tls is for one server; --cluster starts plain TCP nodes.\n";
        return 2;
    }
    if (parser.isSet(cluster)) {
        bool ok = false;
        const int masters = parser.value(cluster).toInt(&ok);
        if (!ok || masters < PrivateRedisCluster::minMasters || masters > PrivateRedisCluster::maxMasters) {
            QTextStream(stderr) << "--cluster takes a number of masters from " << PrivateRedisCluster::minMasters
                                << " to " << PrivateRedisCluster::maxMasters << ", not \"" << parser.value(cluster)
                                << "\".\n";
            return 2;
        }
        PrivateRedisCluster nodes(masters);
        if (!nodes.start()) {
            QTextStream(stderr) << nodes.errorString() << '\n';
            return 3;
        }
        // The password is the cluster's own: print it whole, or the URL could not be used.
        auto url = [&nodes](int i) {
            return QStringLiteral("redis://:%1@127.0.0.1:%2").arg(nodes.password()).arg(nodes.port(i));
        };
        QTextStream(stdout) << url(0) << Qt::endl;
        QTextStream err(stderr);
        err << "Private Redis Cluster of " << masters << " masters running:";
        for (int i = 0; i < nodes.size(); ++i)
            err << "\n  " << url(i) << "  (folder " << nodes.node(i).folder() << ')';
        err << "\nCtrl+C stops it and removes the folders." << Qt::endl;
        onInterrupt([] { QCoreApplication::quit(); });
        QCoreApplication::exec();
        nodes.stop();
        return 0;
    }

    PrivateTls privateTls;
    privateTls.enabled = parser.isSet(tls);
    privateTls.requireClientCertificate = parser.isSet(clientCertificates);
    PrivateRedisServer server({}, {}, privateTls);
    if (!server.start()) {
        QTextStream(stderr) << server.errorString() << '\n';
        return 3;
    }
    if (privateTls.enabled) {
        const RedisEndpoint endpoint = server.tlsEndpoint();
        QTextStream(stdout) << endpoint.displayUrl() << Qt::endl;
        QTextStream err(stderr);
        err << "Private Redis running, TLS on " << endpoint.address() << " (also " << server.endpoint().displayUrl()
            << ")\n  CA certificate: " << endpoint.tls.caFile << '\n';
        if (privateTls.requireClientCertificate)
            err << "  client certificate: " << endpoint.tls.certFile << "\n  client key: " << endpoint.tls.keyFile
                << '\n';
        const QString flags = TlsOptions::arguments(endpoint.tls).join(QLatin1Char(' '));
        err << "  e.g. zsetlab-cli run --redis " << endpoint.displayUrl() << ' ' << flags
            << "\nCtrl+C stops it and removes " << server.folder() << Qt::endl;
    } else {
        QTextStream(stdout) << server.endpoint().displayUrl() << Qt::endl;
        QTextStream(stderr) << "Private Redis running; Ctrl+C stops it and removes " << server.folder() << Qt::endl;
    }

    onInterrupt([] { QCoreApplication::quit(); });
    QCoreApplication::exec();
    server.stop();
    return 0;
}
