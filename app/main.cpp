#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>

int main(int argc, char* argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("zsetlab"));
    QApplication::setOrganizationName(QStringLiteral("zsetlab"));
    QApplication::setApplicationVersion(QStringLiteral(ZSETLAB_VERSION));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/zsetlab.svg")));
    QApplication::setDesktopFileName(QStringLiteral("zsetlab"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Watch a Redis ZSET rate limiter count wrong, live.\n\n"
                       "Without --redis, zsetlab uses redis://127.0.0.1:6379 if a server answers there, "
                       "else starts a private redis-server of its own (unix socket, no persistence)."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption redisOption(QStringLiteral("redis"),
                                         QStringLiteral("Redis to use: redis://[[user]:password@]host[:port][/db] or "
                                                        "unix:///path/to.sock[?db=N]."),
                                         QStringLiteral("URL"));
    const QCommandLineOption noSpawnOption(QStringLiteral("no-spawn"),
                                           QStringLiteral("Never start a private redis-server."));
    parser.addOption(redisOption);
    parser.addOption(noSpawnOption);
    parser.process(app);

    MainWindow window;
    window.show();
    RedisServerChoice::Request request;
    request.url = parser.value(redisOption);
    request.allowSpawn = !parser.isSet(noSpawnOption);
    window.connectToServer(request);
    return QApplication::exec();
}
