// Replays of a large run beside the figures the replay must meet (issue "Replay"): memory per
// request of a recording, size of its file, time to open it, time to seek to any request and
// rebuild the ZSET there, then the same in the window (offscreen, 1280x720 and 1920x1080): a seek
// with the whole window drawn, and playing at 1x and at the fastest speed for a few seconds at 60
// frames a second; then a GIF and an MP4 of a class's burst at 1600x900. Each figure beside issue
// #48's target. The run is real: fired at a private redis-server (or --redis URL).
//
//   bench_replay [--requests N] [--seeks S] [--redis URL]

#include "animation/animationreader.h"
#include "benchsupport.h"
#include "limiters/limitercatalog.h"
#include "mainwindow.h"
#include "replay/replayfile.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "run/runview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QWindow>

#include <algorithm>
#include <cstdio>

namespace {
double percentile(std::vector<double> values, double percent)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[size_t(std::lround(percent / 100 * double(values.size() - 1)))];
}

QString row(const QString& figure, const QString& measured, const QString& reference, bool met)
{
    return QStringLiteral("%1 %2 %3 %4\n")
        .arg(figure, -58)
        .arg(measured, 14)
        .arg(reference, 14)
        .arg(met ? QStringLiteral("met") : QStringLiteral("MISSED"));
}
} // namespace

int main(int argc, char* argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("zsetlab replays of a large run."));
    parser.addHelpOption();
    const QCommandLineOption requestsOption(QStringLiteral("requests"), QStringLiteral("Requests of the run."),
                                            QStringLiteral("N"), QStringLiteral("1000000"));
    const QCommandLineOption seeksOption(QStringLiteral("seeks"), QStringLiteral("Random positions to seek to."),
                                         QStringLiteral("S"), QStringLiteral("2000"));
    const QCommandLineOption redisOption(QStringLiteral("redis"), QStringLiteral("Redis URL (default: private)."),
                                         QStringLiteral("URL"));
    parser.addOptions({requestsOption, seeksOption, redisOption});
    parser.process(app);
    QTextStream out(stdout);
    const int requests = std::clamp(parser.value(requestsOption).toInt(), 1000, BurstPlan::maxRequests);
    const int seeks = std::clamp(parser.value(seeksOption).toInt(), 10, 100000);

    PrivateRedisServer privateServer;
    RedisEndpoint endpoint;
    if (const int code = Bench::chooseServer(parser.value(redisOption), &privateServer, &endpoint, out))
        return code;

    // The bug at scale: `now` members, Poisson arrivals of 50 per ms on the schedule's clock (20 s of
    // traffic sent as fast as it goes), a 1 s window and a limit of 100.
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.requests = requests;
    plan.connections = 1;
    plan.pipeline = 64;
    plan.pacing.kind = Pacing::Kind::Poisson;
    plan.pacing.perMs = 50;
    plan.clock = ClockKind::Schedule;
    plan.windowMs = 1000;
    plan.limit = 100;
    BurstEngine engine;
    QElapsedTimer timer;
    timer.start();
    const BurstSummary summary = Bench::runBurst(engine, endpoint, plan);
    if (summary.failure.isFailure()) {
        out << "the run failed: " << summary.failure.message << Qt::endl;
        return 1;
    }
    out << "replay of " << requests << " requests (now, poisson:50, schedule clock, window 1000 ms), Redis "
        << summary.serverVersion << ", fired in " << timer.elapsed() << " ms\n\n";
    out << row(QStringLiteral("figure"), QStringLiteral("measured"), QStringLiteral("reference"), true)
               .replace(QLatin1String("met"), QLatin1String("verdict"));

    timer.restart();
    const Recording recording = Recording::fromEngine(engine);
    const double recordMs = double(timer.nsecsElapsed()) / 1e6;
    const double bytesPerRequest = double(recording.memoryBytes()) / recording.requests();
    out << row(QStringLiteral("memory of the recording, bytes per request"), QString::number(bytesPerRequest, 'f', 1),
               QStringLiteral("<= 64"), bytesPerRequest <= 64);
    out << row(QStringLiteral("recording made at the end of the run, ms"), QString::number(recordMs, 'f', 0),
               QStringLiteral("-"), true);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.zsetreplay"));
    QString error;
    timer.restart();
    if (!ReplayFile::save(path, recording, &error)) {
        out << error << Qt::endl;
        return 1;
    }
    const double saveMs = double(timer.nsecsElapsed()) / 1e6;
    const double megabytes = double(QFileInfo(path).size()) / 1e6;
    const double scaled = megabytes * 1e6 / requests; // per 1,000,000 requests
    out << row(QStringLiteral("file size, MB per 1,000,000 requests"), QString::number(scaled, 'f', 2),
               QStringLiteral("<= 16"), scaled <= 16);
    out << row(QStringLiteral("saving, ms"), QString::number(saveMs, 'f', 0), QStringLiteral("-"), true);

    std::vector<double> openMs;
    Recording opened;
    for (int round = 0; round < 3; ++round) {
        timer.restart();
        if (!ReplayFile::open(path, &opened, &error)) {
            out << error << Qt::endl;
            return 1;
        }
        openMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const double openScaled = Bench::median(openMs) * 1e6 / requests;
    out << row(QStringLiteral("opening, ms per 1,000,000 requests (median)"), QString::number(openScaled, 'f', 0),
               QStringLiteral("<= 1000"), openScaled <= 1000);

    std::vector<double> seekMs;
    qint64 members = 0;
    QRandomGenerator random(42);
    for (int s = 0; s < seeks; ++s) {
        const int at = int(random.bounded(quint32(opened.requests())));
        timer.restart();
        const ReplayState state = opened.stateAt(at, true);
        seekMs.push_back(double(timer.nsecsElapsed()) / 1e6);
        members += qint64(state.memberList.size());
    }
    const double p99 = percentile(seekMs, 99);
    out << row(QStringLiteral("seek + ZSET rebuilt at any request, p50 ms"),
               QString::number(percentile(seekMs, 50), 'f', 3), QStringLiteral("-"), true);
    out << row(QStringLiteral("seek + ZSET rebuilt at any request, p99 ms"), QString::number(p99, 'f', 3),
               QStringLiteral("<= 16"), p99 <= 16);
    out << "(" << seeks << " random positions, " << members / seeks << " members per ZSET on average)\n";

    // The window at each size a class meets (issue #48): the replay opened, seeks with every view
    // drawn, then playing at 1x and at the fastest speed offered.
    MainWindow window;
    window.show();
    for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)}) {
        const QString at = QStringLiteral(" at %1x%2").arg(size.width()).arg(size.height());
        window.setPictureSize(size);
        // Shown and laid out at this size before anything is timed: an unexposed window paints
        // nothing, and would time nothing.
        QElapsedTimer settling;
        settling.start();
        while ((!window.windowHandle() || !window.windowHandle()->isExposed()) && settling.elapsed() < 5000)
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QCoreApplication::processEvents();
        timer.restart();
        if (!window.openReplay(path))
            return 1;
        QCoreApplication::sendPostedEvents();
        const double windowOpenMs = double(timer.nsecsElapsed()) / 1e6;
        RunCursor* player = window.run(LimiterExperiment::Left)->cursor();
        out << row(QStringLiteral("opening in the window, ms") + at, QString::number(windowOpenMs, 'f', 0),
                   QStringLiteral("-"), true);
        // A seek as the screen gets it: the layouts and the charts' scene, then the parts the
        // seek changed painted (the window's update request); and the whole window drawn again
        // (grab()), which a seek never needs, for reference.
        std::vector<double> frameMs;
        std::vector<double> wholeMs;
        for (int s = 0; s < std::min(seeks, 300); ++s) {
            const int request = int(random.bounded(quint32(player->requests())));
            timer.restart();
            player->setPosition(request);
            QCoreApplication::sendPostedEvents();
            QCoreApplication::sendPostedEvents(); // what the first round posted (the update request)
            frameMs.push_back(double(timer.nsecsElapsed()) / 1e6);
            timer.restart();
            (void)window.grab();
            wholeMs.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
        const double frameP99 = percentile(frameMs, 99);
        out << row(QStringLiteral("seek + frame drawn, p50 ms") + at, QString::number(percentile(frameMs, 50), 'f', 1),
                   QStringLiteral("-"), true);
        out << row(QStringLiteral("seek + frame drawn, p99 ms") + at, QString::number(frameP99, 'f', 1),
                   QStringLiteral("<= 8"), frameP99 <= 8);
        out << row(QStringLiteral("whole window drawn again, p99 ms") + at,
                   QString::number(percentile(wholeMs, 99), 'f', 1), QStringLiteral("-"), true);

        // Playing: a frame every 16 ms, each drawn before the next, for 3 s or 80 % of the
        // run's traffic time at that speed, from the start.
        const RequestLog& log = player->recording()->log();
        const double trafficMs = double(log.maxNow() - log.minNow()) / std::max<qint64>(1, plan.nowUnitsPerMs());
        for (const ReplaySpeed speed :
             {ReplaySpeed {ReplaySpeed::Unit::TimeFactor, 1}, ReplaySpeed::choices().last()}) {
            const int playMs = int(std::min(3000.0, 0.8 * trafficMs / speed.value));
            player->setSpeed(speed);
            player->setPosition(0);
            std::vector<qint64> shownAt;
            QElapsedTimer clock;
            const QMetaObject::Connection shown = QObject::connect(player, &RunCursor::positionChanged, &window, [&] {
                window.repaint(); // drawn now, not when the loop gets to it
                shownAt.push_back(clock.nsecsElapsed());
            });
            QTimer stop;
            stop.setSingleShot(true);
            QObject::connect(&stop, &QTimer::timeout, player, &RunCursor::pause);
            clock.start();
            player->play();
            stop.start(playMs);
            while (player->isPlaying())
                QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
            QObject::disconnect(shown);
            int dropped = 0;
            for (size_t i = 1; i < shownAt.size(); ++i)
                dropped += (shownAt[i] - shownAt[i - 1]) > 25'000'000; // a frame of 16.7 ms missed
            const QString playing = QStringLiteral("playing at %1 for %2 s").arg(speed.name()).arg(playMs / 1000.0);
            const int expected = playMs * 60 / 1000;
            out << row(playing + QStringLiteral(": frames shown") + at, QString::number(shownAt.size()),
                       QStringLiteral("~%1").arg(expected), shownAt.size() >= size_t(expected * 0.94));
            out << row(playing + QStringLiteral(": frames dropped") + at, QString::number(dropped), QStringLiteral("0"),
                       dropped == 0);
        }
    }

    // The animation of a class's burst: 200 requests, `now` members, 2 a millisecond, as a GIF
    // and as an MP4 of the run at 1600x900 (a frame per request).
    BurstPlan small = plan;
    small.requests = 200;
    small.pacing.perMs = 2;
    BurstEngine smallEngine;
    if (Bench::runBurst(smallEngine, endpoint, small).failure.isFailure())
        return 1;
    const QString smallPath = dir.filePath(QStringLiteral("small.zsetreplay"));
    window.setPictureSize(QSize(1600, 900));
    if (!ReplayFile::save(smallPath, Recording::fromEngine(smallEngine), &error)
        || !window.openReplay(smallPath, &error)) {
        out << error << Qt::endl;
        return 1;
    }
    for (const QString& format : {QStringLiteral("gif"), QStringLiteral("mp4")}) {
        AnimationJob job;
        job.path = dir.filePath(QStringLiteral("small.") + format);
        job.size = QSize(1600, 900);
        timer.restart();
        if (!window.exportAnimation(job, &error)) {
            out << error << Qt::endl;
            return 1;
        }
        const double seconds = double(timer.nsecsElapsed()) / 1e9;
        AnimationFileInfo info;
        AnimationReader::probe(job.path, &info, &error);
        out << row(format.toUpper() + QStringLiteral(" of 200 requests at 1600x900, s"),
                   QString::number(seconds, 'f', 1), QStringLiteral("<= 5"), seconds <= 5);
        out << "(" << info.frames << " frames, " << info.size.width() << "x" << info.size.height() << ", "
            << info.durationMs / 1000.0 << " s, " << QFileInfo(job.path).size() / 1024 << " KiB)\n";
    }
    out << "peak RSS " << Bench::peakRssKb() / 1024 << " MB\n";
    return 0;
}
