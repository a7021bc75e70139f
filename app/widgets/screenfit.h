#pragma once

#include <QObject>
#include <QSize>

#include <functional>

class QDockWidget;
class QMainWindow;
class QWidget;

// Keeps the main window on its screen as its text grows (zoom, presenter mode, a longer language):
// when the docks and the central area no longer fit side by side, one dock moves into the tabs of
// another, and back once there is room again; the window itself is kept inside the screen.
class ScreenFit : public QObject
{
    Q_OBJECT
public:
    // `movable` goes into the tabs of `tabWith` when room is short.
    ScreenFit(QMainWindow* window, QDockWidget* movable, QDockWidget* tabWith);

    // Arranges the docks for the screen's room and keeps the window inside the screen. False when
    // even then the window's minimum size is larger than the screen.
    bool fit();
    bool fits() const;
    // The window's minimum size is within the screen's room (fits() also lays it out and checks
    // that nothing overflows).
    bool minimumFits() const;
    bool isDockMoved() const;
    // Another side panel came to the front: should the main view now be smaller than it, `movable`
    // goes into the tabs (the docks keep the widths the user gave them). True if it moved.
    bool keepMainViewLargest();
    // The area of the view that gets the largest share of the window (the timelines): the side
    // panels narrow to what they need and, if that is not enough, `movable` goes into the tabs.
    void setMainArea(std::function<qint64()> area) { m_mainArea = std::move(area); }
    // The window's contents changed (compare mode on or off): a panel moved into the tabs for the
    // main view's sake may have its place back at the next fit().
    void contentsChanged() { m_movedForRoomAt = QSize(); }
    // The largest area of a side panel in view (docked, in front of its tabs).
    qint64 largestPanelArea() const;
    // For pictures of a given size, drawn without a screen: the window is that size, and the
    // docks are arranged as a screen of that size would have them. Empty: the window's screen.
    void setFixedRoom(QSize room) { m_fixedRoom = room; }

    // A dialog or window about to show: no larger than the screen it opens on (that of `near`, else
    // its own) and inside it, so that its buttons are never below the edge.
    static void placeOnScreen(QWidget* window, const QWidget* near = nullptr);

private:
    QSize room() const;
    static int widthInFront(const QDockWidget* dock);
    // A widget laid out beyond its parent: the layout got less than it needs (text that wraps
    // asks for more height than the minimum sizes say).
    bool overflows() const;
    void keepOnScreen();
    void moveIntoTabs();
    void narrowTabs();
    void giveRoomToMainView();

    QMainWindow* m_window;
    QDockWidget* m_movable;
    QDockWidget* m_tabWith;
    QSize m_fixedRoom;
    std::function<qint64()> m_mainArea;
    // Where giveRoomToMainView() moved `movable` into the tabs (window size, text size): it stays
    // there until either changes.
    QSize m_movedForRoomAt;
    double m_movedForRoomAtText = 0;
};
