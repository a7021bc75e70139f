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

RequestBatch RequestBatch::ofUser(int user, int users) const
{
    RequestBatch only = *this;
    if (users < 2)
        return only;
    auto records = std::make_shared<std::vector<RequestRecord>>();
    if (finished) {
        for (const RequestRecord& record : *finished) {
            if (int(record.id % quint32(users)) == user)
                records->push_back(record);
        }
    }
    auto countedOfUser = std::make_shared<std::vector<CountedRequest>>();
    if (counted) {
        for (const CountedRequest& request : *counted) {
            if (int(request.id % quint32(users)) == user)
                countedOfUser->push_back(request);
        }
    }
    only.finished = std::move(records);
    only.counted = std::move(countedOfUser);
    return only;
}
