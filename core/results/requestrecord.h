#pragma once

#include <QByteArray>
#include <QString>

// One finished request as a worker thread reports it. Travels in batches to the owner thread,
// where RequestLog keeps it in compact columns.
struct RequestRecord
{
    enum class MemberKind : quint8 {
        Text, // the member is in `member`
        Now, // the member is `now` written in decimal (saves storing it)
        RequestId, // the member is the request id zsetlab sent
        Unknown, // the script's reply did not name it
    };

    quint32 id = 0;
    quint16 connection = 0;
    qint8 added = -1; // ZADD's reply: 1 new member, 0 overwritten, -1 unknown
    MemberKind memberKind = MemberKind::Unknown;
    qint64 now = 0;
    qint64 sentMicros = 0; // since the burst started
    quint32 latencyMicros = 0;
    qint64 count = -1; // what the script counted; -1 unknown
    qint8 verdict = -1; // the script's own decision: 1 admitted, 0 refused, -1 it gave a count
    QByteArray member; // when memberKind == Text
    QString error; // empty: the call succeeded
};

// A request whose ground truth became known: what the limiter counted beside how many requests
// really were in the window.
struct CountedRequest
{
    quint32 id = 0;
    qint64 count = -1; // what the script counted; -1 unknown
    qint64 truth = 0;
    bool failed = false;
    bool admittedOverLimit = false;
};
