#pragma once

#include <QStringList>

// zsetlab-cli run: fire one burst and print its summary.
int runRunCommand(const QStringList& arguments);
