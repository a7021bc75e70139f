#include "servercommand.h"

#include "privateredisserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QSocketNotifier>
#include <QTextStream>

#include <csignal>
#include <unistd.h>

namespace {
int signalPipe[2] = {-1, -1};

void onSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(signalPipe[1], &byte, 1);
}
} // namespace

int runServerCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Start a private redis-server (unix socket in a private folder, no TCP port, no "
                       "persistence), print its URL on stdout and keep it running until Ctrl+C or SIGTERM.\n\n"
                       "Example: zsetlab-cli server"));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("server"), QStringLiteral("The command."));
    if (!parser.parse(arguments)) {
        QTextStream(stderr) << parser.errorText() << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        QTextStream(stdout) << parser.helpText();
        return 0;
    }

    PrivateRedisServer server;
    if (!server.start()) {
        QTextStream(stderr) << server.errorString() << '\n';
        return 3;
    }
    QTextStream(stdout) << server.endpoint().displayUrl() << Qt::endl;
    QTextStream(stderr) << "Private Redis running; Ctrl+C stops it and removes " << server.folder() << Qt::endl;

    if (::pipe(signalPipe) != 0)
        return 1;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    QSocketNotifier notifier(signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, qApp, [] { QCoreApplication::quit(); });
    QCoreApplication::exec();
    server.stop();
    return 0;
}
