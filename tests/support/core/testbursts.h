#pragma once

#include "burst/burstengine.h"
#include "limiters/limitercatalog.h"
#include "replay/recording.h"

#include <QRandomGenerator>
#include <QTest>

// Runs the tests compare between two servers (a cluster and one server, TLS and a socket).
namespace TestBursts {
// A plan that gives the same numbers wherever it runs: 600 requests on one lane (the calls reach
// the limiter in their order), the same `now`s from a window's start, groups of 40 every 3 ms (in
// the limiter's own clock unit: its key's TTL is computed from it), limit 60.
BurstPlan replayPlan(const LimiterRef& limiter);
// Runs plan to its end (at most 120 s) and returns its summary; *key is the run's key.
BurstSummary runToTheEnd(const RedisEndpoint& endpoint, const BurstPlan& plan, QByteArray* key = nullptr);
// Runs plan to its end and returns its recording; a failure or an error ends the test program.
Recording recordToTheEnd(const RedisEndpoint& endpoint, const BurstPlan& plan);
// A replay of `requests` unique members, 50 a millisecond, saved at `path` without a server: a
// long run's file for the tests of what holding one costs. With `noise`, a latency now and then
// higher gives the file some bytes (some 14 requests a byte, near what a replay may hold, as a
// crafted file packs them); without, it packs as tight as its columns allow. False with *error.
bool writeLongReplay(const QString& path, int requests, QString* error, QRandomGenerator* noise = nullptr);
} // namespace TestBursts

// The same plan run two ways (on a cluster and on one server, over TLS and over a socket): the
// same numbers, Redis's own counts at the end included.
#define VERIFY_SAME_TOTALS(actual, reference, plan)                                                                    \
    do {                                                                                                               \
        QVERIFY2(!(reference).failure.isFailure(), qPrintable((reference).failure.message));                           \
        QVERIFY2(!(actual).failure.isFailure(), qPrintable((actual).failure.message));                                 \
        QCOMPARE((actual).sent, (plan).requests);                                                                      \
        QCOMPARE((actual).errors, 0);                                                                                  \
        QCOMPARE((actual).stored, (reference).stored);                                                                 \
        QCOMPARE((actual).overwritten, (reference).overwritten);                                                       \
        QCOMPARE((actual).admitted, (reference).admitted);                                                             \
        QCOMPARE((actual).admittedOverLimit, (reference).admittedOverLimit);                                           \
        QCOMPARE((actual).membersAtEnd, (reference).membersAtEnd);                                                     \
        QCOMPARE((actual).finalCount, (reference).finalCount);                                                         \
    } while (false)
