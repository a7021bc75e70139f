#pragma once

#include "widgets/retranslator.h"

#include <QObject>

class MainWindow;
class ManualDialog;
class QAction;
class QMenu;

// The main window's menu bar: File (scenarios, replays, exports), Burst, View and Help, their
// shortcuts and their texts in the language of the moment. It builds them over the window's
// parts and keeps the actions the window enables (Fire, Stop, Reset, Compare).
class MainMenus : public QObject
{
    Q_OBJECT
public:
    explicit MainMenus(MainWindow* window);

    QAction* fire() const { return m_fire; }
    QAction* stop() const { return m_stop; }
    QAction* reset() const { return m_reset; }
    QAction* compare() const { return m_compare; }
    void retranslate() const { m_texts.retranslate(); }

private:
    void createFile();
    void createBurst();
    void createView();
    void createLanguage(QMenu* view);
    void createHelp();
    void showManual();
    void showAbout();
    // Menu texts that follow the language (text: a QT_TR_NOOP source text).
    QAction* translated(QAction* action, const char* text);
    QMenu* translated(QMenu* menu, const char* text);

    MainWindow* m_window;
    QAction* m_fire = nullptr;
    QAction* m_stop = nullptr;
    QAction* m_reset = nullptr;
    QAction* m_compare = nullptr;
    ManualDialog* m_manual = nullptr;
    Retranslator m_texts;
};
