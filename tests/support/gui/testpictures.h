#pragma once

#include "pictureexport.h"

#include <QCoreApplication>
#include <QEvent>
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
