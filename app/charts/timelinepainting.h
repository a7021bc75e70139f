#pragma once

#include <QColor>
#include <QPointF>
#include <QString>

class QFontMetrics;
class QPainter;

// What the burst timeline and the per-server lanes draw alike, so a mark means the same in both:
// Okabe-Ito colours (safe for the common colour-vision deficiencies) and shapes that say the
// same in grey — a filled square for the request whose member survived, a hollow diamond for a
// request that only overwrote it, a cross for a failure.
namespace TimelinePainting {
inline const QColor storedColour {0, 114, 178}; // blue
inline const QColor overwrittenColour {213, 94, 0}; // vermillion
inline const QColor failedColour {120, 120, 120};

void drawStored(QPainter& painter, const QPointF& centre, double radius);
void drawOverwritten(QPainter& painter, const QPointF& centre, double radius, double penWidth);
void drawFailed(QPainter& painter, const QPointF& centre, double radius);

// The legend "■ stored  ◇ overwritten", starting at x and centred on y; legendWidth() says how
// wide it is, so a view can right-align it or choose shorter words.
int legendWidth(const QFontMetrics& metrics, const QString& stored, const QString& overwritten);
void drawLegend(QPainter& painter, double x, double y, const QFontMetrics& metrics, const QColor& text,
                const QString& stored, const QString& overwritten);

// A round step (1, 2 or 5 times a power of ten) of at least `raw`, for axis ticks.
double niceStep(double raw);
} // namespace TimelinePainting
