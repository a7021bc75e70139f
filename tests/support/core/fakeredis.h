#pragma once

#include "redis/redisendpoint.h"

#include <QByteArray>
#include <QList>

#include <atomic>
#include <functional>
#include <thread>

// A socket listening on a free 127.0.0.1 port (the system picks it), for the tests' own servers;
// -1 when none could be made. *port is the port.
int listenOnLoopback(int* port);

// A hostile stand-in for a Redis server, for the tests of what zsetlab does when a server
// misbehaves: it listens on a free 127.0.0.1 port, reads each command a client sends (a RESP
// array) and answers with what the test's function returns for it: bytes sent at once, dripped
// one byte at a time, or followed by an endless stream of filler. Every stream is bounded in
// bytes and time, and ends when the client goes. Not a Redis: tests of Redis behaviour use the
// real redis-server of TestRedis.
class FakeRedis
{
public:
    struct Answer
    {
        enum class Mode {
            AtOnce,
            Drip, // one byte every dripMs
            Endless, // the bytes, then filler without end (no CRLF), up to the bounds below
        };
        QByteArray bytes;
        Mode mode = Mode::AtOnce;
        int dripMs = 200;
    };
    using Answerer = std::function<Answer(const QList<QByteArray>& command)>;

    explicit FakeRedis(Answerer answerer);
    ~FakeRedis(); // stops the thread and closes every socket
    FakeRedis(const FakeRedis&) = delete;
    FakeRedis& operator=(const FakeRedis&) = delete;

    bool isListening() const { return m_listener >= 0; }
    int port() const { return m_port; }
    RedisEndpoint endpoint() const;
    QString url() const;

    // The answer of a well-behaved Redis 7 to INFO server, for fakes that get past the handshake.
    static QByteArray infoServer();

    static constexpr qint64 maxStreamBytes = 2LL * 1024 * 1024 * 1024;
    static constexpr int maxStreamSeconds = 60;

private:
    void serve();

    Answerer m_answerer;
    int m_listener = -1;
    int m_port = 0;
    int m_wake[2] = {-1, -1};
    std::atomic<bool> m_stop {false};
    std::thread m_thread;
};
