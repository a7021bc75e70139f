#pragma once

#include <QStringList>

// zsetlab-cli replay FILE [--at N] [--members] [--json]: a recorded run's state at one request.
int runReplayCommand(const QStringList& arguments);
