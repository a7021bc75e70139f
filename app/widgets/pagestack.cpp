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
    // Its minimum whatever its size policy (the lesson's pages are Ignored, so that they would not
    // grow a stack sized by all its pages): in front, a page squeezed under its minimum cuts its
    // children (the lent ZSET table reached into the lesson's frame).
    return page->minimumSizeHint().expandedTo(page->minimumSize()).expandedTo({0, 0}).grownBy(contentsMargins());
}

QSize PageStack::sizeHint() const
{
    const QWidget* page = currentWidget();
    return page ? page->sizeHint().grownBy(contentsMargins()).expandedTo(minimumSizeHint())
                : QStackedWidget::sizeHint();
}
