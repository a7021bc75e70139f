#include "watchsession.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(WatchSession)
};

QString userName(const RedisEndpoint& endpoint)
{
    return endpoint.user.isEmpty() ? QStringLiteral("default") : endpoint.user;
}

// A key read once at the point of the stream where its ZRANGE runs: the ECHO just before it
// marks that point, as the reading connection's lines look like anyone else's.
struct PendingRead
{
    int db = 0;
    QByteArray key;
    std::vector<ZsetShadow::Member> members;
    QByteArray echoSource; // set when the ECHO line went by
};

class KeyReader
{
public:
    KeyReader(const WatchSession::Settings& settings, WatchResult* result)
        : m_settings(settings)
        , m_result(result)
    { }

    // Reads the key; true when a ZRANGE will show in the stream whose result is in *pending.
    bool read(int db, const QByteArray& key, const QByteArray& nonce, PendingRead* pending)
    {
        if (m_failed)
            return false;
        if (!m_connection.isOpen() && !m_connection.open(m_settings.endpoint, m_settings.options)) {
            m_failed = true;
            return false;
        }
        const QByteArray bound = QByteArray::number(m_settings.readBound); // one more than the bound, to see it
        m_connection.append({"SELECT", QByteArray::number(db)});
        m_connection.append({"ECHO", nonce});
        m_connection.append({"ZCARD", key});
        m_connection.append({"ZRANGE", key, "0", bound, "WITHSCORES"});
        const RedisReply selected = m_connection.readReply();
        m_connection.readReply();
        const RedisReply count = m_connection.readReply();
        const RedisReply range = m_connection.readReply();
        if (selected.isConnectionLost() || range.isConnectionLost()) {
            m_failed = true;
            return false;
        }
        if (count.isError() || range.isError() || range.type() != RedisReply::Type::Array)
            return false; // not a sorted set, or no permission: stays unknown
        if (count.toInteger() > m_settings.readBound || qint64(range.elements().size()) != 2 * count.toInteger()) {
            ++m_result->keysTooLarge;
            return false;
        }
        pending->db = db;
        pending->key = key;
        pending->members.clear();
        for (size_t i = 0; i + 1 < range.elements().size(); i += 2) {
            double score = 0;
            parseScore(range.elements()[i + 1].bytes(), &score);
            pending->members.emplace_back(range.elements()[i].bytes(), score);
        }
        ++m_result->keysRead;
        return true;
    }

private:
    const WatchSession::Settings& m_settings;
    WatchResult* m_result;
    RedisConnection m_connection;
    bool m_failed = false;
};
} // namespace

WatchSession::WatchSession(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<WatchSnapshot>();
    qRegisterMetaType<WatchResult>();
}

WatchSession::~WatchSession()
{
    stop();
    if (m_thread.joinable())
        m_thread.join();
    if (m_wake >= 0)
        ::close(m_wake);
}

bool WatchSession::start(const Settings& settings)
{
    if (isRunning())
        return false;
    if (m_thread.joinable())
        m_thread.join();
    if (m_wake < 0)
        m_wake = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    quint64 drained = 0;
    [[maybe_unused]] const auto got = ::read(m_wake, &drained, sizeof drained);
    m_done = false;
    m_thread = std::thread([this, settings] { run(settings); });
    return true;
}

void WatchSession::stop()
{
    if (m_wake < 0)
        return;
    const quint64 one = 1;
    [[maybe_unused]] const auto written = ::write(m_wake, &one, sizeof one);
}

void WatchSession::run(Settings settings)
{
    WatchResult result;
    WatchShadow shadow(settings.patterns, settings.db, settings.limits);
    const auto finish = [this, &result, &shadow] {
        result.snapshot = shadow.snapshot();
        m_done = true;
        QMetaObject::invokeMethod(
            this, [this, result] { emit finished(result); }, Qt::QueuedConnection);
    };

    RedisConnection monitor;
    if (!monitor.open(settings.endpoint, settings.options)) {
        result.end = WatchResult::End::Failed;
        result.error = monitor.lastError();
        finish();
        return;
    }
    result.serverVersion = monitor.server().version;
    const RedisReply answer = monitor.command({"MONITOR"});
    if (answer.isError()) {
        result.end = WatchResult::End::Failed;
        result.error = classifyReplyError(answer, settings.endpoint);
        if (result.error.kind == RedisError::Kind::NoPermission)
            result.error.message = Text::tr("The ACL user \"%1\" may not run MONITOR (%2). Grant it with: ACL "
                                            "SETUSER %1 +monitor (and +echo +select +zcard +zrange to read the keys "
                                            "the watch first sees mid-stream).")
                                       .arg(userName(settings.endpoint), answer.text());
        finish();
        return;
    }
    if (!monitor.setNonBlocking()) {
        result.end = WatchResult::End::Failed;
        result.error = {RedisError::Kind::ConnectionLost, monitor.failureText()};
        finish();
        return;
    }
    const QString version = result.serverVersion;
    QMetaObject::invokeMethod(
        this, [this, version] { emit started(version); }, Qt::QueuedConnection);

    KeyReader reader(settings, &result);
    QHash<QByteArray, PendingRead> pending; // by nonce
    qint64 nonceCounter = 0;
    const QByteArray noncePrefix = "zsetlab-watch-read-" + QByteArray::number(qint64(::getpid())) + '-';
    QByteArray pendingEcho; // the nonce whose ECHO went by; its ZRANGE comes next from the same client

    // Reads what MONITOR sent; false when the server went away. *sawEnd: the ECHO of `endMarker`
    // went by.
    MonitorLine line; // one for every line: parsing into it reuses its buffers
    const auto readLines = [&](const QByteArray& endMarker, bool* sawEnd) {
        const bool alive = monitor.readAvailable();
        RedisReply reply;
        while (monitor.nextReply(&reply)) {
            if (!MonitorLine::parse(reply.bytes(), &line)) {
                shadow.feed(reply.bytes()); // counted as dropped
                continue;
            }
            const QByteArray command = line.command();
            if (command == "ECHO" && !endMarker.isEmpty() && line.arguments.value(1) == endMarker) {
                *sawEnd = true;
                continue;
            }
            if (command == "ECHO" && pending.contains(line.arguments.value(1))) {
                pendingEcho = line.arguments.value(1);
                pending[pendingEcho].echoSource = line.source;
            } else if (!pendingEcho.isEmpty() && command == "ZRANGE"
                       && line.source == pending.value(pendingEcho).echoSource) {
                shadow.feed(line);
                const PendingRead read = pending.take(pendingEcho);
                shadow.setKnownState(read.db, read.key, read.members);
                pendingEcho.clear();
                continue;
            }
            shadow.feed(line);
            for (const WatchShadow::KeyName& name : shadow.takeKeysToRead()) {
                const QByteArray nonce = noncePrefix + QByteArray::number(++nonceCounter);
                PendingRead read;
                if (reader.read(name.db, name.key, nonce, &read))
                    pending.insert(nonce, read);
            }
        }
        return alive;
    };
    // At the end, everything the server ran before it is counted: an ECHO sent now comes after
    // those commands in the stream, so reading up to it leaves none behind (bounded: 1 s; without
    // the ECHO permission, what has arrived is all there is).
    const auto catchUp = [&] {
        const QByteArray marker = noncePrefix + "end";
        RedisConnection echo;
        if (!echo.open(settings.endpoint, settings.options) || echo.command({"ECHO", marker}).isError())
            return;
        QElapsedTimer waited;
        waited.start();
        bool seen = false;
        while (!seen && waited.elapsed() < 1000) {
            pollfd fd {monitor.socket(), POLLIN, 0};
            if (::poll(&fd, 1, int(1000 - waited.elapsed())) <= 0 || !readLines(marker, &seen))
                return;
        }
    };

    QElapsedTimer clock;
    clock.start();
    qint64 nextSnapshot = settings.snapshotInterval.count();
    const qint64 durationMs = settings.duration.count();
    while (true) {
        const qint64 elapsed = clock.elapsed();
        if (elapsed >= durationMs) {
            result.end = WatchResult::End::Duration;
            catchUp();
            break;
        }
        pollfd fds[2] = {{monitor.socket(), POLLIN, 0}, {m_wake, POLLIN, 0}};
        const int waitMs = int(std::max<qint64>(0, std::min(durationMs, nextSnapshot) - elapsed));
        if (::poll(fds, 2, waitMs) < 0 && errno != EINTR) {
            result.end = WatchResult::End::Failed;
            result.error = {RedisError::Kind::ConnectionLost, QString::fromLocal8Bit(strerror(errno))};
            break;
        }
        if (fds[1].revents & POLLIN) {
            result.end = WatchResult::End::Stopped;
            catchUp();
            break;
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            bool unused = false;
            if (!readLines({}, &unused)) {
                result.end = WatchResult::End::Failed;
                result.error.kind = RedisError::Kind::ConnectionLost;
                result.error.message = Text::tr("The server at %1 went away during the watch (%2). The figures "
                                                "below are what the watch saw until then.")
                                           .arg(settings.endpoint.address(), monitor.failureText());
                break;
            }
        }
        if (clock.elapsed() >= nextSnapshot) {
            WatchSnapshot snapshot = shadow.snapshot();
            snapshot.elapsedMs = clock.elapsed();
            nextSnapshot = clock.elapsed() + settings.snapshotInterval.count();
            QMetaObject::invokeMethod(
                this, [this, snapshot] { emit snapshotAvailable(snapshot); }, Qt::QueuedConnection);
        }
    }
    const qint64 elapsed = clock.elapsed();
    monitor.close();
    result.snapshot = shadow.snapshot();
    result.snapshot.elapsedMs = elapsed;
    m_done = true;
    QMetaObject::invokeMethod(
        this, [this, result] { emit finished(result); }, Qt::QueuedConnection);
}
