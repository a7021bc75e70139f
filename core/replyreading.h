#pragma once

#include "redisreply.h"

#include <QString>
#include <QVector>

// How a limiter script answers a call, as far as its replies tell.
enum class ReplyStyle {
    Unknown, // zsetlab cannot read the replies: it says so rather than guess
    CountWithCall, // the count including this call (1, 2, 3, ...): the caller admits while count <= limit
    CountBeforeCall, // the count before this call (0, 1, 2, ...): admitted while count < limit
    Admitted, // the script decides: 1/0, true/false (false arrives as nil), "true"/"false"
};
QString replyStyleName(ReplyStyle style); // "count-with-call", "count-before-call", "admitted", "unknown"
QString replyStyleDescription(ReplyStyle style); // for people

// One reply reduced to the number that matters: the reply itself, or the first element of an
// array ({count, added, member}, {allowed, remaining}, ...).
struct ReplyReading
{
    bool readable = false;
    qint64 value = 0;
    qint64 added = -1; // ZADD's reply when the script answers {count, added, member}; -1 otherwise
    QString shown; // the reply as people read it

    static ReplyReading read(const RedisReply& reply);
};

// Infers the style from calls made without a limit and spread in time, so that a correct limiter
// stores every one of them. Unknown with *why when the replies fit no style.
ReplyStyle inferReplyStyle(const QVector<ReplyReading>& spread, QString* why);

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
