#pragma once

// What an algorithm comparison measured: one AlgorithmTally per algorithm, in a ComparisonResult.

#include "comparisonplan.h"
#include "results/burstsummary.h"

#include <QJsonObject>
#include <QVector>

// One algorithm on the traffic. "By the truth" is the decision of SlidingWindowTruth on the same
// timestamps, user by user: over the limit = admitted here and refused by the truth; under the
// limit = refused here and admitted by the truth. (Once an algorithm has decided one request
// otherwise, the two logs differ and later requests may differ both ways.)
struct AlgorithmTally
{
    QString id;
    QByteArray runKey;
    qint64 requests = 0; // answered
    qint64 admitted = 0;
    qint64 admittedOverLimit = 0;
    qint64 rejectedUnderLimit = 0;
    qint64 truthAdmitted = 0;
    qint64 memoryBytes = -1; // MEMORY USAGE of every key of every user at the end; -1 unknown
    int keys = 0; // the keys that held data at the end
    double memoryBytesPerKey = -1; // memoryBytes / users: what one user's key(s) hold
    qint64 serverCalls = 0; // EVALSHA calls the server counted during the run
    double serverUsecPerCall = -1; // INFO commandstats: usec / calls over the run; -1 unknown
    QString error;

    QJsonObject toJson() const;
};

struct ComparisonResult
{
    QString serverVersion;
    ComparisonPlan plan;
    QVector<AlgorithmTally> algorithms;
    BurstFailure failure;
    bool stopped = false;

    // {"schema": "zsetlab.algorithms/1", "server_version", "plan", "algorithms": [...]}
    QJsonObject toJson() const;
    // A table, one row per algorithm.
    QString toText() const;
};
