#include "timelinepainting.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace TimelinePainting {

void draw(QPainter& painter, Mark mark, const QPointF& centre, double radius)
{
    switch (mark) {
    case Mark::Stored:
        painter.setPen(QPen(Palette::stored.darker(130), 1));
        painter.setBrush(Palette::stored);
        painter.drawRect(QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius));
        break;
    case Mark::Overwritten: {
        QPainterPath diamond;
        diamond.moveTo(centre + QPointF(0, -radius));
        diamond.lineTo(centre + QPointF(radius, 0));
        diamond.lineTo(centre + QPointF(0, radius));
        diamond.lineTo(centre + QPointF(-radius, 0));
        diamond.closeSubpath();
        painter.setPen(QPen(Palette::overwritten, std::max(1.5, radius / 4)));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(diamond);
        break;
    }
    case Mark::Unknown:
        painter.setPen(QPen(Palette::failed, std::max(1.5, radius / 4)));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(centre, radius * 0.85, radius * 0.85);
        break;
    case Mark::Failed: {
        const double r = radius * 0.8;
        painter.setPen(QPen(Palette::failed, std::max(1.5, radius / 4)));
        painter.drawLine(centre + QPointF(-r, -r), centre + QPointF(r, r));
        painter.drawLine(centre + QPointF(-r, r), centre + QPointF(r, -r));
        break;
    }
    }
}

int legendWidth(const QFontMetrics& metrics, const QVector<LegendEntry>& entries)
{
    const int swatch = metrics.height() - 4;
    int width = 0;
    for (const LegendEntry& entry : entries)
        width += swatch + 6 + metrics.horizontalAdvance(entry.text) + 18;
    return std::max(0, width - 18 + 6);
}

void drawLegend(QPainter& painter, double x, double y, const QFontMetrics& metrics, const QColor& text,
                const QVector<LegendEntry>& entries)
{
    const int swatch = metrics.height() - 4;
    const double r = swatch / 2.0;
    for (const LegendEntry& entry : entries) {
        draw(painter, entry.mark, QPointF(x + r, y), r);
        x += swatch + 6;
        painter.setPen(text);
        painter.drawText(QPointF(x, y + metrics.ascent() / 2.0 - 1), entry.text);
        x += metrics.horizontalAdvance(entry.text) + 18;
    }
}

int widerHalf(const QString& text, const QFontMetrics& metrics)
{
    int best = metrics.horizontalAdvance(text);
    for (qsizetype space = text.indexOf(QLatin1Char(' ')); space > 0; space = text.indexOf(QLatin1Char(' '), space + 1))
        best = std::min(
            best,
            std::max(metrics.horizontalAdvance(text.left(space)), metrics.horizontalAdvance(text.mid(space + 1))));
    return best;
}

} // namespace TimelinePainting
