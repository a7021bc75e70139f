#pragma once

#include <QMainWindow>

class QLabel;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);

    // Shown in the status bar: which Redis is in use.
    void setServerDescription(const QString& text);

private:
    void showAbout();

    QLabel* m_serverLabel = nullptr;
};
