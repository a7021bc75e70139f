#include "servercommand.h"

#include "privateredisserver.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>

#include "interrupts.h"

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

    onInterrupt([] { QCoreApplication::quit(); });
    QCoreApplication::exec();
    server.stop();
    return 0;
}
