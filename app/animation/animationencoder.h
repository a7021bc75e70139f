#pragma once

// AnimationEncoder: frames to an animated GIF (a palette made from the frames, FFmpeg's
// palettegen and paletteuse), an MP4 (H.264) or a WebM (VP9), through FFmpeg's libraries.

#include <QImage>
#include <QString>

#include <functional>
#include <optional>

struct AnimationFrame
{
    QImage image; // every frame the same size
    int durationMs = 100; // how long it stays on screen
};

namespace AnimationEncoder {
enum class Format { Gif, Mp4, WebM };
// By the file's suffix (.gif, .mp4, .webm); none for another.
std::optional<Format> formatOf(const QString& path);
// Frame i of `count`, made on demand: a GIF asks for a few of them twice (its palette first).
using FrameSource = std::function<AnimationFrame(int index)>;
// Called after each frame drawn (encoded meanwhile, on a thread of its own); false stops the
// export (the file is removed).
using Progress = std::function<bool(int written, int count)>;
// Writes `count` frames to `path` (its format by its suffix). False with *error, and no file.
bool write(const QString& path, int count, const FrameSource& frame, QString* error, const Progress& progress = {});
} // namespace AnimationEncoder
