#pragma once

#include "results/requestbatch.h"
#include "watchreport.h"

// Turns one watched key's ZADDs into the batches a run view draws, as if the app's requests were
// a burst of zsetlab's own: stored and overwritten on the timeline (by the server's millisecond),
// what the ZCARD after each ZADD counted beside the true count, and the figures so far. The watch
// is the timeline's third source of requests, after bursts and the lesson.
class WatchTimelineFeed
{
public:
    // Starts over for this key (db and name); the next batch begins at request 0.
    void reset(int db, const QByteArray& key);
    int db() const { return m_db; }
    const QByteArray& key() const { return m_key; }
    bool isFor(const WatchedKey& key) const { return key.db == m_db && key.key == m_key; }

    // The key's records since the previous snapshot as one batch (no records: no finished ones,
    // the figures all the same). Keys other than the one fed are ignored: an empty batch.
    RequestBatch take(const WatchedKey& key);
    // The requests handed on so far.
    qint64 requests() const { return m_next; }

private:
    int m_db = -1;
    QByteArray m_key;
    qint64 m_next = 0;
    qint64 m_firstUs = -1;
    qint64 m_maxCount = 0;
};
