#pragma once

#include <QStackedWidget>

// Pages in one place, sized by the page in front: QStackedWidget asks for the largest minimum of
// all its pages, so a lesson step's figure or the lent ZSET table kept the room the runs need
// behind it (their replay controls, their figures), and at 1280x720 the window stepped its text
// down for a page nobody saw.
class PageStack : public QStackedWidget
{
    Q_OBJECT
public:
    explicit PageStack(QWidget* parent = nullptr);

    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;
};
