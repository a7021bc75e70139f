#pragma once

#include <QStringList>

// zsetlab-cli algorithms: the same traffic at each limiter algorithm, for accuracy, memory and
// server time.
int runAlgorithmsCommand(const QStringList& arguments);
