#include "pictureexport.h"

#include "exportdialog.h"

#include <QApplication>
#include <QClipboard>
#include <QImageWriter>
#include <QMessageBox>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

namespace PictureExport {

QImage render(QWidget* widget, double scale)
{
    QImage image(widget->size() * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(widget->palette().color(QPalette::Window));
    QPainter painter(&image);
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    return image;
}

bool writePng(QWidget* widget, const QString& path, double scale, QString* error)
{
    QImageWriter writer(path, "png");
    if (!writer.write(render(widget, scale))) {
        if (error)
            *error = QApplication::translate("PictureExport", "Cannot write %1: %2").arg(path, writer.errorString());
        return false;
    }
    return true;
}

bool writeSvg(QWidget* widget, const QString& path, const QString& title, QString* error)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(widget->size());
    generator.setViewBox(QRect(QPoint(), widget->size()));
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("zsetlab"));
    QPainter painter;
    if (!painter.begin(&generator)) {
        if (error)
            *error = QApplication::translate("PictureExport", "Cannot write %1.").arg(path);
        return false;
    }
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    painter.end();
    return true;
}

void copyToClipboard(QWidget* widget, double scale)
{
    QApplication::clipboard()->setImage(render(widget, scale));
}

QString exportWithDialog(const QList<PicturePart>& parts, QWidget* parent)
{
    ExportDialog dialog(parts, parent);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    QString error;
    const bool ok = dialog.isSvg() ? writeSvg(dialog.part(), dialog.path(), dialog.partName(), &error)
                                   : writePng(dialog.part(), dialog.path(), dialog.scale(), &error);
    if (!ok) {
        QMessageBox::warning(parent, QApplication::translate("PictureExport", "Export Picture"), error);
        return {};
    }
    return dialog.path();
}

} // namespace PictureExport
