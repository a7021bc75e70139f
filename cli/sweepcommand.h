#pragma once

#include <QStringList>

// zsetlab-cli sweep: measure the stored fraction over a list of arrival rates, beside the theory.
int runSweepCommand(const QStringList& arguments);
