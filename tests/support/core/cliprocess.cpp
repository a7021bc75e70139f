#include "cliprocess.h"

#include <QProcess>
#include <QTemporaryDir>

#include <csignal>
#include <sys/resource.h>

namespace {
CliResult run(QProcess& process, const QString& program, const QStringList& arguments, int timeoutMs)
{
    process.start(program, arguments);
    CliResult result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(5000);
        result.out = process.readAllStandardOutput();
        result.err = "did not finish within " + QByteArray::number(timeoutMs)
            + " ms; it printed: " + process.readAllStandardError();
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}
} // namespace

CliResult runCli(const QStringList& arguments, int timeoutMs)
{
    QProcess process;
    return run(process, qEnvironmentVariable("ZSETLAB_CLI"), arguments, timeoutMs);
}

CliResult runCliWithFileLimit(const QStringList& arguments, qint64 maxFileBytes, int timeoutMs)
{
    QProcess process;
    process.setChildProcessModifier([maxFileBytes] {
        std::signal(SIGXFSZ, SIG_IGN); // kept across exec: write() returns EFBIG instead
        const struct rlimit limit
        {
            rlim_t(maxFileBytes), rlim_t(maxFileBytes)
        };
        ::setrlimit(RLIMIT_FSIZE, &limit);
    });
    return run(process, qEnvironmentVariable("ZSETLAB_CLI"), arguments, timeoutMs);
}

CliResult runAppWithoutDisplay(const QStringList& arguments, int timeoutMs)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QString::fromLatin1(name));
    static QTemporaryDir settings; // the app's own settings (language, layout): of this run, not the user's
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), settings.path());
    process.setProcessEnvironment(environment);
    return run(process, qEnvironmentVariable("ZSETLAB_APP"), arguments, timeoutMs);
}

QStringList args(std::initializer_list<const char*> items)
{
    QStringList list;
    for (const char* item : items)
        list << QString::fromUtf8(item);
    return list;
}
