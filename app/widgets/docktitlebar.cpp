#include "docktitlebar.h"

#include <QDockWidget>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QStyle>
#include <QToolButton>

DockTitleBar* DockTitleBar::install(QDockWidget* dock)
{
    auto* bar = new DockTitleBar(dock);
    dock->setTitleBarWidget(bar);
    return bar;
}

DockTitleBar::DockTitleBar(QDockWidget* dock)
    : QWidget(dock)
    , m_dock(dock)
{
    setObjectName(QStringLiteral("DockTitleBar"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 1, 2, 1);
    layout->setSpacing(2);
    m_title = new QLabel(dock->windowTitle(), this);
    m_title->setTextFormat(Qt::PlainText);
    m_float = new QToolButton(this);
    m_close = new QToolButton(this);
    for (QToolButton* button : {m_float, m_close}) {
        button->setAutoRaise(true);
        button->setFocusPolicy(Qt::NoFocus); // the dock's own title buttons take no Tab stop either
    }
    layout->addWidget(m_title, 1);
    layout->addWidget(m_float);
    layout->addWidget(m_close);
    connect(dock, &QDockWidget::windowTitleChanged, m_title, &QLabel::setText);
    connect(m_float, &QToolButton::clicked, dock, [dock] { dock->setFloating(!dock->isFloating()); });
    connect(m_close, &QToolButton::clicked, dock, &QDockWidget::close);
    applyFont();
}

void DockTitleBar::applyFont()
{
    // As the window's text: the buttons' icons grow with it.
    const int icon = fontMetrics().height();
    m_float->setIcon(style()->standardIcon(QStyle::SP_TitleBarNormalButton, nullptr, this));
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton, nullptr, this));
    for (QToolButton* button : {m_float, m_close}) {
        button->setIconSize(QSize(icon, icon) * 3 / 4);
        button->setToolTip(button == m_float ? tr("Float or dock this panel") : tr("Close this panel"));
    }
    updateGeometry();
}

QSize DockTitleBar::sizeHint() const
{
    return QWidget::sizeHint().expandedTo(QSize(0, fontMetrics().height() + 4));
}

QSize DockTitleBar::minimumSizeHint() const
{
    // The title may be elided by the width; its height always shows.
    return {m_float->sizeHint().width() * 3, sizeHint().height()};
}

void DockTitleBar::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::StyleChange
        || event->type() == QEvent::LanguageChange)
        applyFont();
}

void DockTitleBar::mouseDoubleClickEvent(QMouseEvent* event)
{
    // As on Qt's own title bar: a double click floats the panel or docks it again.
    m_dock->setFloating(!m_dock->isFloating());
    event->accept();
}
