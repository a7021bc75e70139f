// Fuzzes how zsetlab reads what a limiter script answered: the bytes a server sends back for an
// EVALSHA of a custom script. The input is parsed as RESP by hiredis's own reader (the parser the
// connections use), turned into RedisReply values and handed to readLimiterReply() and the error
// readers the burst uses for failed calls, and, as one series of calls, to the script doctor's
// ReplyReading, inferReplyStyle(), learnReplyStyle() and countAdmissions().
#include "limiters/limiterreply.h"
#include "limiters/limiterscript.h"
#include "limiters/replyreading.h"
#include "redis/redisreply.h"

#include <hiredis/hiredis.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {
// The request the reply answers; the seeds use these to reach the "member is now" and "member
// is the request id" paths.
constexpr qint64 requestNow = 1700000000000;
const QByteArray requestId = QByteArrayLiteral("fuzz:7");
const QByteArray key = QByteArrayLiteral("zsetlab:fuzz");

// hiredis 0.14 allocates an array's element pointers as soon as it reads "*N", before any
// element arrives. An N far beyond the input cannot be completed by it anyway; skip it rather
// than report hiredis's allocation as ours.
bool declaresMoreThanItHolds(const uint8_t* data, size_t size)
{
    for (size_t i = 0; i < size; ++i) {
        if (data[i] != '*' && data[i] != '$')
            continue;
        unsigned long long declared = 0;
        size_t j = i + 1;
        while (j < size && data[j] >= '0' && data[j] <= '9' && declared <= size)
            declared = declared * 10 + (data[j++] - '0');
        if (declared > size)
            return true;
    }
    return false;
}

void readOne(const RedisReply& reply)
{
    RequestRecord record;
    record.now = requestNow;
    record.id = 7;
    const bool read = readLimiterReply(reply, requestNow, requestId, &record);
    if (read != record.error.isEmpty())
        abort(); // success and an error message go together exactly one way
    if (record.added < -1 || record.added > 1)
        abort();
    if (record.memberKind != RequestRecord::MemberKind::Text && !record.member.isEmpty())
        abort(); // only text members are stored; the others are rebuilt from now or the id
    if (!read && record.error.size() > 400)
        abort(); // a hostile reply must not flood the log

    // What BurstRun does with a failed call.
    if (reply.isServerError()) {
        (void)ScriptRunner::describeFailure(reply, key);
        (void)ScriptRunner::isNoScript(reply);
        (void)ScriptError::fromReply(reply.text()).toString();
    }
    (void)reply.toDisplayString();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (declaresMoreThanItHolds(data, size))
        return 0;
    QVector<ReplyReading> readings;
    redisReader* reader = redisReaderCreate();
    if (redisReaderFeed(reader, reinterpret_cast<const char*>(data), size) == REDIS_OK) {
        void* raw = nullptr;
        // A pipeline delivers several replies in one read: take them all.
        while (redisReaderGetReply(reader, &raw) == REDIS_OK && raw) {
            const RedisReply reply = RedisReply::fromHiredis(static_cast<redisReply*>(raw));
            freeReplyObject(raw);
            raw = nullptr;
            readOne(reply);
            readings << ReplyReading::read(reply);
        }
    }
    redisReaderFree(reader);

    QString why;
    const ReplyStyle style = inferReplyStyle(readings, &why);
    if (style == ReplyStyle::Unknown && why.isEmpty())
        abort(); // "unknown" must say why
    for (const bool scriptReadsLimit : {false, true}) {
        const AdmissionCount count = countAdmissions(style, readings, 10, scriptReadsLimit);
        if (count.admitted + count.refused + count.unclear != readings.size())
            abort(); // every call is counted exactly once
    }
    // The same replies as the probe's batches: the first half without a limit, the rest under one.
    const int half = int(readings.size()) / 2;
    const ReplyStyle learned = learnReplyStyle({readings.mid(0, half)}, {LimitedReplies {3, readings.mid(half)}}, &why);
    if (learned == ReplyStyle::Unknown && why.isEmpty())
        abort();
    for (const ReplyStyle deciding : {ReplyStyle::Admitted, ReplyStyle::Limited, ReplyStyle::NilAdmitted}) {
        const AdmissionCount count = countAdmissions(deciding, readings, 3, true);
        if (count.admitted + count.refused + count.unclear != readings.size())
            abort();
    }
    return 0;
}
