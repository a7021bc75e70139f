#pragma once

// AnimationReader: what an exported animation holds, read back with FFmpeg (the tests' and the
// benchmark's check of the encoder).

#include <QImage>
#include <QSize>
#include <QString>

struct AnimationFileInfo
{
    QString codec; // "gif", "h264", "vp9"
    int frames = 0; // decoded
    QSize size;
    qint64 durationMs = 0; // the frames' durations added up
};

namespace AnimationReader {
bool probe(const QString& path, AnimationFileInfo* info, QString* error);
// Frame `index` (0-based) as decoded; null with *error when there is none.
QImage frameAt(const QString& path, int index, QString* error);
} // namespace AnimationReader
