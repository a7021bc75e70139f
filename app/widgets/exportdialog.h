#pragma once

#include "pictureexport.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QWidget;

// File > Export Picture: which part of the window, PNG or SVG, at 1x or 2x.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    using Part = PicturePart;
    ExportDialog(const QList<Part>& parts, QWidget* parent = nullptr);

    QWidget* part() const;
    QString partName() const;
    bool isSvg() const;
    double scale() const;
    QString path() const;

    void accept() override;

private:
    QList<Part> m_parts;
    QComboBox* m_part = nullptr;
    QComboBox* m_format = nullptr;
    QComboBox* m_scale = nullptr;
    QLineEdit* m_path = nullptr;
};
