#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QRect>

#include <functional>

class QWidget;

// "Look here", for a class: a frame around the one part of the window that shows a result. It is
// part of the layout, not painted over it: every part that can be lit keeps an empty margin
// around its contents (reserve()), and the frame is drawn in that margin only, so it covers no
// text of the part or of a neighbour. One part is lit at a time, until another is lit or none
// (the lesson's next step); lighting brings the part into view (its dock or tab).
class Spotlight : public QObject
{
    Q_OBJECT
public:
    explicit Spotlight(QObject* parent = nullptr);
    ~Spotlight() override;

    // Keeps the frame's margin around `part`'s contents from now on; it follows the part's font.
    void reserve(QWidget* part);
    bool isReserved(const QWidget* part) const { return m_parts.contains(part); }
    // Lights `part` (a reserved one; nullptr: none), brings it into view, and puts out the one
    // lit before. The part lit already: nothing (the user may have chosen another tab since).
    void light(QWidget* part);
    QWidget* lit() const { return m_lit; }
    // Where the frame is drawn, in the lit part's coordinates (empty when none is lit).
    QRect frameRect() const;
    // The frame's colour (the palette's "look here").
    static QColor colour();
    // The margin a part keeps for the frame at its font: thick enough to read on a projector.
    static int marginFor(const QWidget* part);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void applyMargin(QWidget* part);
    // Makes the frame for the lit part, under its nearest parent that may hold it.
    void attachRing();
    void placeRing();

    QList<QPointer<QWidget>> m_parts;
    QPointer<QWidget> m_lit;
    QPointer<QWidget> m_ring; // the frame's widget, over the lit part
    QList<QPointer<QWidget>> m_between; // the part and its parents up to the frame's: watched
};
