#pragma once

#include <QFont>
#include <QHash>
#include <QObject>
#include <QPalette>

#include <functional>

class QMainWindow;

// What a teacher needs on a projector: the whole UI zoomed (fonts of panels and charts alike),
// full screen, and a high-contrast theme; otherwise light or dark as the system palette says.
// Back at normal size (Ctrl+0, leaving presenter mode) the docks are as the user had them.
class Presentation : public QObject
{
    Q_OBJECT
public:
    explicit Presentation(QMainWindow* window);

    double zoom() const { return m_zoom; }
    // A larger zoom that the check refuses (the window would not fit its screen) is not taken:
    // zoomLimited() instead.
    void setZoom(double zoom);
    // Arranges the window for the zoom just applied; false when it does not fit its screen.
    void setFitCheck(std::function<bool()> fits) { m_fits = std::move(fits); }
    void zoomIn();
    void zoomOut();
    void resetZoom();

    bool isPresenting() const { return m_presenting; }
    // The window's geometry and docks as the user has them every day: from before presenting while
    // presenting (what is saved for the next start), else as they are.
    QByteArray everydayGeometry() const;
    QByteArray everydayLayout() const;
    // Full screen and larger text together; the same call again restores the window.
    void setPresenting(bool on);

    bool isHighContrast() const { return m_highContrast; }
    void setHighContrast(bool on);
    static QPalette highContrastPalette();
    // True when a palette's window is darker than its text (a dark theme).
    static bool isDark(const QPalette& palette);

signals:
    void zoomChanged(double zoom);
    void zoomLimited(double zoom);
    void presentingChanged(bool on);
    void highContrastChanged(bool on);

private:
    void applyZoom(double zoom);
    // Normal size, not presenting: the layout is the user's own.
    bool isAsTheUserLaidItOut() const;
    void keepUsersLayout();
    void restoreUsersLayout();
    void restoreWhenBack();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QMainWindow* m_window;
    double m_baseFontPointSize = 0;
    double m_zoom = 1.0;
    double m_zoomBeforePresenting = 1.0;
    bool m_presenting = false;
    bool m_highContrast = false;
    QPalette m_systemPalette;
    std::function<bool()> m_fits;
    QHash<QByteArray, QFont> m_classFonts; // fonts the platform theme gives some classes, at zoom 1
    QByteArray m_usersLayout; // the docks as the user had them at normal size (saveState)
    QByteArray m_usersGeometry; // the window before presenting (saveGeometry)
    QSize m_usersWindowSize; // and the window's size then: they come back at that size
    bool m_restorePending = false;
};
