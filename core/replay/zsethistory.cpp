#include "zsethistory.h"

#include "base/interrupts.h"
#include "results/requestlog.h"

#include <QHash>

#include <algorithm>
#include <queue>
#include <unordered_map>

namespace {
// One user's ZSET while the history is built: its writes by score (stale entries are skipped when
// they surface), and who wrote each member last.
struct UserSet
{
    struct Writer
    {
        qint32 last = -1; // the request that wrote the member last
        qint32 writes = 0; // how many did
    };
    using Entry = std::pair<qint64, qint32>; // score, request
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> byScore;
    std::unordered_map<qint64, Writer> byNow; // members that are `now` in decimal
    QHash<QByteArray, Writer> byText; // members given as text
    qint32 size = 0;
};
} // namespace

void ZsetHistory::clear()
{
    m_end.clear();
    m_size.clear();
    m_writeNumber.clear();
    m_blockLastEnd.clear();
}

void ZsetHistory::build(const RequestLog& log)
{
    ZsetHistoryBuilder builder;
    *this = builder.finish(log);
}

void ZsetHistory::summarizeBlocks()
{
    const int n = requests();
    m_blockLastEnd.assign(size_t((n + blockSize - 1) / blockSize), -1);
    for (int i = 0; i < n; ++i) {
        if (wrote(i)) {
            qint32& last = m_blockLastEnd[size_t(i / blockSize)];
            last = std::max(last, m_end[size_t(i)]);
        }
    }
}

struct ZsetHistoryBuilder::Users
{
    std::vector<UserSet> sets;
};

ZsetHistoryBuilder::ZsetHistoryBuilder()
    : m_users(std::make_unique<Users>())
{ }

ZsetHistoryBuilder::~ZsetHistoryBuilder() = default;
ZsetHistoryBuilder::ZsetHistoryBuilder(ZsetHistoryBuilder&&) noexcept = default;
ZsetHistoryBuilder& ZsetHistoryBuilder::operator=(ZsetHistoryBuilder&&) noexcept = default;

void ZsetHistoryBuilder::reset()
{
    m_history.clear();
    m_users = std::make_unique<Users>();
}

void ZsetHistoryBuilder::advance(const RequestLog& log)
{
    const int n = log.keepsRequests() ? log.truthPrefix() : 0;
    const int from = m_history.requests();
    if (n <= from)
        return;
    if (m_users->sets.size() < size_t(log.users()))
        m_users->sets.resize(size_t(log.users()));
    std::vector<qint32>& ends = m_history.m_end;
    ends.resize(size_t(n));
    m_history.m_size.resize(size_t(n));
    m_history.m_writeNumber.resize(size_t(n), 0);
    for (int i = from; i < n; ++i) {
        if ((i & 0xffff) == 0 && i > from && interrupted()) {
            // Ctrl+C or SIGTERM: the history stops here, whole as far as it goes (its reader is
            // about to give up on it, ReplayFile::decode()).
            ends.resize(size_t(i));
            m_history.m_size.resize(size_t(i));
            m_history.m_writeNumber.resize(size_t(i));
            return;
        }
        ends[size_t(i)] = i;
        UserSet& set = m_users->sets[size_t(log.userOf(i))];
        if (!log.isFailed(i)) {
            const qint64 horizon = log.now(i) - log.windowInNowUnits();
            while (!set.byScore.empty() && set.byScore.top().first <= horizon) {
                const qint32 w = set.byScore.top().second;
                set.byScore.pop();
                if (ends[size_t(w)] == ZsetHistory::alive) {
                    ends[size_t(w)] = i;
                    --set.size;
                }
            }
            const auto kind = log.memberKind(i);
            if (log.added(i) >= 0 && kind != RequestRecord::MemberKind::Unknown) {
                UserSet::Writer* writer = nullptr;
                if (kind == RequestRecord::MemberKind::Now)
                    writer = &set.byNow[log.now(i)];
                else if (kind == RequestRecord::MemberKind::Text)
                    writer = &set.byText[log.member(i)];
                // a request id is unique: never written before
                if (writer && writer->last >= 0 && ends[size_t(writer->last)] == ZsetHistory::alive) {
                    ends[size_t(writer->last)] = i;
                    --set.size;
                }
                if (writer) {
                    writer->last = i;
                    m_history.m_writeNumber[size_t(i)] = ++writer->writes;
                } else {
                    m_history.m_writeNumber[size_t(i)] = 1;
                }
                ends[size_t(i)] = ZsetHistory::alive;
                ++set.size;
                set.byScore.emplace(log.now(i), i);
            }
        }
        m_history.m_size[size_t(i)] = set.size;
    }
}

ZsetHistory ZsetHistoryBuilder::finish(const RequestLog& log)
{
    advance(log);
    ZsetHistory history = std::move(m_history);
    history.summarizeBlocks();
    reset();
    return history;
}

void ZsetHistory::buildFromEnds(const RequestLog& log, const std::vector<qint32>& ends)
{
    clear();
    const int n = std::min(int(ends.size()), log.keepsRequests() ? log.truthPrefix() : 0);
    m_end.assign(ends.begin(), ends.begin() + n);
    m_size.assign(size_t(n), 0);
    m_writeNumber.assign(size_t(n), 0);
    std::vector<qint32> leaving(size_t(n) + 1, 0); // per request: writes that end at it
    QHash<QByteArray, qint32> writesOf;
    qint32 size = 0;
    for (int i = 0; i < n; ++i) {
        qint32& end = m_end[size_t(i)];
        if (end != alive && (end < i || end > n))
            end = alive; // out of range: taken as still there
        size -= leaving[size_t(i)];
        if (end != i) {
            ++size;
            m_writeNumber[size_t(i)] = ++writesOf[log.member(i)];
            if (end != alive)
                ++leaving[size_t(end)];
        }
        m_size[size_t(i)] = size;
    }
    summarizeBlocks();
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
    return (m_end.capacity() + m_size.capacity() + m_writeNumber.capacity() + m_blockLastEnd.capacity())
        * sizeof(qint32);
}
