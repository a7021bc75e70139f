#pragma once

#include "widgets/palette.h"

#include <QPointF>
#include <QString>
#include <QVector>

class QFontMetrics;
class QPainter;

// The marks of a timeline, so that a mark means the same in every view: colours from the palette
// and shapes that say the same in grey — a filled square for the request whose member survived, a
// hollow diamond for a request that only overwrote it, a hollow circle for a request whose reply
// did not say, a cross for a failure.
namespace TimelinePainting {
enum class Mark { Stored, Overwritten, Unknown, Failed };

void draw(QPainter& painter, Mark mark, const QPointF& centre, double radius);

struct LegendEntry
{
    Mark mark;
    QString text;
};
// The legend "■ stored  ◇ overwritten ...", starting at x and centred on y; legendWidth() says
// how wide it is, so a view can right-align it or choose shorter words.
int legendWidth(const QFontMetrics& metrics, const QVector<LegendEntry>& entries);
void drawLegend(QPainter& painter, double x, double y, const QFontMetrics& metrics, const QColor& text,
                const QVector<LegendEntry>& entries);
// The width of the longer line when `text` is split in two between words (a caption on two lines).
int widerHalf(const QString& text, const QFontMetrics& metrics);
} // namespace TimelinePainting
