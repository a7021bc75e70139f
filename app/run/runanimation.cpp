#include "runanimation.h"

#include "run/runcursor.h"
#include "run/runmodel.h"
#include "runpicture.h"

#include <QCoreApplication>
#include <QStatusBar>
#include <QWidget>

bool RunAnimation::write(const Source& source, const AnimationJob& job, QString* error,
                         const AnimationEncoder::Progress& progress)
{
    RunCursor* player = source.left->cursor();
    AnimationJob checked = job;
    if (const QString refused = AnimationExport::refusal(&checked, player->requests()); !refused.isEmpty()) {
        *error = refused;
        return false;
    }
    if (!checked.wholeWindow) {
        // The run alone, drawn apart at the frames' size: the window stays as the user left it.
        QVector<RunPicture::Side> sides {{player->recording(), source.left->title()}};
        if (source.right && !source.right->cursor()->isEmpty())
            sides.append({source.right->cursor()->recording(), source.right->title()});
        RunPicture picture(sides, checked.size.isValid() ? checked.size : source.size);
        return AnimationExport::write(
            checked, [&picture](int request) { return picture.at(request); }, error, progress);
    }
    player->pause();
    const int was = player->position();
    const QString status = source.statusBar->currentMessage();
    source.statusBar->clearMessage(); // "step with Left and Right" means nothing in an animation
    // Each frame is the window at that request, drawn after what the event loop has pending.
    QWidget* window = source.window;
    const bool written = AnimationExport::write(
        checked,
        [window, player](int request) {
            player->setPosition(request);
            QCoreApplication::sendPostedEvents();
            return window->grab().toImage();
        },
        error, progress);
    player->setPosition(was);
    source.statusBar->showMessage(status);
    return written;
}
