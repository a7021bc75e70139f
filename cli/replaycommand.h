#pragma once

#include <QStringList>

// zsetlab-cli replay FILE [--at N] [--members] [--json]: a recorded run's state at one request;
// --export-html OUT.html: the run as a web page (replaypage.h).
int runReplayCommand(const QStringList& arguments);
