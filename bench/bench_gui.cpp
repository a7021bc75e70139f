// The window under a live burst of 1,000,000 requests, and a ZSET of 1,000,000 members opened in
// the table. Prints: the longest stall of the GUI event loop, view refreshes per second, memory
// growth, and the time to the first rows of the table, each beside its target.
//
//   QT_QPA_PLATFORM=offscreen bench_gui [--requests N] [--members N]

#include "benchsupport.h"
#include "burstpanel.h"
#include "limitercatalog.h"
#include "mainwindow.h"
#include "planmodel.h"
#include "runview.h"
#include "serversession.h"
#include "zsetkeys.h"
#include "zsetmodel.h"
#include "zsetpanel.h"

#include <QApplication>

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTableView>
#include <QTextStream>
#include <QTimer>
#include <algorithm>

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
        const int type = event->type();
        const QByteArray name = receiver->metaObject()->className() + QByteArray(" ") + receiver->objectName().toUtf8();
        const bool result = QApplication::notify(receiver, event);
        const qint64 ns = clock.nsecsElapsed();
        if (ns > 15'000'000)
            slow.push_back({ns, name + " event " + QByteArray::number(type)});
        return result;
    }
    bool recording = false;
    std::vector<std::pair<qint64, QByteArray>> slow;
};

void waitFor(const std::function<bool()>& done, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (!done() && clock.elapsed() < timeoutMs)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
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
    parser.addOptions({requestsOption, membersOption});
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

    // 1. A live burst.
    const int requests = parser.value(requestsOption).toInt();
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
    app.recording = true;
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

    out << "zsetlab window (offscreen, 1600x900), Redis " << window.session()->server().version << "\n\n";
    out << "live burst: " << summary.sent << " requests (request-id, schedule clock: sent as fast as Redis answers) in "
        << QString::number(seconds, 'f', 1) << " s, " << QString::number(summary.throughputRps, 'f', 0)
        << " requests/s\n";
    out << QStringLiteral("  %1 %2   target %3\n")
               .arg(QStringLiteral("longest event-loop stall"), -28)
               .arg(QStringLiteral("%1 ms").arg(stall, 0, 'f', 1), 12)
               .arg(QStringLiteral("<= 50 ms"));
    out << QStringLiteral("  %1 %2   target %3\n")
               .arg(QStringLiteral("view refreshes per second"), -28)
               .arg(QString::number(refreshes / seconds, 'f', 1), 12)
               .arg(QStringLiteral(">= 20"));
    out << QStringLiteral("  %1 %2   target %3\n")
               .arg(QStringLiteral("memory growth (peak RSS)"), -28)
               .arg(QStringLiteral("%1 MiB").arg(double(rssPeak - rssBefore) / 1024.0, 0, 'f', 1), 12)
               .arg(QStringLiteral("<= 200 MB"));
    std::sort(app.slow.begin(), app.slow.end(), std::greater<>());
    for (size_t i = 0; i < std::min<size_t>(5, app.slow.size()); ++i)
        out << "  slow event: " << QString::number(double(app.slow[i].first) / 1e6, 'f', 1) << " ms in "
            << app.slow[i].second << "\n";
    out.flush();
    window.reset();

    // 2. Opening a ZSET of a million members.
    const int members = parser.value(membersOption).toInt();
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
    clock.restart();
    panel->showKey(key, nullptr, QStringLiteral("bench"));
    waitFor(
        [&] {
            return model->rowCount() > 0
                && model->index(0, ZsetModel::MemberColumn).data().toString() != QStringLiteral("…");
        },
        10000);
    const double firstRowsMs = double(clock.nsecsElapsed()) / 1e6;
    out << "\nZSET of " << model->rowCount() << " members opened in the table\n";
    out << QStringLiteral("  %1 %2   target %3\n")
               .arg(QStringLiteral("time to the first rows"), -28)
               .arg(QStringLiteral("%1 ms").arg(firstRowsMs, 0, 'f', 1), 12)
               .arg(QStringLiteral("<= 300 ms"));
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
    return 0;
}
