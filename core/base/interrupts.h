#pragma once

#include <functional>

// Calls `handler` on the main thread's event loop when the process gets SIGINT or SIGTERM
// (the self-pipe pattern: the signal handler only writes a byte). The CLI's commands and the
// app's headless runs use it, so that a signal ends them through their cleanup (the run's keys
// deleted, what was answered written) rather than in the middle.
void onInterrupt(std::function<void()> handler);
