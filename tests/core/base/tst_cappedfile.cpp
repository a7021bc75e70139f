// Issue #20: `--script /dev/zero` grew to 9.6 GB in 8 s, and the scenario's 1 MB cap asked
// QFile::size(), which is 0 for a device or a FIFO. Every file input reads through CappedFile.
#include "cappedfile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

class TestCappedFile : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void readsUpToTheCap_data();
    void readsUpToTheCap();
    void endlessDeviceStopsAtTheCap();
    void fifoIsReadToItsEnd_data();
    void fifoIsReadToItsEnd();
    void missingFileSaysWhy();

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

void TestCappedFile::endlessDeviceStopsAtTheCap()
{
    // QFile::size() says 0 here, and reading to the end never ends.
    QElapsedTimer clock;
    clock.start();
    const CappedFile capped = CappedFile::read(QStringLiteral("/dev/zero"), 1024 * 1024);
    QCOMPARE(capped.status, CappedFile::Status::TooLarge);
    QVERIFY(capped.bytes.isEmpty());
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
}

void TestCappedFile::fifoIsReadToItsEnd_data()
{
    QTest::addColumn<qint64>("written"); // what the writer writes before it closes (at most)
    QTest::addColumn<bool>("read");
    QTest::newRow("a short script through a pipe") << qint64(300) << true;
    QTest::newRow("a writer that goes on past the cap") << qint64(64) * 1024 * 1024 << false;
}

void TestCappedFile::fifoIsReadToItsEnd()
{
    QFETCH(qint64, written);
    QFETCH(bool, read);
    static int row = 0;
    const QByteArray path = QFile::encodeName(m_dir.filePath(QStringLiteral("fifo-%1").arg(++row)));
    QCOMPARE(::mkfifo(path.constData(), 0600), 0);
    // The writer stops when it wrote its share or when the reader went (EPIPE): bounded either way.
    std::thread writer([path, written] {
        const int fd = ::open(path.constData(), O_WRONLY);
        if (fd < 0)
            return;
        const QByteArray chunk(4096, 'y');
        for (qint64 left = written; left > 0;) {
            const ssize_t n = ::write(fd, chunk.constData(), size_t(std::min<qint64>(left, chunk.size())));
            if (n <= 0)
                break;
            left -= n;
        }
        ::close(fd);
    });
    const CappedFile capped = CappedFile::read(QFile::decodeName(path), 1024 * 1024);
    writer.join();
    QCOMPARE(capped.status, read ? CappedFile::Status::Read : CappedFile::Status::TooLarge);
    QCOMPARE(capped.bytes.size(), read ? written : 0);
}

void TestCappedFile::missingFileSaysWhy()
{
    const CappedFile capped = CappedFile::read(m_dir.filePath(QStringLiteral("nothing-here")), 100);
    QCOMPARE(capped.status, CappedFile::Status::CannotOpen);
    QVERIFY(!capped.why.isEmpty());
}

QTEST_GUILESS_MAIN(TestCappedFile)
#include "tst_cappedfile.moc"
