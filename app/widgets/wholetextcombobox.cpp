#include "wholetextcombobox.h"

#include <QStyleOptionComboBox>

WholeTextComboBox::WholeTextComboBox(QWidget* parent)
    : QComboBox(parent)
{
    connect(this, &QComboBox::currentTextChanged, this, &QWidget::updateGeometry);
}

QSize WholeTextComboBox::minimumSizeHint() const
{
    QStyleOptionComboBox option;
    initStyleOption(&option);
    const QSize text(fontMetrics().horizontalAdvance(currentText()) + 2, fontMetrics().height());
    return style()->sizeFromContents(QStyle::CT_ComboBox, &option, text, this).expandedTo(QComboBox::minimumSizeHint());
}
