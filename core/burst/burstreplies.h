#pragma once

#include "redis/redisreply.h"
#include "results/burstsummary.h"

// How a burst reads the server's error replies: which refuse only one request, which mean a
// missing permission, and which will fail every request alike.
namespace BurstReplies {
// Errors of the server's state, not of the script: each refuses one request (maxmemory with
// noeviction, a busy or loading server, a read-only replica) and a later one may pass. Redis 7
// keeps the code of an error raised inside a script; older servers wrap the OOM in a Lua error.
bool isServerStateError(const RedisReply& reply);
bool isPermissionError(const RedisReply& reply);
// A missing ACL permission stops the script from loading or running (exit 4 in the CLI); a
// password the server asks for after a restart is a matter of connecting (exit 3).
BurstFailure::Kind permissionFailureKind(const RedisReply& reply);
// Script errors that will fail every request alike: end the burst at the first one.
bool isScriptFault(const RedisReply& reply);
} // namespace BurstReplies
