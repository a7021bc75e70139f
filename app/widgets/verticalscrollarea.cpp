#include "verticalscrollarea.h"

#include <QEvent>
#include <QScrollBar>

VerticalScrollArea::VerticalScrollArea(QWidget* panel, QWidget* parent)
    : QScrollArea(parent)
{
    setWidget(panel);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    panel->installEventFilter(this);
}

QSize VerticalScrollArea::minimumSizeHint() const
{
    const QWidget* panel = widget();
    if (!panel)
        return QScrollArea::minimumSizeHint();
    // The panel's width, and room for the vertical scroll bar should it appear; a few lines high.
    const int width = panel->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width() + 2 * frameWidth();
    return {width, std::min(panel->minimumSizeHint().height(), fontMetrics().height() * 6)};
}

bool VerticalScrollArea::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == widget()
        && (event->type() == QEvent::LayoutRequest || event->type() == QEvent::FontChange
            || event->type() == QEvent::LanguageChange))
        updateGeometry(); // the panel's minimum width may have changed
    return QScrollArea::eventFilter(watched, event);
}
