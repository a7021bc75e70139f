#pragma once

#include <QLabel>

// A one-line label for text that may be longer than the room it gets (a server's URL): it
// shortens the text in the middle rather than pushing the window wider than the screen, and
// shows the whole text as its tooltip.
class ElidingLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidingLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    QString fullText() const { return m_full; }
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void elide();

    QString m_full;
};
