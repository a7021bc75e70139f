#include "limiterreply.h"

#include <QCoreApplication>
#include <QString>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(LimiterReply)
};

} // namespace

bool readLimiterReply(const RedisReply& reply, qint64 now, const QByteArray& requestId, RequestRecord* record)
{
    if (reply.type() == RedisReply::Type::Integer) {
        record->count = reply.toInteger();
        return true;
    }
    if (reply.type() == RedisReply::Type::Array && !reply.elements().empty()
        && reply.elements()[0].type() == RedisReply::Type::Integer) {
        const auto& parts = reply.elements();
        record->count = parts[0].toInteger();
        if (parts.size() > 1 && parts[1].type() == RedisReply::Type::Integer)
            record->added = static_cast<qint8>(parts[1].toInteger() > 0 ? 1 : 0);
        if (parts.size() > 2) {
            const QByteArray member = parts[2].type() == RedisReply::Type::Integer
                ? QByteArray::number(parts[2].toInteger())
                : parts[2].bytes();
            if (member == QByteArray::number(now))
                record->memberKind = RequestRecord::MemberKind::Now;
            else if (member == requestId)
                record->memberKind = RequestRecord::MemberKind::RequestId;
            else {
                record->memberKind = RequestRecord::MemberKind::Text;
                record->member = member;
            }
        }
        return true;
    }
    record->error = Text::tr("Cannot read the script's reply %1: expected {count, added, member} or a count.")
                        .arg(reply.toDisplayString().left(200));
    return false;
}

bool readDecisionReply(const RedisReply& reply, RequestRecord* record)
{
    const auto& parts = reply.elements();
    const auto integerAt
        = [&parts](size_t i) { return parts.size() > i && parts[i].type() == RedisReply::Type::Integer; };
    if (reply.type() != RedisReply::Type::Array || !integerAt(0) || parts[0].toInteger() < 0
        || parts[0].toInteger() > 1) {
        record->error = Text::tr("Cannot read the script's reply %1: expected {allowed, count} with allowed 1 or 0.")
                            .arg(reply.toDisplayString().left(200));
        return false;
    }
    record->verdict = static_cast<qint8>(parts[0].toInteger());
    if (integerAt(1))
        record->count = parts[1].toInteger();
    if (integerAt(2))
        record->added = static_cast<qint8>(parts[2].toInteger() > 0 ? 1 : 0);
    return true;
}
