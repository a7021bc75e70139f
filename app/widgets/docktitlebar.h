#pragma once

#include <QWidget>

class QDockWidget;
class QLabel;
class QToolButton;

// A dock's title bar that grows with the text. Qt's own takes the title font once, when the dock
// is made, so a presenter's zoom left the titles at their first size; this one follows the
// dock's font, and keeps the float and close buttons.
class DockTitleBar : public QWidget
{
    Q_OBJECT
public:
    // Becomes `dock`'s title bar.
    static DockTitleBar* install(QDockWidget* dock);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    explicit DockTitleBar(QDockWidget* dock);
    void applyFont();

    QDockWidget* m_dock;
    QLabel* m_title = nullptr;
    QToolButton* m_float = nullptr;
    QToolButton* m_close = nullptr;
};
