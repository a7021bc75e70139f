#pragma once

// zsetlab-cli's exit codes, a contract for scripts that call it.
enum ExitCode {
    ExitDone = 0,
    ExitFinding = 1, // doctor: a problem was found
    ExitUsage = 2, // bad usage, with the reason on stderr
    ExitConnection = 3, // cannot connect or authenticate, or the server went away
    ExitScript = 4, // the script failed to load or run
};

struct BurstFailure;

// The exit code for how a burst ended; the failure's message goes to stderr, after "command: ".
int exitCodeForBurst(const BurstFailure& failure, const char* command);
