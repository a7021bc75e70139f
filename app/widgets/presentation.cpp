#include "presentation.h"

#include <QApplication>
#include <QEvent>
#include <QMainWindow>
#include <QTimer>

namespace {
constexpr double minZoom = 0.6;
constexpr double maxZoom = 3.0;
constexpr double zoomStep = 1.15;
constexpr double presentingZoom = 1.5;
} // namespace

Presentation::Presentation(QMainWindow* window)
    : QObject(window)
    , m_window(window)
    , m_baseFontPointSize(QApplication::font().pointSizeF())
    , m_systemPalette(QApplication::palette())
{
    if (m_baseFontPointSize <= 0)
        m_baseFontPointSize = 10;
    window->installEventFilter(this);
    // The classes a platform theme may give a font (QApplicationPrivate's font hash), with the
    // size each has at zoom 1.
    const QFont base = QApplication::font();
    for (const char* name : {"QDockWidgetTitle",
                             "QMenu",
                             "QMenuBar",
                             "QMenuItem",
                             "QMessageBox",
                             "QLabel",
                             "QTipLabel",
                             "QStatusBar",
                             "QMdiSubWindowTitleBar",
                             "QPushButton",
                             "QCheckBox",
                             "QRadioButton",
                             "QToolButton",
                             "QAbstractItemView",
                             "QListView",
                             "QHeaderView",
                             "QListBox",
                             "QComboMenuItem",
                             "QComboLineEdit",
                             "QSmallFont",
                             "QMiniFont",
                             "QTabBar"}) {
        const QFont own = QApplication::font(name);
        if (own != base && own.pointSizeF() > 0)
            m_classFonts.insert(QByteArray(name), own);
    }
}

bool Presentation::isAsTheUserLaidItOut() const
{
    return !m_presenting && qFuzzyCompare(m_zoom, 1.0);
}

void Presentation::keepUsersLayout()
{
    // Larger text widens the docks and may move one into another's tabs: the arrangement the
    // user had at normal size is kept, and comes back with it.
    if (!isAsTheUserLaidItOut())
        return;
    m_usersLayout = m_window->saveState();
    m_usersWindowSize = m_window->size();
    m_restorePending = false;
}

QByteArray Presentation::everydayGeometry() const
{
    return m_presenting && !m_usersGeometry.isEmpty() ? m_usersGeometry : m_window->saveGeometry();
}

QByteArray Presentation::everydayLayout() const
{
    return m_presenting && !m_usersLayout.isEmpty() ? m_usersLayout : m_window->saveState();
}

void Presentation::restoreUsersLayout()
{
    if (!isAsTheUserLaidItOut() || m_usersLayout.isEmpty())
        return;
    m_restorePending = true;
    QTimer::singleShot(0, this, &Presentation::restoreWhenBack);
}

void Presentation::restoreWhenBack()
{
    // Once the window has its normal size again (leaving full screen is the window system's
    // doing, and comes later): dock widths restored into another size would be shared out anew.
    if (!m_restorePending || !isAsTheUserLaidItOut() || m_window->size() != m_usersWindowSize)
        return;
    m_restorePending = false;
    // The panels' minimum sizes first come back to the normal text.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::ApplicationFontChange);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    m_window->restoreState(m_usersLayout);
    if (m_fits)
        m_fits();
}

bool Presentation::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::Resize && m_restorePending)
        QTimer::singleShot(0, this, &Presentation::restoreWhenBack);
    return QObject::eventFilter(watched, event);
}

void Presentation::setZoom(double zoom)
{
    zoom = std::clamp(zoom, minZoom, maxZoom);
    if (qFuzzyCompare(zoom, m_zoom))
        return;
    keepUsersLayout();
    const double before = m_zoom;
    applyZoom(zoom);
    if (m_fits && !m_fits() && zoom > before) {
        // Larger text would push the window off its screen: stay where it fitted.
        applyZoom(before);
        m_fits();
        emit zoomLimited(before);
        return;
    }
    restoreUsersLayout();
    emit zoomChanged(zoom);
}

void Presentation::applyZoom(double zoom)
{
    m_zoom = zoom;
    // The platform theme gives some classes fonts of their own (menus, headers, the status bar):
    // those keep their size against the application font unless scaled too. First: panels that
    // measure a header on the application font's change find it at its new size.
    for (auto it = m_classFonts.cbegin(); it != m_classFonts.cend(); ++it) {
        QFont own = it.value();
        own.setPointSizeF(it.value().pointSizeF() * zoom);
        QApplication::setFont(own, it.key().constData());
    }
    // The application font: every widget that does not set its own follows, and the panels that
    // size their fonts relative to it (figures, charts) rescale on the FontChange event.
    QFont font = QApplication::font();
    font.setPointSizeF(m_baseFontPointSize * zoom);
    QApplication::setFont(font);
}

void Presentation::zoomIn()
{
    setZoom(m_zoom * zoomStep);
}

void Presentation::zoomOut()
{
    setZoom(m_zoom / zoomStep);
}

void Presentation::resetZoom()
{
    setZoom(1.0);
}

void Presentation::setPresenting(bool on)
{
    if (on == m_presenting)
        return;
    keepUsersLayout();
    m_presenting = on;
    if (on) {
        m_zoomBeforePresenting = m_zoom;
        m_usersGeometry = m_window->saveGeometry();
        m_window->showFullScreen(); // first: the zoom is checked against the full screen
        setZoom(std::max(m_zoom, presentingZoom));
    } else {
        setZoom(m_zoomBeforePresenting);
        m_window->showNormal();
    }
    if (m_fits)
        m_fits();
    restoreUsersLayout();
    emit presentingChanged(on);
}

QPalette Presentation::highContrastPalette()
{
    QPalette palette;
    const QColor black(0, 0, 0);
    const QColor white(255, 255, 255);
    const QColor yellow(255, 221, 0);
    for (const auto group : {QPalette::Active, QPalette::Inactive}) {
        palette.setColor(group, QPalette::Window, black);
        palette.setColor(group, QPalette::WindowText, white);
        palette.setColor(group, QPalette::Base, black);
        palette.setColor(group, QPalette::AlternateBase, QColor(30, 30, 30));
        palette.setColor(group, QPalette::Text, white);
        palette.setColor(group, QPalette::Button, QColor(20, 20, 20));
        palette.setColor(group, QPalette::ButtonText, white);
        palette.setColor(group, QPalette::Highlight, yellow);
        palette.setColor(group, QPalette::HighlightedText, black);
        palette.setColor(group, QPalette::ToolTipBase, black);
        palette.setColor(group, QPalette::ToolTipText, white);
        palette.setColor(group, QPalette::PlaceholderText, QColor(200, 200, 200));
        palette.setColor(group, QPalette::Link, yellow);
    }
    palette.setColor(QPalette::Disabled, QPalette::WindowText, QColor(150, 150, 150));
    palette.setColor(QPalette::Disabled, QPalette::Text, QColor(150, 150, 150));
    palette.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(150, 150, 150));
    palette.setColor(QPalette::Disabled, QPalette::Window, black);
    palette.setColor(QPalette::Disabled, QPalette::Base, black);
    palette.setColor(QPalette::Disabled, QPalette::Button, QColor(20, 20, 20));
    return palette;
}

bool Presentation::isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

void Presentation::setHighContrast(bool on)
{
    if (on == m_highContrast)
        return;
    m_highContrast = on;
    QApplication::setPalette(on ? highContrastPalette() : m_systemPalette);
    emit highContrastChanged(on);
}
