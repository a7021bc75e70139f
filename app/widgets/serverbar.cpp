#include "serverbar.h"

#include "elidinglabel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

ServerBar::ServerBar(ServerSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 4, 6, 4);
    auto* row = new QHBoxLayout;
    m_light = new QLabel(this);
    m_light->setFixedSize(14, 14);
    m_status = new ElidingLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_connect = new QPushButton(this);
    m_disconnect = new QPushButton(this);
    row->addWidget(m_light);
    row->addWidget(m_status, 1);
    row->addWidget(m_connect);
    row->addWidget(m_disconnect);
    layout->addLayout(row);
    m_banner = new QLabel(this);
    m_banner->setWordWrap(true);
    m_banner->setAutoFillBackground(true);
    m_banner->setMargin(6);
    QPalette warning = m_banner->palette();
    warning.setColor(QPalette::Window, QColor(253, 231, 206));
    warning.setColor(QPalette::WindowText, QColor(90, 30, 0));
    m_banner->setPalette(warning);
    m_banner->hide();
    layout->addWidget(m_banner);

    connect(m_connect, &QPushButton::clicked, this, &ServerBar::connectRequested);
    connect(m_disconnect, &QPushButton::clicked, m_session, &ServerSession::disconnectFromServer);
    connect(m_session, &ServerSession::stateChanged, this, &ServerBar::update);
    connect(m_session, &ServerSession::failed, this, &ServerBar::update);
    retranslate();
}

void ServerBar::retranslate()
{
    m_connect->setText(tr("Connect…"));
    m_connect->setToolTip(tr("Use another Redis server: a URL, or host, port or socket, user, password and "
                             "database."));
    m_disconnect->setText(tr("Disconnect"));
    m_disconnect->setToolTip(tr("Stop using this server (a private server is stopped and removed)."));
    update();
}

void ServerBar::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void ServerBar::update()
{
    QColor light;
    QString text;
    m_banner->hide();
    switch (m_session->state()) {
    case ServerSession::State::Disconnected:
        light = QColor(150, 150, 150);
        text = m_session->lastError().isEmpty() ? tr("Not connected.")
                                                : tr("Not connected: %1").arg(m_session->lastError());
        break;
    case ServerSession::State::Connecting:
        light = QColor(230, 159, 0);
        text = tr("Connecting…");
        break;
    case ServerSession::State::Connected:
        light = QColor(0, 158, 115);
        text = m_session->description();
        break;
    case ServerSession::State::Lost:
        light = QColor(213, 94, 0);
        text = m_session->description();
        m_banner->setText(
            tr("<b>Lost the connection</b> to %1: %2<br>The results stay on screen; zsetlab "
               "reconnects by itself when the server answers again.")
                .arg(m_session->endpoint().address().toHtmlEscaped(), m_session->lastError().toHtmlEscaped()));
        m_banner->show();
        break;
    }
    m_light->setStyleSheet(QStringLiteral("background:%1; border-radius:7px;").arg(light.name()));
    m_status->setFullText(text);
    m_disconnect->setEnabled(m_session->state() != ServerSession::State::Disconnected);
}

QString ServerBar::statusText() const
{
    return m_status->fullText();
}

bool ServerBar::isBannerVisible() const
{
    return !m_banner->isHidden();
}
