#include "cappedfile.h"

#include <QCoreApplication>
#include <QFile>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(CappedFile)
};

// What a path is when it is not a regular file; empty for a regular file.
QString notAFile(mode_t mode)
{
    if (S_ISREG(mode))
        return QString();
    if (S_ISFIFO(mode))
        return Text::tr("a named pipe (FIFO)");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return Text::tr("a device");
    if (S_ISSOCK(mode))
        return Text::tr("a socket");
    if (S_ISDIR(mode))
        return Text::tr("a folder");
    return Text::tr("not a regular file");
}

QString refusal(const QString& what)
{
    return Text::tr("it is %1, not a file: zsetlab reads only regular files (one could wait for a writer, or "
                    "never end). Save it to a file first")
        .arg(what);
}

// Opens a file of the system: anything but a regular file is refused before opening it (opening
// a FIFO waits for a writer, and nothing would end that wait), and looked at again through the
// descriptor, opened without waiting, since the path may have changed in between.
bool openRegularFile(const QString& path, QFile* file, QString* why)
{
    const QByteArray native = QFile::encodeName(path);
    struct stat before
    {
    };
    if (::stat(native.constData(), &before) == 0) {
        if (const QString what = notAFile(before.st_mode); !what.isEmpty()) {
            *why = refusal(what);
            return false;
        }
    }
    const int fd = ::open(native.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *why = QString::fromLocal8Bit(::strerror(errno));
        return false;
    }
    struct stat opened
    {
    };
    if (::fstat(fd, &opened) != 0 || !notAFile(opened.st_mode).isEmpty()) {
        *why = refusal(notAFile(opened.st_mode));
        ::close(fd);
        return false;
    }
    if (!file->open(fd, QIODevice::ReadOnly | QIODevice::Unbuffered, QFileDevice::AutoCloseHandle)) {
        *why = file->errorString();
        ::close(fd);
        return false;
    }
    return true;
}
} // namespace

CappedFile CappedFile::read(const QString& path, qint64 maxBytes)
{
    CappedFile result;
    QFile file;
    // A resource compiled into zsetlab (":/scenarios/...") is a file of Qt's, not of the system.
    const bool resource = path.startsWith(QLatin1Char(':')) || path.startsWith(QLatin1String("qrc:"));
    if (resource) {
        file.setFileName(path);
        if (!file.open(QIODevice::ReadOnly)) {
            result.why = file.errorString();
            return result;
        }
    } else if (!openRegularFile(path, &file, &result.why)) {
        return result;
    }
    // One byte past the cap tells a file at the cap from a longer one. The buffer starts at the
    // file's size (a replay's cap is 1 GiB, its file a few MB) and grows while more comes.
    const qint64 limit = maxBytes + 1;
    QByteArray bytes(std::min(limit, std::max<qint64>(file.size() + 1, 4096)), Qt::Uninitialized);
    qint64 total = 0;
    while (total < limit) {
        if (total == bytes.size())
            bytes.resize(std::min(limit, bytes.size() * 2));
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
