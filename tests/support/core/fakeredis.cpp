#include "fakeredis.h"

#include <QDeadlineTimer>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

// One command from the front of `in` (an array of bulk strings, as hiredis sends), removed from
// it; false while it is not whole.
bool takeCommand(QByteArray* in, QList<QByteArray>* command)
{
    if (!in->startsWith('*'))
        return false;
    qsizetype at = in->indexOf("\r\n");
    if (at < 0)
        return false;
    const int count = in->mid(1, at - 1).toInt();
    qsizetype pos = at + 2;
    QList<QByteArray> args;
    for (int i = 0; i < count; ++i) {
        if (pos >= in->size() || in->at(pos) != '$')
            return false;
        const qsizetype end = in->indexOf("\r\n", pos);
        if (end < 0)
            return false;
        const qsizetype length = in->mid(pos + 1, end - pos - 1).toLongLong();
        if (in->size() < end + 2 + length + 2)
            return false;
        args << in->mid(end + 2, length);
        pos = end + 2 + length + 2;
    }
    in->remove(0, pos);
    *command = args;
    return true;
}

struct Client
{
    int fd = -1;
    QByteArray in;
    FakeRedis::Answer answer;
    qsizetype sent = 0;
    qint64 filler = 0;
    Clock::time_point nextDrip;
    Clock::time_point started;
};
} // namespace

int listenOnLoopback(int* port)
{
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0; // the system picks a free port
    socklen_t length = sizeof address;
    if (listener < 0 || ::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0
        || ::listen(listener, 8) != 0 || ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        if (listener >= 0)
            ::close(listener);
        return -1;
    }
    *port = ntohs(address.sin_port);
    return listener;
}

FakeRedis::FakeRedis(Answerer answerer)
    : m_answerer(std::move(answerer))
{
    m_listener = listenOnLoopback(&m_port);
    if (m_listener < 0 || ::pipe(m_wake) != 0) {
        if (m_listener >= 0)
            ::close(m_listener);
        m_listener = -1;
        return;
    }
    m_thread = std::thread([this] { serve(); });
}

FakeRedis::~FakeRedis()
{
    m_stop = true;
    if (m_wake[1] >= 0)
        (void)::write(m_wake[1], "x", 1);
    if (m_thread.joinable())
        m_thread.join();
    for (int fd : {m_listener, m_wake[0], m_wake[1]})
        if (fd >= 0)
            ::close(fd);
}

RedisEndpoint FakeRedis::endpoint() const
{
    RedisEndpoint endpoint;
    QString error;
    RedisEndpoint::parse(url(), &endpoint, &error);
    return endpoint;
}

QString FakeRedis::url() const
{
    return QStringLiteral("redis://127.0.0.1:%1").arg(m_port);
}

QByteArray FakeRedis::infoServer()
{
    const QByteArray text = "# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\nos:Linux\r\n";
    return '$' + QByteArray::number(text.size()) + "\r\n" + text + "\r\n";
}

void FakeRedis::serve()
{
    std::vector<Client> clients;
    const QByteArray filler(64 * 1024, 'a');
    while (!m_stop) {
        std::vector<pollfd> polled {{m_listener, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
        int waitMs = 50;
        const auto now = Clock::now();
        for (const Client& client : clients) {
            const bool pending = client.sent < client.answer.bytes.size()
                || (client.answer.mode == Answer::Mode::Endless && client.filler < maxStreamBytes);
            short events = POLLIN;
            if (pending && client.answer.mode != Answer::Mode::Drip)
                events |= POLLOUT;
            if (pending && client.answer.mode == Answer::Mode::Drip)
                waitMs = std::min<int>(
                    waitMs,
                    int(std::max<qint64>(
                        0, std::chrono::duration_cast<std::chrono::milliseconds>(client.nextDrip - now).count())));
            polled.push_back({client.fd, events, 0});
        }
        if (::poll(polled.data(), nfds_t(polled.size()), waitMs) < 0)
            continue;
        if (polled[0].revents & POLLIN) {
            const int fd = ::accept4(m_listener, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
            if (fd >= 0) {
                Client client;
                client.fd = fd;
                clients.push_back(client);
            }
        }
        for (size_t i = 0; i < clients.size() && i + 2 < polled.size(); ++i) {
            Client& client = clients[i];
            const short revents = polled[i + 2].revents;
            bool gone = (revents & (POLLHUP | POLLERR)) != 0;
            if (revents & POLLIN) {
                char buffer[16 * 1024];
                const ssize_t got = ::read(client.fd, buffer, sizeof buffer);
                if (got <= 0)
                    gone = true;
                else
                    client.in.append(buffer, got);
                QList<QByteArray> command;
                while (takeCommand(&client.in, &command)) {
                    client.answer = m_answerer(command);
                    client.sent = 0;
                    client.filler = 0;
                    client.started = Clock::now();
                    client.nextDrip = client.started;
                }
            }
            const bool tooLong = Clock::now() - client.started > std::chrono::seconds(maxStreamSeconds);
            if (!gone && !tooLong) {
                const QByteArray& bytes = client.answer.bytes;
                if (client.answer.mode == Answer::Mode::Drip) {
                    if (client.sent < bytes.size() && Clock::now() >= client.nextDrip) {
                        if (::send(client.fd, bytes.constData() + client.sent, 1, MSG_NOSIGNAL) == 1)
                            ++client.sent;
                        client.nextDrip = Clock::now() + std::chrono::milliseconds(client.answer.dripMs);
                    }
                } else if (client.sent < bytes.size()) {
                    const ssize_t n = ::send(client.fd, bytes.constData() + client.sent,
                                             size_t(bytes.size() - client.sent), MSG_NOSIGNAL);
                    if (n > 0)
                        client.sent += n;
                    else if (n < 0 && errno != EAGAIN)
                        gone = true;
                } else if (client.answer.mode == Answer::Mode::Endless) {
                    // As fast as the client takes it: until the socket is full, a chunk at a time.
                    for (int chunk = 0; chunk < 256 && client.filler < maxStreamBytes; ++chunk) {
                        const ssize_t n = ::send(client.fd, filler.constData(), size_t(filler.size()), MSG_NOSIGNAL);
                        if (n > 0) {
                            client.filler += n;
                            continue;
                        }
                        gone = n < 0 && errno != EAGAIN;
                        break;
                    }
                }
            }
            if (gone) {
                ::close(client.fd);
                client.fd = -1;
            }
        }
        clients.erase(std::remove_if(clients.begin(), clients.end(), [](const Client& c) { return c.fd < 0; }),
                      clients.end());
    }
    for (const Client& client : clients)
        ::close(client.fd);
}
