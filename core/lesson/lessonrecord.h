#pragma once

#include <QByteArray>
#include <QString>
#include <QVector>

class BurstEngine;
struct ComparisonResult;

// What a lesson step's action left behind, as plain values: the runs it fired, request by request,
// the members the first run wrote, the key's TTL, the memory of each algorithm. The lesson's stage
// draws a step from this alone (in the window, the handout, the pictures and the animations), so
// every picture of a step shows the same numbers, and none holds a pointer into an engine.
struct LessonRecord
{
    struct Request
    {
        qint64 now = 0;
        QByteArray member;
        int added = -1; // ZADD's reply: 1 new member, 0 overwrote one, -1 unknown
        qint64 count = -1; // what the script counted
        qint64 truth = -1; // the requests really in the window then
        bool admitted = false;
        bool failed = false;
        int connection = 0;
    };
    struct Run
    {
        QString limiter; // its display name
        QString limiterId;
        qint64 limit = 0; // 0: none
        qint64 sent = 0;
        qint64 admitted = 0;
        qint64 refused = 0; // answered and not admitted
        qint64 admittedOverLimit = 0;
        qint64 stored = 0;
        qint64 members = -1; // ZCARD the engine read at the end; -1 unknown
        QVector<Request> requests; // the first maxRequests of them
    };
    struct Member
    {
        QByteArray member;
        qint64 score = 0; // the `now` of its last write
        int writes = 0;
        int firstRequest = 0; // 0-based
    };
    struct Cost
    {
        QString algorithm;
        double bytesPerUser = -1;
        qint64 entries = 0; // the sliding log's members
    };

    // A burst of the lesson has at most 300 requests; a larger one is kept in part.
    static constexpr int maxRequests = 2000;

    QVector<Run> runs; // none, one, or two (compare mode: left, then right)
    QVector<Member> members; // what the first run wrote, in the order first written
    qint64 windowMs = 0; // the first run's window
    qint64 ttlMs = -3; // the key's PTTL after the run; -3 not read, -2 no key, -1 none
    QVector<Cost> costs; // "the price of the fix"

    bool isEmpty() const { return runs.isEmpty() && costs.isEmpty() && ttlMs == -3; }
    static Run runOf(const BurstEngine& engine);
    // The distinct members of a run, in the order they were first written, with their writes.
    static QVector<Member> membersOf(const Run& run);
    static QVector<Cost> costsOf(const ComparisonResult& result);
};
