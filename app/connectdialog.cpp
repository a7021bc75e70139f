#include "connectdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

ConnectDialog::ConnectDialog(const RedisServerChoice::Request& current, QWidget* parent)
    : QDialog(parent)
    , m_request(current)
{
    setWindowTitle(tr("Connect to Redis"));
    auto* layout = new QVBoxLayout(this);
    m_tabs = new QTabWidget(this);

    auto* urlPage = new QWidget(m_tabs);
    auto* urlForm = new QFormLayout(urlPage);
    m_url = new QLineEdit(current.url, urlPage);
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(tr("empty: 127.0.0.1:6379, else a private server"));
    m_url->setToolTip(tr("redis://[[user]:password@]host[:port][/db], rediss://… for TLS, or "
                         "unix:///path/to.sock[?db=N]"));
    urlForm->addRow(tr("&URL"), m_url);
    urlForm->addRow(QString(), new QLabel(tr("e.g. redis://:secret@127.0.0.1:6380/2"), urlPage));
    m_tabs->addTab(urlPage, tr("URL"));

    auto* partsPage = new QWidget(m_tabs);
    auto* partsForm = new QFormLayout(partsPage);
    m_transport = new QComboBox(partsPage);
    m_transport->addItems({tr("TCP host and port"), tr("Unix socket")});
    m_host = new QLineEdit(QStringLiteral("127.0.0.1"), partsPage);
    m_port = new QSpinBox(partsPage);
    m_port->setRange(1, 65535);
    m_port->setValue(6379);
    m_socket = new QLineEdit(partsPage);
    m_socket->setPlaceholderText(QStringLiteral("/run/redis/redis-server.sock"));
    m_user = new QLineEdit(partsPage);
    m_user->setPlaceholderText(tr("default user"));
    m_password = new QLineEdit(partsPage);
    m_password->setEchoMode(QLineEdit::Password);
    m_db = new QSpinBox(partsPage);
    m_db->setRange(0, 65535);
    m_useTls = new QCheckBox(tr("Use T&LS (rediss://)"), partsPage);
    m_useTls->setObjectName(QStringLiteral("useTls"));
    partsForm->addRow(tr("Connect by"), m_transport);
    partsForm->addRow(tr("&Host"), m_host);
    partsForm->addRow(tr("&Port"), m_port);
    partsForm->addRow(QString(), m_useTls);
    partsForm->addRow(tr("&Socket"), m_socket);
    partsForm->addRow(tr("U&ser"), m_user);
    partsForm->addRow(tr("Pass&word"), m_password);
    partsForm->addRow(tr("&Database"), m_db);
    m_tabs->addTab(partsPage, tr("Host, port, socket"));
    auto updateTransport = [this] {
        const bool unix = m_transport->currentIndex() == 1;
        m_host->setEnabled(!unix);
        m_port->setEnabled(!unix);
        m_socket->setEnabled(unix);
        m_useTls->setEnabled(!unix);
        updateTlsFields();
    };
    connect(m_transport, &QComboBox::currentIndexChanged, this, updateTransport);
    layout->addWidget(m_tabs);

    m_tlsBox = new QGroupBox(tr("TLS (rediss://)"), this);
    auto* tlsForm = new QFormLayout(m_tlsBox);
    auto makeEdit = [this](const char* name, const QString& text, const QString& placeholder) {
        auto* edit = new QLineEdit(text, m_tlsBox);
        edit->setObjectName(QLatin1String(name));
        edit->setPlaceholderText(placeholder);
        return edit;
    };
    m_tlsCa = makeEdit("tlsCa", current.tls.caFile, tr("empty: the system's CA store"));
    m_tlsCert = makeEdit("tlsCert", current.tls.certFile, tr("only if the server asks for one"));
    m_tlsKey = makeEdit("tlsKey", current.tls.keyFile, tr("the client certificate's key"));
    m_sni = makeEdit("tlsSni", current.tls.serverName, tr("empty: the host"));
    m_sni->setToolTip(tr("The name sent to the server (SNI) and looked for in its certificate."));
    m_insecure = new QCheckBox(tr("Do not check the server's certificate (test servers only)"), m_tlsBox);
    m_insecure->setObjectName(QStringLiteral("tlsInsecure"));
    m_insecure->setChecked(current.tls.insecure);
    tlsForm->addRow(tr("&CA certificate"), fileField(m_tlsCa, tr("CA certificate")));
    tlsForm->addRow(tr("Client c&ertificate"), fileField(m_tlsCert, tr("Client certificate")));
    tlsForm->addRow(tr("Client &key"), fileField(m_tlsKey, tr("Client key")));
    tlsForm->addRow(tr("Server &name"), m_sni);
    tlsForm->addRow(QString(), m_insecure);
    layout->addWidget(m_tlsBox);
    connect(m_url, &QLineEdit::textChanged, this, &ConnectDialog::updateTlsFields);
    connect(m_useTls, &QCheckBox::toggled, this, &ConnectDialog::updateTlsFields);
    connect(m_tabs, &QTabWidget::currentChanged, this, &ConnectDialog::updateTlsFields);
    updateTransport();

    auto* common = new QFormLayout;
    m_timeout = new QSpinBox(this);
    m_timeout->setRange(50, 600000);
    m_timeout->setSuffix(tr(" ms"));
    m_timeout->setValue(int(current.options.commandTimeout.count()));
    m_timeout->setToolTip(tr("How long to wait for a connection or an answer before giving up."));
    common->addRow(tr("&Timeout"), m_timeout);
    layout->addLayout(common);

    m_error = new QLabel(this);
    m_error->setWordWrap(true);
    QPalette red = m_error->palette();
    red.setColor(QPalette::WindowText, QColor(180, 40, 0));
    m_error->setPalette(red);
    m_error->hide();
    layout->addWidget(m_error);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Connect"));
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ConnectDialog::reject);
    layout->addWidget(buttons);
}

QWidget* ConnectDialog::fileField(QLineEdit* edit, const QString& title)
{
    auto* field = new QWidget(m_tlsBox);
    field->setFocusProxy(edit); // the row's label (and its shortcut) leads to the file name
    auto* row = new QHBoxLayout(field);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(edit, 1);
    auto* browse = new QToolButton(field);
    browse->setText(tr("Browse…"));
    row->addWidget(browse);
    connect(browse, &QToolButton::clicked, this, [this, edit, title] {
        const QString file = QFileDialog::getOpenFileName(this, title, edit->text(),
                                                          tr("PEM files (*.pem *.crt *.key *.cert);;All files (*)"));
        if (!file.isEmpty())
            edit->setText(file);
    });
    return field;
}

// The TLS fields count for a rediss:// URL only: greyed out otherwise.
void ConnectDialog::updateTlsFields()
{
    m_tlsBox->setEnabled(url().startsWith(QLatin1String("rediss://"), Qt::CaseInsensitive));
}

TlsSettings ConnectDialog::tls() const
{
    TlsSettings settings;
    if (!m_tlsBox->isEnabled())
        return settings;
    settings.caFile = m_tlsCa->text().trimmed();
    settings.certFile = m_tlsCert->text().trimmed();
    settings.keyFile = m_tlsKey->text().trimmed();
    settings.serverName = m_sni->text().trimmed();
    settings.insecure = m_insecure->isChecked();
    return settings;
}

QString ConnectDialog::url() const
{
    if (m_tabs->currentIndex() == 0)
        return m_url->text().trimmed();
    QUrl url;
    if (m_transport->currentIndex() == 1) {
        url.setScheme(QStringLiteral("unix"));
        url.setPath(m_socket->text().trimmed());
        if (m_db->value() != 0)
            url.setQuery(QStringLiteral("db=%1").arg(m_db->value()));
    } else {
        url.setScheme(m_useTls->isChecked() ? QStringLiteral("rediss") : QStringLiteral("redis"));
        url.setHost(m_host->text().trimmed());
        url.setPort(m_port->value());
        if (m_db->value() != 0)
            url.setPath(QStringLiteral("/%1").arg(m_db->value()));
    }
    if (!m_user->text().isEmpty())
        url.setUserName(m_user->text());
    if (!m_password->text().isEmpty())
        url.setPassword(m_password->text());
    QString text = url.toString(QUrl::FullyEncoded);
    if (m_transport->currentIndex() == 1 && text.startsWith(QLatin1String("unix:/"))
        && !text.startsWith(QLatin1String("unix://")))
        text.replace(0, 5, QStringLiteral("unix://"));
    return text;
}

void ConnectDialog::accept()
{
    RedisServerChoice::Request request = m_request;
    request.url = url();
    request.tls = tls();
    if (!request.url.isEmpty()) {
        QString why;
        if (!RedisServerChoice::endpointOf(request, nullptr, &why)) {
            m_error->setText(why);
            m_error->show();
            return;
        }
    }
    m_request = request;
    m_request.options.connectTimeout = std::chrono::milliseconds(m_timeout->value());
    m_request.options.commandTimeout = std::chrono::milliseconds(m_timeout->value());
    QDialog::accept();
}

RedisServerChoice::Request ConnectDialog::request() const
{
    return m_request;
}
