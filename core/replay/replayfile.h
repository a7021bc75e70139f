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
// A replay's memory follows its file's real content: zsetlab's own files unpack to about 30 times
// their size and hold at most 4 requests a byte (a frozen clock, deep pipelines); a file that
// unpacks to more than maxUnpackRatio times its size (and 1 MiB), or claims more than
// maxRequestsPerByte requests a byte of it (and 65,536), is refused before the requests are made.
inline constexpr qint64 maxUnpackRatio = 256;
inline constexpr qint64 maxRequestsPerByte = 32;
// The largest file open() reads: one that is larger is refused before any of it is read.
inline constexpr qint64 maxFileBytes = qint64(1) << 30;

QByteArray encode(const Recording& recording);
// gzip of raw bytes, as encode() packs a replay (for the fuzzer, which makes the unpacked part).
QByteArray pack(const QByteArray& raw);
// False with *error (what is wrong and what to do) for anything but a whole, valid replay of a
// version this zsetlab reads; *recording is left as it was then.
bool decode(const QByteArray& bytes, Recording* recording, QString* error);

// Written whole or not at all (a temporary file renamed over the old one).
bool save(const QString& path, const Recording& recording, QString* error);
bool open(const QString& path, Recording* recording, QString* error);
// How many requests the replay at `path` holds, read from its header without making them (what
// holding them would cost is known before it is paid); false with *error as open().
bool requestsOf(const QString& path, qint64* requests, QString* error);
} // namespace ReplayFile
