#include "manualdialog.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QVBoxLayout>

ManualDialog::ManualDialog(QWidget* parent)
    : QDialog(parent)
    , m_browser(new QTextBrowser(this))
{
    setWindowTitle(tr("zsetlab manual"));
    m_browser->setOpenExternalLinks(true);
    QFile file(QStringLiteral(":/manual/README.md"));
    QString markdown = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    // The screenshots are not compiled in: their lines would show as broken pictures.
    markdown.remove(
        QRegularExpression(QStringLiteral("^!\\[[^\\]]*\\]\\([^)]*\\)\\s*$"), QRegularExpression::MultilineOption));
    m_browser->setMarkdown(markdown);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addWidget(buttons);
    resize(860, 680);
}

QString ManualDialog::text() const
{
    return m_browser->toPlainText();
}
