#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>

// A throw-away certificate authority for private TLS servers and tests (never for production):
// EC P-256 keys, SHA-256 signatures, everything in PEM, nothing on disk until written.
class TlsCertificates
{
public:
    struct Pair
    {
        QByteArray certificate; // PEM
        QByteArray key; // PEM, unencrypted
        bool isValid() const { return !certificate.isEmpty() && !key.isEmpty(); }
    };

    TlsCertificates();
    ~TlsCertificates();
    TlsCertificates(const TlsCertificates&) = delete;
    TlsCertificates& operator=(const TlsCertificates&) = delete;

    // A new CA named commonName. False with *error when OpenSSL fails.
    bool createAuthority(const QString& commonName, QString* error);
    const Pair& authority() const { return m_authority; }

    // A certificate signed by the CA for names (host names or IP addresses, as subject alternative
    // names), valid from validFrom to validUntil seconds from now (negative: in the past). For a
    // server or, with forClient, a client.
    Pair issue(const QString& commonName, const QStringList& names, qint64 validFrom, qint64 validUntil, bool forClient,
               QString* error) const;

    // Writes pem to path, readable by its owner only.
    static bool write(const QString& path, const QByteArray& pem, QString* error);

private:
    struct Keys;
    std::unique_ptr<Keys> m_keys;
    Pair m_authority;
};
