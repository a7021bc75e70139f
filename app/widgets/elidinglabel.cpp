#include "elidinglabel.h"

#include <QEvent>
#include <QStatusBar>

#include <algorithm>

ElidingLabel::ElidingLabel(QWidget* parent)
    : QLabel(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setTextFormat(Qt::PlainText);
}

void ElidingLabel::setFullText(const QString& text)
{
    m_full = text;
    setToolTip(text);
    updateGeometry();
    elide();
}

QSize ElidingLabel::minimumSizeHint() const
{
    // Room for a dozen characters: enough to tell what the line is about.
    const QMargins margins = contentsMargins();
    return {fontMetrics().averageCharWidth() * 12 + margins.left() + margins.right(),
            fontMetrics().height() + margins.top() + margins.bottom()};
}

QSize ElidingLabel::sizeHint() const
{
    const QMargins margins = contentsMargins();
    return {fontMetrics().horizontalAdvance(m_full) + margins.left() + margins.right() + 2,
            fontMetrics().height() + margins.top() + margins.bottom()};
}

void ElidingLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidingLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        updateGeometry();
        elide();
        makeRoomForMessage();
    }
}

void ElidingLabel::elide()
{
    const QString shown = fontMetrics().elidedText(m_full, Qt::ElideMiddle, contentsRect().width());
    if (shown != text())
        QLabel::setText(shown);
}

void ElidingLabel::giveWayToMessages(QStatusBar* bar)
{
    // A status bar gives a permanent widget its size hint and cuts the message: the message is
    // news, this line is not. Measured again when the message, the bar's width or the text size
    // changes.
    m_bar = bar;
    connect(bar, &QStatusBar::messageChanged, this, &ElidingLabel::makeRoomForMessage);
    bar->installEventFilter(this);
}

void ElidingLabel::makeRoomForMessage()
{
    if (!m_bar)
        return;
    const QString message = m_bar->currentMessage();
    int widest = QWIDGETSIZE_MAX;
    if (!message.isEmpty()) {
        const int messageWidth = m_bar->fontMetrics().horizontalAdvance(message) + 3 * fontMetrics().averageCharWidth();
        widest = std::max(minimumSizeHint().width(), m_bar->width() - messageWidth);
    }
    if (maximumWidth() != widest)
        setMaximumWidth(widest);
}

bool ElidingLabel::eventFilter(QObject* watched, QEvent* event)
{
    // The event's type first: while the status bar is being destroyed (it is a plain QWidget by
    // then), reading the QPointer<QStatusBar> would be a downcast to a type it no longer has.
    if ((event->type() == QEvent::Resize || event->type() == QEvent::FontChange) && watched == m_bar)
        makeRoomForMessage();
    return QLabel::eventFilter(watched, event);
}
