#include "screenfit.h"

#include "verticalscrollarea.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFontInfo>
#include <QLayout>
#include <QMainWindow>
#include <QScreen>
#include <QStyle>

#include <algorithm>
#include <functional>

ScreenFit::ScreenFit(QMainWindow* window, QDockWidget* movable, QDockWidget* tabWith)
    : QObject(window)
    , m_window(window)
    , m_movable(movable)
    , m_tabWith(tabWith)
{ }

QSize ScreenFit::room() const
{
    if (m_fixedRoom.isValid())
        return m_fixedRoom;
    const QScreen* screen = m_window->screen();
    if (!screen)
        return {};
    // The frame (title bar, borders) takes its share; none when full screen.
    const QSize frame
        = m_window->isFullScreen() ? QSize() : m_window->frameGeometry().size() - m_window->geometry().size();
    return (m_window->isFullScreen() ? screen->geometry().size() : screen->availableGeometry().size()) - frame;
}

bool ScreenFit::minimumFits() const
{
    const QSize room = this->room();
    const QSize needed = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
    return !room.isValid() || (needed.width() <= room.width() && needed.height() <= room.height());
}

bool ScreenFit::fits() const
{
    const QSize room = this->room();
    if (!room.isValid())
        return true;
    // A new application font reaches the widgets by posted events, and panels that size
    // themselves on a font or language change ask for a new layout by posted events: take those
    // sizes now.
    // A layout that resizes a panel may make that panel ask for another (text that wraps anew
    // at its new width): a few rounds, until the geometries stand still.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::ApplicationFontChange);
    // Every geometry counts, not only the central widget's: a panel inside may still settle (the
    // replay's controls take a row more or less at a new width).
    auto geometries = [this] {
        QList<QRect> all;
        for (const QWidget* widget : m_window->findChildren<QWidget*>())
            if (widget->isVisible())
                all << widget->geometry();
        return all;
    };
    QList<QRect> before = geometries();
    for (int round = 0; round < 8; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        m_window->layout()->activate();
        QList<QRect> after = geometries();
        if (after == before)
            break;
        before = std::move(after);
    }
    if (!minimumFits())
        return false;
    if (!overflows())
        return true;
    // A window smaller than its screen may grow to make room; a full one cannot.
    if (m_window->isFullScreen() || m_window->isMaximized() || m_window->size() == room)
        return false;
    m_window->resize(room);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    return !overflows();
}

bool ScreenFit::overflows() const
{
    // Docks parked behind another's tab are not laid out; what scrolls may lie beyond its view.
    QList<const QWidget*> skipped;
    for (const QDockWidget* dock : m_window->findChildren<QDockWidget*>())
        if (!dock->isVisible()
            || (!m_window->tabifiedDockWidgets(const_cast<QDockWidget*>(dock)).isEmpty()
                && dock->visibleRegion().isEmpty()))
            skipped << dock;
    for (const QAbstractScrollArea* area : m_window->findChildren<QAbstractScrollArea*>())
        skipped << area->viewport();
    const std::function<bool(const QWidget*)> within = [&](const QWidget* parent) {
        for (const QObject* object : parent->children()) {
            const auto* child = qobject_cast<const QWidget*>(object);
            if (!child || child->isWindow() || !child->isVisible() || skipped.contains(child))
                continue;
            if (!parent->rect().adjusted(-1, -1, 1, 1).contains(child->geometry()))
                return false;
            if (!within(child))
                return false;
        }
        return true;
    };
    return !within(m_window);
}

int ScreenFit::widthInFront(const QDockWidget* dock)
{
    // A side panel behind another's tab claims no width (VerticalScrollArea): in its own place it
    // needs all of its panel's.
    const int width = dock->minimumSizeHint().width();
    const auto* area = qobject_cast<const VerticalScrollArea*>(dock->widget());
    return area ? width - area->minimumSizeHint().width() + area->minimumSizeInFront().width() : width;
}

bool ScreenFit::isDockMoved() const
{
    // Read from the window, not remembered: a restored layout (QMainWindow::restoreState) may
    // have put it back.
    return m_window->tabifiedDockWidgets(m_movable).contains(m_tabWith);
}

bool ScreenFit::fit()
{
    const bool movedForRoomHere = m_movedForRoomAt == m_window->size()
        && qFuzzyCompare(m_movedForRoomAtText, QFontInfo(m_window->font()).pointSizeF());
    if (isDockMoved() && !movedForRoomHere && fits()) {
        // Back in its place when the room allows it beside the others (as far as the minimum
        // sizes tell; should they be wrong, it goes back into the tabs at once).
        const int separator = m_window->style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, m_window);
        const int needed = m_window->minimumSizeHint().width() + widthInFront(m_movable) + separator + 8;
        if (needed <= room().width()) {
            m_window->addDockWidget(Qt::RightDockWidgetArea, m_movable);
            if (!fits())
                moveIntoTabs();
        }
    } else if (!fits() && m_movable->isVisible() && !m_movable->isFloating()
               && m_window->tabifiedDockWidgets(m_movable).isEmpty()) {
        moveIntoTabs();
    }
    bool fitting = fits();
    if (!fitting && isDockMoved()) { // the tabs may have kept a width from a larger text
        narrowTabs();
        fitting = fits();
    }
    keepOnScreen();
    if (fitting)
        giveRoomToMainView();
    return fitting;
}

qint64 ScreenFit::largestPanelArea() const
{
    qint64 largest = 0;
    for (const QDockWidget* dock : m_window->findChildren<QDockWidget*>())
        if (dock->isVisible() && !dock->isFloating() && !dock->visibleRegion().isEmpty())
            largest = std::max(largest, qint64(dock->width()) * dock->height());
    return largest;
}

void ScreenFit::giveRoomToMainView()
{
    if (!m_mainArea)
        return;
    auto settle = [this] {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        m_window->layout()->activate();
    };
    const auto& mainArea = m_mainArea;
    if (mainArea() == 0 || mainArea() >= largestPanelArea())
        return;
    // The side panels as narrow as their contents allow, and no narrower than a fifth of the window.
    QList<QDockWidget*> docks;
    QList<int> widths;
    QList<int> widthsBefore;
    for (QDockWidget* dock : m_window->findChildren<QDockWidget*>()) {
        const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
        if (!dock->isVisible() || dock->isFloating() || dock->visibleRegion().isEmpty()
            || (area != Qt::LeftDockWidgetArea && area != Qt::RightDockWidgetArea))
            continue;
        docks << dock;
        widths << std::max(dock->minimumSizeHint().width(), m_window->width() / 5);
        widthsBefore << dock->width();
    }
    m_window->resizeDocks(docks, widths, Qt::Horizontal);
    settle();
    if (!minimumFits()) {
        // A narrower panel wraps its text into more lines: the window would need more height
        // than the screen has (Qt 6.8's panels at 1280x720 and a large text). The panels keep
        // their widths.
        m_window->resizeDocks(docks, widthsBefore, Qt::Horizontal);
        settle();
        return;
    }
    if (mainArea() >= largestPanelArea() || isDockMoved() || !m_movable->isVisible() || m_movable->isFloating())
        return;
    moveIntoTabs();
    settle();
    m_movedForRoomAt = m_window->size();
    m_movedForRoomAtText = QFontInfo(m_window->font()).pointSizeF();
}

bool ScreenFit::keepMainViewLargest()
{
    if (!m_mainArea || isDockMoved() || !m_movable->isVisible() || m_movable->isFloating()
        || !m_window->tabifiedDockWidgets(m_movable).isEmpty())
        return false;
    // The panel in front takes its place before the areas are compared.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    m_window->layout()->activate();
    const qint64 mainArea = m_mainArea();
    if (mainArea == 0 || mainArea >= largestPanelArea())
        return false;
    moveIntoTabs();
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    m_window->layout()->activate();
    m_movedForRoomAt = m_window->size();
    m_movedForRoomAtText = QFontInfo(m_window->font()).pointSizeF();
    return true;
}

void ScreenFit::moveIntoTabs()
{
    // Behind the tab in front: the lesson or the Burst panel stays in view.
    QDockWidget* front = m_tabWith;
    for (QDockWidget* dock : m_window->tabifiedDockWidgets(m_tabWith))
        if (!dock->visibleRegion().isEmpty())
            front = dock;
    m_window->tabifyDockWidget(m_tabWith, m_movable);
    front->raise();
    narrowTabs();
}

void ScreenFit::narrowTabs()
{
    // The tabs as narrow as their panels allow: the width the ZSET panel had goes to the charts.
    int narrowest = m_tabWith->minimumSizeHint().width();
    for (QDockWidget* dock : m_window->tabifiedDockWidgets(m_tabWith))
        narrowest = std::max(narrowest, dock->minimumSizeHint().width());
    m_window->resizeDocks({m_tabWith}, {narrowest}, Qt::Horizontal);
}

void ScreenFit::keepOnScreen()
{
    if (m_fixedRoom.isValid()) {
        if (m_window->size() != m_fixedRoom)
            m_window->resize(m_fixedRoom);
        return;
    }
    const QScreen* screen = m_window->screen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    const QRect frame = m_window->frameGeometry();
    const QRect screenRect = m_window->isFullScreen() ? screen->geometry() : available;
    if (screenRect.contains(frame))
        return;
    const Qt::WindowStates state = m_window->windowState();
    if (state & (Qt::WindowFullScreen | Qt::WindowMaximized)) {
        const QSize minimum = m_window->minimumSizeHint().expandedTo(m_window->minimumSize());
        if (minimum.width() > screenRect.width() || minimum.height() > screenRect.height())
            return; // the window system cannot do better either
        // Grown past the screen by a minimum size that has shrunk since: back to the screen's
        // size, in the same state (a new geometry may end the state on some window systems).
        const QRect inner = m_window->geometry();
        m_window->setGeometry(
            screenRect.marginsRemoved(QMargins(inner.left() - frame.left(), inner.top() - frame.top(),
                                               frame.right() - inner.right(), frame.bottom() - inner.bottom())));
        if (m_window->windowState() != state)
            m_window->setWindowState(state);
        return;
    }
    const QSize margins = frame.size() - m_window->geometry().size();
    const QSize size = m_window->geometry().size().boundedTo(available.size() - margins);
    m_window->resize(size);
    QRect placed(frame.topLeft(), size + margins);
    placed.moveLeft(std::clamp(placed.left(), available.left(),
                               std::max(available.left(), available.right() - placed.width() + 1)));
    placed.moveTop(
        std::clamp(placed.top(), available.top(), std::max(available.top(), available.bottom() - placed.height() + 1)));
    m_window->move(placed.topLeft());
}

void ScreenFit::placeOnScreen(QWidget* window, const QWidget* near)
{
    const QScreen* screen = near && near->screen() ? near->screen() : window->screen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    // The window manager's frame is not known before the first show: leave room for a title bar.
    const QSize frame = window->isVisible() ? window->frameGeometry().size() - window->size() : QSize(8, 36);
    const QSize room = available.size() - frame;
    const QSize size = window->size().boundedTo(room).expandedTo(window->minimumSizeHint().boundedTo(room));
    window->resize(size);
    QRect placed(window->isVisible() ? window->frameGeometry().topLeft() : window->pos(), size + frame);
    if (near && !window->isVisible())
        placed.moveCenter(near->frameGeometry().center());
    placed.moveLeft(std::clamp(placed.left(), available.left(),
                               std::max(available.left(), available.right() - placed.width() + 1)));
    placed.moveTop(
        std::clamp(placed.top(), available.top(), std::max(available.top(), available.bottom() - placed.height() + 1)));
    window->move(placed.topLeft());
}
