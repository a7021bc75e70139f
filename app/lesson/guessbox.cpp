#include "guessbox.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QTimer>

GuessBox::GuessBox(QWidget* parent)
    : QSpinBox(parent)
{ }

void GuessBox::focusInEvent(QFocusEvent* event)
{
    QSpinBox::focusInEvent(event);
    if (showsNoGuess())
        selectAll();
}

void GuessBox::mousePressEvent(QMouseEvent* event)
{
    QSpinBox::mousePressEvent(event); // places the text cursor where the click was
    if (showsNoGuess())
        selectAll();
}

void GuessBox::keyPressEvent(QKeyEvent* event)
{
    const QString text = event->text();
    if (showsNoGuess() && text.size() == 1 && text.at(0).isDigit())
        lineEdit()->clear(); // "no guess" is not a number to insert into
    QSpinBox::keyPressEvent(event);
}
