#pragma once

#include <QJsonObject>
#include <QString>
#include <QVector>

class RequestLog;
struct BurstPlan;

// What one simulated app server of a burst with clients sent and what became of it. The log
// keeps each request's connection, which is its client (BurstPlan::clients).
struct ClientTally
{
    int client = 0; // 0-based, as the log's connection
    QString profile; // the client's text form (clientprofile.h)
    qint64 sent = 0; // finished: answered or failed
    qint64 errors = 0;
    qint64 stored = 0; // created a member of their own
    qint64 overwritten = 0; // updated an existing member (ZADD replied 0)
    // Of those, the ones whose member had been created by another client: a collision across
    // servers whose clocks agree on the millisecond.
    qint64 overwroteOtherClient = 0;
    qint64 admitted = 0;
    qint64 admittedOverLimit = 0;

    // One entry per client of plan, counted over the finished requests of log.
    static QVector<ClientTally> fromLog(const RequestLog& log, const BurstPlan& plan);
    QJsonObject toJson() const;
};
