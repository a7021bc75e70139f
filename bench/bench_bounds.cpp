// What zsetlab's bounds hold a process to, beside the figures of issue #58's audit (before the
// bounds): the peak memory and the time of the CLI and of the window's exports against a server
// that answers with millions of small elements, and against a crafted replay whose requests are
// many for its bytes, with a real run's replay as the reference. Each program is run as a user
// runs it, and measured by the kernel (wait4: its peak RSS and wall time).
//
//   bench_bounds [--crafted N] [--real N] [--skip-gif]

#include "benchsupport.h"
#include "fakeredis.h"
#include "limiters/limitercatalog.h"
#include "replay/recording.h"
#include "replay/replayfile.h"
#include "testbursts.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTextStream>

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {
struct Measured
{
    int exitCode = -1;
    double seconds = 0;
    double peakMb = 0;
};

// Runs `program` with `arguments` (stdout and stderr to /dev/null) and reads its peak RSS and
// wall time from the kernel; bounded by `timeoutSeconds`, then killed. Through timeout(1), which
// forks it from a small process: a child spawned from this one would count this one's memory as
// its own (the kernel keeps the peak of the address space it replaced).
Measured measure(const QString& program, const QStringList& arguments, int timeoutSeconds = 600)
{
    std::vector<QByteArray> storage {QByteArrayLiteral("/usr/bin/timeout"), QByteArray::number(timeoutSeconds),
                                     program.toLocal8Bit()};
    for (const QString& argument : arguments)
        storage.push_back(argument.toLocal8Bit());
    std::vector<char*> argv;
    for (QByteArray& item : storage)
        argv.push_back(item.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    QElapsedTimer clock;
    clock.start();
    pid_t pid = 0;
    Measured result;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return result;
    int status = 0;
    rusage usage {};
    wait4(pid, &status, 0, &usage); // its peak and its child's, which it waited for
    result.seconds = double(clock.nsecsElapsed()) / 1e9;
    result.peakMb = double(usage.ru_maxrss) / 1024.0;
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

QString row(const QString& figure, const Measured& m, const QString& before)
{
    return QStringLiteral("%1 %2 %3 %4 %5\n")
        .arg(figure, -52)
        .arg(QStringLiteral("exit %1").arg(m.exitCode), 8)
        .arg(QStringLiteral("%1 MB").arg(m.peakMb, 0, 'f', 0), 10)
        .arg(QStringLiteral("%1 s").arg(m.seconds, 0, 'f', 1), 9)
        .arg(before, 22);
}
} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("zsetlab's memory bounds, measured by the kernel."));
    parser.addHelpOption();
    const QCommandLineOption craftedOption(QStringLiteral("crafted"), QStringLiteral("Requests of the crafted replay."),
                                           QStringLiteral("N"), QStringLiteral("10400000"));
    const QCommandLineOption realOption(QStringLiteral("real"), QStringLiteral("Requests of the real run's replay."),
                                        QStringLiteral("N"), QStringLiteral("1000000"));
    const QCommandLineOption skipGifOption(QStringLiteral("skip-gif"), QStringLiteral("Measure no animation."));
    const QCommandLineOption writeOption(QStringLiteral("write-crafted"),
                                         QStringLiteral("Only write the crafted replay there (the bench's own step)."),
                                         QStringLiteral("PATH"));
    parser.addOptions({craftedOption, realOption, skipGifOption, writeOption});
    parser.process(app);
    QTextStream out(stdout);
    const QString dirOf = QCoreApplication::applicationDirPath();
    const QString cli = dirOf + QStringLiteral("/../cli/zsetlab-cli");
    const QString window = dirOf + QStringLiteral("/../app/zsetlab");
    const int crafted = std::clamp(parser.value(craftedOption).toInt(), 1000, BurstPlan::maxRequests);
    const int realRequests = std::clamp(parser.value(realOption).toInt(), 1000, BurstPlan::maxRequests);
    if (parser.isSet(writeOption)) { // in a process of its own, so that this one stays small
        QString error;
        QRandomGenerator noise(58);
        if (TestBursts::writeLongReplay(parser.value(writeOption), crafted, &error, &noise))
            return 0;
        out << error << Qt::endl;
        return 1;
    }

    out << row(QStringLiteral("figure"), {}, QStringLiteral("audit, before"))
               .replace(QLatin1String("exit -1"), QLatin1String("   exit"))
               .replace(QLatin1String("0 MB"), QLatin1String("peak"))
               .replace(QLatin1String("0.0 s"), QLatin1String("time"));

    // 1. A reply of 4,194,304 small elements (16 MB on the wire).
    {
        constexpr int elements = 4 * 1024 * 1024;
        QByteArray reply = "*" + QByteArray::number(elements) + "\r\n";
        reply.reserve(reply.size() + elements * 4);
        for (int i = 0; i < elements; ++i)
            reply += ":1\r\n";
        FakeRedis server([&reply](const QList<QByteArray>&) { return FakeRedis::Answer {reply}; });
        const QString url = server.url();
        out << row(QStringLiteral("run, a reply of 4,194,304 small elements"),
                   measure(cli,
                           {QStringLiteral("run"), QStringLiteral("--redis"), url, QStringLiteral("--requests"),
                            QStringLiteral("10")}),
                   QStringLiteral("3.3 GB"));
        out << row(QStringLiteral("watch, the same"),
                   measure(cli,
                           {QStringLiteral("watch"), QStringLiteral("--redis"), url, QStringLiteral("--duration"),
                            QStringLiteral("5000")}),
                   QStringLiteral("2.9 GB"));
    }

    // 2. A crafted replay, and a real run's of 1,000,000 requests (the reference: what an honest
    // replay of that size costs).
    QTemporaryDir dir;
    const QString craftedPath = dir.filePath(QStringLiteral("crafted.zsetreplay"));
    const QString realPath = dir.filePath(QStringLiteral("real.zsetreplay"));
    if (measure(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--write-crafted"), craftedPath, QStringLiteral("--crafted"), QString::number(crafted)})
            .exitCode
        != 0) {
        out << "could not write the crafted replay" << Qt::endl;
        return 1;
    }
    PrivateRedisServer server;
    RedisEndpoint endpoint;
    if (const int code = Bench::chooseServer(QString(), &server, &endpoint, out))
        return code;
    const Measured fired
        = measure(cli,
                  {QStringLiteral("run"), QStringLiteral("--redis"), endpoint.displayUrl(),
                   QStringLiteral("--requests"), QString::number(realRequests), QStringLiteral("--pipeline"),
                   QStringLiteral("64"), QStringLiteral("--save-replay"), realPath});
    if (fired.exitCode != 0) {
        out << "the real run failed (exit " << fired.exitCode << ")" << Qt::endl;
        return 1;
    }
    out << QStringLiteral("(crafted: %L1 requests in %L2 bytes; real: %L3 requests of `now` in %L4 bytes)\n")
               .arg(crafted)
               .arg(QFileInfo(craftedPath).size())
               .arg(realRequests)
               .arg(QFileInfo(realPath).size());
    for (const auto& [name, path, before] :
         {std::tuple {QStringLiteral("crafted"), craftedPath, QStringLiteral("1.2 GB")},
          std::tuple {QStringLiteral("real"), realPath, QStringLiteral("-")}}) {
        out << row(QStringLiteral("replay --json, %1").arg(name),
                   measure(cli, {QStringLiteral("replay"), path, QStringLiteral("--json")}), before);
        out << row(QStringLiteral("replay --export-html, %1").arg(name),
                   measure(cli,
                           {QStringLiteral("replay"), path, QStringLiteral("--export-html"),
                            dir.filePath(name + QStringLiteral(".html"))}),
                   QStringLiteral("-"));
    }
    if (parser.isSet(skipGifOption))
        return 0;
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // At the bound: the longest run an animation draws.
    const QString boundPath = dir.filePath(QStringLiteral("bound.zsetreplay"));
    if (measure(QCoreApplication::applicationFilePath(),
                {QStringLiteral("--write-crafted"), boundPath, QStringLiteral("--crafted"), QStringLiteral("2000000")})
            .exitCode
        != 0) {
        out << "could not write the replay at the bound" << Qt::endl;
        return 1;
    }
    for (const auto& [name, path, size, before] :
         {std::tuple {QStringLiteral("crafted"), craftedPath, QStringLiteral("1280x720"),
                      QStringLiteral("7.1 GB, 4 min")},
          std::tuple {QStringLiteral("2,000,000 (the bound)"), boundPath, QStringLiteral("1280x720"),
                      QStringLiteral("-")},
          std::tuple {QStringLiteral("crafted"), craftedPath, QStringLiteral("3840x2160"), QStringLiteral("2.7 GB")},
          std::tuple {QStringLiteral("real"), realPath, QStringLiteral("1280x720"), QStringLiteral("440 MB, 5 s")}}) {
        out << row(QStringLiteral("--export-gif %1, %2").arg(size, name),
                   measure(window,
                           {QStringLiteral("--replay"), path, QStringLiteral("--export-gif"),
                            dir.filePath(name + size + QStringLiteral(".gif")), QStringLiteral("--size"), size}),
                   before);
    }
    return 0;
}
