#pragma once

#include <QByteArray>
#include <QString>

// Reads a file the user named (a scenario, a script) with a cap on the bytes read, not on the size
// the file claims: /dev/zero, a FIFO or a /proc file says 0 and never ends. Every file input of
// zsetlab goes through here, so none can make it read without end.
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
