#include "cappedfile.h"

#include <QFile>

CappedFile CappedFile::read(const QString& path, qint64 maxBytes)
{
    CappedFile result;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Unbuffered)) {
        result.why = file.errorString();
        return result;
    }
    // One byte past the cap tells a file at the cap from a longer one.
    QByteArray bytes(maxBytes + 1, Qt::Uninitialized);
    qint64 total = 0;
    while (total < bytes.size()) {
        const qint64 got = file.read(bytes.data() + total, bytes.size() - total);
        if (got < 0) {
            result.why = file.errorString();
            return result;
        }
        if (got == 0)
            break; // the end (a pipe's writer closed it)
        total += got;
    }
    if (total > maxBytes) {
        result.status = Status::TooLarge;
        return result;
    }
    bytes.truncate(total);
    result.status = Status::Read;
    result.bytes = std::move(bytes);
    return result;
}
