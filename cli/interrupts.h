#pragma once

#include <functional>

// Calls `handler` on the main thread's event loop when the process gets SIGINT or SIGTERM
// (the self-pipe pattern: the signal handler only writes a byte).
void onInterrupt(std::function<void()> handler);
