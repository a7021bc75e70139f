#include "verticalscrollarea.h"

#include <QDockWidget>
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
    // A panel's updateGeometry() posts its request to the viewport, its parent: heard there too.
    viewport()->installEventFilter(this);
    // A dock says when its tab comes to the front or goes behind another (visibilityChanged).
    if (auto* dock = qobject_cast<QDockWidget*>(parent))
        connect(dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
            if (visible == m_inFront)
                return;
            m_inFront = visible;
            updateGeometry();
        });
}

QSize VerticalScrollArea::minimumSizeHint() const
{
    // Behind another panel's tab it claims no width: the tabs are as wide as the panel in front
    // needs (the lesson's, not the Burst form's), and grow when this one comes to the front.
    if (!m_inFront && widget())
        return {fontMetrics().averageCharWidth() * 8, fontMetrics().height() * 3};
    return minimumSizeInFront();
}

QSize VerticalScrollArea::minimumSizeInFront() const
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
    if ((watched == widget() || watched == viewport())
        && (event->type() == QEvent::LayoutRequest || event->type() == QEvent::FontChange
            || event->type() == QEvent::LanguageChange)) {
        // The panel's minimum may have changed. Said only when it did: the layout that follows
        // resizes the panel, which asks again, and that must end.
        const QSize hint = minimumSizeHint();
        if (hint != m_saidHint || event->type() != QEvent::LayoutRequest) {
            m_saidHint = hint;
            updateGeometry();
        }
    }
    return QScrollArea::eventFilter(watched, event);
}
