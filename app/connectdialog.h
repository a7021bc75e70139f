#pragma once

#include "redis/redisserverchoice.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;

// Another Redis endpoint: a URL, or its parts (host and port or a socket, user, password,
// database, TLS). An empty URL means "local 6379, else a private server". The TLS fields (CA,
// client certificate and key, server name, no check) apply to a rediss:// URL only.
class ConnectDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ConnectDialog(const RedisServerChoice::Request& current, QWidget* parent = nullptr);

    RedisServerChoice::Request request() const;
    // The URL the fields spell (empty for the default).
    QString url() const;

    void accept() override;

private:
    QWidget* fileField(QLineEdit* edit, const QString& title);
    void updateTlsFields();
    TlsSettings tls() const;

    QTabWidget* m_tabs = nullptr;
    QLineEdit* m_url = nullptr;
    QComboBox* m_transport = nullptr;
    QLineEdit* m_host = nullptr;
    QSpinBox* m_port = nullptr;
    QLineEdit* m_socket = nullptr;
    QLineEdit* m_user = nullptr;
    QLineEdit* m_password = nullptr;
    QSpinBox* m_db = nullptr;
    QCheckBox* m_useTls = nullptr;
    QGroupBox* m_tlsBox = nullptr;
    QLineEdit* m_tlsCa = nullptr;
    QLineEdit* m_tlsCert = nullptr;
    QLineEdit* m_tlsKey = nullptr;
    QLineEdit* m_sni = nullptr;
    QCheckBox* m_insecure = nullptr;
    QSpinBox* m_timeout = nullptr;
    QLabel* m_error = nullptr;
    RedisServerChoice::Request m_request;
};
