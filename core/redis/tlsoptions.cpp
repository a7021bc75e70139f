#include "tlsoptions.h"

#include <QCommandLineParser>

void TlsOptions::addTo(QCommandLineParser& parser) const
{
    for (const QCommandLineOption* option : {&tlsCa, &tlsCert, &tlsKey, &sni, &insecure})
        parser.addOption(*option);
}

TlsSettings TlsOptions::read(const QCommandLineParser& parser) const
{
    TlsSettings settings;
    settings.caFile = parser.value(tlsCa);
    settings.certFile = parser.value(tlsCert);
    settings.keyFile = parser.value(tlsKey);
    settings.serverName = parser.value(sni);
    settings.insecure = parser.isSet(insecure);
    return settings;
}

QStringList TlsOptions::arguments(const TlsSettings& settings)
{
    QStringList arguments;
    if (!settings.caFile.isEmpty())
        arguments << QStringLiteral("--tls-ca") << settings.caFile;
    if (!settings.certFile.isEmpty())
        arguments << QStringLiteral("--tls-cert") << settings.certFile;
    if (!settings.keyFile.isEmpty())
        arguments << QStringLiteral("--tls-key") << settings.keyFile;
    if (!settings.serverName.isEmpty())
        arguments << QStringLiteral("--sni") << settings.serverName;
    if (settings.insecure)
        arguments << QStringLiteral("--insecure");
    return arguments;
}
