#include "zsethistory.h"

#include "requestlog.h"

#include <QHash>

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace {
// One user's ZSET while the history is built: its writes by score (stale entries are skipped when
// they surface), and who wrote each member last.
struct UserSet
{
    using Entry = std::pair<qint64, qint32>; // score, request
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> byScore;
    std::unordered_map<qint64, qint32> byNow; // members that are `now` in decimal
    QHash<QByteArray, qint32> byText; // members given as text
    qint32 size = 0;
};
} // namespace

void ZsetHistory::clear()
{
    m_end.clear();
    m_size.clear();
    m_blockLastEnd.clear();
}

void ZsetHistory::build(const RequestLog& log)
{
    clear();
    const int n = log.keepsRequests() ? log.truthPrefix() : 0;
    m_end.resize(size_t(n));
    m_size.resize(size_t(n));
    std::vector<UserSet> users(size_t(log.users()));
    for (int i = 0; i < n; ++i) {
        m_end[size_t(i)] = i;
        UserSet& set = users[size_t(log.userOf(i))];
        if (!log.isFailed(i)) {
            const qint64 horizon = log.now(i) - log.windowInNowUnits();
            while (!set.byScore.empty() && set.byScore.top().first <= horizon) {
                const qint32 w = set.byScore.top().second;
                set.byScore.pop();
                if (m_end[size_t(w)] == alive) {
                    m_end[size_t(w)] = i;
                    --set.size;
                }
            }
            const auto kind = log.memberKind(i);
            if (log.added(i) >= 0 && kind != RequestRecord::MemberKind::Unknown) {
                qint32* last = nullptr;
                if (kind == RequestRecord::MemberKind::Now)
                    last = &set.byNow.try_emplace(log.now(i), -1).first->second;
                else if (kind == RequestRecord::MemberKind::Text)
                    last = &set.byText.insert(log.member(i), -1).value();
                // a request id is unique: never written before
                if (last && *last >= 0 && m_end[size_t(*last)] == alive) {
                    m_end[size_t(*last)] = i;
                    --set.size;
                }
                if (last)
                    *last = i;
                m_end[size_t(i)] = alive;
                ++set.size;
                set.byScore.emplace(log.now(i), i);
            }
        }
        m_size[size_t(i)] = set.size;
    }
    m_blockLastEnd.assign(size_t((n + blockSize - 1) / blockSize), -1);
    for (int i = 0; i < n; ++i) {
        if (wrote(i)) {
            qint32& last = m_blockLastEnd[size_t(i / blockSize)];
            last = std::max(last, m_end[size_t(i)]);
        }
    }
}

std::vector<int> ZsetHistory::writesAliveAfter(const RequestLog& log, int i, int user) const
{
    std::vector<int> writes;
    if (i < 0 || i >= requests())
        return writes;
    writes.reserve(size_t(std::max(m_size[size_t(i)], 0)));
    const int blocks = i / blockSize + 1;
    for (int b = 0; b < blocks; ++b) {
        if (m_blockLastEnd[size_t(b)] <= i)
            continue;
        const int last = std::min((b + 1) * blockSize, i + 1);
        for (int w = b * blockSize; w < last; ++w) {
            if (m_end[size_t(w)] > i && wrote(w) && log.userOf(w) == user)
                writes.push_back(w);
        }
    }
    return writes;
}

size_t ZsetHistory::memoryBytes() const
{
    return (m_end.capacity() + m_size.capacity() + m_blockLastEnd.capacity()) * sizeof(qint32);
}
