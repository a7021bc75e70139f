#include "pagedata.h"

#include "base/interrupts.h"
#include "limiters/limitercatalog.h"
#include "replay/recording.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtEndian>

#include <algorithm>
#include <cstring>

namespace {
enum Flag : quint8 {
    Failed = 1,
    AddedKnown = 2,
    Added = 4,
    Admitted = 16,
    BeyondLimit = 32,
};

void putVarint(QByteArray* out, quint64 value)
{
    while (value >= 0x80) {
        out->append(char(value | 0x80));
        value >>= 7;
    }
    out->append(char(value));
}

void putSigned(QByteArray* out, qint64 value)
{
    putVarint(out, (quint64(value) << 1) ^ quint64(value >> 63));
}

void putBlock(QByteArray* out, const QByteArray& block)
{
    putVarint(out, quint64(block.size()));
    out->append(block);
}

// A column of signed values, each written as the difference from the one before.
class DeltaColumn
{
public:
    void add(qint64 value)
    {
        putSigned(&m_bytes, value - m_previous);
        m_previous = value;
    }
    const QByteArray& bytes() const { return m_bytes; }

private:
    QByteArray m_bytes;
    qint64 m_previous = 0;
};

// How many seeded members of each user are still there after each request, in one sweep: the
// count stateAt() gets member by member (Recording::seededAliveAfter), without its cost per request.
class SeededSweep
{
public:
    explicit SeededSweep(const Recording& recording)
        : m_alive(size_t(std::max(recording.info().users, 1)), 0)
    {
        const auto& seeded = recording.info().seeded;
        const auto& ends = recording.seededEnds();
        for (size_t k = 0; k < seeded.size() && k < ends.size(); ++k) {
            const size_t user = size_t(std::clamp(seeded[k].user, 0, int(m_alive.size()) - 1));
            if (size_t(seeded[k].user) != user)
                continue; // stateAt() lists a member only under the user it names
            ++m_alive[user];
            m_ends.emplace_back(ends[k], user);
        }
        std::sort(m_ends.begin(), m_ends.end());
    }
    // Seeded members of `user` alive after request i; i grows from call to call.
    qint64 aliveAfter(int i, int user)
    {
        while (m_next < m_ends.size() && m_ends[m_next].first <= i)
            --m_alive[m_ends[m_next++].second];
        return user >= 0 && size_t(user) < m_alive.size() ? m_alive[size_t(user)] : 0;
    }

private:
    std::vector<qint64> m_alive;
    std::vector<std::pair<qint32, size_t>> m_ends;
    size_t m_next = 0;
};

quint8 flagsOf(const RequestLog& log, int i)
{
    quint8 flags = 0;
    if (log.isFailed(i))
        flags |= Failed;
    if (log.added(i) >= 0)
        flags |= AddedKnown;
    if (log.added(i) == 1)
        flags |= Added;
    if (log.isAdmitted(i))
        flags |= Admitted;
    if (log.isAdmittedOverLimit(i))
        flags |= BeyondLimit;
    return flags;
}
} // namespace

QJsonObject PageData::sideHeader(const Recording& recording, const QString& title)
{
    const RecordingInfo& info = recording.info();
    QJsonObject side;
    side[QStringLiteral("title")] = title;
    side[QStringLiteral("strategy")] = info.limiter;
    if (const LimiterRef limiter = LimiterCatalog::find(info.limiter); limiter && limiter->isBuiltin())
        side[QStringLiteral("builtin")] = true;
    side[QStringLiteral("source")] = info.source;
    side[QStringLiteral("state_from")] = zsetKnowledgeName(info.knowledge);
    side[QStringLiteral("limit")] = info.knowledge == ZsetKnowledge::Watched ? -1 : info.limit;
    side[QStringLiteral("window")] = info.windowInNowUnits;
    side[QStringLiteral("units_per_ms")] = info.nowUnitsPerMs;
    side[QStringLiteral("users")] = std::max(info.users, 1);
    side[QStringLiteral("planned")] = info.requests;
    side[QStringLiteral("server")]
        = QString((info.serverName == QLatin1String("valkey") ? QStringLiteral("Valkey ") : QStringLiteral("Redis "))
                  + info.serverVersion);
    side[QStringLiteral("made_by")] = info.madeBy;
    side[QStringLiteral("start_wall_ms")] = info.startWallMs;
    side[QStringLiteral("run_tag")] = QString::fromUtf8(info.runTag);
    QJsonArray keys;
    for (int user = 0; user < std::max(info.users, 1); ++user)
        keys.append(QString::fromUtf8(recording.keyOfUser(user)));
    side[QStringLiteral("keys")] = keys;
    side[QStringLiteral("errors")] = QJsonArray::fromStringList(recording.log().errorMessages());
    QJsonArray seeded;
    const auto& ends = recording.seededEnds();
    for (size_t k = 0; k < info.seeded.size(); ++k) {
        const SeededMember& member = info.seeded[k];
        const qint32 end = k < ends.size() ? ends[k] : ZsetHistory::alive;
        seeded.append(
            QJsonObject {{QStringLiteral("user"), member.user},
                         {QStringLiteral("member"), QString::fromLatin1(member.member.toBase64())},
                         {QStringLiteral("score"), member.score},
                         {QStringLiteral("end"), end == ZsetHistory::alive ? QJsonValue() : QJsonValue(end)}});
    }
    side[QStringLiteral("seeded")] = seeded;
    side[QStringLiteral("has_scores")] = !recording.watched().scores.empty();
    return side;
}

QByteArray PageData::sideColumns(const Recording& recording)
{
    const RequestLog& log = recording.log();
    const ZsetHistory& history = recording.history();
    const int n = recording.requests();
    const bool countsOnly = recording.info().knowledge == ZsetKnowledge::CountsOnly;
    QByteArray flags;
    QByteArray kinds;
    QByteArray ends;
    QByteArray writes;
    QByteArray texts;
    QByteArray errors;
    QByteArray scores;
    DeltaColumn nows;
    DeltaColumn counts;
    DeltaColumn truths;
    DeltaColumn members;
    flags.reserve(n);
    kinds.reserve(n);
    SeededSweep seeded(recording);
    int errorCount = 0;
    QByteArray errorPairs;
    int previousError = 0;
    const QStringList& errorTexts = log.errorMessages();
    for (int i = 0; i < n; ++i) {
        if ((i & 0xffff) == 0 && interrupted()) // Ctrl+C or SIGTERM: WebPage::write() writes nothing
            return {};
        const bool failed = log.isFailed(i);
        flags.append(char(flagsOf(log, i)));
        const auto kind = log.memberKind(i);
        kinds.append(char(kind));
        if (kind == RequestRecord::MemberKind::Text)
            putBlock(&texts, log.member(i));
        nows.add(log.now(i));
        counts.add(failed ? -1 : std::max<qint64>(log.count(i), -1));
        truths.add(std::max<qint64>(log.truth(i), -1));
        const int user = log.userOf(i);
        members.add(countsOnly ? -1 : history.sizeAfter(i) + seeded.aliveAfter(i, user));
        const qint32 end = history.endOf(i);
        putVarint(&ends, end == ZsetHistory::alive ? 0 : quint64(end - i + 1));
        putVarint(&writes, quint64(std::max(history.writesOfMemberThrough(i), 0)));
        if (const QString error = log.error(i); !error.isEmpty()) {
            putVarint(&errorPairs, quint64(i - previousError));
            putVarint(&errorPairs, quint64(std::max<qsizetype>(errorTexts.indexOf(error), 0)));
            previousError = i;
            ++errorCount;
        }
    }
    putVarint(&errors, quint64(errorCount));
    errors.append(errorPairs);
    const std::vector<double>& watchedScores = recording.watched().scores;
    if (!watchedScores.empty()) {
        scores.resize(qsizetype(n) * 8);
        for (int i = 0; i < n; ++i) {
            const double score = size_t(i) < watchedScores.size() ? watchedScores[size_t(i)] : double(log.now(i));
            quint64 bits = 0;
            std::memcpy(&bits, &score, sizeof bits);
            qToLittleEndian(bits, scores.data() + qsizetype(i) * 8);
        }
    }
    QByteArray out;
    putVarint(&out, quint64(n));
    for (const QByteArray* column :
         std::initializer_list<const QByteArray*> {&flags, &kinds, &nows.bytes(), &counts.bytes(), &truths.bytes(),
                                                   &members.bytes(), &ends, &writes, &texts, &errors})
        putBlock(&out, *column);
    if (!watchedScores.empty())
        putBlock(&out, scores);
    return out;
}

QByteArray PageData::pack(const QJsonObject& header, const std::vector<const Recording*>& sides)
{
    QByteArray raw;
    putBlock(&raw, QJsonDocument(header).toJson(QJsonDocument::Compact));
    for (const Recording* side : sides)
        raw.append(sideColumns(*side));
    // qCompress: a 4-byte length, then a zlib stream, which the browser unpacks as "deflate".
    return qCompress(raw, 9).mid(4);
}
