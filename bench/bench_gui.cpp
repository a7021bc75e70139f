// The window program's cold start to a painted, connected window, and the lesson's PDF handout;
// the window under a live burst of 1,000,000 requests, a ZSET of 1,000,000 members opened in the
// table, and the Watch panel following an app's limiter at 50,000 calls/s for 60 s. Prints: the
// start and handout times, the longest stall of the GUI event loop and the longest event, view
// refreshes per second, memory growth, and the time to the first rows of the table, each beside
// its target.
//
//   QT_QPA_PLATFORM=offscreen bench_gui [--starts N] [--handouts N] [--app PATH] [--requests N] [--members N]
//                                       [--watch-seconds S] [--watch-rate CALLS_PER_MS] [--watch-users K]
// A count or a time of 0 leaves that part out.

#include "benchsupport.h"
#include "burst/planmodel.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "mainwindow.h"
#include "redis/serversession.h"
#include "run/burstpanel.h"
#include "run/runview.h"
#include "run/zsetmodel.h"
#include "run/zsetpanel.h"
#include "watch/apptraffic.h"
#include "watch/watchpanel.h"

#include <QApplication>

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <ctime>

namespace {
// Measures how late a 5 ms timer fires: the longest time the event loop was busy elsewhere.
class StallProbe : public QObject
{
public:
    StallProbe()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(5);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            if (m_last > 0)
                m_longest = std::max(m_longest, now - m_last - 5'000'000);
            m_last = now;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_longest = 0;
        m_timer.start();
    }
    double longestMs() const { return double(m_longest) / 1e6; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_longest = 0;
};

qint64 threadCpuNs()
{
    timespec now {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// Times every event the GUI thread handles, to name what stalls it (the slowest few are printed).
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override
    {
        if (!recording)
            return QApplication::notify(receiver, event);
        QElapsedTimer clock;
        clock.start();
        const qint64 cpuBefore = threadCpuNs();
        const int type = event->type();
        const QByteArray name = receiver->metaObject()->className() + QByteArray(" ") + receiver->objectName().toUtf8();
        const bool result = QApplication::notify(receiver, event);
        const qint64 ns = clock.nsecsElapsed();
        const qint64 cpuNs = threadCpuNs() - cpuBefore;
        if (ns > longest) {
            longest = ns;
            longestCpu = cpuNs;
        }
        mostCpu = std::max(mostCpu, cpuNs);
        if (ns > 10'000'000)
            slow.emplace_back(ns,
                              name + " event " + QByteArray::number(type) + " at "
                                  + QByteArray::number(double(sinceStart.elapsed()) / 1000.0, 'f', 1) + " s");
        return result;
    }
    void startRecording()
    {
        slow.clear();
        longest = 0;
        longestCpu = 0;
        mostCpu = 0;
        sinceStart.start();
        recording = true;
    }
    void printSlowest(QTextStream& out)
    {
        std::sort(slow.begin(), slow.end(), std::greater<>());
        for (size_t i = 0; i < std::min<size_t>(5, slow.size()); ++i)
            out << "  slow event: " << QString::number(double(slow[i].first) / 1e6, 'f', 1) << " ms in "
                << slow[i].second << "\n";
    }
    bool recording = false;
    QElapsedTimer sinceStart; // when each slow event came
    // ns, of any one event (an event inside another counts in both): on the clock, the GUI thread's
    // CPU time in that event (the rest it waited for a core), and the most CPU time of any event.
    qint64 longest = 0;
    qint64 longestCpu = 0;
    qint64 mostCpu = 0;
    std::vector<std::pair<qint64, QByteArray>> slow;
};

// Runs the event loop until done() or the time is up. It sleeps while nothing happens, as the
// application's own loop does (polling it instead would keep one of the machine's two cores busy
// beside the server and the engine); a 10 ms timer wakes it to ask done().
void waitFor(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    QTimer wake;
    wake.start(10);
    while (!done() && clock.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
}

QString figureLine(const QString& name, const QString& value, const QString& target)
{
    return QStringLiteral("  %1 %2   target %3\n").arg(name, -28).arg(value, 12).arg(target);
}

int monitors(RedisConnection& redis)
{
    int count = 0;
    for (const QByteArray& client : redis.command({"CLIENT", "LIST"}).bytes().split('\n'))
        count += client.contains(" cmd=monitor ") ? 1 : 0;
    return count;
}

qint64 steadyNanos()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// 0. The window program started `runs` times as a user starts it (no settings of its own yet, a
// server given by URL): from just before the process starts to the moment it says its window is
// painted and connected (StartupReport, on the same monotonic clock), then closed with SIGTERM.
void coldStarts(const QString& program, const RedisEndpoint& endpoint, int runs, QTextStream& out)
{
    static const QRegularExpression reported(QStringLiteral("zsetlab.startup: .*steady clock (\\d+) ns"));
    std::vector<double> startMs;
    for (int run = 0; run < runs; ++run) {
        QTemporaryDir home;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("zsetlab.startup.info=true"));
        environment.insert(QStringLiteral("HOME"), home.path());
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        environment.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral("cache")));
        QProcess app;
        app.setProcessEnvironment(environment);
        const qint64 before = steadyNanos();
        app.start(program, {QStringLiteral("--redis"), endpoint.displayUrl()});
        QByteArray errors;
        qint64 readyAt = -1;
        QElapsedTimer limit;
        limit.start();
        while (readyAt < 0 && limit.elapsed() < 10000 && app.state() != QProcess::NotRunning) {
            app.waitForReadyRead(100);
            errors += app.readAllStandardError();
            if (const auto match = reported.match(QString::fromUtf8(errors)); match.hasMatch())
                readyAt = match.captured(1).toLongLong();
        }
        app.terminate(); // the window closes as the user would close it
        if (!app.waitForFinished(10000))
            app.kill();
        if (readyAt < 0) {
            out << "cold start: " << program
                << " said nothing of its start within 10 s: " << QString::fromUtf8(errors.right(400)) << Qt::endl;
            return;
        }
        startMs.push_back(double(readyAt - before) / 1e6);
    }
    if (startMs.empty())
        return;
    const double first = startMs.front();
    std::sort(startMs.begin(), startMs.end());
    out << "\ncold start of the window program, " << runs << " starts, each with no settings yet\n";
    out << figureLine(QStringLiteral("first start"), QStringLiteral("%1 ms").arg(first, 0, 'f', 0),
                      QStringLiteral("<= 500 ms"));
    out << figureLine(QStringLiteral("median start"),
                      QStringLiteral("%1 ms").arg(startMs[startMs.size() / 2], 0, 'f', 0), QStringLiteral("<= 500 ms"));
    out << figureLine(QStringLiteral("slowest start"), QStringLiteral("%1 ms").arg(startMs.back(), 0, 'f', 0),
                      QStringLiteral("<= 500 ms"));
    out.flush();
}

// 0b. The lesson's printable handout, as a teacher makes it the day before: every step run against
// the server, then the PDF written (zsetlab --lesson all --export-pdf), `runs` times.
void handoutExports(const QString& program, const RedisEndpoint& endpoint, int runs, QTextStream& out)
{
    std::vector<double> seconds;
    for (int run = 0; run < runs; ++run) {
        QTemporaryDir home;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        environment.insert(QStringLiteral("HOME"), home.path());
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        const QString pdf = home.filePath(QStringLiteral("handout.pdf"));
        QProcess app;
        app.setProcessEnvironment(environment);
        QElapsedTimer clock;
        clock.start();
        app.start(program,
                  {QStringLiteral("--lesson"), QStringLiteral("all"), QStringLiteral("--export-pdf"), pdf,
                   QStringLiteral("--lang"), QStringLiteral("en"), QStringLiteral("--redis"), endpoint.displayUrl()});
        if (!app.waitForFinished(60000)) {
            app.kill();
            app.waitForFinished(10000);
        }
        const double took = double(clock.nsecsElapsed()) / 1e9;
        if (app.exitStatus() != QProcess::NormalExit || app.exitCode() != 0 || QFileInfo(pdf).size() == 0) {
            out << "handout: " << program << " did not write it (exit " << app.exitCode()
                << "): " << QString::fromUtf8(app.readAllStandardError().right(400)) << Qt::endl;
            return;
        }
        seconds.push_back(took);
    }
    if (seconds.empty())
        return;
    std::sort(seconds.begin(), seconds.end());
    out << "\nthe lesson's handout (--lesson all --export-pdf, its 10 steps run on the server), " << runs << " runs\n";
    out << figureLine(QStringLiteral("median"), QStringLiteral("%1 s").arg(seconds[seconds.size() / 2], 0, 'f', 2),
                      QStringLiteral("<= 3 s"));
    out << figureLine(QStringLiteral("slowest"), QStringLiteral("%1 s").arg(seconds.back(), 0, 'f', 2),
                      QStringLiteral("<= 3 s"));
    out.flush();
}

// 3. The Watch panel follows an app's limiter (lua/now.lua over `users` keys, called by AppTraffic
// on a thread of its own, as an app server beside the window would) while the window draws.
void watchAnApp(TimedApplication& app, MainWindow& window, const RedisEndpoint& endpoint, int seconds, double perMs,
                int users, QTextStream& out)
{
    WatchPanel* panel = window.watchPanel();
    panel->setConfirm([](const QString&) { return true; }); // the window reached the server by its URL
    window.showWatch();
    // Longer than the traffic: the watch is stopped when the traffic ends (bounded either way).
    panel->findChild<QSpinBox*>(QStringLiteral("WatchDuration"))->setValue(seconds + 60);
    RedisConnection redis;
    if (!redis.open(endpoint)) {
        out << "watch: " << redis.lastError().message << Qt::endl;
        return;
    }
    const qint64 rssBefore = Bench::rssKb();
    Bench::resetPeakRss();
    StallProbe probe;
    probe.start();
    app.startRecording();
    if (!panel->start()) {
        out << "watch: " << panel->statusText() << Qt::endl;
        return;
    }
    waitFor([&] { return monitors(redis) > 0; }, 10000); // MONITOR is on before the first call
    AppPlan plan;
    plan.limiter = QStringLiteral("now");
    plan.users = users;
    plan.perMs = perMs;
    plan.durationMs = qint64(seconds) * 1000;
    AppTraffic traffic;
    bool trafficDone = false;
    AppResult result;
    QObject::connect(&traffic, &AppTraffic::finished, &app, [&](const AppResult& finished) {
        result = finished;
        trafficDone = true;
    });
    if (!traffic.start(endpoint, plan)) {
        out << "watch: " << traffic.planError() << Qt::endl;
        panel->stop();
        waitFor([&] { return !panel->isWatching(); }, 10000);
        return;
    }
    QElapsedTimer clock;
    clock.start();
    QStringList rssSteps;
    qint64 nextStepMs = 10000;
    waitFor(
        [&] {
            if (clock.elapsed() >= nextStepMs) {
                rssSteps << QStringLiteral("%1 s: %2")
                                .arg(nextStepMs / 1000)
                                .arg(double(Bench::rssKb()) / 1024.0, 0, 'f', 0);
                nextStepMs += 10000;
            }
            return trafficDone;
        },
        (seconds + 120) * 1000);
    const qint64 watchedRequests = panel->latest().requests();
    panel->stop();
    waitFor([&] { return !panel->isWatching(); }, 10000);
    app.recording = false;
    const double stall = probe.longestMs();
    const qint64 rssPeak = Bench::peakRssKb();
    const qint64 rssAfter = Bench::rssKb();
    const WatchSnapshot& seen = panel->latest();

    const double trafficSeconds = double(std::max<qint64>(1, result.elapsedMs)) / 1000.0;
    out << "\nwatch: " << result.requests() << " calls of lua/now.lua over " << users << " keys in "
        << QString::number(trafficSeconds, 'f', 1)
        << " s: " << QString::number(double(result.requests()) / trafficSeconds, 'f', 0) << " calls/s achieved (asked "
        << QString::number(perMs * 1000.0, 'f', 0) << "/s"
        << (result.late ? QStringLiteral(", the server could not take the rate") : QString())
        << (result.failure.isFailure() ? QStringLiteral(", failed: ") + result.failure.message : QString()) << ")\n";
    out << "  the watch counted " << seen.requests() << " requests (" << watchedRequests
        << " when the traffic ended) in " << seen.commandsSeen << " MONITOR lines, " << seen.keys.size() << " keys\n";
    out << figureLine(QStringLiteral("longest event-loop stall"), QStringLiteral("%1 ms").arg(stall, 0, 'f', 1),
                      QStringLiteral("<= 16 ms"));
    out << figureLine(QStringLiteral("longest event"),
                      QStringLiteral("%1 ms").arg(double(app.longest) / 1e6, 0, 'f', 1), QStringLiteral("<= 16 ms"));
    out << QStringLiteral("  %1 %2   (the rest of it the thread waited for a core)\n")
               .arg(QStringLiteral("  of which GUI-thread CPU"), -28)
               .arg(QStringLiteral("%1 ms").arg(double(app.longestCpu) / 1e6, 0, 'f', 1), 12);
    out << figureLine(QStringLiteral("most CPU in one event"),
                      QStringLiteral("%1 ms").arg(double(app.mostCpu) / 1e6, 0, 'f', 1), QStringLiteral("<= 16 ms"));
    out << figureLine(QStringLiteral("memory growth (peak RSS)"),
                      QStringLiteral("%1 MiB").arg(double(rssPeak - rssBefore) / 1024.0, 0, 'f', 1),
                      QStringLiteral("bounded"));
    out << "  RSS (MiB): before " << QString::number(double(rssBefore) / 1024.0, 'f', 0) << ", "
        << rssSteps.join(QStringLiteral(", ")) << (rssSteps.isEmpty() ? "" : ", ") << "after "
        << QString::number(double(rssAfter) / 1024.0, 'f', 0) << "\n";
    app.printSlowest(out);
    out.flush();
}
} // namespace

int main(int argc, char* argv[])
{
    TimedApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("zsetlab-bench"));
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption requestsOption(QStringLiteral("requests"), QStringLiteral("Requests of the live burst."),
                                            QStringLiteral("N"), QStringLiteral("1000000"));
    const QCommandLineOption membersOption(QStringLiteral("members"), QStringLiteral("Members of the ZSET to open."),
                                           QStringLiteral("N"), QStringLiteral("1000000"));
    const QCommandLineOption watchSecondsOption(QStringLiteral("watch-seconds"),
                                                QStringLiteral("Seconds of app traffic the Watch panel follows."),
                                                QStringLiteral("S"), QStringLiteral("60"));
    const QCommandLineOption watchRateOption(QStringLiteral("watch-rate"),
                                             QStringLiteral("The app's limiter calls per ms (50: 50,000/s)."),
                                             QStringLiteral("N"), QStringLiteral("50"));
    const QCommandLineOption watchUsersOption(QStringLiteral("watch-users"),
                                              QStringLiteral("The app's users, one limiter key each."),
                                              QStringLiteral("K"), QStringLiteral("100"));
    const QCommandLineOption startsOption(QStringLiteral("starts"),
                                          QStringLiteral("Cold starts of the window program to time."),
                                          QStringLiteral("N"), QStringLiteral("5"));
    const QCommandLineOption appOption(QStringLiteral("app"),
                                       QStringLiteral("The window program (default: app/zsetlab of this build)."),
                                       QStringLiteral("PATH"));
    const QCommandLineOption handoutsOption(QStringLiteral("handouts"),
                                            QStringLiteral("Times the lesson's PDF handout is made."),
                                            QStringLiteral("N"), QStringLiteral("3"));
    parser.addOptions({startsOption, handoutsOption, appOption, requestsOption, membersOption, watchSecondsOption,
                       watchRateOption, watchUsersOption});
    parser.process(app);
    QTextStream out(stdout);

    PrivateRedisServer server;
    if (!server.start()) {
        out << server.errorString() << Qt::endl;
        return 3;
    }
    MainWindow window;
    window.resize(1600, 900);
    window.show();
    RedisServerChoice::Request request;
    request.url = server.endpoint().displayUrl();
    window.connectToServer(request);
    waitFor([&] { return window.session()->isUsable(); }, 10000);

    out << "zsetlab window (offscreen, 1600x900), Redis " << window.session()->server().version << Qt::endl;

    // 0. Cold starts and the handout, while this process is still small and the machine idle.
    const QString program = parser.isSet(appOption)
        ? parser.value(appOption)
        : QCoreApplication::applicationDirPath() + QStringLiteral("/../app/zsetlab");
    if (const int starts = std::clamp(parser.value(startsOption).toInt(), 0, 50); starts > 0)
        coldStarts(program, server.endpoint(), starts, out);
    if (const int handouts = std::clamp(parser.value(handoutsOption).toInt(), 0, 20); handouts > 0)
        handoutExports(program, server.endpoint(), handouts, out);

    // 1. A live burst.
    if (const int requests = parser.value(requestsOption).toInt(); requests > 0) {
        BurstPlan plan;
        plan.limiter = LimiterCatalog::builtin("request-id");
        plan.clock = ClockKind::Schedule;
        plan.requests = requests;
        plan.limit = 100;
        plan.windowMs = 1000;
        QString error;
        Pacing::parse(QStringLiteral("poisson:20"), &plan.pacing, &error);
        window.planModel()->edit([&plan](ExperimentPlan& experiment) {
            experiment.burst = plan;
            experiment.compare = false;
        });
        const qint64 rssBefore = Bench::rssKb();
        Bench::resetPeakRss();
        StallProbe probe;
        probe.start();
        app.startRecording();
        QElapsedTimer clock;
        clock.start();
        bool finished = false;
        QObject::connect(window.experiment(), &LimiterExperiment::allFinished, &app, [&] { finished = true; });
        window.fire();
        waitFor([&] { return finished; }, 600000);
        const double seconds = double(clock.elapsed()) / 1000.0;
        app.recording = false;
        const double stall = probe.longestMs();
        const int refreshes = window.runView(LimiterExperiment::Left)->refreshes();
        const qint64 rssPeak = Bench::peakRssKb();
        const BurstSummary summary = window.experiment()->engine(LimiterExperiment::Left).summary();

        out << "\nlive burst: " << summary.sent
            << " requests (request-id, schedule clock: sent as fast as Redis answers) in "
            << QString::number(seconds, 'f', 1) << " s, " << QString::number(summary.throughputRps, 'f', 0)
            << " requests/s\n";
        // The targets of a 60 Hz display: no event longer than a frame, a refresh at least every 33 ms.
        out << figureLine(QStringLiteral("longest event-loop stall"), QStringLiteral("%1 ms").arg(stall, 0, 'f', 1),
                          QStringLiteral("<= 16 ms"));
        out << figureLine(QStringLiteral("view refreshes per second"), QString::number(refreshes / seconds, 'f', 1),
                          QStringLiteral(">= 30"));
        out << figureLine(QStringLiteral("memory growth (peak RSS)"),
                          QStringLiteral("%1 MiB").arg(double(rssPeak - rssBefore) / 1024.0, 0, 'f', 1),
                          QStringLiteral("<= 100 MiB"));
        app.printSlowest(out);
        out.flush();
        window.reset();
    }

    // 2. Opening a ZSET of a million members.
    if (const int members = parser.value(membersOption).toInt(); members > 0) {
        RedisConnection redis;
        redis.open(server.endpoint());
        const QByteArray key = ZsetKeys::userKey(QStringLiteral("bench:million"));
        redis.command({"DEL", key});
        for (int first = 0; first < members; first += 10000) {
            RedisArgs add {"ZADD", key};
            for (int i = first; i < std::min(members, first + 10000); ++i)
                add << QByteArray::number(1710000000000LL + i / 8) << "member-" + QByteArray::number(i);
            redis.command(add);
        }
        ZsetPanel* panel = window.zsetPanel();
        ZsetModel* model = panel->model();
        panel->clear();
        waitFor([] { return false; }, 200);
        QElapsedTimer clock;
        clock.start();
        panel->showKey(key, nullptr, QStringLiteral("bench"));
        waitFor(
            [&] {
                return model->rowCount() > 0
                    && model->index(0, ZsetModel::MemberColumn).data().toString() != QStringLiteral("…");
            },
            10000);
        const double firstRowsMs = double(clock.nsecsElapsed()) / 1e6;
        out << "\nZSET of " << model->rowCount() << " members opened in the table\n";
        out << figureLine(QStringLiteral("time to the first rows"), QStringLiteral("%1 ms").arg(firstRowsMs, 0, 'f', 1),
                          QStringLiteral("<= 300 ms"));
        clock.restart();
        panel->view()->scrollToBottom();
        waitFor(
            [&] {
                return model->index(model->rowCount() - 1, ZsetModel::MemberColumn).data().toString()
                    != QStringLiteral("…");
            },
            10000);
        out << QStringLiteral("  %1 %2\n")
                   .arg(QStringLiteral("jump to the last rows"), -28)
                   .arg(QStringLiteral("%1 ms").arg(double(clock.nsecsElapsed()) / 1e6, 0, 'f', 1), 12);
        redis.command({"DEL", key});
        out.flush();
    }

    // 3. Watching an app's limiter.
    if (const int seconds = std::clamp(parser.value(watchSecondsOption).toInt(), 0, 600); seconds > 0)
        watchAnApp(app, window, server.endpoint(), seconds,
                   std::clamp(parser.value(watchRateOption).toDouble(), 0.1, 1000.0),
                   std::clamp(parser.value(watchUsersOption).toInt(), 1, AppPlan::maxUsers), out);
    return 0;
}
