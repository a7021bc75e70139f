#pragma once

#include "redisserverchoice.h"

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTabWidget;

// Another Redis endpoint: a URL, or its parts (host and port or a socket, user, password,
// database). An empty URL means "local 6379, else a private server".
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
    QTabWidget* m_tabs = nullptr;
    QLineEdit* m_url = nullptr;
    QComboBox* m_transport = nullptr;
    QLineEdit* m_host = nullptr;
    QSpinBox* m_port = nullptr;
    QLineEdit* m_socket = nullptr;
    QLineEdit* m_user = nullptr;
    QLineEdit* m_password = nullptr;
    QSpinBox* m_db = nullptr;
    QSpinBox* m_timeout = nullptr;
    QLabel* m_error = nullptr;
    RedisServerChoice::Request m_request;
};
