#include "windowfit.h"

#include "presentation.h"
#include "screenfit.h"

#include <QEvent>
#include <QMainWindow>
#include <QScopedValueRollback>
#include <QScreen>
#include <QTimer>

WindowFit::WindowFit(QMainWindow* window, ScreenFit* screenFit, Presentation* presentation)
    : QObject(window)
    , m_window(window)
    , m_screenFit(screenFit)
    , m_presentation(presentation)
{
    window->installEventFilter(this);
    connect(presentation, &Presentation::zoomLimited, this, &WindowFit::sayLimited);
}

void WindowFit::fitSoon()
{
    QTimer::singleShot(0, this, &WindowFit::fit);
}

void WindowFit::fit()
{
    // A window that grew past its screen (its minimum size grows with compare mode before the
    // docks are rearranged) is taken out of full screen by some window managers (openbox): the
    // presenter asks for it again, a few times at most, then the fit below decides.
    if (m_presentation->isPresenting() && !m_window->isFullScreen() && m_fullScreenAgain < 3) {
        ++m_fullScreenAgain;
        m_window->showFullScreen();
        return; // fitted on the state change that follows
    }
    if (m_window->isFullScreen())
        m_fullScreenAgain = 0;
    // Sizes that settle after a zoom (panels that measure their text later) can still push the
    // window past its screen: then the text steps back down to the largest size that fits.
    bool limited = false;
    // Its own resizes are not new reasons to fit again: a minimum past the screen would loop.
    const QScopedValueRollback<bool> fitting(m_fitting, true);
    bool fitted = m_screenFit->fit();
    if (!fitted && m_presentation->zoom() > 1.0 + 1e-9 && !m_zoomOutConfirmed) {
        // A minimum size past the screen may last a moment only (a panel that takes its new
        // contents' size on a later event, sooner or later as the machine is busy): the text
        // steps down only when the window still does not fit a little later.
        if (!m_zoomOutPending) {
            m_zoomOutPending = true;
            QTimer::singleShot(250, this, [this] {
                m_zoomOutPending = false;
                const QScopedValueRollback<bool> confirmed(m_zoomOutConfirmed, true);
                fit();
            });
        }
        afterFit();
        return;
    }
    while (!fitted && m_presentation->zoom() > 1.0 + 1e-9) {
        m_presentation->zoomOut();
        limited = true;
        fitted = m_screenFit->fit();
    }
    afterFit();
    if (limited)
        sayLimited();
}

void WindowFit::sayLimited()
{
    if (m_status)
        m_status(tr("The text is as large as this screen allows."));
}

void WindowFit::afterFit()
{
    if (m_afterFit)
        m_afterFit();
}

void WindowFit::panelInFrontChanged()
{
    // The charts into tabs first; should the main view still be smaller than the panel now in
    // front (the Burst panel, wider than the lesson, at 1280x720), the ZSET panel joins the tabs.
    afterFit();
    const QScopedValueRollback<bool> fitting(m_fitting, true); // its resizes are not new reasons to fit
    if (m_screenFit->keepMainViewLargest())
        afterFit();
}

bool WindowFit::isPastScreen() const
{
    const QScreen* screen = m_window->screen();
    return screen && !screen->availableGeometry().contains(m_window->frameGeometry());
}

bool WindowFit::eventFilter(QObject* watched, QEvent* event)
{
    if (watched != m_window)
        return false;
    switch (event->type()) {
    case QEvent::Show:
        fitSoon();
        break;
    case QEvent::WindowStateChange:
        // Not when fit() itself restored the state (ScreenFit::keepOnScreen): each fit would ask
        // for the next, and the window would be laid out again and again, endlessly.
        if (!m_fitting)
            fitSoon();
        break;
    case QEvent::LanguageChange:
        // Once every panel has its new texts: a longer language may need the room of a dock.
        fitSoon();
        break;
    case QEvent::Resize:
        // A panel that grew (a longer text, a larger font) can push the window past its screen.
        if (!m_fitting && isPastScreen())
            fitSoon();
        break;
    case QEvent::Move: {
        // A window manager adds its title bar after the window is shown: the same size then
        // reaches past the screen's bottom (the status line of a 1280x720 projector hidden under
        // it). Only a new frame refits: a window the user drags partly off the screen stays.
        const QSize frame = m_window->frameGeometry().size() - m_window->size();
        if (frame != m_frameSeen) {
            m_frameSeen = frame;
            if (isPastScreen())
                fitSoon();
        }
        break;
    }
    default:
        break;
    }
    return false;
}
