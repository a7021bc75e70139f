#pragma once

#include <functional>

// SIGINT and SIGTERM, for the CLI's commands and the app: the signal handler only notes the
// signal and writes a byte to a pipe (the self-pipe pattern); the work is done on the main
// thread's event loop, so that a signal ends a run through its cleanup (the run's keys deleted,
// what was answered written) rather than in the middle.

// Installs the handlers (and unblocks the two signals, should the process have been started with
// them blocked). First thing in main(), before any work: a signal that comes at any later moment
// is then never lost. Safe to call again.
void installInterruptHandlers();

// True once SIGINT or SIGTERM arrived (at any time since installInterruptHandlers()).
bool interrupted();

// Calls `handler` on the event loop when SIGINT or SIGTERM arrives, or, when one arrived already,
// as soon as the event loop runs. A later call replaces the handler.
void onInterrupt(std::function<void()> handler);
