#pragma once

// RequestBatch: the requests a burst finished since the last batch, handed to views as values.

#include "burstsummary.h"
#include "requestrecord.h"

#include <QByteArray>
#include <QMetaType>

#include <memory>
#include <vector>

// What a burst engine hands its views every ~30 ms: immutable values, shared rather than copied,
// never pointers into the engine's log. Views keep what they derive from a batch, not the batch.
struct RequestBatch
{
    QByteArray runTag; // request ids are "<runTag>:<id>"
    qint64 startWallMs = 0; // the run's start on the wall clock
    qint64 nowUnitsPerMs = 1; // 1000 for a microsecond clock
    qint64 limit = 0;
    int requests = 0; // planned
    std::shared_ptr<const std::vector<RequestRecord>> finished; // in any order
    std::shared_ptr<const std::vector<CountedRequest>> counted; // in id order, following the last batch's
    BurstSummary summary; // the figures so far

    // The ZSET member a request wrote, as text (derived when the log keeps it short).
    QByteArray memberOf(const RequestRecord& record) const;
    // The requests of user `user` of `users` (request i is user i mod users), the rest as is.
    RequestBatch ofUser(int user, int users) const;
};

Q_DECLARE_METATYPE(RequestBatch)
