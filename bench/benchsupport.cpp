#include "benchsupport.h"

#include "limiters/limitercatalog.h"

#include <QEventLoop>
#include <QFile>

#include <algorithm>

namespace {
qint64 statusField(const char* name)
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith(name))
            return line.mid(static_cast<int>(qstrlen(name))).trimmed().split(' ').value(0).toLongLong();
    }
    return -1;
}
} // namespace

namespace Bench {
qint64 peakRssKb()
{
    return statusField("VmHWM:");
}

qint64 rssKb()
{
    return statusField("VmRSS:");
}

void resetPeakRss()
{
    QFile clearRefs(QStringLiteral("/proc/self/clear_refs"));
    if (clearRefs.open(QIODevice::WriteOnly))
        clearRefs.write("5"); // resets VmHWM to the current RSS (Linux 4.0+)
}

int chooseServer(const QString& url, PrivateRedisServer* privateServer, RedisEndpoint* endpoint, QTextStream& out)
{
    if (!url.isEmpty()) {
        QString error;
        if (RedisEndpoint::parse(url, endpoint, &error))
            return 0;
        out << error << Qt::endl;
        return 2;
    }
    if (!privateServer->start()) {
        out << privateServer->errorString() << Qt::endl;
        return 3;
    }
    // A private server started with PrivateTls is measured over its TLS port.
    *endpoint = privateServer->tlsPort() ? privateServer->tlsEndpoint() : privateServer->endpoint();
    return 0;
}

BurstPlan requestIdPlan(int requests, int connections, int pipeline)
{
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("request-id");
    plan.clock = ClockKind::Frozen;
    plan.requests = requests;
    plan.connections = connections;
    plan.pipeline = pipeline;
    plan.windowMs = 60000;
    return plan;
}

BurstSummary runBurst(BurstEngine& engine, const RedisEndpoint& endpoint, const BurstPlan& plan)
{
    BurstSummary summary;
    QEventLoop loop;
    QObject::connect(&engine, &BurstEngine::finished, &loop, [&](const BurstSummary& result) {
        summary = result;
        loop.quit();
    });
    if (!engine.start(endpoint, plan)) {
        summary.failure = {BurstFailure::Kind::Plan, engine.planError(), 0};
        return summary;
    }
    loop.exec();
    return summary;
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}
} // namespace Bench
