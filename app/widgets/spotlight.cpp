#include "spotlight.h"

#include "palette.h"

#include <QDockWidget>
#include <QEvent>
#include <QPainter>
#include <QPointer>
#include <QStackedWidget>
#include <QTabWidget>

#include <algorithm>
#include <cmath>

namespace {
// The frame itself: a transparent widget over the whole part that paints in its margin only. A
// sibling of the part, not a child: a part may be a splitter, which takes every child as a pane.
class Ring : public QWidget
{
public:
    explicit Ring(QWidget* part)
        : QWidget(part->parentWidget())
    {
        setObjectName(QStringLiteral("SpotlightFrame"));
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setFocusPolicy(Qt::NoFocus);
    }

    // In the part's coordinates (the widget itself lies over the part).
    QRect frameRect() const
    {
        const int width = penWidth();
        return rect().adjusted(width / 2, width / 2, -(width - width / 2), -(width - width / 2));
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.setRenderHint(QPainter::Antialiasing, false); // one colour: the tests find it
        QPen pen(Spotlight::colour(), penWidth());
        pen.setJoinStyle(Qt::MiterJoin);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(frameRect());
    }

private:
    int penWidth() const
    {
        // The margin less a pixel of air between the frame and the part's contents.
        return std::max(2, Spotlight::marginFor(m_part) - 1);
    }

public:
    QPointer<QWidget> m_part;
};

// Shows `part` where it may be hidden: the dock it sits in (behind another's tab, or closed), the
// page of a tab widget.
void bringIntoView(QWidget* part)
{
    QWidget* child = part;
    for (QWidget* parent = part->parentWidget(); parent; child = parent, parent = parent->parentWidget()) {
        if (auto* stack = qobject_cast<QStackedWidget*>(parent)) {
            if (auto* tabs = qobject_cast<QTabWidget*>(stack->parentWidget()))
                tabs->setCurrentWidget(child);
            else
                stack->setCurrentWidget(child);
        }
        if (auto* dock = qobject_cast<QDockWidget*>(parent)) {
            dock->show();
            dock->raise();
        }
    }
}
} // namespace

Spotlight::Spotlight(QObject* parent)
    : QObject(parent)
{ }

Spotlight::~Spotlight() = default;

QColor Spotlight::colour()
{
    return Palette::attention;
}

int Spotlight::marginFor(const QWidget* part)
{
    // A quarter of a line: 4 px at 10 pt, 7 px at the presenter's larger text.
    return std::max(4, int(std::lround(part->fontMetrics().height() / 4.0)));
}

void Spotlight::reserve(QWidget* part)
{
    if (isReserved(part))
        return;
    m_parts << part;
    part->installEventFilter(this);
    applyMargin(part);
}

void Spotlight::applyMargin(QWidget* part)
{
    const int margin = marginFor(part);
    part->setContentsMargins(margin, margin, margin, margin);
}

void Spotlight::light(QWidget* part)
{
    if (part && !isReserved(part))
        reserve(part);
    if (part == m_lit)
        return; // already lit and shown once: a tab the user chose since stays chosen
    delete m_ring;
    if (m_lit && m_lit->parentWidget() && !isReserved(m_lit->parentWidget()))
        m_lit->parentWidget()->removeEventFilter(this);
    m_lit = part;
    if (!part || !part->parentWidget())
        return;
    auto* ring = new Ring(part);
    ring->m_part = part;
    m_ring = ring;
    part->parentWidget()->installEventFilter(this); // siblings added later stay below the frame
    placeRing();
    bringIntoView(part);
}

void Spotlight::placeRing()
{
    if (!m_ring || !m_lit)
        return;
    m_ring->setGeometry(m_lit->geometry());
    m_ring->setVisible(m_lit->isVisible());
    m_ring->raise();
    m_ring->update();
}

QRect Spotlight::frameRect() const
{
    return m_ring ? static_cast<const Ring*>(m_ring.data())->frameRect() : QRect();
}

bool Spotlight::eventFilter(QObject* watched, QEvent* event)
{
    auto* part = qobject_cast<QWidget*>(watched);
    if (part && isReserved(part) && event->type() == QEvent::FontChange)
        applyMargin(part);
    if (m_lit && m_ring) {
        const QEvent::Type type = event->type();
        const bool lit = watched == m_lit.data()
            && (type == QEvent::Resize || type == QEvent::Move || type == QEvent::Show || type == QEvent::Hide);
        const bool sibling = watched == m_lit->parentWidget() && type == QEvent::ChildAdded
            && static_cast<QChildEvent*>(event)->child() != m_ring.data();
        if (lit || sibling)
            placeRing();
    }
    return QObject::eventFilter(watched, event);
}
