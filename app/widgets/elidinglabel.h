#pragma once

// ElidingLabel: a one-line label that elides what does not fit and shows it whole in its tooltip.

#include <QLabel>
#include <QPointer>

// A one-line label for text that may be longer than the room it gets (a server's URL): it
// shortens the text in the middle rather than pushing the window wider than the screen, and
// shows the whole text as its tooltip.
class QStatusBar;

class ElidingLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidingLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    QString fullText() const { return m_full; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;
    // As a permanent widget of bar: shorter while the bar shows a message, so that it is read whole.
    void giveWayToMessages(QStatusBar* bar);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void elide();
    void makeRoomForMessage();

    QString m_full;
    QPointer<QStatusBar> m_bar; // whose messages it gives way to
};
