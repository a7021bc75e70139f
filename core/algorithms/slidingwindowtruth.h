#pragma once

#include <QtGlobal>

#include <deque>

// The reference the limiter algorithms are measured against: an exact sliding log of admissions.
// A request at time t is admitted iff fewer than `limit` requests that this reference admitted
// lie in the window (t - window, t]; a refused request takes no place in it. This is what a
// limiter with unique members that logs only what it admits decides (lua/sliding-log.lua).
// Times are given in the order the requests reach the limiter and never go back.
class SlidingWindowTruth
{
public:
    SlidingWindowTruth(qint64 window, qint64 limit);

    // Decides the next request; true when the reference admits it.
    bool admit(qint64 now);
    // The admitted requests in the window ending at the last request decided.
    qint64 inWindow() const { return qint64(m_admitted.size()); }

private:
    qint64 m_window;
    qint64 m_limit;
    std::deque<qint64> m_admitted; // times, oldest first; never more than `limit`
};
