#include "slidingwindowtruth.h"

SlidingWindowTruth::SlidingWindowTruth(qint64 window, qint64 limit)
    : m_window(window)
    , m_limit(limit)
{ }

bool SlidingWindowTruth::admit(qint64 now)
{
    // (now - window, now]: an admission at exactly now - window has left, as ZREMRANGEBYSCORE
    // 0 (now - window) removes it.
    while (!m_admitted.empty() && m_admitted.front() <= now - m_window)
        m_admitted.pop_front();
    if (m_limit > 0 && qint64(m_admitted.size()) >= m_limit)
        return false;
    if (m_limit > 0)
        m_admitted.push_back(now);
    return true;
}
