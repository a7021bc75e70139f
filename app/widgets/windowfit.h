#pragma once

#include <QObject>
#include <QSize>

#include <functional>

class Presentation;
class QMainWindow;
class ScreenFit;

// Keeps the main window on its screen: the docks arranged for the screen's room (ScreenFit), full
// screen asked for again in presenter mode when a window manager ended it, and the text stepped
// down when even that does not fit. It follows the window's own events: shown, resized past the
// screen, given a new frame, its state or its language changed.
class WindowFit : public QObject
{
    Q_OBJECT
public:
    WindowFit(QMainWindow* window, ScreenFit* screenFit, Presentation* presentation);

    // Run after every fit (the window keeps its main view the largest); `status` tells the user
    // that the text was stepped down.
    void setAfterFit(std::function<void()> afterFit) { m_afterFit = std::move(afterFit); }
    void setStatus(std::function<void(const QString&)> status) { m_status = std::move(status); }

    // Arranges the docks for the screen, and steps the zoom down when even that does not fit.
    void fit();
    // The same once the events pending now are handled (panels that take new texts or sizes).
    void fitSoon();
    // A side panel came to the front or went behind: the main view stays the largest.
    void panelInFrontChanged();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool isPastScreen() const;
    // Tells the user that the text is as large as the screen allows.
    void sayLimited();
    void afterFit();

    QMainWindow* m_window;
    ScreenFit* m_screenFit;
    Presentation* m_presentation;
    std::function<void()> m_afterFit;
    std::function<void(const QString&)> m_status;
    QSize m_frameSeen; // the window manager's frame around the window, as last seen
    int m_fullScreenAgain = 0; // full screen asked for again after the window manager ended it
    bool m_fitting = false; // fit() at work: its own resizes do not ask for another
    bool m_zoomOutPending = false; // the window did not fit: checked again a little later
    bool m_zoomOutConfirmed = false; // that second check: it steps the text down if need be
};
