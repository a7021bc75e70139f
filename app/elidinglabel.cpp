#include "elidinglabel.h"

#include <QEvent>

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
    }
}

void ElidingLabel::elide()
{
    const QString shown = fontMetrics().elidedText(m_full, Qt::ElideMiddle, contentsRect().width());
    if (shown != text())
        QLabel::setText(shown);
}
