#pragma once

// ReplyDecision: which element of a limiter's reply says whether a call was admitted, when no
// reply style reads it from the first one ({"true", wait}, {size, rate, last, level, wait}, a
// slot's name or nil).

#include "replyreading.h"

#include <QString>
#include <QVector>

#include <optional>

struct ReplyDecision
{
    int element = -1; // 0-based element of an array reply (0: a scalar reply itself); -1: none
    ReplyClass admitted = ReplyClass::Absent; // what it holds for an admitted call; anything else: refused
    ReplyClass refused = ReplyClass::Absent; // what it held for the refused calls seen (for people)

    bool isKnown() const { return element >= 0; }
    std::optional<bool> admits(const ReplyReading& reading) const;
    // "element 2 of the reply: 0 for an admitted call, a number above 0 for a refused one"
    QString describe() const;
    // What to pass to read it so: "limited@2", "allowed=value", ... (empty when no style says it)
    QString replyOption() const;
};

// Learns the element from calls under a limit: a burst's first `limit` calls are admissions (a
// correct limiter admits them, and one that lets too many through admits them too). An element
// whose kind (nil, 0, a number above 0, text, ...) is the same for all of them and different for
// some later call of the burst tells admitted calls from refused ones. The lowest element on which
// every burst that went past its limit agrees; none when no burst went past its limit or the
// replies never change kind (a limiter that refuses nothing looks the same).
ReplyDecision learnReplyDecision(const QVector<LimitedReplies>& limited);

// Counts admissions by the decision's element; an error-reply refusal is a refusal.
AdmissionCount countAdmissions(const ReplyDecision& decision, const QVector<ReplyReading>& readings);

// The readings of one element of each reply (ReplyReading::element), for a style read there.
QVector<ReplyReading> readingsOfElement(const QVector<ReplyReading>& readings, int element);
