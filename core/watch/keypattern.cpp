#include "keypattern.h"

namespace {
// A [set] of Redis's glob, `pattern` just past its '[': whether `ch` is in it. The pattern is
// left on the set's ']' (on its last byte when the set is not closed), as the caller steps past it.
bool inSet(const char*& pattern, qsizetype& patternLen, char ch)
{
    const bool negate = patternLen > 0 && pattern[0] == '^';
    if (negate) {
        ++pattern;
        --patternLen;
    }
    bool match = false;
    const auto c = static_cast<unsigned char>(ch);
    while (true) {
        if (patternLen >= 2 && pattern[0] == '\\') {
            ++pattern;
            --patternLen;
            if (pattern[0] == ch)
                match = true;
        } else if (patternLen == 0) { // no closing bracket: the set ends with the pattern
            --pattern;
            ++patternLen;
            break;
        } else if (pattern[0] == ']') {
            break;
        } else if (patternLen >= 3 && pattern[1] == '-') {
            auto start = static_cast<unsigned char>(pattern[0]);
            auto end = static_cast<unsigned char>(pattern[2]);
            if (start > end)
                std::swap(start, end);
            pattern += 2;
            patternLen -= 2;
            if (c >= start && c <= end)
                match = true;
        } else if (pattern[0] == ch) {
            match = true;
        }
        ++pattern;
        --patternLen;
    }
    return negate ? !match : match;
}

// Redis's stringmatchlen_impl, read byte for byte, with a bound on the recursion that a pattern of
// many stars would make (Redis 7.0.6 and later bound it the same way).
bool matchFrom(const char* pattern, qsizetype patternLen, const char* string, qsizetype stringLen,
               bool* skipLongerMatches, int nesting)
{
    if (nesting > 1000)
        return false;
    while (patternLen > 0 && stringLen > 0) {
        switch (pattern[0]) {
        case '*':
            while (patternLen > 1 && pattern[1] == '*') {
                ++pattern;
                --patternLen;
            }
            if (patternLen == 1)
                return true;
            while (stringLen > 0) {
                if (matchFrom(pattern + 1, patternLen - 1, string, stringLen, skipLongerMatches, nesting + 1))
                    return true;
                if (*skipLongerMatches)
                    return false;
                ++string;
                --stringLen;
            }
            *skipLongerMatches = true;
            return false;
        case '?':
            ++string;
            --stringLen;
            break;
        case '[':
            ++pattern;
            --patternLen;
            if (!inSet(pattern, patternLen, string[0]))
                return false;
            ++string;
            --stringLen;
            break;
        case '\\':
            if (patternLen >= 2) {
                ++pattern;
                --patternLen;
            }
            [[fallthrough]];
        default:
            if (pattern[0] != string[0])
                return false;
            ++string;
            --stringLen;
            break;
        }
        ++pattern;
        --patternLen;
        if (stringLen == 0) {
            while (patternLen > 0 && pattern[0] == '*') {
                ++pattern;
                --patternLen;
            }
            break;
        }
    }
    return patternLen == 0 && stringLen == 0;
}
} // namespace

KeyPattern::KeyPattern(QByteArray glob)
    : m_glob(std::move(glob))
{ }

bool KeyPattern::matches(const QByteArray& key) const
{
    bool skipLongerMatches = false;
    if (key.isEmpty()) // the loop above never starts on an empty key: only stars match it
        return m_glob.count('*') == m_glob.size();
    return matchFrom(m_glob.constData(), m_glob.size(), key.constData(), key.size(), &skipLongerMatches, 0);
}

bool KeyPattern::anyMatches(const QList<KeyPattern>& patterns, const QByteArray& key)
{
    if (patterns.isEmpty())
        return true;
    for (const KeyPattern& pattern : patterns) {
        if (pattern.matches(key))
            return true;
    }
    return false;
}
