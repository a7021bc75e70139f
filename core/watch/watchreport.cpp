#include "watchreport.h"

#include <algorithm>

#include <QCoreApplication>
#include <QJsonArray>
#include <QLocale>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(WatchReport)
};

QString verdictFor(qint64 requests, qint64 overwrites, qint64 overwritesOfTime)
{
    const QLocale locale;
    if (requests == 0 && overwrites == 0)
        return Text::tr("No request reached a watched key. Check --pattern and the database, and that the app "
                        "sends requests while the watch runs.");
    if (overwrites == 0)
        return Text::tr("None of %1 requests overwrote a member: each request kept a member of its own.")
            .arg(locale.toString(requests));
    if (overwritesOfTime * 2 >= overwrites)
        return Text::tr("%1 of %2 requests overwrote a member: the member is the time, so requests in the same "
                        "millisecond share one member and the limiter counts them once. Use a unique member: "
                        "the time plus a request id or a per-key sequence number.")
            .arg(locale.toString(overwrites), locale.toString(requests));
    return Text::tr("%1 of %2 requests overwrote a member: requests share members, so the limiter counts them "
                    "once. Use a unique member: the time plus a request id or a per-key sequence number.")
        .arg(locale.toString(overwrites), locale.toString(requests));
}
} // namespace

QString WatchedKey::verdict() const
{
    return verdictFor(requests, overwrites, overwritesOfTime);
}

QJsonObject WatchedKey::toJson() const
{
    QJsonArray sourceList;
    for (const WatchSource& source : sources) {
        QJsonObject item {{QStringLiteral("requests"), source.requests},
                          {QStringLiteral("overwrites"), source.overwrites}};
        if (source.kind == WatchSource::Kind::Script) {
            item.insert(QStringLiteral("kind"), QStringLiteral("script"));
            item.insert(QStringLiteral("sha"), QString::fromUtf8(source.id));
        } else {
            item.insert(QStringLiteral("kind"), QStringLiteral("client"));
            item.insert(QStringLiteral("client"), QString::fromUtf8(source.id));
        }
        sourceList.append(item);
    }
    return {{QStringLiteral("key"), QString::fromUtf8(key)},
            {QStringLiteral("db"), db},
            {QStringLiteral("requests"), requests},
            {QStringLiteral("zadds"), zadds},
            {QStringLiteral("overwrites"), overwrites},
            {QStringLiteral("distinct_members"), distinctMembers},
            {QStringLiteral("size"), size},
            {QStringLiteral("true_count"), trueCount},
            {QStringLiteral("state_known"), stateKnown},
            {QStringLiteral("capped"), capped},
            {QStringLiteral("sources"), sourceList},
            {QStringLiteral("other_sources_requests"), otherSources},
            {QStringLiteral("dropped_records"), droppedRecords}};
}

WatchSnapshot WatchSnapshot::merged(const QVector<WatchSnapshot>& parts)
{
    if (parts.size() == 1)
        return parts.first();
    WatchSnapshot all;
    for (const WatchSnapshot& part : parts) {
        all.elapsedMs = std::max(all.elapsedMs, part.elapsedMs);
        all.commandsSeen += part.commandsSeen;
        all.droppedLines += part.droppedLines;
        all.scriptCalls += part.scriptCalls;
        all.droppedKeys += part.droppedKeys;
        all.cappedKeys += part.cappedKeys;
        all.scriptsNotKept += part.scriptsNotKept;
        all.keys += part.keys;
        all.scripts.insert(part.scripts);
    }
    std::sort(all.keys.begin(), all.keys.end(),
              [](const WatchedKey& a, const WatchedKey& b) { return a.db != b.db ? a.db < b.db : a.key < b.key; });
    return all;
}

qint64 WatchSnapshot::requests() const
{
    qint64 total = 0;
    for (const WatchedKey& key : keys)
        total += key.requests;
    return total;
}

qint64 WatchSnapshot::overwrites() const
{
    qint64 total = 0;
    for (const WatchedKey& key : keys)
        total += key.overwrites;
    return total;
}

QString WatchSnapshot::verdict() const
{
    qint64 ofTime = 0;
    for (const WatchedKey& key : keys)
        ofTime += key.overwritesOfTime;
    return verdictFor(requests(), overwrites(), ofTime);
}
