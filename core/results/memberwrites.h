#pragma once

#include <QByteArray>
#include <QHash>

#include <unordered_map>
#include <vector>

struct RequestBatch;

// How many requests of a burst wrote each ZSET member: 1 for a unique member, N when N requests
// of one millisecond collided on `member = now`. Updated incrementally from the engine's batches.
class MemberWrites
{
public:
    void reset();
    void add(const RequestBatch& batch);
    // 0 for a member this burst did not write; -1 when the burst's replies did not name their
    // members (a script that answers only a count), so nobody can say.
    int writesOf(const QByteArray& member) const;

private:
    std::unordered_map<qint64, int> m_byNow; // members that are `now` in decimal
    QHash<QByteArray, int> m_byText; // members stored as text
    QByteArray m_requestIdPrefix; // "<run tag>:" of the log's request ids
    qint64 m_unnamed = 0; // successful requests whose reply did not name the member
};
