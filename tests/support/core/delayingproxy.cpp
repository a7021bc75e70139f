#include "delayingproxy.h"

#include "fakeredis.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace {
using Clock = std::chrono::steady_clock;

struct Link
{
    int client = -1;
    int server = -1;
    QByteArray toServer; // what the client sent that is not forwarded yet
    Clock::time_point heldUntil; // toServer waits until then (a trigger was seen)
    bool holding = false;
};

int connectUnix(const QByteArray& path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_un address {};
    address.sun_family = AF_UNIX;
    if (fd < 0 || size_t(path.size()) >= sizeof address.sun_path) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    std::memcpy(address.sun_path, path.constData(), size_t(path.size()));
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

void closeLink(Link& link)
{
    for (int* fd : {&link.client, &link.server}) {
        if (*fd >= 0)
            ::close(*fd);
        *fd = -1;
    }
}

// Writes all of `bytes` (small, to a local socket); false when the peer is gone.
bool writeAll(int fd, const QByteArray& bytes)
{
    qsizetype done = 0;
    while (done < bytes.size()) {
        const ssize_t wrote = ::send(fd, bytes.constData() + done, size_t(bytes.size() - done), MSG_NOSIGNAL);
        if (wrote <= 0)
            return false;
        done += wrote;
    }
    return true;
}
} // namespace

DelayingProxy::DelayingProxy(const QByteArray& socketPath, const QByteArray& trigger, std::chrono::milliseconds delay)
    : m_socketPath(socketPath)
    , m_trigger(trigger)
    , m_delay(delay)
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

DelayingProxy::~DelayingProxy()
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

void DelayingProxy::serve()
{
    constexpr size_t maxLinks = 16;
    std::vector<Link> links;
    char buffer[65536];
    while (!m_stop) {
        std::vector<pollfd> fds {{m_listener, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
        int timeout = 100;
        for (const Link& link : links) {
            fds.push_back({link.client, POLLIN, 0});
            fds.push_back({link.server, POLLIN, 0});
            if (link.holding) {
                const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(link.heldUntil - Clock::now());
                timeout = std::clamp(int(left.count()), 0, timeout);
            }
        }
        if (::poll(fds.data(), nfds_t(fds.size()), timeout) < 0)
            break;
        if (fds[1].revents)
            break;
        const size_t polled = links.size(); // a link accepted below waits for the next poll
        if ((fds[0].revents & POLLIN) && links.size() < maxLinks) {
            Link link;
            link.client = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
            link.server = link.client >= 0 ? connectUnix(m_socketPath) : -1;
            if (link.server < 0)
                closeLink(link);
            else
                links.push_back(link);
        }
        for (size_t i = 0; i < polled; ++i) {
            Link& link = links[i];
            const pollfd& fromClient = fds[2 + 2 * i];
            const pollfd& fromServer = fds[3 + 2 * i];
            if (link.client >= 0 && (fromClient.revents & (POLLIN | POLLHUP | POLLERR))) {
                const ssize_t got = ::recv(link.client, buffer, sizeof buffer, 0);
                if (got <= 0) {
                    // The client gave up (its timeout): what it sent still reaches the server.
                    ::close(link.client);
                    link.client = -1;
                } else {
                    const QByteArray bytes(buffer, qsizetype(got));
                    if (!link.holding && bytes.contains(m_trigger)) {
                        link.holding = true;
                        link.heldUntil = Clock::now() + m_delay;
                        ++m_held;
                    }
                    link.toServer += bytes;
                }
            }
            if (link.server >= 0 && (fromServer.revents & (POLLIN | POLLHUP | POLLERR))) {
                const ssize_t got = ::recv(link.server, buffer, sizeof buffer, 0);
                if (got <= 0)
                    closeLink(link);
                else if (link.client >= 0)
                    writeAll(link.client, QByteArray(buffer, qsizetype(got)));
            }
            if (link.holding && Clock::now() >= link.heldUntil)
                link.holding = false;
            if (!link.holding && !link.toServer.isEmpty() && link.server >= 0) {
                if (!writeAll(link.server, link.toServer))
                    closeLink(link);
                link.toServer.clear();
            }
            if (link.client < 0 && !link.holding && link.toServer.isEmpty() && link.server >= 0) {
                ::close(link.server); // the late bytes are delivered; the server's answer has no reader
                link.server = -1;
            }
        }
        links.erase(std::remove_if(links.begin(), links.end(),
                                   [](const Link& link) { return link.client < 0 && link.server < 0; }),
                    links.end());
    }
    for (Link& link : links)
        closeLink(link);
}
