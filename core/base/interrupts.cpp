#include "interrupts.h"

#include <QCoreApplication>
#include <QPointer>
#include <QSocketNotifier>

#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace {
int signalPipe[2] = {-1, -1};
std::atomic<int> lastSignal {0};
static_assert(std::atomic<int>::is_always_lock_free, "used from a signal handler");

void noteSignal(int signal)
{
    lastSignal.store(signal);
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(signalPipe[1], &byte, 1);
}

std::function<void()>& currentHandler()
{
    static std::function<void()> handler;
    return handler;
}
} // namespace

void installInterruptHandlers()
{
    if (signalPipe[0] >= 0)
        return;
    if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;
    struct sigaction action = {};
    action.sa_handler = noteSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    sigset_t both;
    sigemptyset(&both);
    sigaddset(&both, SIGINT);
    sigaddset(&both, SIGTERM);
    ::sigprocmask(SIG_UNBLOCK, &both, nullptr); // a signal pending since the start arrives now
}

bool interrupted()
{
    return lastSignal.load() != 0;
}

void onInterrupt(std::function<void()> handler)
{
    installInterruptHandlers();
    currentHandler() = std::move(handler);
    static QPointer<QSocketNotifier> notifier;
    if (notifier || signalPipe[0] < 0)
        return;
    // A signal noted before this call left its byte in the pipe: the notifier fires at once.
    notifier = new QSocketNotifier(signalPipe[0], QSocketNotifier::Read, qApp);
    QObject::connect(notifier, &QSocketNotifier::activated, qApp, [] {
        char bytes[16];
        while (::read(signalPipe[0], bytes, sizeof bytes) > 0) { }
        if (currentHandler())
            currentHandler()();
    });
}
