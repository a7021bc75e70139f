#include "outputfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(OutputFile)
};

QString systemError(int code)
{
    return QString::fromLocal8Bit(::strerror(code));
}

QString cannotWrite(const QString& path, int code)
{
    return Text::tr("Could not write %1: %2.").arg(QDir::toNativeSeparators(path), systemError(code));
}

bool failWith(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

// What is at the path when it is not a regular file; empty for a regular file.
QString kindOf(mode_t mode)
{
    if (S_ISFIFO(mode))
        return Text::tr("a named pipe (FIFO)");
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return Text::tr("a device");
    if (S_ISSOCK(mode))
        return Text::tr("a socket");
    if (!S_ISREG(mode))
        return Text::tr("not a regular file");
    return {};
}

// The mode a replacement keeps: the one of the regular file it replaces, if any.
bool existingMode(const QByteArray& native, mode_t* mode)
{
    struct stat info
    {
    };
    if (::lstat(native.constData(), &info) != 0 || !S_ISREG(info.st_mode))
        return false;
    *mode = info.st_mode & 07777;
    return true;
}

bool writeAll(int fd, const char* data, qint64 size, int* code)
{
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size_t(std::min<qint64>(size, qint64(1) << 30)));
        if (written < 0) {
            if (errno == EINTR)
                continue;
            *code = errno;
            return false;
        }
        data += written;
        size -= written;
    }
    return true;
}
} // namespace

QString OutputFile::refusal(const QString& path)
{
    if (path.isEmpty())
        return Text::tr("Give the name of a file to write.");
    const QString shown = QDir::toNativeSeparators(path);
    const QByteArray native = QFile::encodeName(path);
    struct stat info
    {
    };
    if (::lstat(native.constData(), &info) == 0) {
        if (S_ISLNK(info.st_mode))
            return Text::tr("%1 is a symbolic link: zsetlab does not write through a link (it would replace the file "
                            "the link points to). Give the path of a file, or a new name.")
                .arg(shown);
        if (S_ISDIR(info.st_mode))
            return Text::tr("%1 is a folder: give the name of a file in it.").arg(shown);
        if (const QString kind = kindOf(info.st_mode); !kind.isEmpty())
            return Text::tr("%1 is %2, not a regular file: zsetlab writes only over a regular file, or makes a new "
                            "one. Give another name.")
                .arg(shown, kind);
        if (::access(native.constData(), W_OK) != 0)
            return Text::tr("%1 may not be written (%2): choose a file you may write.").arg(shown, systemError(errno));
    } else if (errno != ENOENT) {
        return Text::tr("Could not write %1: %2.").arg(shown, systemError(errno));
    }
    const QString folder = QFileInfo(path).absolutePath();
    const QFileInfo folderInfo(folder);
    if (!folderInfo.isDir())
        return Text::tr("The folder %1 does not exist: create it first, or choose another.")
            .arg(QDir::toNativeSeparators(folder));
    if (::access(QFile::encodeName(folder).constData(), W_OK | X_OK) != 0)
        return Text::tr("The folder %1 may not be written (%2): choose a folder you may write to.")
            .arg(QDir::toNativeSeparators(folder), systemError(errno));
    return {};
}

QString OutputFile::createPart(const QString& path, QString* error)
{
    if (const QString refused = refusal(path); !refused.isEmpty()) {
        failWith(error, refused);
        return {};
    }
    mode_t mode = 0666; // the umask applies, as to any new file
    const bool replacing = existingMode(QFile::encodeName(path), &mode);
    const QFileInfo info(path);
    for (int attempt = 0; attempt < 16; ++attempt) {
        QString part
            = info.absoluteDir().filePath(QStringLiteral(".%1.%2.part")
                                              .arg(info.fileName())
                                              .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0')));
        const QByteArray native = QFile::encodeName(part);
        // O_EXCL: a new file of zsetlab's own, never a link's target or a device already there.
        const int fd = ::open(native.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
        if (fd < 0) {
            if (errno == EEXIST)
                continue;
            failWith(error, cannotWrite(path, errno));
            return {};
        }
        if (replacing)
            ::fchmod(fd, mode);
        ::close(fd);
        return part;
    }
    failWith(error, cannotWrite(path, EEXIST));
    return {};
}

bool OutputFile::commitPart(const QString& part, const QString& path, QString* error)
{
    // The path may have changed while the part was written: it is looked at again.
    if (const QString refused = refusal(path); !refused.isEmpty()) {
        discardPart(part);
        return failWith(error, refused);
    }
    if (::rename(QFile::encodeName(part).constData(), QFile::encodeName(path).constData()) != 0) {
        const int code = errno;
        discardPart(part);
        return failWith(error, cannotWrite(path, code));
    }
    return true;
}

void OutputFile::discardPart(const QString& part)
{
    if (!part.isEmpty())
        ::unlink(QFile::encodeName(part).constData());
}

bool OutputFile::write(const QString& path, const QByteArray& bytes, QString* error)
{
    const QString part = createPart(path, error);
    if (part.isEmpty())
        return false;
    const int fd = ::open(QFile::encodeName(part).constData(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
    int code = 0;
    bool written = fd >= 0;
    if (!written)
        code = errno;
    else
        written = writeAll(fd, bytes.constData(), bytes.size(), &code);
    if (fd >= 0 && ::close(fd) != 0 && written) { // a file system may say only now that it is full
        written = false;
        code = errno;
    }
    if (!written) {
        discardPart(part);
        return failWith(error, cannotWrite(path, code));
    }
    return commitPart(part, path, error);
}

bool OutputFile::writeWith(const QString& path, const std::function<bool(QIODevice* device)>& write, QString* error)
{
    const QString part = createPart(path, error);
    if (part.isEmpty())
        return false;
    QFile file(part);
    bool written = file.open(QIODevice::WriteOnly | QIODevice::Truncate) && write(&file) && file.flush();
    // The system's reason when it gave one; never Qt's "Unknown error".
    QString why = file.error() != QFileDevice::NoError ? file.errorString() : Text::tr("it could not be made");
    file.close(); // a file system may say only now that it is full
    if (written && file.error() != QFileDevice::NoError) {
        written = false;
        why = file.errorString();
    }
    if (!written) {
        discardPart(part);
        return failWith(error, Text::tr("Could not write %1: %2.").arg(QDir::toNativeSeparators(path), why));
    }
    return commitPart(part, path, error);
}
