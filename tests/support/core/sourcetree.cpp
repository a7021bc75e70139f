#include "sourcetree.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

QString sourceTree()
{
    QString given = qEnvironmentVariable("ZSETLAB_SOURCE_DIR");
    if (!given.isEmpty())
        return given;
    for (QDir dir(QCoreApplication::applicationDirPath()); !dir.isRoot(); dir.cdUp()) {
        if (QFileInfo::exists(dir.filePath(QStringLiteral("lua/now.lua")))
            && QFileInfo::exists(dir.filePath(QStringLiteral("core/CMakeLists.txt"))))
            return dir.absolutePath();
    }
    return QString(); // paths then name the file from the top, and the test says it is missing
}

QString sourcePath(const QString& relative)
{
    return QDir(sourceTree()).filePath(relative);
}
