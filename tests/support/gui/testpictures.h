#pragma once

#include "widgets/pictureexport.h"

#include <QCoreApplication>
#include <QEvent>
#include <QHash>
#include <QImage>
#include <QString>
#include <QWidget>

// Where a developer asks for a test's pictures to look at them: ZSETLAB_TEST_PICTURES=dir.
// For GUI tests (they link zsetlab_gui).
inline void keepPicture(QWidget* widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("ZSETLAB_TEST_PICTURES");
    if (dir.isEmpty())
        return;
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // laid out for the texts it has now
    PictureExport::writePng(widget, dir + QLatin1Char('/') + name, 1.0, nullptr);
}

// The share of a picture's sampled pixels (every step-th in both directions) that are not its
// most common colour: near 0 for a blank or one-colour picture, higher the more is drawn.
inline double inkShare(const QImage& image, int step = 3)
{
    QHash<QRgb, int> counts;
    for (int y = 0; y < image.height(); y += step)
        for (int x = 0; x < image.width(); x += step)
            ++counts[image.pixel(x, y)];
    int most = 0;
    int total = 0;
    for (int count : counts) {
        most = std::max(most, count);
        total += count;
    }
    return total ? 1.0 - double(most) / total : 0;
}
