#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

class QIODevice;

// The files zsetlab writes at a path the user named: a replay, a summary, a picture, a page, a
// handout, an animation. Only a regular file is replaced, or a new one made: a device node, a
// named pipe, a socket, a folder or a symbolic link at the path is refused (writing there would
// replace a device, wait for a reader, or write through the link into a file of someone else's).
// A file is written beside the path first and renamed over it at the end: a failure (a full
// disk, say) leaves no partial file, the file there before stays, and the reason is the
// system's own ("No space left on device"). Every file output of zsetlab goes through here.
namespace OutputFile {
// Why `path` cannot be written, before any work: empty, a folder, a link, not a regular file, a
// folder that does not exist or may not be written, a file that may not be written. Empty: none.
QString refusal(const QString& path);

// `bytes`, written whole at `path` or not at all; false with *error (the path and the
// system's reason), leaving nothing behind.
bool write(const QString& path, const QByteArray& bytes, QString* error);

// The same for what is written a piece at a time (a request log of millions of rows): `write` gets
// a device on a new file beside `path`, which takes its place once `write` returned true.
bool writeWith(const QString& path, const std::function<bool(QIODevice* device)>& write, QString* error);

// For writers that open the file themselves (an encoder, a PDF writer): a new, empty regular
// file beside `path` (created exclusively, so never a link or a device), refused as refusal()
// says. Empty, with *error, when it cannot be made.
QString createPart(const QString& path, QString* error);
// Puts the part in the place of `path` (checked again first); false with *error. Either way
// the part is gone afterwards.
bool commitPart(const QString& part, const QString& path, QString* error);
// Removes a part that will not be committed.
void discardPart(const QString& part);
} // namespace OutputFile
