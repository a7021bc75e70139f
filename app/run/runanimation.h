#pragma once

#include "animation/animationencoder.h"
#include "animation/animationexport.h"

#include <QSize>

class QStatusBar;
class QWidget;
class RunModel;

// A run on screen as an animation (GIF, MP4, WebM): drawn apart at the frames' size (RunPicture),
// the window staying as the user left it, or the whole window grabbed at each request.
namespace RunAnimation {
struct Source
{
    QWidget* window = nullptr; // grabbed for a whole-window animation
    QStatusBar* statusBar = nullptr; // its message is left out of the frames
    RunModel* left = nullptr; // the run animated: its cursor steps through the frames
    RunModel* right = nullptr; // beside it when on screen (compare mode, a what-if), else null
    QSize size; // the frames' size when the job does not give one
};
// False with *error (nothing written).
bool write(const Source& source, const AnimationJob& job, QString* error,
           const AnimationEncoder::Progress& progress = {});
} // namespace RunAnimation
