#include "memberwrites.h"

#include "requestlog.h"

void MemberWrites::reset()
{
    m_byNow.clear();
    m_byText.clear();
    m_requestIdPrefix.clear();
}

void MemberWrites::add(const RequestLog& log, const std::vector<quint32>& ids)
{
    if (m_requestIdPrefix.isEmpty() && log.size() > 0)
        m_requestIdPrefix = log.requestId(0).chopped(1); // "<tag>:0" -> "<tag>:"
    for (const quint32 id : ids) {
        const int i = static_cast<int>(id);
        if (i >= log.size() || !log.isDone(i) || log.isFailed(i))
            continue;
        switch (log.memberKind(i)) {
        case RequestRecord::MemberKind::Now:
            ++m_byNow[log.now(i)];
            break;
        case RequestRecord::MemberKind::Text:
            ++m_byText[log.member(i)];
            break;
        case RequestRecord::MemberKind::RequestId: // unique by construction: writesOf() answers 1
        case RequestRecord::MemberKind::Unknown:
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
    if (!m_requestIdPrefix.isEmpty() && member.startsWith(m_requestIdPrefix))
        return 1;
    return 0;
}
