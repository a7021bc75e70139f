#include "zsetshadow.h"

#include <cmath>
#include <limits>

bool readPlainInteger(const QByteArray& text, double* value)
{
    const qsizetype size = text.size();
    if (size == 0 || size > 15) // below 2^53: every such integer is a double exactly
        return false;
    const char* digits = text.constData();
    qint64 integer = 0;
    for (qsizetype i = 0; i < size; ++i) {
        if (digits[i] < '0' || digits[i] > '9')
            return false;
        integer = integer * 10 + (digits[i] - '0');
    }
    *value = double(integer);
    return true;
}

bool parseScore(const QByteArray& text, double* score)
{
    if (readPlainInteger(text, score))
        return true;
    const QByteArray lower = text.toLower();
    if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity") {
        *score = std::numeric_limits<double>::infinity();
        return true;
    }
    if (lower == "-inf" || lower == "-infinity") {
        *score = -std::numeric_limits<double>::infinity();
        return true;
    }
    if (text.isEmpty() || text.front() == ' ' || text.back() == ' ')
        return false;
    bool ok = false;
    const double value = text.toDouble(&ok);
    if (!ok || std::isnan(value))
        return false;
    *score = value;
    return true;
}

bool ScoreBound::parse(const QByteArray& text, ScoreBound* bound)
{
    const bool exclusive = text.startsWith('(');
    double value = 0;
    if (!parseScore(exclusive ? text.mid(1) : text, &value))
        return false;
    bound->value = value;
    bound->exclusive = exclusive;
    return true;
}

bool LexBound::parse(const QByteArray& text, LexBound* bound)
{
    if (text == "-" || text == "+") {
        bound->kind = text == "-" ? Kind::Lowest : Kind::Highest;
        bound->member.clear();
        return true;
    }
    if (text.startsWith('[') || text.startsWith('(')) {
        bound->kind = text.startsWith('[') ? Kind::Inclusive : Kind::Exclusive;
        bound->member = text.mid(1);
        return true;
    }
    return false;
}

namespace {
bool aboveMin(double score, const ScoreBound& min)
{
    return min.exclusive ? score > min.value : score >= min.value;
}

bool belowMax(double score, const ScoreBound& max)
{
    return max.exclusive ? score < max.value : score <= max.value;
}

bool lexAboveMin(const QByteArray& member, const LexBound& min)
{
    switch (min.kind) {
    case LexBound::Kind::Lowest:
        return true;
    case LexBound::Kind::Highest:
        return false;
    case LexBound::Kind::Inclusive:
        return !(member < min.member);
    case LexBound::Kind::Exclusive:
        return min.member < member;
    }
    return false;
}

bool lexBelowMax(const QByteArray& member, const LexBound& max)
{
    switch (max.kind) {
    case LexBound::Kind::Lowest:
        return false;
    case LexBound::Kind::Highest:
        return true;
    case LexBound::Kind::Inclusive:
        return !(max.member < member);
    case LexBound::Kind::Exclusive:
        return member < max.member;
    }
    return false;
}
} // namespace

void ZsetShadow::set(const QByteArray& member, double score)
{
    const auto found = m_scores.find(member);
    if (found != m_scores.end()) {
        if (*found == score)
            return;
        m_ordered.erase(Entry {*found, member});
        *found = score;
    } else {
        m_scores.insert(member, score);
        addBytes(member.size() + bytesPerMember);
    }
    m_ordered.insert(Entry {score, member});
}

bool ZsetShadow::remove(const QByteArray& member)
{
    const auto found = m_scores.find(member);
    if (found == m_scores.end())
        return false;
    if (m_removed)
        m_removed->emplace_back(member, *found);
    m_ordered.erase(Entry {*found, member});
    m_scores.erase(found);
    addBytes(-(member.size() + bytesPerMember));
    return true;
}

void ZsetShadow::clear()
{
    if (m_removed) {
        for (const Entry& entry : m_ordered)
            m_removed->emplace_back(entry.member, entry.score);
    }
    m_scores.clear();
    m_ordered.clear();
    addBytes(-m_bytes);
}

void ZsetShadow::eraseEntry(std::set<Entry>::iterator it)
{
    if (m_removed)
        m_removed->emplace_back(it->member, it->score);
    addBytes(-(it->member.size() + bytesPerMember));
    m_scores.remove(it->member);
    m_ordered.erase(it);
}

qint64 ZsetShadow::removeByScore(const ScoreBound& min, const ScoreBound& max)
{
    qint64 removed = 0;
    auto it = m_ordered.lower_bound(Entry {min.value, QByteArray()});
    while (it != m_ordered.end() && !aboveMin(it->score, min))
        ++it;
    while (it != m_ordered.end() && belowMax(it->score, max)) {
        const auto next = std::next(it);
        eraseEntry(it);
        it = next;
        ++removed;
    }
    return removed;
}

qint64 ZsetShadow::removeByRank(qint64 start, qint64 stop)
{
    const qint64 length = size();
    if (start < 0)
        start += length;
    if (stop < 0)
        stop += length;
    if (start < 0)
        start = 0;
    if (start > stop || start >= length)
        return 0;
    if (stop >= length)
        stop = length - 1;
    auto it = std::next(m_ordered.begin(), static_cast<std::ptrdiff_t>(start));
    for (qint64 rank = start; rank <= stop; ++rank) {
        const auto next = std::next(it);
        eraseEntry(it);
        it = next;
    }
    return stop - start + 1;
}

qint64 ZsetShadow::removeByLex(const LexBound& min, const LexBound& max)
{
    // Redis walks the set in its order from the first member inside the range and stops at the
    // first one past it (meant for members of one score).
    qint64 removed = 0;
    auto it = m_ordered.begin();
    while (it != m_ordered.end() && !lexAboveMin(it->member, min))
        ++it;
    while (it != m_ordered.end() && lexBelowMax(it->member, max)) {
        const auto next = std::next(it);
        eraseEntry(it);
        it = next;
        ++removed;
    }
    return removed;
}

qint64 ZsetShadow::pop(qint64 count, bool highest)
{
    qint64 removed = 0;
    while (removed < count && !m_ordered.empty()) {
        eraseEntry(highest ? std::prev(m_ordered.end()) : m_ordered.begin());
        ++removed;
    }
    return removed;
}

std::vector<ZsetShadow::Member> ZsetShadow::members() const
{
    std::vector<Member> result;
    result.reserve(m_ordered.size());
    for (const Entry& entry : m_ordered)
        result.emplace_back(entry.member, entry.score);
    return result;
}
