// Fuzzes RedisEndpoint::parse: URLs come from command lines, settings and the connect dialog.
// Beyond "does not crash", checks the promises the rest of zsetlab relies on.
#include "redis/redisendpoint.h"

#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QString url = QString::fromUtf8(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    RedisEndpoint endpoint;
    QString error;
    if (!RedisEndpoint::parse(url, &endpoint, &error)) {
        // Every refusal must tell the user what to fix.
        if (error.isEmpty())
            abort();
        return 0;
    }
    // Callers pass null for what they do not need.
    if (!RedisEndpoint::parse(url, nullptr, nullptr))
        abort();

    if (endpoint.db < 0 || endpoint.db > 65535)
        abort();
    if (endpoint.transport == RedisEndpoint::Transport::Tcp) {
        if (endpoint.host.isEmpty() || endpoint.port < 1 || endpoint.port > 65535)
            abort();
    } else if (endpoint.socketPath.isEmpty() || !endpoint.host.isEmpty()) {
        abort();
    }
    // A user without a password would send "AUTH user" with no password.
    if (!endpoint.user.isEmpty() && endpoint.password.isEmpty())
        abort();

    // What is shown on screen must never carry the password, yet must name the same server:
    // read back, it is the same endpoint with the password masked.
    const QString shown = endpoint.displayUrl();
    RedisEndpoint reread;
    if (!RedisEndpoint::parse(shown, &reread, nullptr))
        abort();
    if (!endpoint.password.isEmpty())
        reread.password = endpoint.password;
    if (!(reread == endpoint))
        abort();
    (void)endpoint.address();
    // isLocal() decides whether a burst needs consent: it must agree with the host parsed.
    if (endpoint.isLocal() && endpoint.transport == RedisEndpoint::Transport::Tcp
        && !(endpoint.host.startsWith(QLatin1String("127.")) || endpoint.host == QLatin1String("::1")
             || endpoint.host == QLatin1String("0:0:0:0:0:0:0:1")
             || endpoint.host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0))
        abort();
    return 0;
}
