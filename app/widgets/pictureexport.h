#pragma once

#include <QImage>
#include <QList>
#include <QString>

class QWidget;

struct PicturePart
{
    QString name; // as the export dialog lists it
    QWidget* widget;
};

// Pictures of the window or of one of its views, for documentation: PNG at 1x or 2x, SVG with text
// kept as text, or the clipboard.
namespace PictureExport {
// Renders `widget` at its current size times `scale` (device pixel ratio), on the GUI thread.
QImage render(QWidget* widget, double scale = 1.0);
bool writePng(QWidget* widget, const QString& path, double scale, QString* error);
// Writes a picture drawn elsewhere as PNG, as writePng() does (only over a regular file, whole).
bool writeImage(const QImage& image, const QString& path, QString* error);
bool writeSvg(QWidget* widget, const QString& path, const QString& title, QString* error);
void copyToClipboard(QWidget* widget, double scale);
// Export Picture in every window: asks which part, format, scale and file (ExportDialog), writes
// it, and tells a failure in a message box. The path written, or empty.
QString exportWithDialog(const QList<PicturePart>& parts, QWidget* parent);
} // namespace PictureExport
