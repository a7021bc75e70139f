#pragma once

#include <QComboBox>

// A combo box that asks for the width of its current text, so that a layout gives it that or
// moves it to a row of its own (QFormLayout::WrapLongRows), instead of cutting the choice short.
class WholeTextComboBox : public QComboBox
{
    Q_OBJECT
public:
    explicit WholeTextComboBox(QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;
};
