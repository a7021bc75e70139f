#pragma once

#include <QSpinBox>

// The class's guess as a number, typed straight in: while it shows "no guess" (its minimum), the
// focus arriving by Tab, a click or a key selects that text, so the first digit typed replaces it
// instead of being refused as part of "no guess3".
class GuessBox : public QSpinBox
{
    Q_OBJECT
public:
    explicit GuessBox(QWidget* parent = nullptr);

    bool showsNoGuess() const { return value() == minimum(); }

protected:
    void focusInEvent(QFocusEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
};
