#pragma once

// WatchRecording: a watched key's ZADDs as a recording, to step through and save like a burst.

#include "replay/recording.h"
#include "watchreport.h"

namespace WatchRecording {
// Request i is the key's i-th ZADD that wrote (a skipped XX/GT/LT write is none), as the timeline
// numbers them; `now` is the server's millisecond. The set at each request is what MONITOR
// showed: the members the key held before (`preexisting`), each ZADD's member and score, and the
// removals between them. serverName: "redis" or "valkey".
Recording of(const QByteArray& key, const QVector<WatchRecord>& records, const std::vector<WatchMember>& preexisting,
             const QString& serverName, const QString& serverVersion);
} // namespace WatchRecording
