#include "watchrecording.h"

#include <QHash>

Recording WatchRecording::of(const QByteArray& key, const QVector<WatchRecord>& records,
                             const std::vector<WatchMember>& preexisting, const QString& serverName,
                             const QString& serverVersion)
{
    RecordingInfo info;
    info.source = QStringLiteral("watch");
    info.limiter = QStringLiteral("watched");
    info.knowledge = ZsetKnowledge::Watched;
    info.serverName = serverName;
    info.serverVersion = serverVersion;
    info.key = key;
    info.runTag = QByteArrayLiteral("watch");
    info.limit = 0; // the app's: an argument of its calls, not known from outside
    info.users = 1;

    // Who holds each member now: a request (>= 0) or a preexisting member (-1 - its index).
    QHash<QByteArray, qint32> holder;
    for (size_t k = 0; k < preexisting.size(); ++k) {
        SeededMember seeded;
        seeded.member = preexisting[k].first;
        seeded.score = preexisting[k].second;
        info.seeded.push_back(seeded);
        holder.insert(seeded.member, -1 - qint32(k));
    }
    WatchedWrites writes;
    writes.seededEnds.assign(preexisting.size(), ZsetHistory::alive);
    auto end = [&](const QByteArray& member, qint32 at) {
        const auto found = holder.find(member);
        if (found == holder.end())
            return; // not one the recording holds (it was there before and never read)
        if (*found >= 0)
            writes.ends[size_t(*found)] = at;
        else
            writes.seededEnds[size_t(-1 - *found)] = at;
        holder.erase(found);
    };

    std::vector<RequestRecord> rows;
    rows.reserve(size_t(records.size()));
    std::vector<qint64> truths;
    truths.reserve(size_t(records.size()));
    const qint64 firstUs = records.isEmpty() ? 0 : records.constFirst().timeUs;
    for (const WatchRecord& written : records) {
        const qint32 i = qint32(rows.size());
        for (const WatchMember& removed : written.removedBefore)
            end(removed.first, i);
        if (written.outcome == WatchRecord::Outcome::Skipped)
            continue; // its removals count before the next request
        end(written.member, i); // written again: the earlier write ends here
        holder.insert(written.member, i);
        RequestRecord row;
        row.id = quint32(i);
        row.added = written.outcome == WatchRecord::Outcome::Stored ? 1 : 0;
        row.memberKind = RequestRecord::MemberKind::Text;
        row.member = written.member;
        row.now = written.timeUs / 1000;
        row.sentMicros = written.timeUs - firstUs;
        row.count = written.sizeAfter;
        rows.push_back(std::move(row));
        truths.push_back(written.truthAfter);
        writes.scores.push_back(written.score);
        writes.ends.push_back(ZsetHistory::alive);
        for (const WatchMember& removed : written.removedAfter) // within its own call: gone after it
            end(removed.first, i);
    }
    info.requests = int(rows.size());
    info.startWallMs = firstUs / 1000;
    RequestLog log;
    log.reset(int(rows.size()), 0, 0, info.runTag);
    log.add(rows);
    for (int i = 0; i < int(truths.size()); ++i)
        log.setTruth(i, truths[size_t(i)]);
    return Recording(std::move(info), std::move(log), std::move(writes));
}
