#include "serverprograms.h"

#include <QFileInfo>
#include <QStandardPaths>

namespace {
QString find(const char* variable, const QString& program)
{
    const QString chosen = qEnvironmentVariable(variable);
    const QString name = chosen.isEmpty() ? program : chosen;
    if (name.contains(QLatin1Char('/'))) { // a path: that one or none
        const QFileInfo file(name);
        return file.isFile() && file.isExecutable() ? file.absoluteFilePath() : QString();
    }
    QString found = QStandardPaths::findExecutable(name);
    if (found.isEmpty()) // Debian installs them in /usr/bin, but sbin-style layouts exist
        found = QStandardPaths::findExecutable(
            name, {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/local/bin"), QStringLiteral("/usr/local/sbin")});
    return found;
}
} // namespace

QString ServerPrograms::server()
{
    return find("ZSETLAB_REDIS_SERVER", QStringLiteral("redis-server"));
}

QString ServerPrograms::cli()
{
    return find("ZSETLAB_REDIS_CLI", QStringLiteral("redis-cli"));
}
