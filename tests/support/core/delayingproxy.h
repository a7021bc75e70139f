#pragma once

#include <QByteArray>

#include <atomic>
#include <chrono>
#include <thread>

// A slow link between a client and the test's redis-server: it listens on a free 127.0.0.1 port
// and forwards every connection to the server's unix socket, byte for byte, except that what a
// client sends is held for `delay` once it contains `trigger` (a command's name, as hiredis sends
// it), and everything the client sends after it waits behind it. For the tests of what zsetlab
// does when a command reaches the server later than its reply was waited for. Bounded: at most
// 16 connections, and it ends with the object.
class DelayingProxy
{
public:
    DelayingProxy(const QByteArray& socketPath, const QByteArray& trigger, std::chrono::milliseconds delay);
    ~DelayingProxy();
    DelayingProxy(const DelayingProxy&) = delete;
    DelayingProxy& operator=(const DelayingProxy&) = delete;

    bool isListening() const { return m_listener >= 0; }
    int port() const { return m_port; }
    // Commands that were held (each once).
    int held() const { return m_held; }

private:
    void serve();

    QByteArray m_socketPath;
    QByteArray m_trigger;
    std::chrono::milliseconds m_delay;
    int m_listener = -1;
    int m_port = 0;
    int m_wake[2] = {-1, -1};
    std::atomic<bool> m_stop {false};
    std::atomic<int> m_held {0};
    std::thread m_thread;
};
