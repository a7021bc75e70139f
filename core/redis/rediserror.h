#pragma once

#include <QString>

// Why a connection could not be made or used, with a message that says what to do.
struct RedisError
{
    enum class Kind {
        None,
        BadUrl,
        Refused,
        UnknownHost,
        NoSocket,
        Timeout,
        PasswordRequired,
        WrongPassword,
        NoPermission,
        BadDatabase,
        TooOld,
        ConnectionLost,
        Server,
        // TLS (rediss://): the server's certificate is not signed by a trusted CA, has expired or
        // is for another name; the server wants a client certificate or refused ours; another
        // TLS failure (not a TLS port, a file that cannot be read).
        TlsUnknownCa,
        TlsExpired,
        TlsWrongHost,
        TlsClientCertificate,
        Tls,
    };
    Kind kind = Kind::None;
    QString message;

    bool isError() const { return kind != Kind::None; }
};
