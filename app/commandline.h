#pragma once

// The command line of `zsetlab`: AppOptions and the parser that reads them before any window exists.

#include "animation/animationexport.h"
#include "headlessexport.h"
#include "redis/redisserverchoice.h"

#include <QString>
#include <QStringList>

// zsetlab's command line, read before any window or display exists, so that --help, --version and
// usage errors work over ssh without a display.
struct AppOptions
{
    // --redis with the TLS options, --no-spawn, --private (a fresh private server, not 6379).
    RedisServerChoice::Request server;
    bool allowRemote = false; // --allow-remote: headless runs may fire at a server not on this machine
    QString scenarioPath;
    QString replayPath; // --replay FILE, or a file named alone (zsetlab FILE.zsetreplay)
    QString language; // "en", "vi" or empty for the system's
    bool exporting = false;
    int lessonStep = -1; // --lesson: a 1-based step, 0 for all; -1 without --lesson
    HeadlessExport::Job job; // size, scale and output files when exporting
    QString pdf; // --export-pdf: the lesson's handout
    // --export-gif / --export-video with --from, --to and --speed: a replay as an animation.
    bool animating = false;
    AnimationJob animation;
    // --export-html OUT.html with --replay (and --beside FILE): the replay as a web page.
    QString htmlPath;
    QString besidePath;
};

namespace AppCommandLine {
struct Result
{
    enum class Outcome { Run, Help, Version, UsageError };
    Outcome outcome = Outcome::Run;
    AppOptions options;
    QString text; // the help or version text, or the usage error
    int exitCode() const { return outcome == Outcome::UsageError ? 2 : 0; }
};

// Needs a QCoreApplication (for the program's name and version), not a QGuiApplication.
Result parse(const QStringList& arguments);
} // namespace AppCommandLine
