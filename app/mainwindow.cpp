#include "mainwindow.h"

#include <QApplication>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(QStringLiteral("zsetlab"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/zsetlab.svg")));
    resize(1200, 760);

    auto* fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(tr("&Quit"), QKeySequence::Quit, qApp, &QApplication::quit);
    auto* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->addAction(tr("&About zsetlab"), this, &MainWindow::showAbout);

    m_serverLabel = new QLabel(tr("No server"), this);
    statusBar()->addPermanentWidget(m_serverLabel);
}

void MainWindow::setServerDescription(const QString& text)
{
    m_serverLabel->setText(text);
}

void MainWindow::showAbout()
{
    QMessageBox box(this);
    box.setWindowTitle(tr("About zsetlab"));
    box.setIconPixmap(QIcon(QStringLiteral(":/icons/zsetlab.svg")).pixmap(96, 96));
    box.setText(tr("<h3>zsetlab %1</h3>"
                   "<p>Fire request bursts at a real Redis and watch a sliding-window rate limiter "
                   "kept in a ZSET count wrong when the member is the timestamp.</p>"
                   "<p>Atomic is not correct: the script runs without races, yet requests in the "
                   "same millisecond overwrite one member.</p>")
                    .arg(QStringLiteral(ZSETLAB_VERSION)));
    box.exec();
}
