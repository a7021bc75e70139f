// A replay's web page beside the figures it must meet (issue "Docs you can play"): a page of a
// 10,000-request run under 2 MB, a page of a 1,000,000-request run open in a browser in under
// 3 s. The runs are real (fired at a private redis-server, or --redis URL); the pages are written
// by the exporter zsetlab-cli and the window use, then opened in headless Chromium with the
// network refused (web_open_time.py, Selenium), from the start of navigation to the page's
// 'zsetlab-ready' mark (data unpacked, page drawn).
//
//   bench_web [--requests 10000,1000000] [--strategies now,request-id] [--openings 3] [--redis URL]

#include "benchsupport.h"
#include "limiters/limitercatalog.h"
#include "replay/recording.h"
#include "web/webpage.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QProcess>
#include <QTemporaryDir>
#include <QTextStream>

#include <algorithm>
#include <map>

namespace {
QString row(const QString& figure, const QString& measured, const QString& target, const QString& verdict)
{
    return QStringLiteral("%1 %2 %3 %4\n").arg(figure, -62).arg(measured, 14).arg(target, 10).arg(verdict);
}

QString verdict(bool met)
{
    return met ? QStringLiteral("met") : QStringLiteral("MISSED");
}

double percentile(std::vector<double> values, double percent)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[size_t(std::lround(percent / 100 * double(values.size() - 1)))];
}

// The bug at scale, as bench_replay fires it: Poisson arrivals of 50 per ms on the schedule's
// clock (sent as fast as they go), a 1 s window and a limit of 100.
BurstPlan planOf(const QString& strategy, int requests)
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin(strategy);
    plan.requests = requests;
    plan.connections = 1;
    plan.pipeline = 64;
    plan.pacing.kind = Pacing::Kind::Poisson;
    plan.pacing.perMs = 50;
    plan.clock = ClockKind::Schedule;
    plan.windowMs = 1000;
    plan.limit = 100;
    plan.seed = 11;
    return plan;
}

std::vector<double> numbers(const QJsonValue& list)
{
    std::vector<double> out;
    for (const auto& v : list.toArray())
        out.push_back(v.toDouble());
    return out;
}
} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("zsetlab replays as web pages: size and opening in Chromium."));
    parser.addHelpOption();
    const QCommandLineOption requestsOption(QStringLiteral("requests"), QStringLiteral("Runs' sizes, comma-separated."),
                                            QStringLiteral("N,M"), QStringLiteral("10000,1000000"));
    const QCommandLineOption strategiesOption(QStringLiteral("strategies"),
                                              QStringLiteral("Limiters, comma-separated."), QStringLiteral("IDS"),
                                              QStringLiteral("now,request-id"));
    const QCommandLineOption openingsOption(QStringLiteral("openings"), QStringLiteral("Openings of each page."),
                                            QStringLiteral("K"), QStringLiteral("3"));
    const QCommandLineOption redisOption(QStringLiteral("redis"), QStringLiteral("Redis URL (default: private)."),
                                         QStringLiteral("URL"));
    parser.addOptions({requestsOption, strategiesOption, openingsOption, redisOption});
    parser.process(app);
    QTextStream out(stdout);

    PrivateRedisServer privateServer;
    RedisEndpoint endpoint;
    if (const int code = Bench::chooseServer(parser.value(redisOption), &privateServer, &endpoint, out))
        return code;
    QTemporaryDir dir;
    struct Page
    {
        QString strategy;
        int requests = 0;
        QString path;
        double exportMs = 0;
        qint64 bytes = 0;
    };
    std::vector<Page> pages;
    for (const QString& strategy : parser.value(strategiesOption).split(QLatin1Char(','))) {
        if (!LimiterCatalog::builtin(strategy)) {
            out << "no limiter " << strategy << Qt::endl;
            return 2;
        }
        for (const QString& count : parser.value(requestsOption).split(QLatin1Char(','))) {
            const int requests = std::clamp(count.toInt(), 1, BurstPlan::maxRequests);
            BurstEngine engine;
            QElapsedTimer timer;
            timer.start();
            const BurstSummary summary = Bench::runBurst(engine, endpoint, planOf(strategy, requests));
            if (summary.failure.isFailure()) {
                out << "the run failed: " << summary.failure.message << Qt::endl;
                return 1;
            }
            out << strategy << ", " << requests << " requests fired in " << timer.elapsed() << " ms (Redis "
                << summary.serverVersion << ")" << Qt::endl;
            const Recording recording = Recording::fromEngine(engine);
            Page page {strategy, requests, dir.filePath(QStringLiteral("%1-%2.html").arg(strategy).arg(requests))};
            QString error;
            timer.restart();
            if (!WebPage::write(page.path, {{&recording, {}}}, {}, &error)) {
                out << error << Qt::endl;
                return 1;
            }
            page.exportMs = double(timer.nsecsElapsed()) / 1e6;
            page.bytes = QFileInfo(page.path).size();
            pages.push_back(page);
        }
    }

    QStringList arguments {QCoreApplication::applicationDirPath() + QStringLiteral("/web_open_time.py"),
                           QStringLiteral("--openings"), parser.value(openingsOption)};
    for (const Page& page : pages)
        arguments << page.path;
    QProcess browser;
    browser.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    browser.start(QStringLiteral("/usr/bin/python3"), arguments);
    if (!browser.waitForFinished(30 * 60 * 1000)) {
        out << "Chromium did not finish: " << browser.errorString() << Qt::endl;
        return 1;
    }
    std::map<QString, QJsonObject> opened;
    for (const QByteArray& line : browser.readAllStandardOutput().split('\n')) {
        const QJsonObject result = QJsonDocument::fromJson(line).object();
        if (result.contains(QLatin1String("error"))) {
            out << "Chromium: " << result.value(QLatin1String("error")).toString() << Qt::endl;
            return 1;
        }
        opened[result.value(QLatin1String("page")).toString()] = result;
    }

    out << '\n'
        << row(QStringLiteral("figure"), QStringLiteral("measured"), QStringLiteral("target"),
               QStringLiteral("verdict"));
    for (const Page& page : pages) {
        const QJsonObject result = opened[page.path];
        const QString name
            = QStringLiteral("%1, %2 requests: ").arg(page.strategy, QLocale::c().toString(page.requests));
        const double megabytes = double(page.bytes) / 1e6;
        const bool small = page.requests <= 10000;
        out << row(name + QStringLiteral("page size, MB"), QString::number(megabytes, 'f', 2),
                   small ? QStringLiteral("< 2") : QStringLiteral("-"), small ? verdict(megabytes < 2) : QString());
        out << row(name + QStringLiteral("export, ms"), QString::number(page.exportMs, 'f', 0), QStringLiteral("-"),
                   QString());
        const double openMs = Bench::median(numbers(result.value(QLatin1String("open_ms"))));
        const bool large = page.requests >= 1000000;
        out << row(name + QStringLiteral("open in Chromium, ms (median)"), QString::number(openMs, 'f', 0),
                   large ? QStringLiteral("< 3000") : QStringLiteral("-"), large ? verdict(openMs < 3000) : QString());
        const std::vector<double> seeks = numbers(result.value(QLatin1String("seek_ms")));
        out << row(
            name + QStringLiteral("seek + page drawn, p50 / p99 ms"),
            QStringLiteral("%1 / %2").arg(percentile(seeks, 50), 0, 'f', 1).arg(percentile(seeks, 99), 0, 'f', 1),
            QStringLiteral("-"), QString());
        const int reached = int(result.value(QLatin1String("network")).toArray().size());
        const int errors = int(result.value(QLatin1String("console_errors")).toArray().size());
        out << row(name + QStringLiteral("network requests / console errors"),
                   QStringLiteral("%1 / %2").arg(reached).arg(errors), QStringLiteral("0 / 0"),
                   verdict(reached == 0 && errors == 0));
    }
    out << "(Chromium " << QStringLiteral("headless, network refused; opening: navigation start to the page drawn")
        << ")" << Qt::endl;
    return 0;
}
