#include "watchtimelinefeed.h"

#include <QCoreApplication>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(WatchTimelineFeed)
};
} // namespace

void WatchTimelineFeed::reset(int db, const QByteArray& key)
{
    m_db = db;
    m_key = key;
    m_next = 0;
    m_firstUs = -1;
    m_maxCount = 0;
}

RequestBatch WatchTimelineFeed::take(const WatchedKey& key)
{
    RequestBatch batch;
    batch.runTag = QByteArrayLiteral("watch");
    if (!isFor(key))
        return batch;
    if (m_firstUs < 0 && !key.records.isEmpty())
        m_firstUs = key.records.constFirst().timeUs;
    auto finished = std::make_shared<std::vector<RequestRecord>>();
    auto counted = std::make_shared<std::vector<CountedRequest>>();
    finished->reserve(size_t(key.records.size()));
    for (const WatchRecord& written : key.records) {
        if (written.outcome == WatchRecord::Outcome::Skipped)
            continue; // nothing was written: not a request of the limiter's
        RequestRecord record;
        record.id = quint32(m_next++);
        record.added = written.outcome == WatchRecord::Outcome::Stored ? 1 : 0;
        record.memberKind = RequestRecord::MemberKind::Text;
        record.member = written.member;
        record.now = written.timeUs / 1000; // the server's millisecond: where same-ms requests collide
        record.sentMicros = written.timeUs - m_firstUs;
        record.count = written.sizeAfter;
        finished->push_back(record);
        if (written.truthAfter >= 0) {
            CountedRequest request;
            request.id = record.id;
            request.count = written.sizeAfter;
            request.truth = written.truthAfter;
            counted->push_back(request);
        }
        m_maxCount = std::max(m_maxCount, written.sizeAfter);
    }
    batch.startWallMs = m_firstUs < 0 ? 0 : m_firstUs / 1000;
    batch.requests = int(m_next);
    batch.finished = std::move(finished);
    batch.counted = std::move(counted);

    BurstSummary& summary = batch.summary;
    summary.limiter = Text::tr("watched");
    summary.key = key.key;
    summary.requests = m_next;
    summary.sent = key.distinctMembers + key.overwrites;
    summary.stored = key.distinctMembers;
    summary.overwritten = key.overwrites;
    summary.lost = key.overwrites;
    summary.membersAtEnd = key.exists ? key.size : 0;
    summary.finalCount = summary.membersAtEnd;
    summary.maxCount = m_maxCount;
    summary.limit = -1; // the app's limit is an argument of its calls: not known from outside
    return batch;
}
