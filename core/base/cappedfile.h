#pragma once

#include <QByteArray>
#include <QString>

// Reads a file the user named (a scenario, a script) with a cap on the bytes read, not on the size
// the file claims: a /proc file says 0. Only regular files: a FIFO, a device or a socket is
// refused before it is opened (CannotOpen, with why), since opening a FIFO waits for a writer and
// a device may never end. Every file input of zsetlab goes through here, so none can make it read,
// or wait, without end.
struct CappedFile
{
    enum class Status {
        Read, // bytes holds the whole file
        CannotOpen, // why says what the system said
        TooLarge, // more than the cap: nothing is returned
    };

    Status status = Status::CannotOpen;
    QByteArray bytes;
    QString why;

    static CappedFile read(const QString& path, qint64 maxBytes);
};
