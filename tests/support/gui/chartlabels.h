#pragma once

#include <QGraphicsTextItem>
#include <QLegend>
#include <QStringList>

// A chart legend's label texts as drawn; a label that did not fit ends in "..." or "…".
inline QStringList drawnLegendLabels(QLegend* legend)
{
    QStringList labels;
    QList<QGraphicsItem*> items = legend->childItems();
    while (!items.isEmpty()) {
        QGraphicsItem* item = items.takeFirst();
        if (auto* text = qgraphicsitem_cast<QGraphicsTextItem*>(item); text && item->isVisible())
            labels << text->toPlainText();
        items << item->childItems();
    }
    return labels;
}

inline bool isCutShort(const QString& label)
{
    return label.isEmpty() || label.endsWith(QLatin1String("...")) || label.endsWith(QChar(0x2026));
}
