#include "pictureexport.h"

#include "base/outputfile.h"
#include "exportdialog.h"

#include <QAbstractButton>
#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QImageWriter>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
#include <QPointer>
#include <QSvgGenerator>
#include <QWidget>

#include <functional>
#include <vector>

namespace {
// A label's or button's shortcut letter is drawn as its own underlined run: in an SVG,
// "&Requests" became the texts "R" and "equests". While the SVG is written the texts go without
// their mnemonics, and come back after.
class MnemonicsHidden
{
public:
    explicit MnemonicsHidden(QWidget* root)
    {
        for (QWidget* widget : root->findChildren<QWidget*>()) {
            if (auto* label = qobject_cast<QLabel*>(widget); label && hasMnemonic(label->text()))
                hide(label, label->text(), [label](const QString& text) { label->setText(text); });
            else if (auto* button = qobject_cast<QAbstractButton*>(widget); button && hasMnemonic(button->text()))
                hide(button, button->text(), [button](const QString& text) { button->setText(text); });
        }
    }
    ~MnemonicsHidden()
    {
        for (const Hidden& hidden : m_hidden)
            if (hidden.widget)
                hidden.set(hidden.text);
    }
    MnemonicsHidden(const MnemonicsHidden&) = delete;
    MnemonicsHidden& operator=(const MnemonicsHidden&) = delete;

private:
    struct Hidden
    {
        QPointer<QWidget> widget;
        QString text;
        std::function<void(const QString&)> set;
    };
    static bool hasMnemonic(const QString& text)
    {
        for (qsizetype i = text.indexOf(QLatin1Char('&')); i >= 0 && i + 1 < text.size();
             i = text.indexOf(QLatin1Char('&'), i + 2))
            if (text.at(i + 1) != QLatin1Char('&'))
                return true;
        return false;
    }
    static QString withoutMnemonic(const QString& text)
    {
        QString plain;
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text.at(i) == QLatin1Char('&') && i + 1 < text.size())
                ++i; // "&&" is one "&"; "&R" is "R"
            plain += text.at(i);
        }
        return plain;
    }
    void hide(QWidget* widget, const QString& text, std::function<void(const QString&)> set)
    {
        set(withoutMnemonic(text));
        m_hidden.push_back({widget, text, std::move(set)});
    }

    std::vector<Hidden> m_hidden;
};
} // namespace

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

// The picture is made in memory and written whole, only over a regular file (OutputFile): a
// link, a device or a pipe at the path is refused, a full disk leaves no partial file.
bool writePng(QWidget* widget, const QString& path, double scale, QString* error)
{
    if (const QString refused = OutputFile::refusal(path); !refused.isEmpty()) {
        if (error)
            *error = refused;
        return false;
    }
    return writeImage(render(widget, scale), path, error);
}

bool writeImage(const QImage& image, const QString& path, QString* error)
{
    if (const QString refused = OutputFile::refusal(path); !refused.isEmpty()) {
        if (error)
            *error = refused;
        return false;
    }
    QBuffer bytes;
    bytes.open(QIODevice::WriteOnly);
    QImageWriter writer(&bytes, "png");
    if (!writer.write(image)) {
        if (error)
            *error = QApplication::translate("PictureExport", "Cannot write %1: %2").arg(path, writer.errorString());
        return false;
    }
    return OutputFile::write(path, bytes.data(), error);
}

bool writeSvg(QWidget* widget, const QString& path, const QString& title, QString* error)
{
    if (const QString refused = OutputFile::refusal(path); !refused.isEmpty()) {
        if (error)
            *error = refused;
        return false;
    }
    QBuffer bytes;
    bytes.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&bytes);
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
    {
        const MnemonicsHidden plainText(widget);
        widget->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
    }
    painter.end();
    return OutputFile::write(path, bytes.data(), error);
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
