#include "scriptkeywatch.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QUuid>

#include <poll.h>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ScriptKeyWatch)
};

// Distinct script commands kept for COMMAND GETKEYS; a script that issues more is reported by
// what was kept (each call of the probe repeats the same shapes, so this is far above need).
constexpr int maxCommands = 50'000;
constexpr int getkeysBatch = 500;

int hexDigit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
} // namespace

bool ScriptKeyWatch::start(const RedisEndpoint& endpoint, QString* error)
{
    ConnectOptions options;
    options.commandTimeout = std::chrono::milliseconds(5000);
    if (!m_monitor.open(endpoint, options)) {
        *error = m_monitor.lastError().message;
        return false;
    }
    const RedisReply ok = m_monitor.command({QByteArrayLiteral("MONITOR")});
    if (ok.isError() || !m_monitor.setNonBlocking()) {
        *error = Text::tr("MONITOR failed on the private server: %1").arg(ok.text());
        return false;
    }
    return true;
}

bool ScriptKeyWatch::parseLine(const QByteArray& line, int* db, QByteArray* client, QList<QByteArray>* args)
{
    // 1796110597.712743 [0 lua] "SET" "victim" "x"
    const int open = line.indexOf(" [");
    const int close = line.indexOf("] \"", open);
    if (open < 0 || close < 0)
        return false;
    const QByteArray where = line.mid(open + 2, close - open - 2);
    const int space = where.indexOf(' ');
    bool ok = false;
    *db = where.left(space).toInt(&ok);
    if (!ok || space < 0)
        return false;
    *client = where.mid(space + 1);
    args->clear();
    int i = close + 2;
    while (i < line.size()) {
        if (line[i] == ' ') {
            ++i;
            continue;
        }
        if (line[i] != '"')
            return false;
        QByteArray arg;
        ++i;
        bool closed = false;
        while (i < line.size()) {
            const char c = line[i++];
            if (c == '"') {
                closed = true;
                break;
            }
            if (c != '\\' || i >= line.size()) {
                arg += c;
                continue;
            }
            const char e = line[i++];
            switch (e) {
            case 'n':
                arg += '\n';
                break;
            case 'r':
                arg += '\r';
                break;
            case 't':
                arg += '\t';
                break;
            case 'a':
                arg += '\a';
                break;
            case 'b':
                arg += '\b';
                break;
            case 'x':
                if (i + 1 < line.size() && hexDigit(line[i]) >= 0 && hexDigit(line[i + 1]) >= 0) {
                    arg += char(hexDigit(line[i]) * 16 + hexDigit(line[i + 1]));
                    i += 2;
                } else {
                    arg += e;
                }
                break;
            default:
                arg += e; // \\ and \"
            }
        }
        if (!closed)
            return false;
        args->append(arg);
    }
    return !args->isEmpty();
}

void ScriptKeyWatch::take(const QByteArray& line)
{
    int db = 0;
    QByteArray client;
    QList<QByteArray> args;
    if (!parseLine(line, &db, &client, &args))
        return;
    if (client != "lua") {
        if (!m_marker.isEmpty() && args.size() == 2 && args[0].toUpper() == "ECHO" && args[1] == m_marker)
            m_sawMarker = true;
        return;
    }
    args[0] = args[0].toUpper();
    args.prepend(QByteArray::number(db));
    if (m_seen.contains(args))
        return;
    if (m_commands.size() >= maxCommands) {
        m_overflow = true;
        return;
    }
    m_seen.insert(args);
    m_commands.append(args);
}

void ScriptKeyWatch::poll()
{
    if (!m_monitor.readAvailable())
        return;
    RedisReply reply;
    while (m_monitor.nextReply(&reply))
        take(reply.bytes());
}

bool ScriptKeyWatch::finish(RedisConnection& other, QString* error)
{
    m_marker = "zsetlab-watch-" + QUuid::createUuid().toByteArray(QUuid::WithoutBraces);
    const RedisReply echo = other.command({QByteArrayLiteral("ECHO"), m_marker});
    if (echo.isError()) {
        *error = echo.text();
        return false;
    }
    const QDeadlineTimer deadline(10'000);
    while (!m_sawMarker) {
        pollfd fd {m_monitor.socket(), POLLIN, 0};
        const int ready = ::poll(&fd, 1, int(std::max<qint64>(1, deadline.remainingTime())));
        if (ready <= 0 || !m_monitor.readAvailable()) {
            *error = Text::tr("MONITOR on the private server stopped answering");
            return false;
        }
        RedisReply reply;
        while (m_monitor.nextReply(&reply))
            take(reply.bytes());
    }
    m_monitor.close();

    // Which arguments are keys, as the server itself reads them.
    QHash<QPair<QByteArray, QByteArray>, int> index; // (command, key or "") -> m_touches
    for (int start = 0; start < m_commands.size(); start += getkeysBatch) {
        const int end = std::min(int(m_commands.size()), start + getkeysBatch);
        for (int i = start; i < end; ++i) {
            RedisArgs getkeys {QByteArrayLiteral("COMMAND"), QByteArrayLiteral("GETKEYS")};
            getkeys << m_commands[i].mid(1);
            if (!other.append(getkeys)) {
                *error = other.failureText();
                return false;
            }
        }
        for (int i = start; i < end; ++i) {
            const RedisReply reply = other.readReply();
            if (reply.isConnectionLost()) {
                *error = reply.text();
                return false;
            }
            const QByteArray& command = m_commands[i].at(1);
            const int db = m_commands[i].at(0).toInt();
            QList<QByteArray> keys;
            if (reply.type() == RedisReply::Type::Array) {
                for (const RedisReply& key : reply.elements())
                    keys << key.bytes();
            } else if (isHarmlessWithoutKeys(command)) {
                continue;
            } else {
                keys << QByteArray(); // no key: it reaches the keyspace or the server as a whole
            }
            for (const QByteArray& key : std::as_const(keys)) {
                const QPair<QByteArray, QByteArray> id(QByteArray(QByteArray::number(db) + ' ' + command), key);
                auto found = index.find(id);
                if (found == index.end()) {
                    found = index.insert(id, int(m_touches.size()));
                    m_touches.append({command, key, db, 0});
                }
                ++m_touches[found.value()].times;
            }
        }
    }
    if (m_overflow)
        *error
            = Text::tr("the script issued more than %1 distinct commands; only those were examined").arg(maxCommands);
    return true;
}

bool ScriptKeyWatch::isHarmlessWithoutKeys(const QByteArray& command)
{
    return command == "TIME" || command == "PING" || command == "ECHO";
}
