#include "replyreading.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ReplyReading)
};

// Words scripts use for their decision, lower-cased.
bool readWord(const QByteArray& word, qint64* value)
{
    static const QList<QByteArray> yes {"true", "ok", "allowed", "allow", "yes", "pass", "accepted"};
    static const QList<QByteArray> no {"false", "denied", "deny", "no", "rejected", "blocked", "limited", "refused"};
    const QByteArray lower = word.trimmed().toLower();
    if (yes.contains(lower)) {
        *value = 1;
        return true;
    }
    if (no.contains(lower)) {
        *value = 0;
        return true;
    }
    bool ok = false;
    *value = lower.toLongLong(&ok);
    if (!ok) {
        const double number = lower.toDouble(&ok);
        // "3.0" is 3, "2.5" is not a count; "1e300" neither (casting it to qint64 is undefined).
        ok = ok && std::abs(number) < 9.0e18 && double(qint64(number)) == number;
        *value = ok ? qint64(number) : 0;
    }
    return ok;
}

ReplyClass classOf(const RedisReply& reply, const ReplyReading& reading)
{
    switch (reply.type()) {
    case RedisReply::Type::Nil:
        return ReplyClass::Nil;
    case RedisReply::Type::Array:
        return ReplyClass::Array;
    case RedisReply::Type::Integer:
    case RedisReply::Type::String:
    case RedisReply::Type::Status:
        break;
    default:
        return ReplyClass::Text;
    }
    double number = double(reading.value);
    bool ok = reading.readable;
    if (!ok)
        number = reply.bytes().trimmed().toDouble(&ok); // "0.250000000": a level or a wait, not a count
    if (!ok || !std::isfinite(number))
        return ReplyClass::Text;
    return number == 0 ? ReplyClass::Zero : number > 0 ? ReplyClass::Positive : ReplyClass::Negative;
}

ReplyReading readScalar(const RedisReply& reply);

ReplyElement elementOf(const RedisReply& reply)
{
    const ReplyReading reading = readScalar(reply);
    ReplyElement element;
    element.kind = classOf(reply, reading);
    element.readable = reading.readable;
    element.value = reading.value;
    element.shown = reading.shown;
    return element;
}

ReplyReading readScalar(const RedisReply& reply)
{
    ReplyReading reading;
    reading.shown = reply.toDisplayString();
    switch (reply.type()) {
    case RedisReply::Type::Integer:
        reading.readable = true;
        reading.value = reply.toInteger();
        break;
    case RedisReply::Type::Nil: // a Lua false
        reading.readable = true;
        reading.value = 0;
        reading.nil = true;
        break;
    case RedisReply::Type::String:
    case RedisReply::Type::Status:
        reading.readable = readWord(reply.bytes(), &reading.value);
        break;
    default:
        break;
    }
    return reading;
}
} // namespace

QString replyStyleName(ReplyStyle style)
{
    switch (style) {
    case ReplyStyle::CountWithCall:
        return QStringLiteral("count-with-call");
    case ReplyStyle::CountBeforeCall:
        return QStringLiteral("count-before-call");
    case ReplyStyle::Admitted:
        return QStringLiteral("admitted");
    case ReplyStyle::Limited:
        return QStringLiteral("limited");
    case ReplyStyle::NilAdmitted:
        return QStringLiteral("nil-admitted");
    case ReplyStyle::AdmittedWithCount:
        return QStringLiteral("admitted-with-count");
    case ReplyStyle::Remaining:
        return QStringLiteral("remaining");
    case ReplyStyle::RemainingBefore:
        return QStringLiteral("remaining-before");
    case ReplyStyle::NilRefused:
        return QStringLiteral("nil-refused");
    case ReplyStyle::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

bool parseReplyStyle(const QString& text, ReplyStyle* style)
{
    const QString t = text.trimmed().toLower();
    static const QStringList admitted {QStringLiteral("allowed=1"), QStringLiteral("allowed=true"),
                                       QStringLiteral("admitted")};
    static const QStringList limited {QStringLiteral("allowed=0"), QStringLiteral("allowed=false"),
                                      QStringLiteral("limited=1"), QStringLiteral("limited=true"),
                                      QStringLiteral("limited")};
    if (t == QLatin1String("count") || t == QLatin1String("count-with-call"))
        *style = ReplyStyle::CountWithCall;
    else if (t == QLatin1String("count-before") || t == QLatin1String("count-before-call"))
        *style = ReplyStyle::CountBeforeCall;
    else if (t == QLatin1String("admitted-with-count"))
        *style = ReplyStyle::AdmittedWithCount;
    else if (admitted.contains(t))
        *style = ReplyStyle::Admitted;
    else if (limited.contains(t))
        *style = ReplyStyle::Limited;
    else if (t == QLatin1String("allowed=nil") || t == QLatin1String("nil-admitted"))
        *style = ReplyStyle::NilAdmitted;
    else if (t == QLatin1String("remaining"))
        *style = ReplyStyle::Remaining;
    else if (t == QLatin1String("remaining-before"))
        *style = ReplyStyle::RemainingBefore;
    else if (t == QLatin1String("allowed=value") || t == QLatin1String("nil-refused"))
        *style = ReplyStyle::NilRefused;
    else
        return false;
    return true;
}

bool parseReplyStyle(const QString& text, ReplyStyle* style, int* element)
{
    const qsizetype at = text.indexOf(QLatin1Char('@'));
    *element = 0;
    if (at < 0)
        return parseReplyStyle(text, style);
    bool ok = false;
    const int n = text.mid(at + 1).trimmed().toInt(&ok);
    if (!ok || n < 1 || n > 64 || !parseReplyStyle(text.left(at), style))
        return false;
    *element = n - 1;
    return true;
}

QString replyStyleChoices()
{
    return QStringLiteral("count, count-before, allowed=1, allowed=0, limited=true, allowed=nil, allowed=value, "
                          "remaining, remaining-before, each with @N for the Nth element of an array reply");
}

QString replyStyleDescription(ReplyStyle style)
{
    switch (style) {
    case ReplyStyle::CountWithCall:
        return Text::tr("a count that includes the call (admitted while count <= limit)");
    case ReplyStyle::CountBeforeCall:
        return Text::tr("the count before the call (admitted while count < limit)");
    case ReplyStyle::Admitted:
        return Text::tr("the script's own decision (1/true = admitted, 0/false = refused)");
    case ReplyStyle::Limited:
        return Text::tr("whether the call is limited (0/false/nil = admitted, 1/true or a wait = refused)");
    case ReplyStyle::NilAdmitted:
        return Text::tr("nil for an admitted call, anything else for a refused one");
    case ReplyStyle::AdmittedWithCount:
        return Text::tr("{allowed, count}: the script's own decision (1 = admitted, 0 = refused) and what it "
                        "counts against the limit");
    case ReplyStyle::Remaining:
        return Text::tr("what is left of the limit after the call (0 or more = admitted, -1 = refused)");
    case ReplyStyle::RemainingBefore:
        return Text::tr("what was left of the limit before the call (1 or more = admitted, 0 = refused)");
    case ReplyStyle::NilRefused:
        return Text::tr("a value (a slot's name, a token) for an admitted call, nil for a refused one");
    case ReplyStyle::Unknown:
        break;
    }
    return Text::tr("unreadable");
}

ReplyReading ReplyReading::read(const RedisReply& reply)
{
    if (reply.type() != RedisReply::Type::Array) {
        ReplyReading reading = readScalar(reply);
        reading.elements = {elementOf(reply)};
        return reading;
    }
    const auto& parts = reply.elements();
    ReplyReading reading;
    if (!parts.empty() && parts[0].type() != RedisReply::Type::Array)
        reading = readScalar(parts[0]);
    reading.nil = reading.nil || parts.empty(); // an empty array says nothing: read as nil
    reading.shown = reply.toDisplayString();
    for (const RedisReply& part : parts)
        reading.elements << elementOf(part);
    if (parts.size() == 3 && parts[1].type() == RedisReply::Type::Integer
        && (parts[1].toInteger() == 0 || parts[1].toInteger() == 1))
        reading.added = parts[1].toInteger();
    return reading;
}

ReplyReading ReplyReading::element(int index) const
{
    ReplyReading reading;
    reading.refusal = refusal;
    const ReplyElement part = index >= 0 && index < elements.size() ? elements[index] : ReplyElement();
    reading.readable = part.readable || part.kind == ReplyClass::Nil || part.kind == ReplyClass::Absent;
    reading.value = part.value;
    reading.nil = part.kind == ReplyClass::Nil || part.kind == ReplyClass::Absent;
    reading.shown = part.kind == ReplyClass::Absent ? Text::tr("(none)") : part.shown;
    reading.elements = {part};
    return reading;
}

ReplyClass ReplyReading::kindAt(int index) const
{
    return index >= 0 && index < elements.size() ? elements[index].kind : ReplyClass::Absent;
}

QString replyClassName(ReplyClass kind)
{
    switch (kind) {
    case ReplyClass::Absent:
        return Text::tr("no such element");
    case ReplyClass::Nil:
        return Text::tr("nil");
    case ReplyClass::Zero:
        return Text::tr("0");
    case ReplyClass::Positive:
        return Text::tr("a number above 0");
    case ReplyClass::Negative:
        return Text::tr("a number below 0");
    case ReplyClass::Text:
        return Text::tr("text");
    case ReplyClass::Array:
        return Text::tr("an array");
    }
    return {};
}

ReplyStyle inferReplyStyle(const QVector<ReplyReading>& spread, QString* why)
{
    if (spread.isEmpty()) {
        *why = Text::tr("no replies to read");
        return ReplyStyle::Unknown;
    }
    QStringList values;
    for (const ReplyReading& reading : spread) {
        if (!reading.readable) {
            *why = Text::tr("the reply %1 is neither a number, 0/1 nor true/false").arg(reading.shown.left(80));
            return ReplyStyle::Unknown;
        }
        values << QString::number(reading.value);
    }
    // A count grows by one per stored call; it may stall when calls overwrite each other, and
    // start again from its first value when the calls cross into a fixed window's next one.
    const qint64 first = spread.first().value;
    bool growsByAtMostOne = true;
    qint64 highest = first;
    for (int i = 1; i < spread.size(); ++i) {
        // Compared without subtracting: a reply can be any qint64, and the difference may overflow.
        const qint64 previous = spread[i - 1].value;
        growsByAtMostOne = growsByAtMostOne
            && (spread[i].value == previous || spread[i].value == first
                || (previous < std::numeric_limits<qint64>::max() && spread[i].value == previous + 1));
        highest = std::max(highest, spread[i].value);
    }
    // What is left of the limit shrinks by one per stored call, from just under the limit (and
    // starts again in a fixed window's next one).
    bool shrinksByAtMostOne = true;
    qint64 lowest = first;
    for (int i = 1; i < spread.size(); ++i) {
        const qint64 previous = spread[i - 1].value;
        shrinksByAtMostOne = shrinksByAtMostOne
            && (spread[i].value == previous || spread[i].value == first
                || (previous > std::numeric_limits<qint64>::min() && spread[i].value == previous - 1));
        lowest = std::min(lowest, spread[i].value);
    }
    if (shrinksByAtMostOne && spread.size() > 1 && lowest < first && lowest >= 1)
        return ReplyStyle::Remaining;
    if (growsByAtMostOne && highest > first && first == 1)
        return ReplyStyle::CountWithCall;
    if (growsByAtMostOne && highest > first && first == 0)
        return ReplyStyle::CountBeforeCall;
    // All 1: a decision, or a count that stays at 1; both read the same (1 is admitted).
    if (growsByAtMostOne && highest == 1 && first == 1)
        return ReplyStyle::Admitted;
    if (highest == 0 && first == 0)
        *why = Text::tr("every call replied 0, false or nil although no limit applied");
    else
        *why = Text::tr("the replies (%1) are neither a count that grows by one per call nor 0/1")
                   .arg(values.mid(0, 10).join(QStringLiteral(", ")));
    return ReplyStyle::Unknown;
}

ReplyStyle learnReplyStyle(const QVector<QVector<ReplyReading>>& batches, const QVector<LimitedReplies>& limited,
                           QString* why)
{
    const QVector<ReplyReading> unlimited = batches.value(0);
    const ReplyStyle style = inferReplyStyle(unlimited, why);
    // What is left, counting down: the first call under a limit tells whether it is counted
    // already (limit - 1: after the call) or not yet (the limit itself: before it).
    if (style == ReplyStyle::Remaining) {
        for (const LimitedReplies& calls : limited) {
            if (!calls.readings.isEmpty() && calls.readings.first().readable && !calls.readings.first().nil)
                return calls.readings.first().value == calls.limit ? ReplyStyle::RemainingBefore : style;
        }
    }
    if (style == ReplyStyle::Admitted) {
        for (int i = 1; i < batches.size(); ++i) {
            QString ignored;
            if (inferReplyStyle(batches[i], &ignored) == ReplyStyle::CountWithCall)
                return ReplyStyle::CountWithCall;
        }
    }
    const bool allZero = !unlimited.isEmpty()
        && std::all_of(unlimited.begin(), unlimited.end(),
                       [](const ReplyReading& r) { return r.nil || (r.readable && r.value == 0); });
    if (style != ReplyStyle::Unknown || !allZero)
        return style;
    const bool nilAdmits = std::all_of(unlimited.begin(), unlimited.end(), [](const ReplyReading& r) { return r.nil; });
    // Under a limit the first calls are admissions: do they keep that reply, and do later calls
    // answer otherwise?
    bool changed = false;
    bool laterReadable = true;
    for (const LimitedReplies& calls : limited) {
        const int under = int(std::min<qint64>(calls.limit, calls.readings.size()));
        bool firstAlike = under > 0;
        for (int i = 0; i < under; ++i) {
            const ReplyReading& r = calls.readings[i];
            firstAlike = firstAlike && (nilAdmits ? r.nil : (r.nil || (r.readable && r.value == 0)));
        }
        if (!firstAlike)
            continue;
        for (int i = under; i < calls.readings.size(); ++i) {
            const ReplyReading& r = calls.readings[i];
            const bool same = nilAdmits ? r.nil : (r.nil || (r.readable && r.value == 0));
            if (!same) {
                changed = true;
                laterReadable = laterReadable && r.readable && r.value != 0;
            }
        }
    }
    if (!changed) {
        *why = Text::tr("every call replied %1, with and without a limit, so the replies do not tell an "
                        "admitted call from a refused one; say how they read with --reply")
                   .arg(unlimited.first().shown.left(40));
        return ReplyStyle::Unknown;
    }
    why->clear();
    return nilAdmits && !laterReadable ? ReplyStyle::NilAdmitted : ReplyStyle::Limited;
}

std::optional<bool> readAdmission(ReplyStyle style, const ReplyReading& reading)
{
    if (reading.refusal)
        return false;
    switch (style) {
    case ReplyStyle::Admitted:
    case ReplyStyle::AdmittedWithCount:
        if (reading.nil || (reading.readable && reading.value <= 0))
            return false;
        // 1, or the 2 of the tri-state 0/1/2: admitted, and the limit is now used up.
        if (reading.readable && (reading.value == 1 || (style == ReplyStyle::Admitted && reading.value == 2)))
            return true;
        return std::nullopt;
    case ReplyStyle::Remaining:
        if (reading.readable && !reading.nil)
            return reading.value >= 0;
        return std::nullopt;
    case ReplyStyle::RemainingBefore:
        if (reading.readable && !reading.nil)
            return reading.value >= 1;
        return std::nullopt;
    case ReplyStyle::Limited:
        if (reading.nil || (reading.readable && reading.value == 0))
            return true;
        if (reading.readable)
            return false; // 1, true or a wait time
        return std::nullopt;
    case ReplyStyle::NilAdmitted:
        return reading.nil;
    case ReplyStyle::NilRefused:
        return !reading.nil;
    case ReplyStyle::CountWithCall:
    case ReplyStyle::CountBeforeCall:
    case ReplyStyle::Unknown:
        break;
    }
    return std::nullopt;
}

AdmissionCount countAdmissions(ReplyStyle style, const QVector<ReplyReading>& readings, qint64 limit,
                               bool scriptReadsLimit)
{
    AdmissionCount count;
    bool passedLimit = false;
    for (const ReplyReading& reading : readings)
        passedLimit = passedLimit || (reading.readable && reading.value > limit);
    bool reachedLimit = false;
    int repeatsAtLimit = 0;
    const bool decides = style == ReplyStyle::Admitted || style == ReplyStyle::Limited
        || style == ReplyStyle::NilAdmitted || style == ReplyStyle::Remaining || style == ReplyStyle::RemainingBefore
        || style == ReplyStyle::NilRefused;
    for (const ReplyReading& reading : readings) {
        if (reading.refusal) {
            ++count.refused;
            continue;
        }
        // A deciding reply may be unreadable as a number and still say something (nil, {false}).
        if ((!reading.readable && !decides) || style == ReplyStyle::Unknown) {
            ++count.unclear;
            continue;
        }
        const qint64 v = reading.value;
        switch (style) {
        case ReplyStyle::Admitted:
        case ReplyStyle::AdmittedWithCount:
        case ReplyStyle::Limited:
        case ReplyStyle::NilAdmitted:
        case ReplyStyle::Remaining:
        case ReplyStyle::RemainingBefore:
        case ReplyStyle::NilRefused:
            if (const std::optional<bool> admitted = readAdmission(style, reading))
                *admitted ? ++count.admitted : ++count.refused;
            else
                ++count.unclear;
            break;
        case ReplyStyle::CountBeforeCall:
            (v >= 0 && v < limit) ? ++count.admitted : ++count.refused;
            break;
        case ReplyStyle::CountWithCall:
            // A script that refuses without adding replies its unchanged count: the limit again.
            // An add-then-count script would have gone past it. Say so instead of guessing.
            if (scriptReadsLimit && !passedLimit && v == limit && reachedLimit) {
                ++count.unclear;
                ++repeatsAtLimit;
            } else {
                (v >= 1 && v <= limit) ? ++count.admitted : ++count.refused;
            }
            reachedLimit = reachedLimit || v == limit;
            break;
        case ReplyStyle::Unknown:
            break;
        }
    }
    if (repeatsAtLimit > 0)
        count.note = Text::tr("%1 calls replied %2 (the limit) again: a script that refuses without adding "
                              "replies its unchanged count, so zsetlab cannot tell whether they were "
                              "admitted; a reply of 0/1 or {allowed, count} would say")
                         .arg(repeatsAtLimit)
                         .arg(limit);
    else if (count.unclear > 0 && style == ReplyStyle::Unknown)
        count.note = Text::tr("the replies could not be read");
    else if (count.unclear > 0)
        count.note = Text::tr("%1 replies did not say whether the call was admitted").arg(count.unclear);
    return count;
}
