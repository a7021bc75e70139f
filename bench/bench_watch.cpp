// How fast a watch reads MONITOR, and what its shadow keeps.
//
// (a) Lines per second on one core: MonitorLine::parse, and parse + WatchShadow::feed, over a
//     MONITOR stream recorded from a private redis-server (`redis-cli monitor > file` while a
//     burst of EVALSHA calls of lua/now.lua runs), side by side with `redis-cli monitor` reading
//     the same live stream into grep, which ends at a marker sent after the burst: the time it
//     takes redis-cli to drain the burst's lines. The goal is the server's own MONITOR output at
//     100,000 EVALSHA/s with four inner lines each: 500,000 lines/s.
// (b) Memory: RSS after a shadow replayed --seconds of a 50,000 calls/s stream as fast as it can
//     (lines made in Redis 7's format, member = now and member = a request id); trims drop the
//     members that leave the window, so what it keeps is bounded by the window, not the stream.
//
//   bench_watch [--calls N] [--seconds S] [--keep-recording FILE]
//   bench_watch --replay FILE    (only (a)'s replay, of a file from `redis-cli monitor > FILE`: for a profiler)

#include "benchsupport.h"
#include "limiters/limitercatalog.h"
#include "limiters/zsetkeys.h"
#include "redis/privateredisserver.h"
#include "redis/redisconnection.h"
#include "watch/monitorline.h"
#include "watch/watchshadow.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>

#include <algorithm>

namespace {
constexpr qint64 baseNowMs = 1796103280000;
constexpr qint64 windowMs = 1000;
constexpr int users = 100; // keys of the recorded burst
constexpr int streamKeys = 10; // keys of the memory stream: 5 calls per ms each
constexpr char marker[] = "zsetlab-bench-watch-end";

int monitors(RedisConnection& redis)
{
    // CLIENT LIST TYPE knows no "monitor": a monitor is a client whose flags hold O.
    int count = 0;
    for (const QByteArray& client : redis.command({"CLIENT", "LIST"}).bytes().split('\n'))
        count += client.contains(" cmd=monitor ") ? 1 : 0;
    return count;
}

// Sends `calls` EVALSHA calls of lua/now.lua, 64 at a time, 100 per millisecond of `now`.
bool burst(RedisConnection& redis, const QByteArray& runKey, int calls, QTextStream& out)
{
    const LimiterRef now = LimiterCatalog::builtin("now");
    if (redis.command({"SCRIPT", "LOAD", now->script.source()}).bytes() != now->script.sha1()) {
        out << "cannot load lua/now.lua" << Qt::endl;
        return false;
    }
    for (int next = 0; next < calls;) {
        const int last = std::min(next + 64, calls);
        for (int i = next; i < last; ++i) {
            CallValues values;
            values.key = runKey + ":u" + QByteArray::number(i % users);
            values.nowMicros = (baseNowMs + i / 100) * 1000;
            values.windowMs = windowMs;
            redis.append(now->evalsha(values));
        }
        for (int i = next; i < last; ++i) {
            if (redis.readReply().isConnectionLost()) {
                out << "the server stopped answering" << Qt::endl;
                return false;
            }
        }
        next = last;
    }
    redis.command({"ECHO", marker});
    return true;
}

// Waits (bounded) until the file's end holds the marker: redis-cli has written every line.
bool waitForMarker(const QString& path, int timeoutMs)
{
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly) && file.size() > 0) {
            file.seek(std::max<qint64>(0, file.size() - 4096));
            if (file.readAll().contains(marker))
                return true;
        }
        QThread::msleep(20); // polling a file another process writes; bounded by timeoutMs
    }
    return false;
}

// The MONITOR lines of a file written by `redis-cli monitor > FILE`.
QList<QByteArray> readRecording(const QString& path, qint64* bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    *bytes = file.size();
    QList<QByteArray> lines = file.readAll().split('\n');
    lines.removeAll(QByteArray());
    if (!lines.isEmpty() && lines.first() == "OK")
        lines.removeFirst();
    return lines;
}

struct Rate
{
    double parseOnly = 0;
    double parseAndFeed = 0;
};

// Lines per second over the recorded lines, best of a few rounds (at least ~1 s of work each way).
Rate replay(const QList<QByteArray>& lines)
{
    Rate best;
    for (int round = 0; round < 3; ++round) {
        QElapsedTimer clock;
        clock.start();
        qint64 parsed = 0;
        MonitorLine line;
        for (const QByteArray& raw : lines)
            parsed += MonitorLine::parse(raw, &line) ? 1 : 0;
        best.parseOnly = std::max(best.parseOnly, double(lines.size()) * 1e9 / double(clock.nsecsElapsed()));

        WatchShadow shadow({KeyPattern("zsetlab:*")});
        clock.restart();
        for (const QByteArray& raw : lines)
            shadow.feed(raw);
        shadow.snapshot();
        best.parseAndFeed = std::max(best.parseAndFeed, double(lines.size()) * 1e9 / double(clock.nsecsElapsed()));
        Q_UNUSED(parsed);
    }
    return best;
}

// The five lines of one call of lua/now.lua (or of a unique-member script) as Redis 7 writes them.
void makeCall(QByteArray* out, qint64 timeUs, int user, qint64 nowMs, qint64 id, bool unique)
{
    const QByteArray stamp
        = QByteArray::number(timeUs / 1000000) + '.' + QByteArray::number(timeUs % 1000000).rightJustified(6, '0');
    const QByteArray key = "\"rl:user" + QByteArray::number(user) + '"';
    const QByteArray now = '"' + QByteArray::number(nowMs) + '"';
    const QByteArray member = unique ? "\"req-" + QByteArray::number(id) + '"' : now;
    out->clear();
    *out += stamp + " [0 unix:/tmp/app.sock] \"EVALSHA\" \"15be1f0fe0ac9b6b0dd7d4dcaa94c4ae63a0a2b9\" \"1\" " + key
        + ' ' + now + " \"1000\" \"0\" " + member + '\n';
    *out
        += stamp + " [0 lua] \"ZREMRANGEBYSCORE\" " + key + " \"0\" \"" + QByteArray::number(nowMs - windowMs) + "\"\n";
    *out += stamp + " [0 lua] \"ZADD\" " + key + ' ' + now + ' ' + member + '\n';
    *out += stamp + " [0 lua] \"ZCARD\" " + key + '\n';
    *out += stamp + " [0 lua] \"EXPIRE\" " + key + " \"1000\"\n";
}

// RSS after replaying `seconds` of a 50,000 calls/s stream over `users` keys, snapshots every 250 ms
// of the stream as a watch takes them.
void memoryOfStream(int seconds, bool unique, QTextStream& out)
{
    const qint64 before = Bench::rssKb();
    Bench::resetPeakRss();
    QElapsedTimer clock;
    clock.start();
    WatchShadow shadow({KeyPattern("rl:*")});
    const qint64 calls = qint64(seconds) * 50000;
    QByteArray lines;
    qint64 members = 0;
    for (qint64 i = 0; i < calls; ++i) {
        const qint64 timeUs = baseNowMs * 1000 + i * 20; // one call every 20 µs
        makeCall(&lines, timeUs, int(i % streamKeys), timeUs / 1000, i, unique);
        for (const QByteArray& line : lines.split('\n')) {
            if (!line.isEmpty())
                shadow.feed(line);
        }
        if (i % 12500 == 12499) {
            members = 0;
            for (const WatchedKey& key : shadow.snapshot().keys)
                members += key.size;
        }
    }
    const double elapsed = double(clock.elapsed()) / 1000.0;
    out << QStringLiteral("  member = %1: %2 calls (%3 lines) in %4 s; RSS %5 MB -> %6 MB (peak %7 MB), %8 members "
                          "in the shadows at the end")
               .arg(unique ? QStringLiteral("request id") : QStringLiteral("now        "))
               .arg(calls)
               .arg(calls * 5)
               .arg(elapsed, 0, 'f', 1)
               .arg(double(before) / 1024.0, 0, 'f', 1)
               .arg(double(Bench::rssKb()) / 1024.0, 0, 'f', 1)
               .arg(double(Bench::peakRssKb()) / 1024.0, 0, 'f', 1)
               .arg(members)
        << Qt::endl;
}
} // namespace

int main(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("zsetlab watch: MONITOR lines per second, and shadow memory."));
    parser.addHelpOption();
    const QCommandLineOption callsOption(QStringLiteral("calls"), QStringLiteral("EVALSHA calls recorded (200000)."),
                                         QStringLiteral("N"), QStringLiteral("200000"));
    const QCommandLineOption secondsOption(QStringLiteral("seconds"),
                                           QStringLiteral("Seconds of a 50,000 calls/s stream for memory (60)."),
                                           QStringLiteral("S"), QStringLiteral("60"));
    const QCommandLineOption keepOption(QStringLiteral("keep-recording"),
                                        QStringLiteral("Copy the recorded MONITOR stream to FILE."),
                                        QStringLiteral("FILE"));
    const QCommandLineOption replayOption(
        QStringLiteral("replay"), QStringLiteral("Only replay FILE (from redis-cli monitor > FILE): no server."),
        QStringLiteral("FILE"));
    parser.addOptions({callsOption, secondsOption, keepOption, replayOption});
    parser.process(app);
    const int calls = std::clamp(parser.value(callsOption).toInt(), 1000, 2'000'000);
    const int seconds = std::clamp(parser.value(secondsOption).toInt(), 1, 600);

    if (parser.isSet(replayOption)) {
        qint64 bytes = 0;
        const QList<QByteArray> lines = readRecording(parser.value(replayOption), &bytes);
        if (lines.isEmpty()) {
            out << "no MONITOR lines in " << parser.value(replayOption) << Qt::endl;
            return 2;
        }
        const Rate rate = replay(lines);
        out << QStringLiteral("replayed %1 lines (%2 MB)").arg(lines.size()).arg(double(bytes) / 1048576.0, 0, 'f', 1)
            << Qt::endl;
        out << QStringLiteral("  zsetlab MonitorLine::parse:        %1 lines/s").arg(rate.parseOnly, 0, 'f', 0)
            << Qt::endl;
        out << QStringLiteral("  zsetlab parse + WatchShadow::feed: %1 lines/s (goal 500,000 lines/s: %2x)")
                   .arg(rate.parseAndFeed, 0, 'f', 0)
                   .arg(rate.parseAndFeed / 500000.0, 0, 'f', 2)
            << Qt::endl;
        return 0;
    }

    const QString redisCli = QStandardPaths::findExecutable(QStringLiteral("redis-cli"));
    if (redisCli.isEmpty()) {
        out << "redis-cli not found (Debian: apt-get install redis-tools)" << Qt::endl;
        return 2;
    }
    out << "shadow memory after " << seconds << " s of a 50,000 calls/s stream (" << streamKeys
        << " keys, window 1000 ms, snapshots every 250 ms of the stream), replayed as fast as possible:" << Qt::endl;
    memoryOfStream(seconds, false, out);
    memoryOfStream(seconds, true, out);

    PrivateRedisServer server;
    if (!server.start()) {
        out << server.errorString() << Qt::endl;
        return 3;
    }
    RedisConnection redis;
    if (!redis.open(server.endpoint())) {
        out << redis.lastError().message << Qt::endl;
        return 3;
    }
    QTemporaryDir dir;
    const QString recording = dir.filePath(QStringLiteral("monitor.txt"));
    const QString socket = server.endpoint().socketPath;

    // Two monitors on the same stream: one records it, one drains it into grep, which ends at the marker.
    QProcess recorder;
    recorder.setStandardOutputFile(recording);
    recorder.start(redisCli, {QStringLiteral("-s"), socket, QStringLiteral("monitor")});
    QProcess drain;
    drain.start(QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"),
                 QStringLiteral("\"$0\" -s \"$1\" monitor | { grep -m1 -F %1 > /dev/null; echo drained; }")
                     .arg(QLatin1String(marker)),
                 redisCli, socket});
    if (!recorder.waitForStarted(10000) || !drain.waitForStarted(10000)) {
        out << "cannot start redis-cli" << Qt::endl;
        return 3;
    }
    QElapsedTimer waited;
    waited.start();
    while (monitors(redis) < 2 && waited.elapsed() < 10000)
        QThread::msleep(10); // polling the server for the two monitors to be on; bounded
    if (monitors(redis) < 2) {
        out << "redis-cli monitor did not start" << Qt::endl;
        return 3;
    }

    out << "zsetlab watch vs redis-cli monitor, Redis " << redis.server().version << ", " << calls
        << " EVALSHA calls of lua/now.lua (5 MONITOR lines each), one core" << Qt::endl;
    QElapsedTimer clock;
    clock.start();
    const QByteArray runKey = ZsetKeys::freshRunKey();
    if (!burst(redis, runKey, calls, out))
        return 3;
    const double burstSeconds = double(clock.nsecsElapsed()) / 1e9;
    QByteArray said;
    while (!said.contains("drained") && clock.elapsed() < 120000 && drain.state() == QProcess::Running) {
        drain.waitForReadyRead(1000);
        said += drain.readAllStandardOutput();
    }
    const bool drained = said.contains("drained");
    const double drainSeconds = double(clock.nsecsElapsed()) / 1e9;
    const bool recorded = waitForMarker(recording, 120000);
    // Both redis-cli processes end when the server closes their connections (on the private server).
    for (const QByteArray& client : redis.command({"CLIENT", "LIST"}).bytes().split('\n')) {
        if (client.contains(" cmd=monitor "))
            redis.command({"CLIENT", "KILL", "ID", client.mid(3, client.indexOf(' ') - 3)});
    }
    recorder.waitForFinished(10000);
    drain.waitForFinished(10000);
    for (int user = 0; user < users; ++user)
        ZsetKeys::deleteRunKeys(redis, runKey + ":u" + QByteArray::number(user));
    if (!drained || !recorded) {
        out << "redis-cli monitor did not see the end of the burst in 120 s (" << (drained ? "recorder" : "drain")
            << ")" << Qt::endl;
        return 3;
    }

    if (parser.isSet(keepOption)) {
        QFile::remove(parser.value(keepOption));
        if (!QFile::copy(recording, parser.value(keepOption)))
            out << "cannot copy the recording to " << parser.value(keepOption) << Qt::endl;
    }
    qint64 bytes = 0;
    QList<QByteArray> lines = readRecording(recording, &bytes);
    const Rate rate = replay(lines);
    const double cliRate = double(lines.size()) / drainSeconds;
    out << QStringLiteral("  recorded %1 lines (%2 MB)").arg(lines.size()).arg(double(bytes) / 1048576.0, 0, 'f', 1)
        << Qt::endl;
    out << QStringLiteral("  server: the burst took %1 s (%2 EVALSHA/s, %3 lines/s of MONITOR output)")
               .arg(burstSeconds, 0, 'f', 2)
               .arg(calls / burstSeconds, 0, 'f', 0)
               .arg(double(lines.size()) / burstSeconds, 0, 'f', 0)
        << Qt::endl;
    out << QStringLiteral("  redis-cli monitor | grep, live:        drained in %1 s: %2 lines/s")
               .arg(drainSeconds, 0, 'f', 2)
               .arg(cliRate, 0, 'f', 0)
        << Qt::endl;
    out << QStringLiteral("  zsetlab MonitorLine::parse, recorded:  %1 lines/s").arg(rate.parseOnly, 0, 'f', 0)
        << Qt::endl;
    out << QStringLiteral(
               "  zsetlab parse + WatchShadow::feed:     %1 lines/s (%2x redis-cli; goal 500,000 lines/s: %3x)")
               .arg(rate.parseAndFeed, 0, 'f', 0)
               .arg(rate.parseAndFeed / cliRate, 0, 'f', 2)
               .arg(rate.parseAndFeed / 500000.0, 0, 'f', 2)
        << Qt::endl;
    lines.clear();

    return 0;
}
