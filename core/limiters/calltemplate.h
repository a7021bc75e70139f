#pragma once

// CallTemplate: how a limiter script is called (its KEYS and ARGV, with placeholders), and
// CallValues, one call's values.

#include "redis/redisreply.h"

#include <QString>
#include <QStringList>
#include <QVector>

// The values of one call to a limiter script; a CallTemplate spells them into KEYS and ARGV.
struct CallValues
{
    QByteArray key; // a fresh zsetlab: key
    qint64 nowMicros = 0; // the request's time; {now}, {now_s} and {now_us} are cut from it
    // zsetlab's own convention (no template) sends now and the window in the clock's unit:
    // 1 per ms, or 1000 per ms for a microsecond clock.
    qint64 unitsPerMs = 1;
    qint64 windowMs = 0;
    qint64 limit = 0;
    qint64 seq = 0; // a counter of the caller, unique per call
    QByteArray uuid; // unique per call
};

// How a user's script is called: KEYS and ARGV in the order the script expects, written as
// whitespace-separated tokens of placeholders and literals, e.g. keys "{key}" and args
// "{now} {window} {limit} {uuid}" (zsetlab's own convention). A token may mix both
// ("{key}:seq", "req-{seq}"), may be quoted ("a b" or 'a b') and writes a brace as {{ or }}.
// A placeholder may add or subtract numbers and other numeric placeholders of the same unit:
// {now-window} (the window's start, ms), {now_s-window_s}, {now+1000}, {limit-1}, and multiply or
// divide (integer division) by numbers or placeholders of the same unit: {now/window} (the window's
// number, as fixed-window keys name it), {now_s/60}. An empty argument is written '' or "".
class CallTemplate
{
public:
    enum class Placeholder {
        Key, // the ZSET key zsetlab chose for the run (always under zsetlab:)
        Now, // ms since the epoch
        NowS, // seconds
        NowUs, // microseconds
        NowNs, // nanoseconds (the microseconds times 1000: zsetlab's clocks stop at microseconds)
        Window, // ms
        WindowS, // seconds, rounded up
        WindowUs, // microseconds
        WindowNs, // nanoseconds
        Limit,
        Uuid,
        Seq,
    };

    // One more term of an arithmetic placeholder: {now-window} is now, then -window; {now/window}
    // is now, then /window. * and / bind before + and -; division is integer division.
    struct Term
    {
        int sign = 1; // + or -, for + and - terms
        char op = '+'; // '+', '-', '*' or '/'

        bool isPlaceholder = false;
        Placeholder placeholder = Placeholder::Now;
        qint64 number = 0;
    };
    struct Piece
    {
        bool isPlaceholder = false;
        Placeholder placeholder = Placeholder::Key; // the first term of an arithmetic placeholder
        QString literal;
        QVector<Term> terms; // after the first: {now-window} has one, -window

        bool isArithmetic() const { return isPlaceholder && !terms.isEmpty(); }
        // Divides: {now/window} is a count of windows, not a time.
        bool divides() const;
        // {now-window}, {now_s-window_s}: the start of the window.
        bool isWindowStart() const;
    };
    using Token = QVector<Piece>;

    // keys "{key}", args "{now} {window} {limit} {uuid}": what lua/*.lua expect.
    static CallTemplate zsetlabConvention();
    static QString defaultKeys() { return QStringLiteral("{key}"); }
    static QString defaultArgs() { return QStringLiteral("{now} {window} {limit} {uuid}"); }
    // False with a message saying what to fix. Every key must start with {key}, so that the
    // script writes only under zsetlab: and zsetlab can delete what it wrote.
    static bool parse(const QString& keys, const QString& args, CallTemplate* call, QString* error);

    static QString placeholderName(Placeholder placeholder); // "{now}"
    static QStringList placeholderNames();

    QString keysText() const { return m_keysText; }
    QString argsText() const { return m_argsText; }
    int keyCount() const { return int(m_keys.size()); }
    int argCount() const { return int(m_args.size()); }
    const QVector<Token>& keys() const { return m_keys; }
    const QVector<Token>& args() const { return m_args; }

    // ARGV[index] (1-based): true with *placeholder when the token is exactly one placeholder
    // (not arithmetic).
    bool argIsPlaceholder(int index, Placeholder* placeholder) const;
    // ARGV[index] is one arithmetic placeholder: *piece is it.
    bool argIsArithmetic(int index, Piece* piece) const;
    // 0 seconds, 1 milliseconds, 2 microseconds; -1 no unit ({limit}, {seq}, {uuid}, {key}).
    static int unitOf(Placeholder placeholder);
    bool uses(Placeholder placeholder) const;
    // True when the calls carry a time of zsetlab's choosing ({now}, {now_s} or {now_us}); a
    // script without one reads the server clock itself.
    bool carriesTime() const;

    RedisArgs expandKeys(const CallValues& values) const;
    RedisArgs expandArgs(const CallValues& values) const;
    static QByteArray expand(const Token& token, const CallValues& values);

private:
    QString m_keysText;
    QString m_argsText;
    QVector<Token> m_keys;
    QVector<Token> m_args;
};
