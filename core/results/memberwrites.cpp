#include "memberwrites.h"

#include "requestbatch.h"

void MemberWrites::reset()
{
    m_byNow.clear();
    m_byText.clear();
    m_requestIdPrefix.clear();
    m_unnamed = 0;
}

void MemberWrites::add(const RequestBatch& batch)
{
    if (m_requestIdPrefix.isEmpty())
        m_requestIdPrefix = batch.runTag + ':';
    if (!batch.finished)
        return;
    for (const RequestRecord& record : *batch.finished) {
        if (!record.error.isEmpty())
            continue;
        switch (record.memberKind) {
        case RequestRecord::MemberKind::Now:
            ++m_byNow[record.now];
            break;
        case RequestRecord::MemberKind::Text:
            ++m_byText[record.member];
            break;
        case RequestRecord::MemberKind::RequestId: // unique by construction: writesOf() answers 1
            break;
        case RequestRecord::MemberKind::Unknown:
            ++m_unnamed;
            break;
        }
    }
}

int MemberWrites::writesOf(const QByteArray& member) const
{
    bool isNumber = false;
    const qint64 asNow = member.toLongLong(&isNumber);
    if (isNumber && QByteArray::number(asNow) == member) {
        const auto found = m_byNow.find(asNow);
        if (found != m_byNow.end())
            return found->second;
    }
    const auto text = m_byText.constFind(member);
    if (text != m_byText.constEnd())
        return text.value();
    if (m_unnamed > 0) // replies that named no member: nobody can say who wrote this one
        return -1;
    if (!m_requestIdPrefix.isEmpty() && member.startsWith(m_requestIdPrefix))
        return 1;
    return 0;
}
