#pragma once

#include <QStringList>

// zsetlab-cli doctor: read a user's limiter script, and with --live probe it on Redis.
int runDoctorCommand(const QStringList& arguments);
