#pragma once

#include <QStringList>

// zsetlab-cli clients: one burst from several simulated app servers, each with its own
// connection, rate and clock, and what each of them lost.
int runClientsCommand(const QStringList& arguments);
