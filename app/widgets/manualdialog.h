#pragma once

#include <QDialog>

class QTextBrowser;

// Help > Manual (F1): the README, compiled into the program, as a page to read and search
// without a network or an installed copy of the docs.
class ManualDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ManualDialog(QWidget* parent = nullptr);

    QString text() const;

private:
    QTextBrowser* m_browser;
};
