#pragma once

#include "redis/serversession.h"

#include <QWidget>

class ElidingLabel;
class QLabel;
class QPushButton;

// Which Redis is in use, always visible: version, private or not, URL; Connect… and Disconnect;
// and a banner when the connection is lost (results stay on screen).
class ServerBar : public QWidget
{
    Q_OBJECT
public:
    explicit ServerBar(ServerSession* session, QWidget* parent = nullptr);

    QString statusText() const;
    bool isBannerVisible() const;

signals:
    void connectRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void update();
    void retranslate();

    ServerSession* m_session;
    QLabel* m_light = nullptr;
    ElidingLabel* m_status = nullptr;
    QPushButton* m_connect = nullptr;
    QPushButton* m_disconnect = nullptr;
    QLabel* m_banner = nullptr;
};
