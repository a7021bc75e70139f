#pragma once

#include "animation/animationexport.h"
#include "widgets/retranslator.h"

#include <QObject>

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QMenu;
class QWidget;
class Recording;

// File menu entries for replays: Save Replay (the run on screen, request by request), Open
// Replay (needs no Redis) and Export Animation. A file that cannot be read is refused with what to do, and nothing on
// screen changes.
class ReplayActions : public QObject
{
    Q_OBJECT
public:
    struct Host
    {
        QWidget* dialogParent = nullptr;
        std::function<std::shared_ptr<const Recording>()> current; // the run on screen; null: none
        std::function<void(std::shared_ptr<const Recording>, const QString& path)> show;
        std::function<void(const QString&)> status;
        // Writes the run on screen as an animation (the window's pictures); false with *error.
        std::function<bool(const AnimationJob&, QString* error, const AnimationEncoder::Progress&)> exportAnimation;
        // The runs a web page plays: the one on screen, and the one beside it in compare mode or
        // a what-if (none: current() alone).
        std::function<std::vector<std::shared_ptr<const Recording>>()> shown;
        std::function<QString()> language; // the page opens in it: "en" or "vi"
    };
    ReplayActions(Host host, QMenu* fileMenu, QObject* parent);

    // Opens a replay file into the window; false when it cannot be read, with *why (none
    // given: the user is told in a dialog).
    bool open(const QString& path, QString* why = nullptr);
    bool save(const QString& path);
    void openDialog();
    void saveDialog();
    // File > Export Animation…: a GIF, MP4 or WebM of the whole run, with a progress dialog.
    void exportDialog();
    // File > Export as Web Page…: the runs on screen as one HTML file that plays them offline.
    void exportPageDialog();
    // The same without a dialog; false with *error.
    bool exportPage(const QString& path, QString* error);
    QAction* saveAction() const { return m_save; }
    // Save is offered while there is a run to save (the window calls this when that changes).
    void updateEnabled();
    void retranslate() const { m_texts.retranslate(); }

private:
    QAction* translated(QAction* action, const char* text);

    Host m_host;
    Retranslator m_texts;
    QAction* m_save = nullptr;
    QAction* m_export = nullptr;
    QAction* m_exportPage = nullptr;
};
