#pragma once

// zsetlab-cli's exit codes, a contract for scripts that call it.
enum ExitCode {
    ExitDone = 0,
    ExitFinding = 1, // doctor: the script counts wrong (the probe measured it, or an error finding); watch: overwrites
    ExitUsage = 2, // bad usage, with the reason on stderr
    ExitConnection = 3, // cannot connect or authenticate, or the server went away
    ExitScript = 4, // the script failed to load or run
    // The run itself ended well, but keys it made could not be deleted (the server refused DEL or
    // stayed BUSY, or went away): stderr names them, their TTL, and the command that deletes them.
    ExitKeysLeft = 5,
    // doctor --strict: the script counts right, but warnings were listed (an expiry that lingers,
    // a key not passed in KEYS, a known issue the probe did not show, replies that did not say).
    ExitWarnings = 6,
    // A file asked for (--save-replay, --export-html) could not be written: a full disk, say. stderr
    // gives the system's reason ("No space left on device"); no partial file is left, and a file
    // that was there stays as it was. A path that cannot take a file at all (a folder that does
    // not exist, a device, a named pipe, a symbolic link) is refused before any work, as bad usage.
    ExitNotWritten = 7,
    // The server deletes keys to make room when it is full (maxmemory with an evicting policy) and
    // the run or probe could push out keys zsetlab did not make: nothing was written (see
    // --allow-eviction); or, with consent, the run grew past half of the server's headroom and
    // was stopped, its keys deleted.
    ExitEviction = 8,
    // Ctrl+C or SIGTERM ended a run before every request was sent (128 + SIGINT, as shells report
    // it); the partial summary is printed. Distinct from 0 so that a script sees the run was cut short.
    ExitInterrupted = 130,
};

struct BurstFailure;
struct BurstSummary;

// The exit code for how a burst ended; the failure's message goes to stderr, after "command: ".
int exitCodeForBurst(const BurstFailure& failure, const char* command);
// The same for a whole run: ExitInterrupted when it was stopped before the end without a failure.
int exitCodeForRun(const BurstSummary& summary, const char* command);
