#pragma once

#include <QScrollArea>

// A side panel's scroll area: it scrolls up and down when the screen is too low, never sideways.
// Its minimum width follows the panel's, as the text grows or the language changes, so that no
// field or button of the panel is cut; behind another dock's tab, it asks for no width of its own.
class VerticalScrollArea : public QScrollArea
{
    Q_OBJECT
public:
    explicit VerticalScrollArea(QWidget* panel, QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;
    // What it needs with its tab in front.
    QSize minimumSizeInFront() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool m_inFront = true; // in a dock: its tab is the one in front
    QSize m_saidHint; // the minimum the layout last heard of
};
