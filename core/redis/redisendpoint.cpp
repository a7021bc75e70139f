#include "redisendpoint.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QUrl>
#include <QUrlQuery>

#include <sys/un.h>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(RedisEndpoint)
};

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

bool parseDb(const QString& text, int* db, QString* error)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok || value < 0 || value > 65535)
        return fail(
            error, Text::tr("The database number \"%1\" is not valid: use a whole number from 0 (e.g. /0).").arg(text));
    *db = value;
    return true;
}
} // namespace

namespace {
// parse()'s two kinds of URL, past the scheme, the user and the password.
bool readUnixUrl(const QUrl& url, RedisEndpoint* result, QString* error)
{
    result->transport = RedisEndpoint::Transport::Unix;
    result->host.clear();
    result->port = 0;
    result->socketPath = url.path(QUrl::FullyDecoded);
    // "unix:////x" is /x to Linux, but a path starting with "//" cannot be shown as a URL again.
    while (result->socketPath.startsWith(QLatin1String("//")))
        result->socketPath.remove(0, 1);
    if (!url.host().isEmpty())
        return fail(error,
                    Text::tr("A unix URL has no host: write unix:///path/to.sock (three slashes), not "
                             "unix://%1….")
                        .arg(url.host()));
    // A path ending in "/" names a directory, never a socket ("unix:///", "unix:////").
    if (result->socketPath.isEmpty() || result->socketPath.endsWith(QLatin1Char('/')))
        return fail(error, Text::tr("The unix URL has no socket path: write unix:///path/to/redis.sock."));
    if (const QString problem = RedisEndpoint::socketPathProblem(result->socketPath); !problem.isEmpty())
        return fail(error, problem);
    const QUrlQuery query(url);
    for (const auto& item : query.queryItems(QUrl::FullyDecoded)) {
        if (item.first == QLatin1String("db")) {
            if (!parseDb(item.second, &result->db, error))
                return false;
        } else {
            return fail(error,
                        Text::tr("Unknown URL option \"%1\": the only option of a unix URL is ?db=N.").arg(item.first));
        }
    }
    return true;
}

bool readTcpUrl(const QUrl& url, RedisEndpoint* result, QString* error)
{
    result->host = url.host(QUrl::FullyDecoded);
    if (result->host.isEmpty())
        return fail(error, Text::tr("The URL has no host: write redis://host[:port][/db]."));
    const int port = url.port(6379);
    if (port <= 0 || port > 65535)
        return fail(error, Text::tr("The port must be from 1 to 65535."));
    result->port = port;
    const QString path = url.path(QUrl::FullyDecoded);
    if (!path.isEmpty() && path != QLatin1String("/")) {
        if (!parseDb(path.mid(1), &result->db, error))
            return false;
    }
    if (url.hasQuery())
        return fail(error,
                    Text::tr("Unexpected URL options \"?%1\": put the database in the path, as in "
                             "redis://host:port/2.")
                        .arg(url.query()));
    return true;
}
} // namespace

bool RedisEndpoint::parse(const QString& input, RedisEndpoint* endpoint, QString* error)
{
    const QString text = input.trimmed();
    if (text.isEmpty())
        return fail(error, Text::tr("No Redis URL given: use redis://host:port or unix:///path/to/redis.sock."));

    const int schemeEnd = text.indexOf(QLatin1String("://"));
    if (schemeEnd <= 0)
        return fail(
            error,
            Text::tr("\"%1\" is not a Redis URL: write redis://host:port[/db] or unix:///path/to.sock.").arg(text));
    const QString scheme = text.left(schemeEnd).toLower();
    if (scheme != QLatin1String("redis") && scheme != QLatin1String("rediss") && scheme != QLatin1String("unix"))
        return fail(error,
                    Text::tr("Unknown scheme \"%1://\": use redis:// for TCP, rediss:// for TLS or unix:// for a "
                             "socket.")
                        .arg(scheme));

    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid())
        return fail(error, Text::tr("The URL \"%1\" is malformed: %2.").arg(text, url.errorString()));

    RedisEndpoint result;
    result.tls.enabled = scheme == QLatin1String("rediss");
    result.user = url.userName(QUrl::FullyDecoded);
    result.password = url.password(QUrl::FullyDecoded);
    if (!result.user.isEmpty() && result.password.isEmpty())
        return fail(
            error,
            Text::tr("The URL names user \"%1\" without a password: write redis://%1:PASSWORD@host.").arg(result.user));

    if (!(scheme == QLatin1String("unix") ? readUnixUrl(url, &result, error) : readTcpUrl(url, &result, error)))
        return false;
    if (endpoint)
        *endpoint = result;
    return true;
}

bool RedisEndpoint::parse(const QString& url, const TlsSettings& options, RedisEndpoint* endpoint, QString* error)
{
    RedisEndpoint result;
    if (!parse(url, &result, error))
        return false;
    if (options.hasOptions() && !result.tls.enabled)
        return fail(error,
                    Text::tr("The TLS options (CA, client certificate, SNI, insecure) go with a rediss:// URL: "
                             "write rediss://%1 for a server that speaks TLS.")
                        .arg(result.transport == Transport::Unix ? QStringLiteral("host:port") : result.address()));
    if (!options.certFile.isEmpty() != !options.keyFile.isEmpty())
        return fail(error,
                    Text::tr("A client certificate needs its key and the key its certificate: give both "
                             "--tls-cert FILE and --tls-key FILE."));
    if (result.tls.enabled) {
        result.tls = options;
        result.tls.enabled = true;
    }
    if (endpoint)
        *endpoint = result;
    return true;
}

bool TlsSettings::hasOptions() const
{
    return !caFile.isEmpty() || !certFile.isEmpty() || !keyFile.isEmpty() || !serverName.isEmpty() || insecure;
}

QString TlsSettings::expectedName(const QString& host) const
{
    return serverName.isEmpty() ? host : serverName;
}

bool TlsSettings::operator==(const TlsSettings& other) const
{
    return enabled == other.enabled && caFile == other.caFile && certFile == other.certFile && keyFile == other.keyFile
        && serverName == other.serverName && insecure == other.insecure;
}

RedisEndpoint RedisEndpoint::unixSocket(const QString& path)
{
    RedisEndpoint endpoint;
    endpoint.transport = Transport::Unix;
    endpoint.host.clear();
    endpoint.port = 0;
    endpoint.socketPath = path;
    return endpoint;
}

const int RedisEndpoint::maxSocketPathBytes = int(sizeof(sockaddr_un::sun_path)) - 1;

QString RedisEndpoint::socketPathProblem(const QString& path)
{
    // "%00" in a URL: C ends the path there, so the server at the prefix would answer.
    if (path.contains(QChar(0)))
        return Text::tr("The socket path contains a NUL character (%00), which no socket path can hold: remove it.");
    const qsizetype bytes = path.toLocal8Bit().size();
    if (bytes > maxSocketPathBytes)
        return Text::tr("The socket path is %1 bytes long; a unix socket path can have at most %2. Use a shorter "
                        "path (a link to the socket's folder, say).")
            .arg(bytes)
            .arg(maxSocketPathBytes);
    return {};
}

RedisEndpoint RedisEndpoint::defaultLocal()
{
    return RedisEndpoint();
}

QString RedisEndpoint::displayUrl() const
{
    QUrl url;
    if (transport == Transport::Unix) {
        url.setScheme(QStringLiteral("unix"));
        url.setPath(socketPath);
        if (db != 0)
            url.setQuery(QStringLiteral("db=%1").arg(db));
    } else {
        url.setScheme(tls.enabled ? QStringLiteral("rediss") : QStringLiteral("redis"));
        url.setHost(host);
        url.setPort(port);
        if (db != 0)
            url.setPath(QStringLiteral("/%1").arg(db));
    }
    if (!user.isEmpty())
        url.setUserName(user);
    if (!password.isEmpty())
        url.setPassword(QStringLiteral("***"));
    // Encoded where a pasted URL needs it (a space in a socket path): zsetlab-cli server prints this
    // for --redis, and parse() reads URLs strictly.
    QString shown = url.toString(QUrl::EncodeSpaces);
    // QUrl writes "unix:/path" for an empty authority; spell it the way users type it.
    if (transport == Transport::Unix && user.isEmpty() && password.isEmpty())
        shown.replace(0, 5, QStringLiteral("unix://"));
    return shown;
}

QString RedisEndpoint::address() const
{
    if (transport == Transport::Unix)
        return socketPath;
    if (host.contains(QLatin1Char(':')))
        return QStringLiteral("[%1]:%2").arg(host).arg(port);
    return QStringLiteral("%1:%2").arg(host).arg(port);
}

QString RedisEndpoint::redisCliTarget() const
{
    auto quoted = [](const QString& text) {
        static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_./:@%+=,-]+$"));
        return plain.match(text).hasMatch()
            ? text
            : QLatin1Char('\'') + QString(text).replace(QLatin1Char('\''), QStringLiteral("'\\''")) + QLatin1Char('\'');
    };
    QString target = transport == Transport::Unix ? QStringLiteral("-s %1").arg(quoted(socketPath))
                                                  : QStringLiteral("-h %1 -p %2").arg(quoted(host)).arg(port);
    if (db != 0)
        target += QStringLiteral(" -n %1").arg(db);
    if (transport == Transport::Tcp && tls.enabled)
        target += QStringLiteral(" --tls");
    return target;
}

bool RedisEndpoint::isLocal() const
{
    if (transport == Transport::Unix)
        return true;
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return true;
    // 127.0.0.0/8 and ::1, written without QtNetwork so that core links QtCore only.
    if (host == QLatin1String("::1") || host == QLatin1String("0:0:0:0:0:0:0:1"))
        return true;
    const QStringList parts = host.split(QLatin1Char('.'));
    if (parts.size() != 4 || parts.first() != QLatin1String("127"))
        return false;
    for (const QString& part : parts) {
        bool ok = false;
        const int value = part.toInt(&ok);
        if (!ok || value < 0 || value > 255)
            return false;
    }
    return true;
}

bool RedisEndpoint::operator==(const RedisEndpoint& other) const
{
    return transport == other.transport && tls == other.tls && host == other.host && port == other.port
        && socketPath == other.socketPath && user == other.user && password == other.password && db == other.db;
}
