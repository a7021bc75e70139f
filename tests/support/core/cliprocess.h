#pragma once

#include <QByteArray>
#include <QStringList>

#include <initializer_list>

// Runs zsetlab-cli (path from ZSETLAB_CLI, set by ctest) as a user would, for the CLI tests.
struct CliResult
{
    int exitCode = -1; // -1: crashed or did not finish in time
    QByteArray out;
    QByteArray err;
};

CliResult runCli(const QStringList& arguments, int timeoutMs = 120000);
// The same with a file size limit (RLIMIT_FSIZE, and SIGXFSZ ignored): a write past `maxFileBytes`
// fails with EFBIG, as a write to a full disk fails with ENOSPC, on any file system.
CliResult runCliWithFileLimit(const QStringList& arguments, qint64 maxFileBytes, int timeoutMs = 120000);
// Runs the zsetlab window program (ZSETLAB_APP) as over ssh: no DISPLAY, no WAYLAND_DISPLAY and no
// QT_QPA_PLATFORM, so that nothing but the program itself chooses a platform.
CliResult runAppWithoutDisplay(const QStringList& arguments, int timeoutMs = 120000);
QStringList args(std::initializer_list<const char*> items);
