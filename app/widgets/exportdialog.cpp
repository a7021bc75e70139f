#include "exportdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>

ExportDialog::ExportDialog(const QList<Part>& parts, QWidget* parent)
    : QDialog(parent)
    , m_parts(parts)
{
    setWindowTitle(tr("Export Picture"));
    auto* form = new QFormLayout(this);
    m_part = new QComboBox(this);
    for (const Part& part : parts)
        m_part->addItem(part.name);
    m_part->setToolTip(tr("Which part of the window to export."));
    m_format = new QComboBox(this);
    m_format->addItem(tr("PNG image"), QStringLiteral("png"));
    m_format->addItem(tr("SVG drawing (text stays text)"), QStringLiteral("svg"));
    m_scale = new QComboBox(this);
    m_scale->addItem(tr("1x"), 1.0);
    m_scale->addItem(tr("2x (sharp on high-density screens and in print)"), 2.0);
    m_path = new QLineEdit(QDir::home().filePath(QStringLiteral("zsetlab.png")), this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    form->addRow(tr("&Part"), m_part);
    form->addRow(tr("&Format"), m_format);
    form->addRow(tr("&Scale"), m_scale);
    auto* fileLabel = new QLabel(tr("&File"), this); // a layout cannot be a buddy: the line edit is
    fileLabel->setBuddy(m_path);
    form->addRow(fileLabel, pathRow);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ExportDialog::reject);
    connect(m_format, &QComboBox::currentIndexChanged, this, [this] {
        const QString suffix = m_format->currentData().toString();
        QString path = m_path->text();
        const int dot = path.lastIndexOf(QLatin1Char('.'));
        if (dot > path.lastIndexOf(QLatin1Char('/')))
            path = path.left(dot);
        m_path->setText(path + QLatin1Char('.') + suffix);
        m_scale->setEnabled(suffix == QLatin1String("png"));
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path
            = QFileDialog::getSaveFileName(this, tr("Export Picture"), m_path->text(),
                                           isSvg() ? tr("SVG drawings (*.svg)") : tr("PNG images (*.png)"));
        if (!path.isEmpty())
            m_path->setText(path);
    });
}

QWidget* ExportDialog::part() const
{
    return m_parts.value(m_part->currentIndex()).widget;
}

QString ExportDialog::partName() const
{
    return m_part->currentText();
}

bool ExportDialog::isSvg() const
{
    return m_format->currentData().toString() == QLatin1String("svg");
}

double ExportDialog::scale() const
{
    return m_scale->currentData().toDouble();
}

QString ExportDialog::path() const
{
    return m_path->text().trimmed();
}

void ExportDialog::accept()
{
    if (path().isEmpty()) {
        QMessageBox::warning(this, windowTitle(), tr("Choose a file to write."));
        return;
    }
    QDialog::accept();
}
