#include "tlschannel.h"

#include "base/cappedfile.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <QTimeZone>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <mutex>
#include <poll.h>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(TlsChannel)
};

RedisError tlsError(RedisError::Kind kind, const QString& message)
{
    return RedisError {kind, message};
}

// OpenSSL's newest queued error as text ("certificate verify failed"), and the queue emptied.
QString takeOpenSslError()
{
    unsigned long code = 0;
    unsigned long last = 0;
    while ((code = ERR_get_error()) != 0)
        last = code;
    if (last == 0)
        return {};
    const char* reason = ERR_reason_error_string(last);
    return reason ? QString::fromLatin1(reason) : QStringLiteral("error %1").arg(last);
}

bool isIpAddress(const QString& host)
{
    unsigned char address[16];
    const QByteArray text = host.toLatin1();
    return ::inet_pton(AF_INET, text.constData(), address) == 1
        || ::inet_pton(AF_INET6, text.constData(), address) == 1;
}

// A PEM file the user named, read whole; null with *why (no such file, a named pipe or a device,
// more than 1 MiB) otherwise.
QByteArray readPem(const QString& path, QString* why)
{
    const CappedFile file = CappedFile::read(path, qint64(1) << 20);
    if (file.status == CappedFile::Status::Read)
        return file.bytes.isNull() ? QByteArray("") : file.bytes;
    if (file.status == CappedFile::Status::TooLarge)
        *why = Text::tr("larger than 1 MiB: not a PEM file");
    else
        *why = QFileInfo::exists(path) || QFileInfo(path).isSymLink() ? file.why : Text::tr("no such file");
    return {};
}

struct BioFree
{
    void operator()(BIO* bio) const { BIO_free(bio); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;

BioPtr memoryBio(const QByteArray& bytes)
{
    return BioPtr(BIO_new_mem_buf(bytes.constData(), int(bytes.size())));
}

// The CA certificates (and CRLs) of a PEM file, as SSL_CTX_load_verify_locations() reads a file.
bool loadAuthorities(SSL_CTX* context, const QByteArray& pem)
{
    const BioPtr bio = memoryBio(pem);
    STACK_OF(X509_INFO)* infos = bio ? PEM_X509_INFO_read_bio(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (!infos)
        return false;
    X509_STORE* store = SSL_CTX_get_cert_store(context);
    int added = 0;
    bool ok = true;
    for (int i = 0; i < sk_X509_INFO_num(infos); ++i) {
        const X509_INFO* info = sk_X509_INFO_value(infos, i);
        if (info->x509) {
            ok = ok && X509_STORE_add_cert(store, info->x509) == 1;
            ++added;
        }
        if (info->crl)
            ok = ok && X509_STORE_add_crl(store, info->crl) == 1;
    }
    sk_X509_INFO_pop_free(infos, X509_INFO_free);
    return ok && added > 0;
}

// The certificate and the chain after it, as SSL_CTX_use_certificate_chain_file() reads a file.
bool useCertificateChain(SSL_CTX* context, const QByteArray& pem)
{
    const BioPtr bio = memoryBio(pem);
    X509* certificate = bio ? PEM_read_bio_X509_AUX(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (!certificate)
        return false;
    const bool used = SSL_CTX_use_certificate(context, certificate) == 1;
    X509_free(certificate);
    if (!used || SSL_CTX_clear_chain_certs(context) != 1)
        return false;
    while (X509* authority = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
        if (SSL_CTX_add0_chain_cert(context, authority) != 1) {
            X509_free(authority);
            return false;
        }
    }
    // The end of the file ends the chain: not an error.
    if (ERR_GET_LIB(ERR_peek_last_error()) == ERR_LIB_PEM
        && ERR_GET_REASON(ERR_peek_last_error()) == PEM_R_NO_START_LINE)
        ERR_clear_error();
    return ERR_peek_error() == 0;
}

bool usePrivateKey(SSL_CTX* context, const QByteArray& pem)
{
    const BioPtr bio = memoryBio(pem);
    EVP_PKEY* key = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (!key)
        return false;
    const bool used = SSL_CTX_use_PrivateKey(context, key) == 1;
    EVP_PKEY_free(key);
    return used;
}

// One SSL_CTX per set of files (and their dates, so that a renewed file is read again), shared by
// every connection: loading a CA store takes milliseconds, a burst opens dozens of connections.
// An SSL_CTX is safe to use from several threads once set up.
class ContextCache
{
public:
    // OpenSSL starts (and registers its exit clean-up) before this object's own exit step is
    // registered, so the contexts are freed before OpenSSL cleans up.
    ContextCache() { OPENSSL_init_ssl(0, nullptr); }
    ~ContextCache()
    {
        for (const auto& [names, entry] : m_contexts)
            SSL_CTX_free(entry.context);
    }

    SSL_CTX* contextFor(const TlsSettings& tls, RedisError* error)
    {
        QString names = tls.insecure ? QStringLiteral("insecure") : QStringLiteral("verify");
        QString dates;
        for (const QString& file : {tls.caFile, tls.certFile, tls.keyFile}) {
            const QFileInfo info(file);
            names += QLatin1Char('\n') + file;
            dates += QString::number(info.exists() ? info.lastModified().toMSecsSinceEpoch() : -1) + QLatin1Char('|')
                + QString::number(info.size()) + QLatin1Char('\n');
        }
        const std::lock_guard<std::mutex> lock(m_lock);
        Entry& entry = m_contexts[names];
        if (entry.context && entry.dates == dates)
            return entry.context;
        // New files under the same names (a restarted private server writes them again): the
        // connections made with the old context keep their own reference to it.
        SSL_CTX* context = make(tls, error);
        if (context) {
            SSL_CTX_free(entry.context);
            entry = {dates, context};
        }
        return context;
    }

private:
    static SSL_CTX* make(const TlsSettings& tls, RedisError* error)
    {
        ERR_clear_error();
        SSL_CTX* context = SSL_CTX_new(TLS_client_method());
        if (!context) {
            *error = tlsError(RedisError::Kind::Tls, Text::tr("Cannot set up TLS: %1.").arg(takeOpenSslError()));
            return nullptr;
        }
        SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
        // A server that closes the socket without a close_notify has still closed it.
        SSL_CTX_set_options(context, SSL_OP_IGNORE_UNEXPECTED_EOF);
        // The engine writes as much as the socket takes and retries from a buffer that may move.
        SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
        SSL_CTX_set_verify(context, tls.insecure ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, nullptr);
        // The files are read through CappedFile (regular files only, at most 1 MiB) and handed to
        // OpenSSL from memory: OpenSSL's own open() of a named pipe waited for a writer for good,
        // deaf to Ctrl+C.
        QString why;
        bool trusted = false;
        if (tls.caFile.isEmpty()) {
            trusted = SSL_CTX_set_default_verify_paths(context) == 1;
            why = takeOpenSslError();
        } else if (const QByteArray pem = readPem(tls.caFile, &why); !pem.isNull()) {
            trusted = loadAuthorities(context, pem);
            why = takeOpenSslError();
        }
        if (!trusted) {
            *error = tls.caFile.isEmpty()
                ? tlsError(RedisError::Kind::Tls,
                           Text::tr("Cannot read this machine's CA store (%1). Install ca-certificates, or "
                                    "give the server's CA with --tls-ca FILE.")
                               .arg(why))
                : tlsError(RedisError::Kind::Tls,
                           Text::tr("Cannot read the CA certificate %1 (%2). Give a PEM file with --tls-ca FILE.")
                               .arg(tls.caFile, why));
            SSL_CTX_free(context);
            return nullptr;
        }
        if (!tls.certFile.isEmpty()) {
            QString problem;
            const QByteArray certificate = readPem(tls.certFile, &why);
            if (certificate.isNull() || !useCertificateChain(context, certificate))
                problem = Text::tr("Cannot use the client certificate %1 (%2). Give a PEM certificate with "
                                   "--tls-cert FILE.")
                              .arg(tls.certFile, certificate.isNull() ? why : takeOpenSslError());
            const QString notItsKey = Text::tr("The key %1 does not belong to the certificate %2: give the pair "
                                               "that was made together.")
                                          .arg(tls.keyFile, tls.certFile);
            const QByteArray key = problem.isEmpty() ? readPem(tls.keyFile, &why) : QByteArray();
            if (problem.isEmpty() && (key.isNull() || !usePrivateKey(context, key))) {
                if (!key.isNull() && ERR_GET_REASON(ERR_peek_last_error()) == X509_R_KEY_VALUES_MISMATCH)
                    problem = notItsKey;
                else
                    problem = Text::tr("Cannot use the key %1 (%2). Give the client certificate's PEM key with "
                                       "--tls-key FILE.")
                                  .arg(tls.keyFile, key.isNull() ? why : takeOpenSslError());
            } else if (problem.isEmpty() && SSL_CTX_check_private_key(context) != 1) {
                problem = notItsKey;
            }
            if (!problem.isEmpty()) {
                ERR_clear_error();
                *error = tlsError(RedisError::Kind::Tls, problem);
                SSL_CTX_free(context);
                return nullptr;
            }
        }
        return context;
    }

    struct Entry
    {
        QString dates; // of the files when the context read them
        SSL_CTX* context = nullptr;
    };
    std::mutex m_lock;
    std::map<QString, Entry> m_contexts; // by the files' names
};

ContextCache& contexts()
{
    static ContextCache cache;
    return cache;
}

QString timeText(const ASN1_TIME* time)
{
    tm parsed {};
    if (!time || ASN1_TIME_to_tm(time, &parsed) != 1)
        return QStringLiteral("?");
    const QDateTime when(QDate(parsed.tm_year + 1900, parsed.tm_mon + 1, parsed.tm_mday),
                         QTime(parsed.tm_hour, parsed.tm_min, parsed.tm_sec), QTimeZone::utc());
    return when.toString(Qt::ISODate);
}

// The names a certificate is for: its DNS and IP subject alternative names, else its common name.
QStringList namesOf(X509* certificate)
{
    QStringList names;
    if (!certificate)
        return names;
    auto* alternatives
        = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(certificate, NID_subject_alt_name, nullptr, nullptr));
    for (int i = 0; alternatives && i < sk_GENERAL_NAME_num(alternatives); ++i) {
        const GENERAL_NAME* name = sk_GENERAL_NAME_value(alternatives, i);
        if (name->type == GEN_DNS) {
            const ASN1_STRING* dns = name->d.dNSName;
            names << QString::fromLatin1(reinterpret_cast<const char*>(ASN1_STRING_get0_data(dns)),
                                         ASN1_STRING_length(dns));
        } else if (name->type == GEN_IPADD) {
            const ASN1_OCTET_STRING* ip = name->d.iPAddress;
            char text[INET6_ADDRSTRLEN] = {};
            const int family = ASN1_STRING_length(ip) == 4 ? AF_INET : AF_INET6;
            if (::inet_ntop(family, ASN1_STRING_get0_data(ip), text, sizeof text))
                names << QString::fromLatin1(text);
        }
    }
    GENERAL_NAMES_free(alternatives);
    if (names.isEmpty()) {
        char common[256] = {};
        if (X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, common, sizeof common) > 0)
            names << QString::fromUtf8(common);
    }
    return names;
}

// The certificates as verification saw them, for the message of a failed check.
int keepCertificates(int ok, X509_STORE_CTX* store)
{
    auto* ssl = static_cast<SSL*>(X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()));
    auto* seen = static_cast<TlsChannel::Seen*>(SSL_get_app_data(ssl));
    auto keep = [](X509*& slot, X509* certificate) {
        if (!slot && certificate && X509_up_ref(certificate) == 1)
            slot = certificate;
    };
    if (seen) {
        keep(seen->server, X509_STORE_CTX_get0_cert(store));
        if (!ok)
            keep(seen->failing, X509_STORE_CTX_get_current_cert(store));
    }
    return ok;
}

// Why the server's certificate was refused, from the verification result.
RedisError verifyFailure(const TlsChannel::Seen& seen, const RedisEndpoint& endpoint, long result)
{
    X509* certificate = seen.server;
    // A date belongs to the certificate that failed: the server's, or a CA's in its chain.
    X509* dated = seen.failing ? seen.failing : seen.server;
    const QString where = endpoint.address();
    const QString detail = QString::fromLatin1(X509_verify_cert_error_string(result));
    switch (result) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_CERT_SIGNATURE_FAILURE:
        return tlsError(RedisError::Kind::TlsUnknownCa,
                        Text::tr("The certificate of %1 is not signed by a CA zsetlab trusts (%2). Pass the CA "
                                 "that signed it with --tls-ca FILE (Connect dialog: CA certificate), or "
                                 "--insecure to skip the check on a test server.")
                            .arg(where, detail));
    case X509_V_ERR_CERT_HAS_EXPIRED:
        return tlsError(RedisError::Kind::TlsExpired,
                        Text::tr("The certificate of %1 expired on %2. Renew the server's certificate "
                                 "(tls-cert-file); --insecure skips the check on a test server.")
                            .arg(where, timeText(dated ? X509_get0_notAfter(dated) : nullptr)));
    case X509_V_ERR_CERT_NOT_YET_VALID:
        return tlsError(RedisError::Kind::TlsExpired,
                        Text::tr("The certificate of %1 is valid only from %2. Check this machine's clock, or "
                                 "the server's certificate.")
                            .arg(where, timeText(dated ? X509_get0_notBefore(dated) : nullptr)));
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH: {
        const QStringList names = namesOf(certificate);
        return tlsError(RedisError::Kind::TlsWrongHost,
                        Text::tr("The certificate of %1 is for %2, not for \"%3\". Connect with a name it lists, "
                                 "or pass the name it has with --sni NAME.")
                            .arg(where, names.isEmpty() ? Text::tr("no name") : names.join(QStringLiteral(", ")),
                                 endpoint.tls.expectedName(endpoint.host)));
    }
    default:
        return tlsError(RedisError::Kind::Tls,
                        Text::tr("The certificate of %1 was refused: %2. --insecure skips the check on a test "
                                 "server.")
                            .arg(where, detail));
    }
}

// Why the TLS session failed, from OpenSSL's error queue (alerts the server sent) or errno.
RedisError sessionFailure(SSL* ssl, const RedisEndpoint& endpoint, int sslError, int savedErrno, bool handshake)
{
    const QString where = endpoint.address();
    if (handshake && !endpoint.tls.insecure) {
        const long verified = SSL_get_verify_result(ssl);
        if (verified != X509_V_OK) {
            ERR_clear_error();
            const auto* seen = static_cast<const TlsChannel::Seen*>(SSL_get_app_data(ssl));
            return verifyFailure(seen ? *seen : TlsChannel::Seen(), endpoint, verified);
        }
    }
    if (sslError == SSL_ERROR_SYSCALL || sslError == SSL_ERROR_ZERO_RETURN) {
        ERR_clear_error();
        const QString why = savedErrno ? QString::fromLocal8Bit(std::strerror(savedErrno))
                                       : Text::tr("the server closed the connection");
        if (handshake)
            return tlsError(RedisError::Kind::Tls,
                            Text::tr("The TLS handshake with %1 ended: %2. Is it the server's TLS port "
                                     "(tls-port)? A plain port takes redis://.")
                                .arg(where, why));
        return tlsError(RedisError::Kind::ConnectionLost, why);
    }
    const unsigned long code = ERR_peek_last_error();
    const int reason = ERR_GET_REASON(code);
    const QString text = takeOpenSslError();
    const bool ownCertificate = !endpoint.tls.certFile.isEmpty();
    switch (reason) {
    case SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED:
        return tlsError(RedisError::Kind::TlsClientCertificate,
                        Text::tr("The server at %1 requires a client certificate: pass --tls-cert FILE and "
                                 "--tls-key FILE (Connect dialog: client certificate and key).")
                            .arg(where));
    case SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE:
    case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE:
    case SSL_R_TLSV1_ALERT_UNKNOWN_CA:
    case SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED:
        if (!ownCertificate)
            return tlsError(RedisError::Kind::TlsClientCertificate,
                            Text::tr("The server at %1 refused the connection (%2): it may require a client "
                                     "certificate. Pass --tls-cert FILE and --tls-key FILE.")
                                .arg(where, text));
        return tlsError(RedisError::Kind::TlsClientCertificate,
                        Text::tr("The server at %1 refused the client certificate %2 (%3). Use one signed by a "
                                 "CA the server trusts (its tls-ca-cert-file), and not expired.")
                            .arg(where, endpoint.tls.certFile, text));
    case SSL_R_WRONG_VERSION_NUMBER:
    case SSL_R_PACKET_LENGTH_TOO_LONG:
    case SSL_R_HTTP_REQUEST:
        return tlsError(RedisError::Kind::Tls,
                        Text::tr("%1 does not speak TLS on this port (%2). Use redis:// for a plain port, or "
                                 "the server's tls-port.")
                            .arg(where, text));
    default:
        return tlsError(handshake ? RedisError::Kind::Tls : RedisError::Kind::ConnectionLost,
                        handshake ? Text::tr("The TLS handshake with %1 failed: %2.").arg(where, text)
                                  : Text::tr("TLS error: %1").arg(text));
    }
}
// Notes a CertificateRequest from the server (a handshake message the client receives).
void noteCertificateRequest(int writing, int, int contentType, const void* bytes, size_t length, SSL*, void* flag)
{
    if (!writing && contentType == SSL3_RT_HANDSHAKE && length > 0
        && static_cast<const unsigned char*>(bytes)[0] == SSL3_MT_CERTIFICATE_REQUEST)
        *static_cast<bool*>(flag) = true;
}

// In TLS 1.3 a server checks the client's certificate after the client has finished the
// handshake; it answers with an alert, or with its session tickets. Waiting for that answer (at
// most half a second) names a refused certificate: once a command is on its way, the server's
// close can reset the connection and the alert would be lost.
bool awaitClientCertificateVerdict(SSL* ssl, int fd, const RedisEndpoint& endpoint, const QDeadlineTimer& deadline,
                                   RedisError* error)
{
    const qint64 waitMs = std::min<qint64>(500, std::max<qint64>(0, deadline.remainingTime()));
    pollfd wait {fd, POLLIN, 0};
    if (::poll(&wait, 1, int(waitMs)) <= 0)
        return true; // no word: taken as accepted
    char byte = 0;
    ERR_clear_error();
    const int peeked = SSL_peek(ssl, &byte, 1);
    const int savedErrno = errno;
    const int why = SSL_get_error(ssl, peeked);
    if (peeked > 0 || why == SSL_ERROR_WANT_READ || why == SSL_ERROR_WANT_WRITE)
        return true;
    *error = sessionFailure(ssl, endpoint, why, savedErrno, false);
    // Closed at once without an alert, having asked for a certificate we did not have: that, as a
    // rule. With a certificate given, a plain close says nothing of it.
    if (error->kind == RedisError::Kind::ConnectionLost && endpoint.tls.certFile.isEmpty())
        *error = tlsError(RedisError::Kind::TlsClientCertificate,
                          Text::tr("The server at %1 asked for a client certificate and closed the connection "
                                   "(%2). Pass --tls-cert FILE and --tls-key FILE, signed by a CA the server "
                                   "trusts.")
                              .arg(endpoint.address(), error->message));
    return false;
}
} // namespace

TlsChannel::TlsChannel(ssl_st* ssl, RedisEndpoint endpoint)
    : m_ssl(ssl)
    , m_endpoint(std::move(endpoint))
{ }

TlsChannel::~TlsChannel()
{
    if (m_ssl) {
        if (!m_fatal)
            SSL_shutdown(m_ssl); // a close_notify if the socket takes it; never waits
        SSL_free(m_ssl);
    }
    X509_free(m_seen.server);
    X509_free(m_seen.failing);
    ERR_clear_error();
}

std::unique_ptr<TlsChannel> TlsChannel::start(int fd, const RedisEndpoint& endpoint, std::chrono::milliseconds timeout,
                                              RedisError* error)
{
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        *error = tlsError(RedisError::Kind::Tls, QString::fromLocal8Bit(std::strerror(errno)));
        return nullptr;
    }
    SSL_CTX* context = contexts().contextFor(endpoint.tls, error);
    if (!context)
        return nullptr;
    ERR_clear_error();
    SSL* ssl = SSL_new(context);
    if (!ssl) {
        *error = tlsError(RedisError::Kind::Tls, Text::tr("Cannot set up TLS: %1.").arg(takeOpenSslError()));
        return nullptr;
    }
    std::unique_ptr<TlsChannel> channel(new TlsChannel(ssl, endpoint));
    SSL_set_fd(ssl, fd);
    SSL_set_connect_state(ssl);
    SSL_set_app_data(ssl, &channel->m_seen);
    if (!endpoint.tls.insecure)
        SSL_set_verify(ssl, SSL_VERIFY_PEER, keepCertificates);
    const QString name = endpoint.tls.expectedName(endpoint.host);
    const QByteArray nameBytes = name.toUtf8();
    // SNI carries host names only, never an address (RFC 6066).
    if (!isIpAddress(name))
        SSL_set_tlsext_host_name(ssl, nameBytes.constData());
    if (!endpoint.tls.insecure) {
        X509_VERIFY_PARAM* check = SSL_get0_param(ssl);
        X509_VERIFY_PARAM_set_hostflags(check, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        const bool set = isIpAddress(name) ? X509_VERIFY_PARAM_set1_ip_asc(check, nameBytes.constData()) == 1
                                           : X509_VERIFY_PARAM_set1_host(check, nameBytes.constData(), 0) == 1;
        if (!set) {
            *error = tlsError(RedisError::Kind::Tls,
                              Text::tr("\"%1\" cannot be checked against a certificate: give a host name or an "
                                       "address (--sni NAME).")
                                  .arg(name));
            return nullptr;
        }
    }

    bool certificateRequested = false;
    SSL_set_msg_callback_arg(ssl, &certificateRequested);
    SSL_set_msg_callback(ssl, noteCertificateRequest);

    const QDeadlineTimer deadline(timeout);
    while (true) {
        ERR_clear_error();
        const int done = SSL_connect(ssl);
        if (done == 1) {
            SSL_set_msg_callback(ssl, nullptr);
            if (certificateRequested && SSL_version(ssl) == TLS1_3_VERSION
                && !awaitClientCertificateVerdict(ssl, fd, endpoint, deadline, error))
                return nullptr;
            channel->m_fatal = false;
            return channel;
        }
        const int savedErrno = errno;
        const int why = SSL_get_error(ssl, done);
        if (why != SSL_ERROR_WANT_READ && why != SSL_ERROR_WANT_WRITE) {
            *error = sessionFailure(ssl, endpoint, why, savedErrno, true);
            return nullptr;
        }
        pollfd wait {fd, short(why == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT), 0};
        const int ready = ::poll(&wait, 1, int(std::max<qint64>(0, deadline.remainingTime())));
        if (ready == 0) {
            *error = tlsError(RedisError::Kind::Timeout,
                              Text::tr("No TLS handshake with %1 within %2 ms. Is it the server's TLS port "
                                       "(tls-port)? A plain port takes redis://.")
                                  .arg(endpoint.address())
                                  .arg(timeout.count()));
            return nullptr;
        }
        if (ready < 0 && errno != EINTR) {
            *error = tlsError(RedisError::Kind::Tls, QString::fromLocal8Bit(std::strerror(errno)));
            return nullptr;
        }
    }
}

TlsChannel::Result TlsChannel::failure(int returned)
{
    const int savedErrno = errno;
    const int why = SSL_get_error(m_ssl, returned);
    if (why == SSL_ERROR_WANT_READ || why == SSL_ERROR_WANT_WRITE)
        return Result::WouldBlock;
    m_error = sessionFailure(m_ssl, m_endpoint, why, savedErrno, false);
    m_fatal = m_fatal || why == SSL_ERROR_SSL || why == SSL_ERROR_SYSCALL;
    if (why == SSL_ERROR_ZERO_RETURN || (why == SSL_ERROR_SYSCALL && savedErrno == 0))
        return Result::Closed;
    return Result::Failed;
}

TlsChannel::Result TlsChannel::write(const char* data, qint64 size, qint64* written)
{
    *written = 0;
    if (size <= 0)
        return Result::Done;
    ERR_clear_error();
    size_t done = 0;
    if (SSL_write_ex(m_ssl, data, size_t(size), &done) == 1) {
        *written = qint64(done);
        return Result::Done;
    }
    return failure(0);
}

TlsChannel::Result TlsChannel::read(char* buffer, qint64 size, qint64* got)
{
    *got = 0;
    ERR_clear_error();
    size_t done = 0;
    if (SSL_read_ex(m_ssl, buffer, size_t(size), &done) == 1) {
        *got = qint64(done);
        return Result::Done;
    }
    return failure(0);
}

bool TlsChannel::hasBufferedInput() const
{
    return SSL_pending(m_ssl) > 0;
}
