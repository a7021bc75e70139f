#pragma once

// How a limiter script's replies are read: reply styles and what a reply says (count, admitted).

#include "redis/redisreply.h"

#include <QString>
#include <QVector>

#include <optional>

// How a limiter script answers a call, as far as its replies tell.
enum class ReplyStyle {
    Unknown, // zsetlab cannot read the replies: it says so rather than guess
    CountWithCall, // the count including this call (1, 2, 3, ...): the caller admits while count <= limit
    CountBeforeCall, // the count before this call (0, 1, 2, ...): admitted while count < limit
    Admitted, // the script decides: 1/0, true/false (false arrives as nil), "true"/"false"
    Limited, // the script says whether the call is limited: 1/true/"true" (or a wait time) refused, 0/false/nil
             // admitted
    NilAdmitted, // nil (or {false, ...}, which arrives empty) admitted; any other reply refused
    // {allowed, count, added}: the script decides (1/0), then what it counts against the limit
    // and ZADD's reply, each when it has one (the catalog's algorithms: fixed-window, gcra, ...)
    AdmittedWithCount,
    // What is left of the limit after this call (limit - 1, ..., 0), or {remaining, ...}; a
    // negative reply (-1) is a refusal.
    Remaining,
    // What was left of the limit before this call (limit, ..., 1), or {remaining, ...}; 0 is a
    // refusal (async-ratelimiter's {max - count, reset, max}).
    RemainingBefore,
    // Any value (a slot's name, a token) admitted; nil (a Lua false or nil) refused: Laravel's
    // concurrency limiter.
    NilRefused,
};
// "count-with-call", "count-before-call", "admitted", "limited", "nil-admitted",
// "admitted-with-count", "remaining", "remaining-before", "nil-refused", "unknown"
QString replyStyleName(ReplyStyle style);
QString replyStyleDescription(ReplyStyle style); // for people
// --reply: count, count-before, allowed=1, allowed=true, allowed=0, allowed=false, limited=1,
// limited=true, allowed=nil, allowed=value, remaining, remaining-before, or a name
// replyStyleName() gives. False for anything else.
bool parseReplyStyle(const QString& text, ReplyStyle* style);
// The same with "@N" after it: the style read from the Nth element (1-based) of an array reply
// ("limited@2": {"true", wait}, a wait above 0 refused). *element is 0-based, 0 without "@N".
bool parseReplyStyle(const QString& text, ReplyStyle* style, int* element);
QString replyStyleChoices(); // the forms parseReplyStyle() accepts, for help texts

// What one element of a reply holds, by kind: what tells an admitted call from a refused one
// when a reply says it in shape rather than in a number ("slot-2" or nil, a wait of 0 or more).
enum class ReplyClass {
    Absent, // the reply has no such element
    Nil, // nil, a Lua false
    Zero,
    Positive, // a number above 0 (or "true")
    Negative,
    Text, // text that is no number and no yes/no word
    Array,
};
QString replyClassName(ReplyClass kind); // "nil", "0", "a number above 0", ...

// One element of a reply, read as ReplyReading reads a scalar.
struct ReplyElement
{
    ReplyClass kind = ReplyClass::Absent;
    bool readable = false;
    qint64 value = 0;
    QString shown;
};

// One reply reduced to the number that matters: the reply itself, or the first element of an
// array ({count, added, member}, {allowed, remaining}, ...).
struct ReplyReading
{
    bool readable = false;
    qint64 value = 0;
    qint64 added = -1; // ZADD's reply when the script answers {count, added, member}; -1 otherwise
    bool nil = false; // nil (a Lua false or nil), or an empty array ({false, n} arrives empty)
    // An error reply the script gives as its refusal (redis.error_reply('rate limited')): a
    // refused call in any style.
    bool refusal = false;
    QString shown; // the reply as people read it
    QVector<ReplyElement> elements; // each element of an array reply; the reply itself for a scalar

    static ReplyReading read(const RedisReply& reply);
    // The reading of one element (0-based), as if the reply were that element alone: nil when
    // the reply has no such element. The error-reply refusal carries over.
    ReplyReading element(int index) const;
    ReplyClass kindAt(int index) const;
};

// Infers the style from calls made without a limit and spread in time, so that a correct limiter
// stores every one of them. Unknown with *why when the replies fit no style.
ReplyStyle inferReplyStyle(const QVector<ReplyReading>& spread, QString* why);

// The replies of calls made under a limit, in order.
struct LimitedReplies
{
    qint64 limit = 0;
    QVector<ReplyReading> readings;
};

// Like inferReplyStyle() on the first batch without a limit, with what the other batches add:
// replies that are all 1 there (a decision, or a count that never passed 1 because the entries
// expired between the calls) read as a count when another batch without a limit counts up; and
// when every call without a limit gave the same 0/false/nil (which the counting styles cannot
// read), the calls under a limit decide: the first calls under it are admissions, so a reply
// that stays 0/false/nil there and turns into something else later means 0/false/nil is
// admitted (Limited, or NilAdmitted when the others are not 1/true).
ReplyStyle learnReplyStyle(const QVector<QVector<ReplyReading>>& unlimited, const QVector<LimitedReplies>& limited,
                           QString* why);

// For the deciding styles (Admitted, Limited, NilAdmitted): whether the reply admits the call;
// nullopt when it does not say.
std::optional<bool> readAdmission(ReplyStyle style, const ReplyReading& reading);

struct AdmissionCount
{
    int admitted = 0;
    int refused = 0;
    int unclear = 0; // replies that do not say whether the call was admitted
    QString note; // why some were unclear
};

// Counts the calls a limit admitted. scriptReadsLimit: the script compares the limit itself, so
// a count reply that stays at the limit may come from a refusal that added nothing; such replies
// are counted as unclear instead of guessed.
AdmissionCount countAdmissions(ReplyStyle style, const QVector<ReplyReading>& readings, qint64 limit,
                               bool scriptReadsLimit);
