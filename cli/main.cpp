#include "algorithmscommand.h"
#include "appcommand.h"
#include "base/interrupts.h"
#include "clientscommand.h"
#include "doctorcommand.h"
#include "replaycommand.h"
#include "runcommand.h"
#include "servercommand.h"
#include "sweepcommand.h"
#include "watchcommand.h"

#include <QCoreApplication>
#include <QTextStream>

namespace {
const char usage[] = R"(Usage: zsetlab-cli COMMAND [OPTIONS]

Commands:
  run         fire a burst at a limiter script and report what the ZSET counted
  sweep       measure the stored fraction over a list of arrival rates, beside the theory
  clients     fire one burst from several app servers, each with its own rate and clock
  algorithms  the same traffic at each limiter algorithm: accuracy, memory, server time
  server      start a private redis-server (or, with --cluster N, a Redis Cluster) and print its URL
  doctor      read your own limiter script (and with --live, probe it): does it count right?
  watch       watch your app's Redis read-only (MONITOR): do its limiter's ZADDs overwrite members?
  replay      a recorded run (run --save-replay) at one request: its ZSET, counts and truth
  app         a demo app to watch: a limiter's traffic over several user keys, on the real clock

Run "zsetlab-cli COMMAND --help" for the options of a command.
)";
}

int main(int argc, char* argv[])
{
    installInterruptHandlers(); // before any work: no SIGINT or SIGTERM is lost, however early
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("zsetlab-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ZSETLAB_VERSION));

    const QStringList arguments = QCoreApplication::arguments();
    const QString command = arguments.value(1);
    if (command == QLatin1String("--version")) {
        QTextStream(stdout) << "zsetlab-cli " << ZSETLAB_VERSION << '\n';
        return 0;
    }
    if (command.isEmpty() || command == QLatin1String("--help") || command == QLatin1String("-h")
        || command == QLatin1String("help")) {
        QTextStream(command.isEmpty() ? stderr : stdout) << usage;
        return command.isEmpty() ? 2 : 0;
    }
    if (command == QLatin1String("run"))
        return runRunCommand(arguments);
    if (command == QLatin1String("sweep"))
        return runSweepCommand(arguments);
    if (command == QLatin1String("clients"))
        return runClientsCommand(arguments);
    if (command == QLatin1String("algorithms"))
        return runAlgorithmsCommand(arguments);
    if (command == QLatin1String("server"))
        return runServerCommand(arguments);
    if (command == QLatin1String("doctor"))
        return runDoctorCommand(arguments);
    if (command == QLatin1String("watch"))
        return runWatchCommand(arguments);
    if (command == QLatin1String("replay"))
        return runReplayCommand(arguments);
    if (command == QLatin1String("app"))
        return runAppCommand(arguments);
    QTextStream(stderr) << "zsetlab-cli: unknown command \"" << command << "\".\n\n" << usage;
    return 2;
}
