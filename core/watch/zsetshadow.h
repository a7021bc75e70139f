#pragma once

// ZsetShadow: one ZSET as MONITOR's commands leave it (ZADD, ZREM*, EXPIRE), without reading Redis.

#include <QByteArray>

#include <QHash>
#include <set>
#include <utility>
#include <vector>

// One end of a ZREMRANGEBYSCORE range: "5", "(5", "-inf", "+inf".
struct ScoreBound
{
    double value = 0;
    bool exclusive = false;

    static bool parse(const QByteArray& text, ScoreBound* bound);
};

// One end of a ZREMRANGEBYLEX range: "-", "+", "[member", "(member".
struct LexBound
{
    enum class Kind { Lowest, Highest, Inclusive, Exclusive };
    Kind kind = Kind::Lowest;
    QByteArray member;

    static bool parse(const QByteArray& text, LexBound* bound);
};

// A score as Redis reads one (ZADD, ZINCRBY): a finite number or ±inf; never NaN.
bool parseScore(const QByteArray& text, double* score);
// One to 15 decimal digits and nothing else (a time in milliseconds, a counter), read exactly:
// the quick way for what limiters write, where QByteArray::toDouble() gives the same.
bool readPlainInteger(const QByteArray& text, double* value);

// A copy of one sorted set's members and scores, kept in Redis's order (score, then the member's
// bytes), with the operations of the commands that change it. Each returns what it removed.
class ZsetShadow
{
public:
    using Member = std::pair<QByteArray, double>;

    qint64 size() const { return static_cast<qint64>(m_scores.size()); }
    bool contains(const QByteArray& member) const { return m_scores.contains(member); }
    double score(const QByteArray& member) const { return m_scores.value(member); }
    // contains() and score() in one look-up.
    bool find(const QByteArray& member, double* score) const
    {
        const auto found = m_scores.constFind(member);
        if (found == m_scores.constEnd())
            return false;
        *score = *found;
        return true;
    }

    void set(const QByteArray& member, double score);
    bool remove(const QByteArray& member);
    void clear();
    qint64 removeByScore(const ScoreBound& min, const ScoreBound& max);
    qint64 removeByRank(qint64 start, qint64 stop);
    qint64 removeByLex(const LexBound& min, const LexBound& max);
    // ZPOPMIN (lowest first) or ZPOPMAX.
    qint64 pop(qint64 count, bool highest);
    std::vector<Member> members() const; // in order
    // What the copy holds in memory, about: its members' bytes and a fixed cost per member (two
    // containers' nodes): what the watch's bounds count.
    qint64 bytes() const { return m_bytes; }
    static constexpr qint64 bytesPerMember = 160;
    // Adds each change of bytes() to *total too (the sum over a watch's keys); null: none.
    void setByteTotal(qint64* total) { m_total = total; }
    // Every member removed from here on (by any operation above) is appended to *removed, with the
    // score it had; null: none kept.
    void setRemovalSink(std::vector<Member>* removed) { m_removed = removed; }

private:
    struct Entry
    {
        double score;
        QByteArray member;
        bool operator<(const Entry& other) const
        {
            return score < other.score || (score == other.score && member < other.member);
        }
    };
    void eraseEntry(std::set<Entry>::iterator it);

    QHash<QByteArray, double> m_scores;
    std::set<Entry> m_ordered;
    void addBytes(qint64 bytes)
    {
        m_bytes += bytes;
        if (m_total)
            *m_total += bytes;
    }

    std::vector<Member>* m_removed = nullptr;
    qint64 m_bytes = 0;
    qint64* m_total = nullptr;
};
