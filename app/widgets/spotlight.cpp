#include "spotlight.h"

#include "palette.h"

#include <QDockWidget>
#include <QEvent>
#include <QPainter>
#include <QPointer>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>

#include <algorithm>
#include <cmath>

namespace {
// Where the frame of `part` lives: its parent, or the first one up that is not a splitter (a
// splitter takes every child as a pane, so neither the part nor a splitter holding it may be the
// frame's parent).
QWidget* ringParent(QWidget* part)
{
    QWidget* parent = part->parentWidget();
    while (parent && qobject_cast<QSplitter*>(parent) && parent->parentWidget())
        parent = parent->parentWidget();
    return parent;
}

// The frame itself: a transparent widget over the whole part that paints in its margin only. Not
// a child of the part, whose children are its contents.
class Ring : public QWidget
{
public:
    explicit Ring(QWidget* part)
        : QWidget(ringParent(part))
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
    m_lit = part;
    attachRing();
    if (!m_ring)
        return;
    bringIntoView(part);
    placeRing(); // a tab brought forward lays the part out anew
}

void Spotlight::attachRing()
{
    delete m_ring;
    for (const QPointer<QWidget>& watched : std::as_const(m_between))
        if (watched && !isReserved(watched))
            watched->removeEventFilter(this);
    m_between.clear();
    if (!m_lit || !m_lit->parentWidget())
        return;
    auto* ring = new Ring(m_lit);
    ring->m_part = m_lit;
    m_ring = ring;
    // The part and the splitters between it and the frame move it; the frame's parent takes
    // siblings later, which must stay below the frame.
    for (QWidget* widget = m_lit; widget && widget != ring->parentWidget(); widget = widget->parentWidget()) {
        widget->installEventFilter(this);
        m_between << widget;
    }
    ring->parentWidget()->installEventFilter(this);
    m_between << ring->parentWidget();
    placeRing();
}

void Spotlight::placeRing()
{
    if (!m_ring || !m_lit)
        return;
    if (!m_ring->parentWidget()->isAncestorOf(m_lit)) {
        attachRing(); // the part moved to another parent (the ZSET panel into the runs' place)
        return;
    }
    m_ring->setGeometry(QRect(m_lit->mapTo(m_ring->parentWidget(), QPoint(0, 0)), m_lit->size()));
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
        const bool moved = watched != m_ring->parentWidget()
            && (type == QEvent::Resize || type == QEvent::Move || type == QEvent::Show || type == QEvent::Hide
                || type == QEvent::ParentChange);
        const bool sibling = watched == m_ring->parentWidget() && type == QEvent::ChildAdded
            && static_cast<QChildEvent*>(event)->child() != m_ring.data();
        if (moved || sibling)
            placeRing();
    }
    return QObject::eventFilter(watched, event);
}
