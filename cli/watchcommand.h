#pragma once

#include <QStringList>

// zsetlab-cli watch: watch a server's traffic through MONITOR, read-only, and report, per sorted
// set, the requests whose ZADD overwrote a member.
int runWatchCommand(const QStringList& arguments);
