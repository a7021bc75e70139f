#include "redisbenchmark.h"

#include <QProcess>
#include <QStandardPaths>

namespace RedisBenchmark {
QString program()
{
    return QStandardPaths::findExecutable(QStringLiteral("redis-benchmark"));
}

QStringList targetArguments(const RedisEndpoint& endpoint)
{
    QStringList arguments;
    if (endpoint.transport == RedisEndpoint::Transport::Unix)
        arguments << QStringLiteral("-s") << endpoint.socketPath;
    else
        arguments << QStringLiteral("-h") << endpoint.host << QStringLiteral("-p") << QString::number(endpoint.port);
    if (!endpoint.password.isEmpty())
        arguments << QStringLiteral("-a") << endpoint.password;
    if (endpoint.tls.enabled) {
        arguments << QStringLiteral("--tls");
        if (!endpoint.tls.caFile.isEmpty())
            arguments << QStringLiteral("--cacert") << endpoint.tls.caFile;
        if (!endpoint.tls.certFile.isEmpty())
            arguments << QStringLiteral("--cert") << endpoint.tls.certFile << QStringLiteral("--key")
                      << endpoint.tls.keyFile;
        if (!endpoint.tls.serverName.isEmpty())
            arguments << QStringLiteral("--sni") << endpoint.tls.serverName;
        if (endpoint.tls.insecure)
            arguments << QStringLiteral("--insecure");
    }
    return arguments;
}

QStringList requestIdCall(const QByteArray& sha1, const QByteArray& key, const QString& member)
{
    constexpr qint64 frozenNow = 1710000000000;
    return {QStringLiteral("EVALSHA"),  QString::fromLatin1(sha1), QStringLiteral("1"), QString::fromUtf8(key),
            QString::number(frozenNow), QStringLiteral("60000"),   QStringLiteral("0"), member};
}

Result run(const QString& program, const QStringList& target, int requests, int connections, int pipeline,
           const QStringList& command, std::chrono::milliseconds timeout)
{
    QStringList arguments = target;
    arguments << QStringLiteral("-n") << QString::number(requests) << QStringLiteral("-c")
              << QString::number(connections) << QStringLiteral("-P") << QString::number(pipeline)
              << QStringLiteral("-r") << QStringLiteral("1000000000") << QStringLiteral("--csv") << command;
    Result result;
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(int(timeout.count()))) {
        process.kill();
        process.waitForFinished();
        result.firstError = QStringLiteral("timed out after %1 s").arg(timeout.count() / 1000);
        return result;
    }
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    for (const QByteArray& line : process.readAllStandardError().split('\n')) {
        if (line.contains("Error") || line.contains("ERR")) {
            result.firstError = QString::fromUtf8(line.trimmed());
            break;
        }
    }
    if (result.exitCode != 0)
        return result;
    // CSV: a header line, then "EVALSHA ...","<rps>",... (in cluster mode after a list of the masters)
    const QList<QByteArray> lines = process.readAllStandardOutput().trimmed().split('\n');
    const QList<QByteArray> fields = lines.value(lines.size() - 1).split(',');
    QByteArray rps = fields.value(1);
    rps.replace('"', "");
    bool ok = false;
    const double value = rps.toDouble(&ok);
    result.rps = ok ? value : -1;
    return result;
}
} // namespace RedisBenchmark
