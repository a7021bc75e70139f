#pragma once

#include <QStringList>

// zsetlab-cli app: play an app server's limiter traffic over several user keys, for a watch to see.
int runAppCommand(const QStringList& arguments);
