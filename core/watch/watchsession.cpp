#include "watchsession.h"

#include "redis/clustermap.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHash>

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <memory>
#include <vector>

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
    KeyReader(const WatchSession::Settings& settings, RedisEndpoint endpoint, WatchResult* result)
        : m_settings(settings)
        , m_endpoint(std::move(endpoint))
        , m_result(result)
    { }

    // Reads the key, waiting at most `timeLeft` for each reply; true when a ZRANGE will show in
    // the stream whose result is in *pending.
    bool read(int db, const QByteArray& key, const QByteArray& nonce, std::chrono::milliseconds timeLeft,
              PendingRead* pending)
    {
        if (m_failed)
            return false;
        ConnectOptions options = m_settings.options;
        options.connectTimeout = std::max(std::chrono::milliseconds(1), std::min(options.connectTimeout, timeLeft));
        options.commandTimeout = std::max(std::chrono::milliseconds(1), std::min(options.commandTimeout, timeLeft));
        if (!m_connection.isOpen() && !m_connection.open(m_endpoint, options)) {
            m_failed = true;
            return false;
        }
        // One deadline for the four replies, however the server drips them.
        const auto deadline = std::chrono::steady_clock::now() + options.commandTimeout;
        const auto next = [this, deadline] {
            const auto left
                = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return RedisReply::connectionLost(QStringLiteral("the watch's time was up"));
            m_connection.setCommandTimeout(left);
            return m_connection.readReply();
        };
        const QByteArray bound = QByteArray::number(m_settings.readBound); // one more than the bound, to see it
        m_connection.append({"SELECT", QByteArray::number(db)});
        m_connection.append({"ECHO", nonce});
        m_connection.append({"ZCARD", key});
        m_connection.append({"ZRANGE", key, "0", bound, "WITHSCORES"});
        const RedisReply selected = next();
        const RedisReply echoed = next();
        const RedisReply count = next();
        const RedisReply range = next();
        if (selected.isConnectionLost() || echoed.isConnectionLost() || count.isConnectionLost()
            || range.isConnectionLost()) {
            m_failed = true; // a reply left half read: the connection is of no further use
            m_connection.close();
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

    // The body of a script in the server's cache (SCRIPT SHOW, Valkey 8+); empty when it cannot tell.
    QByteArray showScript(const QByteArray& sha, std::chrono::milliseconds timeLeft)
    {
        if (m_failed)
            return {};
        ConnectOptions options = m_settings.options;
        options.connectTimeout = std::max(std::chrono::milliseconds(1), std::min(options.connectTimeout, timeLeft));
        options.commandTimeout = std::max(std::chrono::milliseconds(1), std::min(options.commandTimeout, timeLeft));
        if (!m_connection.isOpen() && !m_connection.open(m_endpoint, options)) {
            m_failed = true;
            return {};
        }
        m_connection.setCommandTimeout(options.commandTimeout);
        const RedisReply body = m_connection.command({"SCRIPT", "SHOW", sha});
        if (body.isConnectionLost()) {
            m_failed = true;
            m_connection.close();
        }
        return body.type() == RedisReply::Type::String ? body.bytes() : QByteArray();
    }

    // The reading connection failed (or timed out): no key is read any more.
    bool failed() const { return m_failed; }

private:
    const WatchSession::Settings& m_settings;
    const RedisEndpoint m_endpoint; // the node whose stream shows the read
    WatchResult* m_result;
    RedisConnection m_connection;
    bool m_failed = false;
};
// One server's MONITOR stream: the server itself, or one master of a cluster. Each has its own
// shadow (a script's commands follow its EVAL within one stream only) and its own reader for
// the keys it first sees mid-stream (the read shows in that node's stream).
struct NodeStream
{
    NodeStream(const WatchSession::Settings& settings, const RedisEndpoint& node, WatchResult* result)
        : endpoint(node)
        , shadow(settings.patterns, settings.db, settings.limits)
        , reader(settings, node, result)
    { }

    RedisEndpoint endpoint;
    RedisConnection monitor;
    WatchShadow shadow;
    KeyReader reader;
    QHash<QByteArray, PendingRead> pending; // by nonce
    QByteArray pendingEcho; // the nonce whose ECHO went by; its ZRANGE comes next from the same client
    bool sawEnd = false;
};

// A MONITOR line longer than this is counted (oversizeLines), not parsed: a limiter's commands
// are short, and a value of megabytes says nothing of its ZSETs.
constexpr qsizetype maxLineBytes = 1024 * 1024;
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
    m_stopAsked = false;
    m_thread = std::thread([this, settings] { run(settings); });
    return true;
}

void WatchSession::stop()
{
    m_stopAsked = true;
    if (m_wake < 0)
        return;
    const quint64 one = 1;
    [[maybe_unused]] const auto written = ::write(m_wake, &one, sizeof one);
}

// One watch, on the session's thread: what run() did in one piece, step by step.
class WatchSession::Run
{
public:
    Run(WatchSession& session, Settings settings)
        : m_session(session)
        , m_settings(std::move(settings))
        , m_durationMs(m_settings.duration.count())
        , m_noncePrefix("zsetlab-watch-read-" + QByteArray::number(qint64(::getpid())) + '-')
    { }

    // Connects, watches until the time is up, stop() or a failure, then finished().
    void watch();

private:
    // What to watch: the server, or every master of its cluster (each sees only its own slots).
    // False after fail().
    bool findMasters(QVector<RedisEndpoint>* endpoints);
    // MONITOR on every endpoint, each read without blocking. False after fail().
    bool startMonitors(const QVector<RedisEndpoint>& endpoints);
    // What the server is tells how to read its stream (SCRIPT SHOW, Valkey 8.1's quotes).
    void noteServerQuirks();
    // Polls the streams, a snapshot every interval, until the watch ends (result.end set).
    void loop();
    // Reads the streams poll() found ready; false (result.end Failed) when a server went away.
    bool readStreams(const std::vector<pollfd>& fds);
    // Reads what one node's MONITOR sent; false when that server went away. node.sawEnd: the ECHO
    // of `endMarker` went by.
    bool readLines(NodeStream& node, const QByteArray& endMarker, qint64 untilMs);
    // The reads' own lines in the stream (m_line): the ECHO of the end marker, the ECHO before a
    // key's read and that read's ZRANGE. True when nothing else is to be done with the line.
    bool takeReadLine(NodeStream& node, const QByteArray& endMarker);
    // The keys the shadow first saw just now, read once; and the bodies of scripts called by
    // EVALSHA that the stream never showed (Valkey 8).
    void readNewKeys(NodeStream& node, const QByteArray& endMarker, qint64 untilMs);
    void readNewScripts(NodeStream& node, const QByteArray& endMarker, qint64 untilMs);
    // At the end, everything the servers ran before it is counted: an ECHO sent now comes after
    // those commands in each stream, so reading up to it leaves none behind (bounded: 1 s; without
    // the ECHO permission, what has arrived is all there is).
    void catchUp();
    WatchSnapshot snapshotOfAll(qint64 elapsedMs, bool last);
    void fail(const RedisError& error);
    void finish();

    WatchSession& m_session;
    const Settings m_settings; // KeyReader keeps a reference: it lives as long as the run
    WatchResult m_result;
    std::vector<std::unique_ptr<NodeStream>> m_nodes;
    // The watch's one clock: the duration and stop() bound every wait, reads of keys included;
    // lines that arrive once it is over are counted (linesBehind), not followed.
    QElapsedTimer m_clock;
    const qint64 m_durationMs;
    qint64 m_nonceCounter = 0;
    const QByteArray m_noncePrefix;
    MonitorLine m_line; // one for every line: parsing into it reuses its buffers
    bool m_showsScripts = false;
    bool m_quotesMayBeUnescaped = false;
};

void WatchSession::run(Settings settings)
{
    Run(*this, std::move(settings)).watch();
}

void WatchSession::Run::watch()
{
    QVector<RedisEndpoint> endpoints {m_settings.endpoint};
    if (!findMasters(&endpoints) || !startMonitors(endpoints))
        return;
    const QString server = m_result.server.displayName();
    WatchSession* session = &m_session;
    QMetaObject::invokeMethod(
        session, [session, server] { emit session->started(server); }, Qt::QueuedConnection);

    m_clock.start();
    noteServerQuirks();
    loop();
    const qint64 elapsed = m_clock.elapsed();
    for (const auto& node : m_nodes)
        node->monitor.close();
    m_result.snapshot = snapshotOfAll(elapsed, true);
    m_result.snapshot.droppedLines += m_result.linesBehind + m_result.oversizeLines;
    finish();
}

WatchSnapshot WatchSession::Run::snapshotOfAll(qint64 elapsedMs, bool last)
{
    QVector<WatchSnapshot> parts;
    for (const auto& node : m_nodes)
        parts.push_back(node->shadow.snapshot(true, last));
    WatchSnapshot all = WatchSnapshot::merged(parts);
    all.elapsedMs = elapsedMs;
    return all;
}

void WatchSession::Run::finish()
{
    m_session.m_done = true;
    WatchSession* session = &m_session;
    QMetaObject::invokeMethod(
        session, [session, result = m_result] { emit session->finished(result); }, Qt::QueuedConnection);
}

void WatchSession::Run::fail(const RedisError& error)
{
    m_result.end = WatchResult::End::Failed;
    m_result.error = error;
    m_result.snapshot = snapshotOfAll(0, true);
    finish();
}

bool WatchSession::Run::findMasters(QVector<RedisEndpoint>* endpoints)
{
    RedisConnection first;
    if (!first.open(m_settings.endpoint, m_settings.options)) {
        fail(first.lastError());
        return false;
    }
    m_result.serverVersion = first.server().version;
    m_result.server = first.server();
    if (first.server().mode != QLatin1String("cluster"))
        return true;
    ClusterMap map;
    QString why;
    if (!ClusterMap::read(first, &map, &why)) {
        fail({RedisError::Kind::Server, why});
        return false;
    }
    endpoints->clear();
    for (const ClusterMap::Node& node : map.masters()) {
        const RedisEndpoint master = ClusterMap::endpointOf(node, m_settings.endpoint);
        if (m_settings.endpoint.isLocal() && !master.isLocal()) {
            fail({RedisError::Kind::Server,
                  Text::tr("The cluster has a master at %1, which is not on this machine: watching "
                           "it needs your consent (--allow-remote, with that address as --redis).")
                      .arg(master.address())});
            return false;
        }
        endpoints->push_back(master);
    }
    return true;
}

bool WatchSession::Run::startMonitors(const QVector<RedisEndpoint>& endpoints)
{
    for (const RedisEndpoint& endpoint : endpoints) {
        auto node = std::make_unique<NodeStream>(m_settings, endpoint, &m_result);
        if (!node->monitor.open(endpoint, m_settings.options)) {
            fail(node->monitor.lastError());
            return false;
        }
        const RedisReply answer = node->monitor.command({"MONITOR"});
        if (answer.isError()) {
            RedisError error = classifyReplyError(answer, endpoint);
            if (error.kind == RedisError::Kind::NoPermission)
                error.message = Text::tr("The ACL user \"%1\" may not run MONITOR (%2). Grant it with: ACL "
                                         "SETUSER %1 +monitor (and +echo +select +zcard +zrange to read the keys "
                                         "the watch first sees mid-stream).")
                                    .arg(userName(endpoint), answer.text());
            fail(error);
            return false;
        }
        if (!node->monitor.setNonBlocking()) {
            fail({RedisError::Kind::ConnectionLost, node->monitor.failureText()});
            return false;
        }
        m_nodes.push_back(std::move(node));
    }
    return true;
}

void WatchSession::Run::noteServerQuirks()
{
    // Valkey 8 tells the body of a cached script (SCRIPT SHOW): an app's scripts loaded before the
    // watch are known all the same.
    m_showsScripts = m_result.server.name == QLatin1String("valkey")
        && m_result.server.nameVersion.section(QLatin1Char('.'), 0, 0).toInt() >= 8;
    // Valkey 8.1's MONITOR may leave quotes and backslashes unescaped (valkey-io/valkey#2035).
    m_quotesMayBeUnescaped = m_result.server.name == QLatin1String("valkey")
        && m_result.server.nameVersion.startsWith(QLatin1String("8.1."));
    for (const auto& node : m_nodes)
        node->shadow.setQuotesMayBeUnescaped(m_quotesMayBeUnescaped);
}

bool WatchSession::Run::readLines(NodeStream& node, const QByteArray& endMarker, qint64 untilMs)
{
    const bool alive = node.monitor.readAvailable();
    RedisReply reply;
    while (node.monitor.nextReply(&reply)) {
        if (reply.bytes().size() > maxLineBytes) {
            ++m_result.oversizeLines;
            continue;
        }
        // After stop() the lines still count (what the server ran before it), up to the deadline.
        const bool late = m_clock.elapsed() >= untilMs;
        if (late && !(endMarker.size() && reply.bytes().contains(endMarker))) {
            ++m_result.linesBehind;
            continue;
        }
        if (!MonitorLine::parse(reply.bytes(), &m_line, nullptr, m_quotesMayBeUnescaped)) {
            node.shadow.feed(reply.bytes()); // counted as dropped
            continue;
        }
        if (takeReadLine(node, endMarker))
            continue;
        node.shadow.feed(m_line);
        readNewKeys(node, endMarker, untilMs);
        readNewScripts(node, endMarker, untilMs);
    }
    return alive;
}

bool WatchSession::Run::takeReadLine(NodeStream& node, const QByteArray& endMarker)
{
    const QByteArray command = m_line.command();
    if (command == "ECHO" && !endMarker.isEmpty() && m_line.arguments.value(1) == endMarker) {
        node.sawEnd = true;
        return true;
    }
    if (command == "ECHO" && node.pending.contains(m_line.arguments.value(1))) {
        node.pendingEcho = m_line.arguments.value(1);
        node.pending[node.pendingEcho].echoSource = m_line.source;
    } else if (!node.pendingEcho.isEmpty() && command == "ZRANGE"
               && m_line.source == node.pending.value(node.pendingEcho).echoSource) {
        node.shadow.feed(m_line);
        const PendingRead read = node.pending.take(node.pendingEcho);
        node.shadow.setKnownState(read.db, read.key, read.members);
        node.pendingEcho.clear();
        return true;
    }
    return false;
}

void WatchSession::Run::readNewKeys(NodeStream& node, const QByteArray& endMarker, qint64 untilMs)
{
    for (const WatchShadow::KeyName& name : node.shadow.takeKeysToRead()) {
        const QByteArray nonce = m_noncePrefix + QByteArray::number(++m_nonceCounter);
        PendingRead read;
        const auto left = std::chrono::milliseconds(untilMs - m_clock.elapsed());
        // Reads of keys wait for the server: after stop() only the catch-up (endMarker) does them.
        if (left.count() <= 0 || (m_session.m_stopAsked && endMarker.isEmpty())) {
            ++m_result.keysNotRead;
            continue;
        }
        if (node.reader.read(name.db, name.key, nonce, left, &read))
            node.pending.insert(nonce, read);
        else if (node.reader.failed())
            ++m_result.keysNotRead;
    }
}

void WatchSession::Run::readNewScripts(NodeStream& node, const QByteArray& endMarker, qint64 untilMs)
{
    // An app's EVALSHA of a script loaded before the watch: Valkey 8 tells its body.
    for (const QByteArray& sha : node.shadow.takeScriptsToRead()) {
        const auto left = std::chrono::milliseconds(untilMs - m_clock.elapsed());
        if (!m_showsScripts || left.count() <= 0 || (m_session.m_stopAsked && endMarker.isEmpty()))
            break;
        node.shadow.setScriptBody(sha, node.reader.showScript(sha, left));
    }
}

void WatchSession::Run::catchUp()
{
    const QByteArray marker = m_noncePrefix + "end";
    const qint64 untilMs = m_clock.elapsed() + 1000;
    ConnectOptions quick = m_settings.options;
    quick.connectTimeout = std::min(quick.connectTimeout, std::chrono::milliseconds(500));
    quick.commandTimeout = std::min(quick.commandTimeout, std::chrono::milliseconds(500));
    for (const auto& node : m_nodes) {
        RedisConnection echo;
        node->sawEnd = !echo.open(node->endpoint, quick) || echo.command({"ECHO", marker}).isError();
    }
    while (m_clock.elapsed() < untilMs) {
        std::vector<pollfd> fds;
        std::vector<NodeStream*> waiting;
        for (const auto& node : m_nodes) {
            if (!node->sawEnd) {
                fds.push_back({node->monitor.socket(), POLLIN, 0});
                waiting.push_back(node.get());
            }
        }
        const int waitMs = int(std::max<qint64>(0, untilMs - m_clock.elapsed()));
        if (fds.empty() || ::poll(fds.data(), fds.size(), waitMs) <= 0)
            return;
        for (size_t i = 0; i < fds.size(); ++i)
            if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) && !readLines(*waiting[i], marker, untilMs))
                waiting[i]->sawEnd = true; // gone: nothing more will come
    }
}

void WatchSession::Run::loop()
{
    qint64 nextSnapshot = m_settings.snapshotInterval.count();
    std::vector<pollfd> fds;
    while (true) {
        const qint64 elapsed = m_clock.elapsed();
        if (m_session.m_stopAsked) {
            m_result.end = WatchResult::End::Stopped;
            catchUp();
            return;
        }
        if (elapsed >= m_durationMs) {
            m_result.end = WatchResult::End::Duration;
            catchUp();
            return;
        }
        fds.clear();
        for (const auto& node : m_nodes)
            fds.push_back({node->monitor.socket(), POLLIN, 0});
        fds.push_back({m_session.m_wake, POLLIN, 0});
        const int waitMs = int(std::max<qint64>(0, std::min(m_durationMs, nextSnapshot) - elapsed));
        if (::poll(fds.data(), fds.size(), waitMs) < 0 && errno != EINTR) {
            m_result.end = WatchResult::End::Failed;
            m_result.error = {RedisError::Kind::ConnectionLost, QString::fromLocal8Bit(strerror(errno))};
            return;
        }
        if (fds.back().revents & POLLIN) {
            m_result.end = WatchResult::End::Stopped;
            catchUp();
            return;
        }
        if (!readStreams(fds))
            return;
        if (m_clock.elapsed() >= nextSnapshot) {
            const WatchSnapshot snapshot = snapshotOfAll(m_clock.elapsed(), false);
            nextSnapshot = m_clock.elapsed() + m_settings.snapshotInterval.count();
            WatchSession* session = &m_session;
            QMetaObject::invokeMethod(
                session, [session, snapshot] { emit session->snapshotAvailable(snapshot); }, Qt::QueuedConnection);
        }
    }
}

bool WatchSession::Run::readStreams(const std::vector<pollfd>& fds)
{
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        NodeStream& node = *m_nodes[i];
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)) || readLines(node, {}, m_durationMs))
            continue;
        m_result.end = WatchResult::End::Failed;
        m_result.error.kind = RedisError::Kind::ConnectionLost;
        m_result.error.message = Text::tr("The server at %1 went away during the watch (%2). The figures "
                                          "below are what the watch saw until then.")
                                     .arg(node.endpoint.address(), node.monitor.failureText());
        return false;
    }
    return true;
}
