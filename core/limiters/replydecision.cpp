#include "replydecision.h"

#include <QCoreApplication>

#include <algorithm>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ReplyReading)
};

constexpr int maxElements = 16; // elements looked at in an array reply

int widestReply(const QVector<ReplyReading>& readings)
{
    int widest = 0;
    for (const ReplyReading& r : readings)
        widest = std::max(widest, int(r.elements.size()));
    return std::min(widest, maxElements);
}

// What one burst says of an element: its first `limit` calls (admissions) do not share a kind
// there (not this element); they do and no later call differs (nothing refused, or the element
// does not tell: no say); or a later call holds another kind (the kind admitted calls hold).
struct BurstSays
{
    bool uniform = false;
    std::optional<ReplyClass> admitted;
};

BurstSays flipAt(const LimitedReplies& burst, int element)
{
    BurstSays says;
    const int under = int(std::min<qint64>(burst.limit, burst.readings.size()));
    if (under < 1)
        return says;
    const ReplyClass first = burst.readings.first().kindAt(element);
    for (int i = 0; i < under; ++i) {
        if (burst.readings[i].refusal || burst.readings[i].kindAt(element) != first)
            return says;
    }
    says.uniform = true;
    for (int i = under; i < burst.readings.size(); ++i) {
        if (burst.readings[i].kindAt(element) != first) {
            says.admitted = first;
            break;
        }
    }
    return says;
}
} // namespace

std::optional<bool> ReplyDecision::admits(const ReplyReading& reading) const
{
    if (reading.refusal)
        return false;
    if (!isKnown())
        return std::nullopt;
    return reading.kindAt(element) == admitted;
}

QString ReplyDecision::describe() const
{
    const QString where = element == 0 ? Text::tr("the reply itself (or its first element)")
                                       : Text::tr("element %1 of the reply").arg(element + 1);
    return Text::tr("%1: %2 for an admitted call, %3 for a refused one")
        .arg(where, replyClassName(admitted),
             refused == ReplyClass::Absent ? Text::tr("anything else") : replyClassName(refused));
}

QString ReplyDecision::replyOption() const
{
    QString style;
    switch (admitted) {
    case ReplyClass::Zero:
        style = QStringLiteral("limited=1");
        break;
    case ReplyClass::Positive:
        style = refused == ReplyClass::Zero || refused == ReplyClass::Nil ? QStringLiteral("allowed=1") : QString();
        break;
    case ReplyClass::Nil:
    case ReplyClass::Absent:
        style = QStringLiteral("allowed=nil");
        break;
    case ReplyClass::Text:
        style = refused == ReplyClass::Nil ? QStringLiteral("allowed=value") : QString();
        break;
    case ReplyClass::Negative:
    case ReplyClass::Array:
        break;
    }
    if (style.isEmpty())
        return {};
    return element == 0 ? style : style + QLatin1Char('@') + QString::number(element + 1);
}

ReplyDecision learnReplyDecision(const QVector<LimitedReplies>& limited)
{
    int widest = 0;
    for (const LimitedReplies& burst : limited)
        widest = std::max(widest, widestReply(burst.readings));
    for (int element = 0; element < widest; ++element) {
        std::optional<ReplyClass> agreed;
        bool disagree = false;
        for (const LimitedReplies& burst : limited) {
            if (burst.readings.size() <= burst.limit)
                continue; // never past its limit: says nothing
            const BurstSays says = flipAt(burst, element);
            if (!says.uniform || (says.admitted && agreed && *agreed != *says.admitted)) {
                disagree = true;
                break;
            }
            if (says.admitted)
                agreed = says.admitted;
        }
        if (disagree || !agreed)
            continue;
        ReplyDecision decision;
        decision.element = element;
        decision.admitted = *agreed;
        // What the refused calls held, when they all held one kind.
        std::optional<ReplyClass> refused;
        bool mixed = false;
        for (const LimitedReplies& burst : limited) {
            for (int i = int(std::min<qint64>(burst.limit, burst.readings.size())); i < burst.readings.size(); ++i) {
                const ReplyClass kind = burst.readings[i].kindAt(element);
                if (kind == *agreed)
                    continue;
                mixed = mixed || (refused && *refused != kind);
                refused = kind;
            }
        }
        decision.refused = refused && !mixed ? *refused : ReplyClass::Absent;
        return decision;
    }
    return {};
}

AdmissionCount countAdmissions(const ReplyDecision& decision, const QVector<ReplyReading>& readings)
{
    AdmissionCount count;
    for (const ReplyReading& reading : readings) {
        if (const std::optional<bool> admitted = decision.admits(reading))
            *admitted ? ++count.admitted : ++count.refused;
        else
            ++count.unclear;
    }
    if (count.unclear > 0)
        count.note = Text::tr("%1 replies did not say whether the call was admitted").arg(count.unclear);
    return count;
}

QVector<ReplyReading> readingsOfElement(const QVector<ReplyReading>& readings, int element)
{
    if (element <= 0)
        return readings;
    QVector<ReplyReading> projected;
    projected.reserve(readings.size());
    for (const ReplyReading& reading : readings)
        projected << reading.element(element);
    return projected;
}
