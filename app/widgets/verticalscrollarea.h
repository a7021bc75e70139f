#pragma once

#include <QScrollArea>

// A side panel's scroll area: it scrolls up and down when the screen is too low, never sideways.
// Its minimum width follows the panel's, as the text grows or the language changes, so that no
// field or button of the panel is cut.
class VerticalScrollArea : public QScrollArea
{
    Q_OBJECT
public:
    explicit VerticalScrollArea(QWidget* panel, QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
};
