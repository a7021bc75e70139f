#include "tlscertificates.h"

#include <QFile>

#include <openssl/bio.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

namespace {
QString openSslError()
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    const char* reason = code ? ERR_reason_error_string(code) : nullptr;
    return reason ? QString::fromLatin1(reason) : QStringLiteral("OpenSSL error");
}

struct PkeyDeleter
{
    void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct X509Deleter
{
    void operator()(X509* certificate) const { X509_free(certificate); }
};
using Key = std::unique_ptr<EVP_PKEY, PkeyDeleter>;
using Certificate = std::unique_ptr<X509, X509Deleter>;

Key newKey()
{
    return Key(EVP_EC_gen("P-256"));
}

QByteArray pemOf(X509* certificate)
{
    BIO* memory = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(memory, certificate);
    char* data = nullptr;
    const long size = BIO_get_mem_data(memory, &data);
    QByteArray pem(data, int(size));
    BIO_free(memory);
    return pem;
}

QByteArray pemOf(EVP_PKEY* key)
{
    BIO* memory = BIO_new(BIO_s_mem());
    PEM_write_bio_PrivateKey(memory, key, nullptr, nullptr, 0, nullptr, nullptr);
    char* data = nullptr;
    const long size = BIO_get_mem_data(memory, &data);
    QByteArray pem(data, int(size));
    BIO_free(memory);
    return pem;
}

bool addExtension(X509* certificate, X509* issuer, int nid, const QByteArray& value)
{
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, issuer, certificate, nullptr, nullptr, 0);
    X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value.constData());
    if (!extension)
        return false;
    const bool added = X509_add_ext(certificate, extension, -1) == 1;
    X509_EXTENSION_free(extension);
    return added;
}

void setName(X509_NAME* name, const QString& commonName)
{
    const QByteArray text = commonName.toUtf8();
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>("zsetlab"), -1, -1, 0);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(text.constData()), -1,
                               -1, 0);
}

// A certificate for key, named commonName, valid over the given seconds from now; signed by
// issuer's key (itself when issuer is null: a CA's own certificate).
Certificate makeCertificate(EVP_PKEY* key, const QString& commonName, qint64 validFrom, qint64 validUntil, X509* issuer)
{
    Certificate certificate(X509_new());
    X509_set_version(certificate.get(), 2);
    unsigned char serial[16];
    RAND_bytes(serial, sizeof serial);
    serial[0] &= 0x7f; // a positive number
    BIGNUM* number = BN_bin2bn(serial, sizeof serial, nullptr);
    BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate.get()));
    BN_free(number);
    X509_gmtime_adj(X509_getm_notBefore(certificate.get()), long(validFrom));
    X509_gmtime_adj(X509_getm_notAfter(certificate.get()), long(validUntil));
    X509_set_pubkey(certificate.get(), key);
    setName(X509_get_subject_name(certificate.get()), commonName);
    X509_set_issuer_name(certificate.get(), X509_get_subject_name(issuer ? issuer : certificate.get()));
    return certificate;
}
} // namespace

struct TlsCertificates::Keys
{
    Key authorityKey;
    Certificate authorityCertificate;
};

TlsCertificates::TlsCertificates()
    : m_keys(std::make_unique<Keys>())
{ }

TlsCertificates::~TlsCertificates() = default;

bool TlsCertificates::createAuthority(const QString& commonName, QString* error)
{
    ERR_clear_error();
    Key key = newKey();
    if (!key) {
        *error = openSslError();
        return false;
    }
    const qint64 tenYears = 10LL * 365 * 24 * 3600;
    Certificate certificate = makeCertificate(key.get(), commonName, -3600, tenYears, nullptr);
    const bool made = addExtension(certificate.get(), certificate.get(), NID_basic_constraints, "critical,CA:TRUE")
        && addExtension(certificate.get(), certificate.get(), NID_key_usage, "critical,keyCertSign,cRLSign")
        && addExtension(certificate.get(), certificate.get(), NID_subject_key_identifier, "hash")
        && X509_sign(certificate.get(), key.get(), EVP_sha256()) > 0;
    if (!made) {
        *error = openSslError();
        return false;
    }
    m_authority = {pemOf(certificate.get()), pemOf(key.get())};
    m_keys->authorityKey = std::move(key);
    m_keys->authorityCertificate = std::move(certificate);
    return true;
}

TlsCertificates::Pair TlsCertificates::issue(const QString& commonName, const QStringList& names, qint64 validFrom,
                                             qint64 validUntil, bool forClient, QString* error) const
{
    if (!m_keys->authorityKey) {
        *error = QStringLiteral("no certificate authority: createAuthority() first");
        return {};
    }
    ERR_clear_error();
    Key key = newKey();
    if (!key) {
        *error = openSslError();
        return {};
    }
    X509* issuer = m_keys->authorityCertificate.get();
    Certificate certificate = makeCertificate(key.get(), commonName, validFrom, validUntil, issuer);
    QStringList alternatives;
    for (const QString& name : names) {
        unsigned char address[16];
        const bool ip = ::inet_pton(AF_INET, name.toLatin1().constData(), address) == 1
            || ::inet_pton(AF_INET6, name.toLatin1().constData(), address) == 1;
        alternatives << (ip ? QStringLiteral("IP:") : QStringLiteral("DNS:")) + name;
    }
    bool made = addExtension(certificate.get(), issuer, NID_basic_constraints, "critical,CA:FALSE")
        && addExtension(certificate.get(), issuer, NID_key_usage, "critical,digitalSignature,keyAgreement")
        && addExtension(certificate.get(), issuer, NID_ext_key_usage, forClient ? "clientAuth" : "serverAuth")
        && addExtension(certificate.get(), issuer, NID_authority_key_identifier, "keyid:always");
    if (made && !alternatives.isEmpty())
        made = addExtension(certificate.get(), issuer, NID_subject_alt_name,
                            alternatives.join(QLatin1Char(',')).toLatin1());
    if (!made || X509_sign(certificate.get(), m_keys->authorityKey.get(), EVP_sha256()) <= 0) {
        *error = openSslError();
        return {};
    }
    return {pemOf(certificate.get()), pemOf(key.get())};
}

bool TlsCertificates::write(const QString& path, const QByteArray& pem, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate)
        || !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner) || file.write(pem) != pem.size()) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}
