// Issue #44: --save-replay and the exports replaced whatever was at the path (a real /dev/full, a
// FIFO, the target of a symbolic link: a file of someone else's), PNG and PDF followed links, and
// a full disk left a partial file with "Unknown error". OutputFile writes only over a regular file
// or makes a new one, whole or not at all, with the system's reason.
#include "base/outputfile.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {
QByteArray contents(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(cannot read)");
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// The folder's entries: nothing but what the test made may be left there.
QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}
} // namespace

class TestOutputFile : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void whatIsNotARegularFileIsRefused_data();
    void whatIsNotARegularFileIsRefused();
    void aDeviceIsRefusedWithoutBeingTouched();
    void aRegularFileIsReplacedWhole();
    void aLinkIsNotFollowed();
    void aFailedWriteLeavesNothingAndSaysWhy();
    void aFullFileSystemSaysSo();
    void aPartIsCommittedOrDiscarded();
    void aStreamIsWrittenWholeOrNotAtAll();

private:
    QTemporaryDir m_dir;
};

void TestOutputFile::initTestCase()
{
    QVERIFY(m_dir.isValid());
}

void TestOutputFile::whatIsNotARegularFileIsRefused_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("said");
    QTest::newRow("named pipe") << "fifo"
                                << "named pipe";
    QTest::newRow("folder") << "folder"
                            << "is a folder";
    QTest::newRow("link to a file") << "link"
                                    << "symbolic link";
    QTest::newRow("dangling link") << "dangling"
                                   << "symbolic link";
    QTest::newRow("folder that does not exist") << "missing"
                                                << "does not exist";
    QTest::newRow("no name") << "empty"
                             << "Give the name";
}

void TestOutputFile::whatIsNotARegularFileIsRefused()
{
    QFETCH(QString, kind);
    QFETCH(QString, said);
    const QString folder = m_dir.filePath(kind);
    QVERIFY(QDir().mkpath(folder));
    QString path = QDir(folder).filePath(QStringLiteral("out.zsetreplay"));
    const QString target = QDir(folder).filePath(QStringLiteral("someone-elses"));
    QVERIFY(writeFile(target, "precious"));
    if (kind == QLatin1String("fifo"))
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    else if (kind == QLatin1String("folder"))
        QVERIFY(QDir().mkpath(path));
    else if (kind == QLatin1String("link"))
        QVERIFY(QFile::link(target, path));
    else if (kind == QLatin1String("dangling"))
        QVERIFY(QFile::link(QDir(folder).filePath(QStringLiteral("nothing")), path));
    else if (kind == QLatin1String("missing"))
        path = QDir(folder).filePath(QStringLiteral("no/such/out.zsetreplay"));
    else if (kind == QLatin1String("empty"))
        path.clear();

    const QString refused = OutputFile::refusal(path);
    QVERIFY2(refused.contains(said), qPrintable(refused));
    QString error;
    QVERIFY(!OutputFile::write(path, "replay", &error));
    QCOMPARE(error, refused);
    QVERIFY(OutputFile::createPart(path, &error).isEmpty());
    // Nothing was written: the link's target is as it was, no part is left, the pipe is a pipe.
    QCOMPARE(contents(target), QByteArray("precious"));
    QStringList expected {QStringLiteral("someone-elses")};
    if (kind != QLatin1String("missing") && kind != QLatin1String("empty"))
        expected << QStringLiteral("out.zsetreplay");
    expected.sort();
    QCOMPARE(entries(folder), expected);
    if (kind == QLatin1String("fifo")) {
        struct stat info
        {
        };
        QCOMPARE(::lstat(QFile::encodeName(path).constData(), &info), 0);
        QVERIFY(S_ISFIFO(info.st_mode));
    }
}

void TestOutputFile::aDeviceIsRefusedWithoutBeingTouched()
{
    // Only looked at (lstat), never opened: the test writes nothing to a device.
    for (const char* device : {"/dev/null", "/dev/full"}) {
        struct stat before
        {
        };
        if (::lstat(device, &before) != 0 || !S_ISCHR(before.st_mode))
            continue;
        const QString refused = OutputFile::refusal(QString::fromLatin1(device));
        QVERIFY2(refused.contains(QLatin1String("a device")) && refused.contains(QLatin1String("not a regular file")),
                 qPrintable(refused));
        struct stat after
        {
        };
        QCOMPARE(::lstat(device, &after), 0);
        QCOMPARE(after.st_ino, before.st_ino);
    }
}

void TestOutputFile::aRegularFileIsReplacedWhole()
{
    const QString folder = m_dir.filePath(QStringLiteral("regular"));
    QVERIFY(QDir().mkpath(folder));
    const QString path = QDir(folder).filePath(QStringLiteral("summary.json"));
    QString error;
    QVERIFY2(OutputFile::refusal(path).isEmpty(), qPrintable(OutputFile::refusal(path)));
    QVERIFY2(OutputFile::write(path, "first", &error), qPrintable(error));
    QCOMPARE(contents(path), QByteArray("first"));
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
    QVERIFY2(OutputFile::write(path, "second, longer", &error), qPrintable(error));
    QCOMPARE(contents(path), QByteArray("second, longer"));
    struct stat info
    {
    };
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &info), 0);
    QCOMPARE(info.st_mode & 0777, mode_t(0600)); // its mode kept
    QCOMPARE(entries(folder), QStringList {QStringLiteral("summary.json")});
}

void TestOutputFile::aLinkIsNotFollowed()
{
    // The case: a link in a folder one may write to, pointing at a file of someone else's.
    const QString folder = m_dir.filePath(QStringLiteral("linked"));
    QVERIFY(QDir().mkpath(folder));
    const QString target = QDir(folder).filePath(QStringLiteral("secret"));
    QVERIFY(writeFile(target, "mode 600"));
    QVERIFY(QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner));
    const QString link = QDir(folder).filePath(QStringLiteral("run.png"));
    QVERIFY(QFile::link(target, link));
    QString error;
    QVERIFY(!OutputFile::write(link, "picture", &error));
    QVERIFY2(error.contains(QLatin1String("symbolic link")), qPrintable(error));
    QCOMPARE(contents(target), QByteArray("mode 600"));
    QVERIFY(QFileInfo(link).isSymLink());
}

void TestOutputFile::aFailedWriteLeavesNothingAndSaysWhy()
{
    // A write the system refuses half-way: a file size limit (RLIMIT_FSIZE) in a child process
    // makes write() fail with EFBIG, as a full disk fails with ENOSPC, on any file system.
    const QString folder = m_dir.filePath(QStringLiteral("limited"));
    QVERIFY(QDir().mkpath(folder));
    const QString path = QDir(folder).filePath(QStringLiteral("big.zsetreplay"));
    QVERIFY(writeFile(path, "the old file"));
    int pipe[2];
    QCOMPARE(::pipe(pipe), 0);
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        ::close(pipe[0]);
        std::signal(SIGXFSZ, SIG_IGN); // write() returns EFBIG instead of the process being killed
        const struct rlimit limit
        {
            4096, 4096
        };
        ::setrlimit(RLIMIT_FSIZE, &limit);
        QString error;
        const bool written = OutputFile::write(path, QByteArray(100000, 'x'), &error);
        const QByteArray said = error.toUtf8();
        [[maybe_unused]] const auto sent = ::write(pipe[1], said.constData(), size_t(said.size()));
        ::_exit(written ? 1 : 0);
    }
    ::close(pipe[1]);
    QByteArray said;
    char buffer[512];
    for (ssize_t got; (got = ::read(pipe[0], buffer, sizeof buffer)) > 0;)
        said.append(buffer, got);
    ::close(pipe[0]);
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the write did not fail");
    QVERIFY2(said.contains(::strerror(EFBIG)) && said.contains("big.zsetreplay"), said.constData());
    QVERIFY2(!said.contains("Unknown error"), said.constData());
    QCOMPARE(contents(path), QByteArray("the old file")); // the file there before stays
    QCOMPARE(entries(folder), QStringList {QStringLiteral("big.zsetreplay")}); // no partial file
}

void TestOutputFile::aFullFileSystemSaysSo()
{
    // A real full disk: a tmpfs of 64 KiB, where the test may mount one (root, a mount namespace).
    if (::geteuid() != 0)
        QSKIP("a small tmpfs needs root to mount; the failed write is tested with RLIMIT_FSIZE above");
    const QString folder = m_dir.filePath(QStringLiteral("tiny"));
    QVERIFY(QDir().mkpath(folder));
    QProcess mount;
    mount.start(QStringLiteral("mount"),
                {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"), QStringLiteral("size=64k"),
                 QStringLiteral("tmpfs"), folder});
    if (!mount.waitForFinished(10000) || mount.exitStatus() != QProcess::NormalExit || mount.exitCode() != 0)
        QSKIP(qPrintable(QStringLiteral("this environment cannot mount a tmpfs (%1); the failed write is tested "
                                        "with RLIMIT_FSIZE above")
                             .arg(QString::fromLocal8Bit(mount.readAllStandardError()).trimmed())));
    const auto unmount = qScopeGuard([&folder] { QProcess::execute(QStringLiteral("umount"), {folder}); });
    const QString path = QDir(folder).filePath(QStringLiteral("run.gif"));
    QString error;
    QVERIFY(!OutputFile::write(path, QByteArray(1 << 20, 'x'), &error));
    QVERIFY2(error.contains(QString::fromLocal8Bit(::strerror(ENOSPC))), qPrintable(error));
    QVERIFY(entries(folder).isEmpty());
    QVERIFY2(OutputFile::write(path, "small", &error), qPrintable(error)); // the space was given back
    QCOMPARE(contents(path), QByteArray("small"));
}

void TestOutputFile::aPartIsCommittedOrDiscarded()
{
    const QString folder = m_dir.filePath(QStringLiteral("parts"));
    QVERIFY(QDir().mkpath(folder));
    const QString path = QDir(folder).filePath(QStringLiteral("run.mp4"));
    QString error;
    const QString part = OutputFile::createPart(path, &error);
    QVERIFY2(!part.isEmpty(), qPrintable(error));
    QVERIFY(writeFile(part, "frames"));
    QVERIFY2(OutputFile::commitPart(part, path, &error), qPrintable(error));
    QCOMPARE(contents(path), QByteArray("frames"));
    QVERIFY(!QFile::exists(part));

    // The path became a link while the part was written: the part goes, the link's target stays.
    const QString other = OutputFile::createPart(path, &error);
    QVERIFY(!other.isEmpty());
    QVERIFY(QFile::remove(path));
    const QString target = QDir(folder).filePath(QStringLiteral("target"));
    QVERIFY(writeFile(target, "kept"));
    QVERIFY(QFile::link(target, path));
    QVERIFY(!OutputFile::commitPart(other, path, &error));
    QVERIFY2(error.contains(QLatin1String("symbolic link")), qPrintable(error));
    QVERIFY(!QFile::exists(other));
    QCOMPARE(contents(target), QByteArray("kept"));
}

void TestOutputFile::aStreamIsWrittenWholeOrNotAtAll()
{
    const QString folder = m_dir.filePath(QStringLiteral("streamed"));
    QVERIFY(QDir().mkpath(folder));
    const QString path = QDir(folder).filePath(QStringLiteral("requests.csv"));
    QVERIFY(writeFile(path, "the old log"));
    QString error;
    // A writer that fails half-way: nothing of it is left, the old file stays.
    QVERIFY(!OutputFile::writeWith(
        path,
        [](QIODevice* device) {
            device->write("half");
            return false;
        },
        &error));
    QVERIFY2(error.contains(QLatin1String("requests.csv")) && !error.contains(QLatin1String("Unknown")),
             qPrintable(error));
    QCOMPARE(contents(path), QByteArray("the old log"));
    QCOMPARE(entries(folder), QStringList {QStringLiteral("requests.csv")});
    QVERIFY2(OutputFile::writeWith(
                 path,
                 [](QIODevice* device) {
                     for (int row = 0; row < 1000; ++row)
                         if (device->write("1,2,3\n") != 6)
                             return false;
                     return true;
                 },
                 &error),
             qPrintable(error));
    QCOMPARE(contents(path).size(), 6000);
    QCOMPARE(entries(folder), QStringList {QStringLiteral("requests.csv")});
    // Through a link: refused before the writer is called.
    const QString link = QDir(folder).filePath(QStringLiteral("link.csv"));
    QVERIFY(QFile::link(path, link));
    bool called = false;
    QVERIFY(!OutputFile::writeWith(
        link,
        [&called](QIODevice*) {
            called = true;
            return true;
        },
        &error));
    QVERIFY(!called);
    QCOMPARE(contents(path).size(), 6000);
}

QTEST_GUILESS_MAIN(TestOutputFile)
#include "tst_outputfile.moc"
