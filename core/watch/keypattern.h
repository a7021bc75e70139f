#pragma once

#include <QByteArray>
#include <QList>

// A key pattern as Redis's own KEYS, SCAN MATCH and PSUBSCRIBE read it (util.c stringmatchlen):
// `*` any run of bytes, `?` one byte, `[abc]`, `[^abc]`, `[a-z]` one byte of a set, `\x` the byte x.
// Case-sensitive and binary-safe.
class KeyPattern
{
public:
    KeyPattern() = default; // matches every key
    explicit KeyPattern(QByteArray glob);

    bool matches(const QByteArray& key) const;
    const QByteArray& glob() const { return m_glob; }

    // True when `key` matches one of `patterns`, or `patterns` is empty.
    static bool anyMatches(const QList<KeyPattern>& patterns, const QByteArray& key);

private:
    QByteArray m_glob = QByteArrayLiteral("*");
};
