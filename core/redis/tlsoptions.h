#pragma once

#include "redisendpoint.h"

#include <QCommandLineOption>
#include <QStringList>

class QCommandLineParser;

// redis-cli's TLS options for a rediss:// URL, as zsetlab-cli's commands and zsetlab take them:
// --tls-ca (--cacert), --tls-cert, --tls-key, --sni, --insecure.
struct TlsOptions
{
    QCommandLineOption tlsCa {{QStringLiteral("tls-ca"), QStringLiteral("cacert")},
                              QStringLiteral("rediss://: trust the CA certificates in FILE (PEM) instead of the "
                                             "system's store."),
                              QStringLiteral("FILE")};
    QCommandLineOption tlsCert {QStringLiteral("tls-cert"),
                                QStringLiteral("rediss://: a client certificate (PEM), for servers that ask for one "
                                               "(tls-auth-clients)."),
                                QStringLiteral("FILE")};
    QCommandLineOption tlsKey {QStringLiteral("tls-key"),
                               QStringLiteral("rediss://: the client certificate's private key (PEM)."),
                               QStringLiteral("FILE")};
    QCommandLineOption sni {QStringLiteral("sni"),
                            QStringLiteral("rediss://: the server name to ask for (SNI) and to find in its "
                                           "certificate, when it is not the URL's host."),
                            QStringLiteral("HOST")};
    QCommandLineOption insecure {QStringLiteral("insecure"),
                                 QStringLiteral("rediss://: do not check the server's certificate (a test server "
                                                "only).")};

    void addTo(QCommandLineParser& parser) const;
    TlsSettings read(const QCommandLineParser& parser) const;
    // The options that give settings back, to print or to pass on ("--tls-ca FILE ...").
    static QStringList arguments(const TlsSettings& settings);
};
