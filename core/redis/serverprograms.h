#pragma once

// ServerPrograms: the redis-server and redis-cli zsetlab starts (its private server, the tests'
// and benchmarks' private cluster). By default the ones on PATH; ZSETLAB_REDIS_SERVER and
// ZSETLAB_REDIS_CLI name others, as a program on PATH or a path, so that zsetlab and its tests
// run against Valkey or another Redis (scripts/compat.sh).

#include <QString>

namespace ServerPrograms {
// The program's path; empty when there is none.
QString server();
QString cli();
} // namespace ServerPrograms
