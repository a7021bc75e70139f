#pragma once

// ReplayFile: a recording on disk, gzip-compressed and versioned (format in docs/replay-format.md).

#include "recording.h"

#include <QByteArray>
#include <QString>

namespace ReplayFile {
// The newest version this zsetlab reads. Version 2 added a watched key's scores and removals (state_from "watched"); a
// recording without them is written as version 1, which every zsetlab reads.
inline constexpr int formatVersion = 2;
// The file name's suffix and the MIME type given to it.
inline constexpr char suffix[] = "zsetreplay";
inline constexpr char mimeType[] = "application/x-zsetlab-replay";
// The most bytes a replay file may unpack to: refused beyond this, not unpacked without end.
inline constexpr qint64 maxUnpackedBytes = qint64(2) << 30;

QByteArray encode(const Recording& recording);
// gzip of raw bytes, as encode() packs a replay (for the fuzzer, which makes the unpacked part).
QByteArray pack(const QByteArray& raw);
// False with *error (what is wrong and what to do) for anything but a whole, valid replay of a
// version this zsetlab reads; *recording is left as it was then.
bool decode(const QByteArray& bytes, Recording* recording, QString* error);

// Written whole or not at all (a temporary file renamed over the old one).
bool save(const QString& path, const Recording& recording, QString* error);
bool open(const QString& path, Recording* recording, QString* error);
} // namespace ReplayFile
