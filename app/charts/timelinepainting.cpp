#include "timelinepainting.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace TimelinePainting {

void drawStored(QPainter& painter, const QPointF& centre, double radius)
{
    painter.setPen(QPen(storedColour.darker(130), 1));
    painter.setBrush(storedColour);
    painter.drawRect(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius));
}

void drawOverwritten(QPainter& painter, const QPointF& centre, double radius, double penWidth)
{
    QPainterPath diamond;
    diamond.moveTo(centre + QPointF(0, -radius));
    diamond.lineTo(centre + QPointF(radius, 0));
    diamond.lineTo(centre + QPointF(0, radius));
    diamond.lineTo(centre + QPointF(-radius, 0));
    diamond.closeSubpath();
    painter.setPen(QPen(overwrittenColour, penWidth));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(diamond);
}

void drawFailed(QPainter& painter, const QPointF& centre, double radius)
{
    painter.setPen(QPen(failedColour, 1.5));
    painter.drawLine(centre + QPointF(-radius, -radius), centre + QPointF(radius, radius));
    painter.drawLine(centre + QPointF(-radius, radius), centre + QPointF(radius, -radius));
}

int legendWidth(const QFontMetrics& metrics, const QString& stored, const QString& overwritten)
{
    const int swatch = metrics.height() - 4;
    return swatch * 2 + 18 + metrics.horizontalAdvance(stored) + metrics.horizontalAdvance(overwritten) + 24;
}

void drawLegend(QPainter& painter, double x, double y, const QFontMetrics& metrics, const QColor& text,
                const QString& stored, const QString& overwritten)
{
    const int swatch = metrics.height() - 4;
    const double r = swatch / 2.0;
    drawStored(painter, QPointF(x + r, y), r);
    x += swatch + 6;
    painter.setPen(text);
    painter.drawText(QPointF(x, y + metrics.ascent() / 2.0 - 1), stored);
    x += metrics.horizontalAdvance(stored) + 18;
    drawOverwritten(painter, QPointF(x + r, y), r, 2);
    x += swatch + 6;
    painter.setPen(text);
    painter.drawText(QPointF(x, y + metrics.ascent() / 2.0 - 1), overwritten);
}

double niceStep(double raw)
{
    const double magnitude = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
    for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
        if (raw <= factor * magnitude)
            return factor * magnitude;
    }
    return 10 * magnitude;
}

} // namespace TimelinePainting
