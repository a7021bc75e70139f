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
