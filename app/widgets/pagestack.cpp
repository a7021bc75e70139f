#include "pagestack.h"

PageStack::PageStack(QWidget* parent)
    : QStackedWidget(parent)
{
    // The layout around it takes the new page's sizes.
    connect(this, &QStackedWidget::currentChanged, this, [this] { updateGeometry(); });
}

QSize PageStack::minimumSizeHint() const
{
    const QWidget* page = currentWidget();
    if (!page)
        return QStackedWidget::minimumSizeHint();
    // As a layout reads a widget's minimum: a direction whose policy is Ignored asks for none.
    QSize hint = page->minimumSizeHint();
    const QSizePolicy policy = page->sizePolicy();
    if (policy.horizontalPolicy() == QSizePolicy::Ignored)
        hint.setWidth(0);
    if (policy.verticalPolicy() == QSizePolicy::Ignored)
        hint.setHeight(0);
    return hint.expandedTo(page->minimumSize()).expandedTo({0, 0}).grownBy(contentsMargins());
}

QSize PageStack::sizeHint() const
{
    const QWidget* page = currentWidget();
    return page ? page->sizeHint().grownBy(contentsMargins()).expandedTo(minimumSizeHint())
                : QStackedWidget::sizeHint();
}
