#include "interrupts.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <unistd.h>

namespace {
int signalPipe[2] = {-1, -1};

void writeSignalByte(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(signalPipe[1], &byte, 1);
}
} // namespace

void onInterrupt(std::function<void()> handler)
{
    if (signalPipe[0] < 0 && ::pipe(signalPipe) != 0)
        return;
    auto* notifier = new QSocketNotifier(signalPipe[0], QSocketNotifier::Read, qApp);
    QObject::connect(notifier, &QSocketNotifier::activated, qApp, [handler = std::move(handler)] {
        char byte;
        [[maybe_unused]] const auto got = ::read(signalPipe[0], &byte, 1);
        handler();
    });
    std::signal(SIGINT, writeSignalByte);
    std::signal(SIGTERM, writeSignalByte);
}
