// A replay as an animation: which requests get a frame and for how long, and GIF, MP4 and WebM
// files read back with FFmpeg (frame count, size, duration, and a frame against the window's own
// picture at that request); bad jobs refused with what to change, and no file left.

#include "animation/animationexport.h"
#include "animation/animationreader.h"
#include "charts/countschart.h"
#include "mainwindow.h"
#include "replay/recording.h"
#include "replay/replayfile.h"
#include "run/burstpanel.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "run/runpicture.h"
#include "run/runview.h"
#include "testbursts.h"
#include "testredis.h"
#include "testsettings.h"

#include <QFile>
#include <QMenuBar>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

namespace {
qint64 totalMs(const QVector<AnimationShot>& shots)
{
    qint64 ms = 0;
    for (const AnimationShot& shot : shots)
        ms += shot.durationMs;
    return ms;
}

// The mean difference of two pictures of the same size, per channel, from 0 to 255.
double meanDifference(const QImage& a, const QImage& b)
{
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    qint64 sum = 0;
    for (int row = 0; row < x.height(); ++row) {
        const auto* p = reinterpret_cast<const QRgb*>(x.constScanLine(row));
        const auto* q = reinterpret_cast<const QRgb*>(y.constScanLine(row));
        for (int col = 0; col < x.width(); ++col)
            sum += std::abs(qRed(p[col]) - qRed(q[col])) + std::abs(qGreen(p[col]) - qGreen(q[col]))
                + std::abs(qBlue(p[col]) - qBlue(q[col]));
    }
    return double(sum) / (3.0 * x.width() * x.height());
}
} // namespace

class TestAnimation : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void fewRequestsAreSlowManyAreSpread();
    void exportsReadBack_data();
    void exportsReadBack();
    void everyFrameKeepsTheChartsLabels();
    void badJobsAreRefused();
    void stoppingLeavesNoFile_data();
    void stoppingLeavesNoFile();

private:
    QTemporaryDir m_dir;
    QString m_replay;
};

void TestAnimation::initTestCase()
{
    TestSettings::keepToThisRun();
    // Three requests in one millisecond at the bug: ZADD 1, 0, 0.
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.clock = ClockKind::Frozen;
    plan.requests = 3;
    plan.limit = 0;
    const Recording recording = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    m_replay = m_dir.filePath(QStringLiteral("three.zsetreplay"));
    QString error;
    QVERIFY2(ReplayFile::save(m_replay, recording, &error), qPrintable(error));
}

void TestAnimation::fewRequestsAreSlowManyAreSpread()
{
    const QVector<AnimationShot> three = AnimationExport::schedule(0, 2, 1);
    QCOMPARE(three.size(), 3);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(three[i].request, i);
    QCOMPARE(three[0].durationMs, 1000); // slow motion: a second a request
    QCOMPARE(three[2].durationMs, 2500); // the end held to be read
    const QVector<AnimationShot> twice = AnimationExport::schedule(0, 2, 2);
    QCOMPARE(twice[0].durationMs, 500);

    const QVector<AnimationShot> many = AnimationExport::schedule(10, 1'000'009, 1);
    QCOMPARE(many.size(), AnimationExport::maxFrames);
    QCOMPARE(many.first().request, 10);
    QCOMPARE(many.last().request, 1'000'009);
    for (int i = 1; i < many.size(); ++i)
        QVERIFY(many[i].request > many[i - 1].request);
    QCOMPARE(many[0].durationMs, 100);
    QCOMPARE(totalMs(many), 300 * 100 + 1500);
    QVERIFY(AnimationExport::schedule(5, 4, 1).isEmpty());
}

void TestAnimation::exportsReadBack_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("codec");
    QTest::addColumn<bool>("wholeWindow");
    QTest::newRow("gif") << QStringLiteral("three.gif") << QStringLiteral("gif") << false;
    QTest::newRow("mp4") << QStringLiteral("three.mp4") << QStringLiteral("h264") << false;
    QTest::newRow("webm") << QStringLiteral("three.webm") << QStringLiteral("vp9") << false;
    QTest::newRow("gif of the whole window") << QStringLiteral("window.gif") << QStringLiteral("gif") << true;
}

// Each frame is the run at its request, drawn apart from the window (issue #43: no menus, status
// bar or Burst form in a picture of the run); --whole-window brings the window back.
void TestAnimation::exportsReadBack()
{
    QFETCH(QString, name);
    QFETCH(QString, codec);
    QFETCH(bool, wholeWindow);
    MainWindow window; // a replay needs no Redis
    window.setPictureSize(QSize(800, 500));
    window.show();
    QVERIFY(window.openReplay(m_replay));
    AnimationJob job;
    job.path = m_dir.filePath(name);
    job.wholeWindow = wholeWindow;
    QString error;
    int progressed = 0;
    QVERIFY2(window.exportAnimation(job, &error,
                                    [&progressed](int written, int) {
                                        progressed = written;
                                        return true;
                                    }),
             qPrintable(error));
    const QVector<AnimationShot> shots = AnimationExport::schedule(0, 2, 1);
    QCOMPARE(progressed, int(shots.size()));

    AnimationFileInfo info;
    QVERIFY2(AnimationReader::probe(job.path, &info, &error), qPrintable(error));
    QCOMPARE(info.codec, codec);
    QCOMPARE(info.frames, int(shots.size()));
    QCOMPARE(info.size, QSize(800, 500));
    QCOMPARE(info.durationMs, totalMs(shots));

    // Frame 2 is the run at request 2 (ZADD replied 0): the run's picture, or the window's.
    RunView* run = window.runView(LimiterExperiment::Left);
    RunPicture alone({{run->run()->recording(), QString()}}, QSize(800, 500));
    QVERIFY(!alone.findChild<QMenuBar*>() && !alone.findChild<QStatusBar*>() && !alone.findChild<BurstPanel*>());
    const QImage picture2 = alone.at(1);
    QVERIFY2(alone.caption().contains(QLatin1String("ZADD replied 0")), qPrintable(alone.caption()));
    run->run()->cursor()->setPosition(1);
    QCoreApplication::sendPostedEvents();
    const QImage window2 = window.grab().toImage().copy(0, 0, 800, 500);
    const QImage frame2 = AnimationReader::frameAt(job.path, 1, &error);
    QVERIFY2(!frame2.isNull(), qPrintable(error));
    QCOMPARE(frame2.size(), window2.size());
    const QImage& expected = wholeWindow ? window2 : picture2;
    const QImage& other = wholeWindow ? picture2 : window2;
    QVERIFY2(meanDifference(frame2, expected) < 4, qPrintable(QString::number(meanDifference(frame2, expected))));
    QVERIFY(meanDifference(frame2, other) > 3 * meanDifference(frame2, expected));
    // ...and not the run at another request.
    const QImage picture1 = alone.at(0);
    run->run()->cursor()->setPosition(0);
    QCoreApplication::sendPostedEvents();
    const QImage window1 = window.grab().toImage().copy(0, 0, 800, 500);
    QVERIFY(meanDifference(frame2, wholeWindow ? window1 : picture1) > meanDifference(frame2, expected));
}

// Issue #56: from frame 2 on, the counts chart lost its axis titles and legend text (its items drew
// from a cache that a picture off the screen never refilled). What lies outside the plot (numbers,
// titles, legend) is the same on the first frame and a later one, and holds text.
void TestAnimation::everyFrameKeepsTheChartsLabels()
{
    Recording recording;
    QString error;
    QVERIFY2(ReplayFile::open(m_replay, &recording, &error), qPrintable(error));
    RunPicture picture({{std::make_shared<const Recording>(recording), QString()}}, QSize(1280, 720));
    const QImage first = picture.at(0);
    const QImage later = picture.at(2);
    auto* chart = picture.findChild<CountsChart*>();
    QVERIFY(chart && chart->isVisible());
    // The chart's rectangle in the frame, and the plot's in it.
    const double scale = double(first.width()) / picture.width();
    const QRectF plot = chart->mapFromScene(chart->chart()->plotArea()).boundingRect();
    const QRect inFrame(chart->mapTo(&picture, QPoint(0, 0)), chart->size());
    auto strip = [&](const QImage& frame, const QRect& part) {
        return frame.copy(QRectF(QRectF(part).topLeft() * scale, QRectF(part).size() * scale).toRect())
            .convertToFormat(QImage::Format_RGB32);
    };
    // Under the plot: the x numbers, the x title and the legend; left of it: the y numbers and title.
    const int below = inFrame.top() + int(plot.bottom()) + 2;
    const QRect under(inFrame.left(), below, inFrame.width(), inFrame.bottom() - below);
    const QRect left(inFrame.left(), inFrame.top(), int(plot.left()) - 2, inFrame.height());
    for (const QRect& part : {under, left}) {
        const QImage a = strip(first, part);
        const QImage b = strip(later, part);
        QVERIFY(!a.isNull() && a.size() == b.size());
        int inked = 0; // dark pixels: text
        for (int y = 0; y < a.height(); ++y)
            for (int x = 0; x < a.width(); ++x)
                inked += qGray(a.pixel(x, y)) < 100 ? 1 : 0;
        QVERIFY2(inked > 200, qPrintable(QString::number(inked)));
        QVERIFY2(meanDifference(a, b) < 1.0, qPrintable(QString::number(meanDifference(a, b))));
    }
}

void TestAnimation::badJobsAreRefused()
{
    MainWindow window;
    window.setPictureSize(QSize(640, 400));
    window.show();
    QString error;
    AnimationJob job;
    job.path = m_dir.filePath(QStringLiteral("nothing.gif"));
    QVERIFY(!window.exportAnimation(job, &error)); // no replay open
    QVERIFY2(error.contains(QLatin1String("no request")), qPrintable(error));
    QVERIFY(window.openReplay(m_replay));

    job.path = m_dir.filePath(QStringLiteral("three.avi"));
    QVERIFY(!window.exportAnimation(job, &error));
    QVERIFY2(error.contains(QLatin1String(".gif, .mp4 or .webm")), qPrintable(error));

    job.path = m_dir.filePath(QStringLiteral("range.gif"));
    job.from = 1;
    job.to = 7;
    QVERIFY(!window.exportAnimation(job, &error));
    QVERIFY2(error.contains(QLatin1String("requests 1 to 3")), qPrintable(error));
    QVERIFY(!QFile::exists(job.path));

    job.path = m_dir.filePath(QStringLiteral("no-such-folder/three.gif"));
    job.to = -1;
    QVERIFY(!window.exportAnimation(job, &error));
    QVERIFY2(error.contains(QLatin1String("does not exist")), qPrintable(error)); // said before any frame
    QVERIFY(!QFile::exists(job.path));

    // Issue #58, 7: --speed 1e-300 gave the fastest animation, 0.001 a GIF of 5.5 hours.
    job.path = m_dir.filePath(QStringLiteral("speed.gif"));
    for (const double speed : {1e-300, 0.001, 0.09, 1001.0}) {
        job.speed = speed;
        QVERIFY(!window.exportAnimation(job, &error));
        QVERIFY2(error.contains(QLatin1String("from 0.1 to 1,000"))
                     || error.contains(QLatin1String("from 0.1 to 1000")),
                 qPrintable(error));
        QVERIFY(!QFile::exists(job.path));
    }
    // The slowest speed taken lasts at most 5 minutes, however many frames.
    int totalMs = 0;
    for (const AnimationShot& shot : AnimationExport::schedule(0, 999'999, AnimationExport::slowestSpeed))
        totalMs += shot.durationMs;
    QVERIFY2(totalMs <= 5 * 60 * 1000 + 1500, qPrintable(QString::number(totalMs)));

    // Issue #58, 3: what an animation holds grows with the run's requests: past the bound, refused.
    QVERIFY(AnimationExport::sizeRefusal(AnimationExport::maxRequests).isEmpty());
    const QString tooMany = AnimationExport::sizeRefusal(AnimationExport::maxRequests + 1);
    QVERIFY2(tooMany.contains(QLatin1String("--export-html")), qPrintable(tooMany));
}

void TestAnimation::stoppingLeavesNoFile_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("stopAt");
    QTest::newRow("gif, at the first frame") << QStringLiteral("stopped.gif") << 1;
    QTest::newRow("gif, at the second") << QStringLiteral("stopped.gif") << 2;
    QTest::newRow("mp4, at the second") << QStringLiteral("stopped.mp4") << 2;
}

// Frames are encoded on a thread of their own while the next is drawn: a stop drops what waits,
// says so, leaves no file (nor a part of one) and keeps the file it would have replaced.
void TestAnimation::stoppingLeavesNoFile()
{
    QFETCH(QString, name);
    QFETCH(int, stopAt);
    MainWindow window;
    window.setPictureSize(QSize(640, 400));
    window.show();
    QVERIFY(window.openReplay(m_replay));
    AnimationJob job;
    job.path = m_dir.filePath(name);
    QFile::remove(job.path);
    QString error;
    int calls = 0;
    QVERIFY(!window.exportAnimation(job, &error, [&](int written, int) {
        ++calls;
        return written < stopAt;
    }));
    QCOMPARE(calls, stopAt);
    QCOMPARE(error, QStringLiteral("Stopped."));
    QVERIFY(!QFile::exists(job.path));
    QCOMPARE(QDir(m_dir.path()).entryList({QLatin1Char('*') + name + QLatin1Char('*')}, QDir::Files | QDir::Hidden),
             QStringList());

    // A file already there stays as it was.
    {
        QFile earlier(job.path);
        QVERIFY(earlier.open(QIODevice::WriteOnly));
        earlier.write("earlier");
    }
    QVERIFY(!window.exportAnimation(job, &error, [&](int written, int) { return written < stopAt; }));
    QFile kept(job.path);
    QVERIFY(kept.open(QIODevice::ReadOnly));
    QCOMPARE(kept.readAll(), QByteArray("earlier"));
    kept.close();
    QFile::remove(job.path);

    // And the next export, the whole way, is whole.
    QVERIFY2(window.exportAnimation(job, &error), qPrintable(error));
    AnimationFileInfo info;
    QVERIFY2(AnimationReader::probe(job.path, &info, &error), qPrintable(error));
    QCOMPARE(info.frames, int(AnimationExport::schedule(0, 2, 1).size()));
    QFile::remove(job.path);
}

QTEST_MAIN(TestAnimation)
#include "tst_animation.moc"
