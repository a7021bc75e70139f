#pragma once

#include <QStringList>

// zsetlab-cli server: start a private redis-server, print its URL, keep it until interrupted.
int runServerCommand(const QStringList& arguments);
