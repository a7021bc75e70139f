#include "requestbatch.h"

#include "requestlog.h"

QByteArray RequestBatch::memberOf(const RequestRecord& record) const
{
    switch (record.memberKind) {
    case RequestRecord::MemberKind::Text:
        return record.member;
    case RequestRecord::MemberKind::Now:
        return QByteArray::number(record.now);
    case RequestRecord::MemberKind::RequestId:
        return RequestLog::requestId(runTag, record.id);
    case RequestRecord::MemberKind::Unknown:
        break;
    }
    return {};
}
