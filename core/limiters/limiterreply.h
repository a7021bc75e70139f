#pragma once

#include "redis/redisreply.h"
#include "results/requestrecord.h"

#include <QByteArray>

// Reads what a limiter script answered for one request into its record: {count, added, member}
// from the built-in scripts, or a bare count from scripts in the article's style. The member is
// recognised as `now` or as the request's own id, so the log need not store it as text.
// Returns false, with record->error set, when the reply has neither shape. A free function (not
// part of BurstRun) so that replies straight off the wire can be fuzzed without a server.
bool readLimiterReply(const RedisReply& reply, qint64 now, const QByteArray& requestId, RequestRecord* record);

// Reads {allowed, count, added} (count and added when the script has them) from the catalog's
// algorithms: the script's decision into record->verdict. False, with record->error, otherwise.
bool readDecisionReply(const RedisReply& reply, RequestRecord* record);
