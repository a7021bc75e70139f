// Issue #20: `--script /dev/zero` grew to 9.6 GB in 8 s, and the scenario's 1 MB cap asked
// QFile::size(), which is 0 for a device or a FIFO. Every file input reads through CappedFile,
// which caps what it reads and, since a FIFO without a writer blocked open() for good (and
// Ctrl+C with it), refuses anything but a regular file before opening it.
#include "base/cappedfile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <thread>
#include <unistd.h>

class TestCappedFile : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void readsUpToTheCap_data();
    void readsUpToTheCap();
    void notAFileIsRefusedBeforeOpen_data();
    void notAFileIsRefusedBeforeOpen();
    void missingFileSaysWhy();
    void resourceIsRead();

private:
    QTemporaryDir m_dir;
};

void TestCappedFile::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // A FIFO's writer gets EPIPE, not a fatal SIGPIPE, when the reader stops at the cap.
    std::signal(SIGPIPE, SIG_IGN);
}

void TestCappedFile::readsUpToTheCap_data()
{
    QTest::addColumn<int>("size");
    QTest::addColumn<bool>("read");
    QTest::newRow("empty") << 0 << true;
    QTest::newRow("small") << 100 << true;
    QTest::newRow("exactly the cap") << 4096 << true;
    QTest::newRow("one byte past the cap") << 4097 << false;
    QTest::newRow("far past the cap") << 1'000'000 << false;
}

void TestCappedFile::readsUpToTheCap()
{
    QFETCH(int, size);
    QFETCH(bool, read);
    const QString path = m_dir.filePath(QStringLiteral("file-%1").arg(size));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QByteArray contents(size, 'x');
    file.write(contents);
    file.close();
    const CappedFile capped = CappedFile::read(path, 4096);
    QCOMPARE(capped.status, read ? CappedFile::Status::Read : CappedFile::Status::TooLarge);
    QCOMPARE(capped.bytes, read ? contents : QByteArray());
}

void TestCappedFile::notAFileIsRefusedBeforeOpen_data()
{
    QTest::addColumn<QString>("kind"); // what to make
    QTest::addColumn<QString>("said");
    QTest::newRow("an endless device") << QStringLiteral("device") << QStringLiteral("a device");
    QTest::newRow("a FIFO nobody writes to") << QStringLiteral("fifo") << QStringLiteral("a named pipe (FIFO)");
    QTest::newRow("a unix socket") << QStringLiteral("socket") << QStringLiteral("a socket");
    QTest::newRow("a folder") << QStringLiteral("folder") << QStringLiteral("a folder");
}

void TestCappedFile::notAFileIsRefusedBeforeOpen()
{
    QFETCH(QString, kind);
    QFETCH(QString, said);
    QString path = QStringLiteral("/dev/zero");
    int listener = -1;
    if (kind == QLatin1String("fifo")) {
        path = m_dir.filePath(QStringLiteral("fifo"));
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    } else if (kind == QLatin1String("socket")) {
        path = m_dir.filePath(QStringLiteral("s.sock"));
        listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
        sockaddr_un address {};
        address.sun_family = AF_UNIX;
        const QByteArray native = QFile::encodeName(path);
        std::memcpy(address.sun_path, native.constData(), size_t(native.size()) + 1);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    } else if (kind == QLatin1String("folder")) {
        path = m_dir.path();
    }
    QElapsedTimer clock;
    clock.start();
    const CappedFile capped = CappedFile::read(path, 1024 * 1024);
    if (listener >= 0)
        ::close(listener);
    QVERIFY2(clock.elapsed() < 2000, qPrintable(QString::number(clock.elapsed()))); // no wait for a writer
    QCOMPARE(capped.status, CappedFile::Status::CannotOpen);
    QVERIFY(capped.bytes.isEmpty());
    QVERIFY2(capped.why.contains(said) && capped.why.contains(QLatin1String("Save it to a file first")),
             qPrintable(capped.why));
}

void TestCappedFile::missingFileSaysWhy()
{
    const CappedFile capped = CappedFile::read(m_dir.filePath(QStringLiteral("nothing-here")), 100);
    QCOMPARE(capped.status, CappedFile::Status::CannotOpen);
    QVERIFY(!capped.why.isEmpty());
}

// A scenario or script compiled in (":/...") is Qt's file, not the system's: read as before.
void TestCappedFile::resourceIsRead()
{
    const CappedFile capped = CappedFile::read(QStringLiteral(":/lua/now.lua"), 1024 * 1024);
    QCOMPARE(capped.status, CappedFile::Status::Read);
    QVERIFY(capped.bytes.contains("ZADD"));
}

QTEST_GUILESS_MAIN(TestCappedFile)
#include "tst_cappedfile.moc"
