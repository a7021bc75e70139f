#include "serveroptions.h"

#include "base/interrupts.h"
#include "exitcodes.h"

#include <QCommandLineParser>
#include <QTextStream>

void ServerOptions::addTo(QCommandLineParser& parser) const
{
    parser.addOption(redis);
    parser.addOption(noSpawn);
    parser.addOption(privateServer);
    parser.addOption(timeout);
    parser.addOption(allowRemote);
    parser.addOption(allowEviction);
    tlsOptions.addTo(parser);
}

bool ServerOptions::endpoint(const QCommandLineParser& parser, RedisEndpoint* endpoint, QString* why) const
{
    return RedisEndpoint::parse(parser.value(redis), tlsOptions.read(parser), endpoint, why);
}

int ServerOptions::resolve(const QCommandLineParser& parser, RedisServerChoice* choice, bool firesRequests) const
{
    QTextStream err(stderr);
    bool ok = false;
    const int timeoutMs = parser.value(timeout).toInt(&ok);
    if (!ok || timeoutMs < 10 || timeoutMs > 600000) {
        err << "zsetlab-cli: --timeout must be a number of milliseconds from 10 to 600000, not \""
            << parser.value(timeout) << "\".\n";
        return ExitUsage;
    }
    RedisServerChoice::Request request;
    request.url = parser.value(redis);
    request.tls = tlsOptions.read(parser);
    request.allowSpawn = !parser.isSet(noSpawn);
    request.privateServer = parser.isSet(privateServer);
    if (request.privateServer && (!request.url.isEmpty() || !request.allowSpawn)) {
        err << "zsetlab-cli: --private starts a server of zsetlab's own: it goes with neither --redis nor "
               "--no-spawn.\n";
        return ExitUsage;
    }
    request.options.connectTimeout = std::chrono::milliseconds(timeoutMs);
    request.options.commandTimeout = std::chrono::milliseconds(timeoutMs);
    request.options.allowEviction = parser.isSet(allowEviction);

    // Refuse a bad URL or a remote server before connecting to it at all.
    if (firesRequests) {
        const QString refused = RedisServerChoice::refusalBeforeConnecting(request, parser.isSet(allowRemote));
        if (!refused.isEmpty()) {
            err << "zsetlab-cli: " << refused << '\n';
            return ExitUsage;
        }
    }
    if (!choice->resolve(request)) {
        // Ctrl+C while a silent server kept the connection waiting (up to --timeout): the signal's
        // exit, not the server's.
        if (interrupted()) {
            err << "zsetlab-cli: stopped by a signal while connecting; nothing was sent.\n";
            return ExitInterrupted;
        }
        err << "zsetlab-cli: " << choice->error().message << '\n';
        return choice->error().kind == RedisError::Kind::BadUrl ? ExitUsage : ExitConnection;
    }
    err << "zsetlab-cli: using " << choice->description() << '\n';
    return ExitDone;
}
