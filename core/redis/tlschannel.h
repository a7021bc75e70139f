#pragma once

#include "redisendpoint.h"
#include "rediserror.h"

#include <QtGlobal>

#include <chrono>
#include <memory>

struct ssl_st;
struct x509_st;

// TLS over a connected, non-blocking socket (OpenSSL), for RedisConnection: it moves bytes, the
// connection keeps formatting commands and parsing replies. Every call returns at once; the caller
// polls the socket (WouldBlock says which way). Failures are told in the user's terms: which
// check failed and what to pass.
class TlsChannel
{
public:
    ~TlsChannel();
    TlsChannel(const TlsChannel&) = delete;
    TlsChannel& operator=(const TlsChannel&) = delete;

    // Makes the socket non-blocking and completes the handshake within the timeout, checking the
    // server's certificate as endpoint.tls says. On failure: nullptr and *error.
    static std::unique_ptr<TlsChannel> start(int fd, const RedisEndpoint& endpoint, std::chrono::milliseconds timeout,
                                             RedisError* error);

    enum class Result { Done, WouldBlock, Closed, Failed };
    // Writes some of data (*written bytes) or none. After WouldBlock, call again with the same
    // bytes (they may have moved).
    Result write(const char* data, qint64 size, qint64* written);
    // Reads up to size bytes (*got).
    Result read(char* buffer, qint64 size, qint64* got);
    // Decrypted bytes kept inside TLS, which a poll of the socket does not see.
    bool hasBufferedInput() const;
    // Why the last Failed (or Closed) happened; a server refusing our client certificate tells
    // so only at the first read after the handshake.
    const RedisError& error() const { return m_error; }

private:
    TlsChannel(ssl_st* ssl, RedisEndpoint endpoint);
    Result failure(int returned);

public:
    // What the verify callback keeps for the messages: OpenSSL keeps no peer certificate after a
    // failed handshake.
    struct Seen
    {
        x509_st* server = nullptr; // the server's own certificate
        x509_st* failing = nullptr; // the first certificate of the chain that failed a check
    };

private:
    ssl_st* m_ssl = nullptr;
    Seen m_seen;
    // Set until the handshake succeeds and after a fatal error, when OpenSSL's rules forbid a
    // close_notify (SSL_shutdown).
    bool m_fatal = true;
    RedisEndpoint m_endpoint;
    RedisError m_error;
};
