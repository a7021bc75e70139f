#include "cliprocess.h"

#include <QProcess>

CliResult runCli(const QStringList& arguments, int timeoutMs)
{
    QProcess process;
    process.start(qEnvironmentVariable("ZSETLAB_CLI"), arguments);
    CliResult result;
    if (!process.waitForFinished(timeoutMs))
        return result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = process.readAllStandardOutput();
    result.err = process.readAllStandardError();
    return result;
}

QStringList args(std::initializer_list<const char*> items)
{
    QStringList list;
    for (const char* item : items)
        list << QString::fromUtf8(item);
    return list;
}
