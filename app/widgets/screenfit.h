#pragma once

#include <QObject>
#include <QSize>

class QDockWidget;
class QMainWindow;

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
    bool isDockMoved() const { return m_moved; }
    // For pictures of a given size, drawn without a screen: the window is that size, and the
    // docks are arranged as a screen of that size would have them. Empty: the window's screen.
    void setFixedRoom(QSize room) { m_fixedRoom = room; }

private:
    QSize room() const;
    // A widget laid out beyond its parent: the layout got less than it needs (text that wraps
    // asks for more height than the minimum sizes say).
    bool overflows() const;
    void keepOnScreen();
    void moveIntoTabs();
    void narrowTabs();

    QMainWindow* m_window;
    QDockWidget* m_movable;
    QDockWidget* m_tabWith;
    bool m_moved = false;
    QSize m_fixedRoom;
};
