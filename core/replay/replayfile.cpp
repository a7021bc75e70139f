#include "replayfile.h"

#include "base/cappedfile.h"
#include "base/interrupts.h"
#include "base/outputfile.h"
#include "burst/burstplan.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QtEndian>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace {
struct Text
{
    Q_DECLARE_TR_FUNCTIONS(ReplayFile)
};

const QByteArray magic = QByteArrayLiteral("ZSETLAB-REPLAY\n");
// The largest time a request may carry (its now, in ms or µs, and when it was sent): what a JSON
// number holds exactly, as the header's times.
constexpr qint64 maxTime = qint64(1) << 53;

enum Flag : quint8 {
    Failed = 1,
    AddedKnown = 2,
    Added = 4,
    VerdictKnown = 8,
    VerdictAdmitted = 16,
};

// Unsigned LEB128, and zigzag for signed values: small numbers (deltas) take one byte.
void putVarint(QByteArray* out, quint64 value)
{
    while (value >= 0x80) {
        out->append(char(value | 0x80));
        value >>= 7;
    }
    out->append(char(value));
}

void putSigned(QByteArray* out, qint64 value)
{
    putVarint(out, (quint64(value) << 1) ^ quint64(value >> 63));
}

void putBlock(QByteArray* out, const QByteArray& block)
{
    putVarint(out, quint64(block.size()));
    out->append(block);
}

// Reads what putVarint wrote, never past its end; a fault sticks.
class Cursor
{
public:
    Cursor(const char* data, qint64 size)
        : m_data(data)
        , m_size(size)
    { }
    bool ok() const { return m_ok; }
    bool atEnd() const { return m_at == m_size; }
    qint64 left() const { return m_size - m_at; }
    quint64 varint()
    {
        quint64 value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_at >= m_size)
                return fail();
            const auto byte = quint8(m_data[m_at++]);
            value |= quint64(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return value;
        }
        return fail();
    }
    qint64 signedVarint()
    {
        const quint64 v = varint();
        return qint64(v >> 1) ^ -qint64(v & 1);
    }
    // A count or length that must fit what is left and `limit`.
    qint64 size(qint64 limit)
    {
        const quint64 v = varint();
        if (v > quint64(std::min(limit, left())))
            return qint64(fail());
        return qint64(v);
    }
    Cursor block()
    {
        const qint64 length = size(left());
        Cursor inner(m_ok ? m_data + m_at : m_data, m_ok ? length : 0);
        m_at += m_ok ? length : 0;
        if (!m_ok)
            inner.m_ok = false;
        return inner;
    }
    QByteArray bytes(qint64 length)
    {
        if (!m_ok || length < 0 || length > left()) {
            fail();
            return {};
        }
        QByteArray out(m_data + m_at, length);
        m_at += length;
        return out;
    }
    quint8 byte()
    {
        if (m_at >= m_size)
            return quint8(fail());
        return quint8(m_data[m_at++]);
    }

private:
    quint64 fail()
    {
        m_ok = false;
        m_at = m_size;
        return 0;
    }
    const char* m_data;
    qint64 m_size;
    qint64 m_at = 0;
    bool m_ok = true;
};

QByteArray gzip(const QByteArray& raw)
{
    z_stream stream {};
    if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return {};
    QByteArray out;
    out.resize(qsizetype(deflateBound(&stream, uLong(raw.size()))));
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.constData()));
    stream.avail_in = uInt(raw.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = uInt(out.size());
    const int result = deflate(&stream, Z_FINISH);
    out.resize(qsizetype(stream.total_out));
    deflateEnd(&stream);
    return result == Z_STREAM_END ? out : QByteArray();
}

enum class Unpacked { Whole, NotGzip, Truncated, Damaged, TooLarge };

Unpacked gunzip(const QByteArray& packed, QByteArray* raw)
{
    if (packed.size() < 2 || quint8(packed[0]) != 0x1f || quint8(packed[1]) != 0x8b)
        return Unpacked::NotGzip;
    z_stream stream {};
    if (inflateInit2(&stream, 15 + 16) != Z_OK)
        return Unpacked::Damaged;
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.constData()));
    stream.avail_in = uInt(packed.size());
    raw->clear();
    constexpr qsizetype chunk = 1 << 20;
    // What the file can hold: zsetlab's replays unpack to about 30 times their size.
    const qint64 bound
        = std::min(ReplayFile::maxUnpackedBytes, qint64(packed.size()) * ReplayFile::maxUnpackRatio + chunk);
    int result = Z_OK;
    while (result == Z_OK) {
        if (raw->size() + chunk > bound + chunk) {
            inflateEnd(&stream);
            return Unpacked::TooLarge;
        }
        const qsizetype at = raw->size();
        raw->resize(at + chunk);
        stream.next_out = reinterpret_cast<Bytef*>(raw->data() + at);
        stream.avail_out = uInt(chunk);
        result = inflate(&stream, Z_NO_FLUSH);
        raw->resize(at + chunk - qsizetype(stream.avail_out));
        if (result == Z_BUF_ERROR && stream.avail_in == 0)
            break; // the input ended before the stream did
    }
    const bool trailing = stream.avail_in != 0;
    inflateEnd(&stream);
    if (result == Z_STREAM_END)
        return trailing ? Unpacked::Damaged : Unpacked::Whole;
    return result == Z_BUF_ERROR || result == Z_OK ? Unpacked::Truncated : Unpacked::Damaged;
}

QJsonObject headerOf(const Recording& recording)
{
    const RecordingInfo& info = recording.info();
    const RequestLog& log = recording.log();
    QJsonObject json;
    json[QStringLiteral("made_by")] = info.madeBy;
    json[QStringLiteral("source")] = info.source;
    json[QStringLiteral("plan")] = info.plan;
    json[QStringLiteral("strategy")] = info.limiter;
    if (!info.script.isEmpty())
        json[QStringLiteral("script")] = QString::fromUtf8(info.script);
    json[QStringLiteral("state_from")] = zsetKnowledgeName(info.knowledge);
    json[QStringLiteral("server")]
        = QJsonObject {{QStringLiteral("name"), info.serverName}, {QStringLiteral("version"), info.serverVersion}};
    json[QStringLiteral("key")] = QString::fromUtf8(info.key.toBase64());
    json[QStringLiteral("run_tag")] = QString::fromLatin1(info.runTag.toBase64());
    json[QStringLiteral("start_wall_ms")] = info.startWallMs;
    json[QStringLiteral("now_units_per_ms")] = info.nowUnitsPerMs;
    json[QStringLiteral("window_now_units")] = info.windowInNowUnits;
    json[QStringLiteral("limit")] = info.limit;
    json[QStringLiteral("users")] = info.users;
    json[QStringLiteral("requests_planned")] = info.requests;
    json[QStringLiteral("errors")] = QJsonArray::fromStringList(log.errorMessages());
    if (!info.seeded.empty()) { // a what-if: what its ZSETs held before its first request
        QJsonArray seeded;
        const std::vector<qint32>& ends = recording.watched().seededEnds;
        for (size_t k = 0; k < info.seeded.size(); ++k) {
            const SeededMember& m = info.seeded[k];
            QJsonObject member {{QStringLiteral("user"), m.user},
                                {QStringLiteral("member"), QString::fromLatin1(m.member.toBase64())},
                                {QStringLiteral("score"), m.score}};
            if (k < ends.size() && ends[k] != ZsetHistory::alive) // a watched key's: when it left
                member[QStringLiteral("end")] = ends[k];
            seeded.append(member);
        }
        json[QStringLiteral("seeded")] = seeded;
    }
    return json;
}

bool failWith(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

QString damaged(const QString& what)
{
    return Text::tr("The replay is damaged (%1). Save the run again, or open another copy of the file.").arg(what);
}

qint64 integer(const QJsonObject& json, const char* name, qint64 min, qint64 max, bool* ok)
{
    const QJsonValue value = json.value(QLatin1String(name));
    const double number = value.toDouble(-1e300);
    if (!value.isDouble() || number < double(min) || number > double(max) || number != double(qint64(number))) {
        *ok = false;
        return min;
    }
    return qint64(number);
}
} // namespace

QByteArray ReplayFile::pack(const QByteArray& raw)
{
    return gzip(raw);
}

QByteArray ReplayFile::encode(const Recording& recording)
{
    const RequestLog& log = recording.log();
    const int n = recording.requests();
    QByteArray flags, kinds, nows, sent, latencies, counts, connections, members, errors;
    flags.reserve(n);
    kinds.reserve(n);
    qint64 lastNow = 0, lastSent = 0;
    int errorEntries = 0;
    QByteArray errorList;
    int lastError = 0;
    const QStringList& errorTexts = log.errorMessages();
    for (int i = 0; i < n; ++i) {
        quint8 f = 0;
        if (log.isFailed(i)) {
            f |= Failed;
            if (const QString text = log.error(i); !text.isEmpty()) {
                putVarint(&errorList, quint64(i - lastError));
                putVarint(&errorList, quint64(std::max<qsizetype>(errorTexts.indexOf(text), 0)));
                lastError = i;
                ++errorEntries;
            }
        }
        if (log.added(i) >= 0)
            f |= AddedKnown | (log.added(i) > 0 ? Added : 0);
        if (!log.isFailed(i))
            f |= VerdictKnown | (log.isAdmitted(i) ? VerdictAdmitted : 0);
        flags.append(char(f));
        kinds.append(char(log.memberKind(i)));
        putSigned(&nows, log.now(i) - lastNow);
        lastNow = log.now(i);
        putSigned(&sent, log.sentMicros(i) - lastSent);
        lastSent = log.sentMicros(i);
        putVarint(&latencies, log.latencyMicros(i));
        putSigned(&counts, log.count(i));
        putVarint(&connections, quint64(log.connection(i)));
        if (log.memberKind(i) == RequestRecord::MemberKind::Text) {
            const QByteArray member = log.member(i);
            putVarint(&members, quint64(member.size()));
            members.append(member);
        }
    }
    putVarint(&errors, quint64(errorEntries));
    errors.append(errorList);

    const bool watched = recording.info().knowledge == ZsetKnowledge::Watched;
    QByteArray raw = magic;
    putVarint(&raw, watched ? 2 : 1);
    putBlock(&raw, QJsonDocument(headerOf(recording)).toJson(QJsonDocument::Compact));
    putVarint(&raw, quint64(n));
    for (const QByteArray* block : {&flags, &kinds, &nows, &sent, &latencies, &counts, &connections, &members, &errors})
        putBlock(&raw, *block);
    if (watched) { // each write's score, when it left the set, and the true count MONITOR gave
        QByteArray scores, ends, truths;
        scores.reserve(qsizetype(n) * 8);
        for (int i = 0; i < n; ++i) {
            quint64 bits = 0;
            const double score = recording.watched().scores[size_t(i)];
            std::memcpy(&bits, &score, sizeof bits);
            char le[8];
            qToLittleEndian(bits, le);
            scores.append(le, 8);
            const qint32 end = recording.watched().ends[size_t(i)];
            putVarint(&ends, end == ZsetHistory::alive ? 0 : quint64(end - i) + 1);
            putSigned(&truths, log.truth(i));
        }
        putBlock(&raw, scores);
        putBlock(&raw, ends);
        putBlock(&raw, truths);
    }
    return gzip(raw);
}

namespace {
// decode()'s steps: each false after failWith(error, what is wrong and what to do).

// The gzip unpacked, and the magic checked.
bool unpackReplay(const QByteArray& bytes, QByteArray* raw, QString* error)
{
    switch (gunzip(bytes, raw)) {
    case Unpacked::Whole:
        break;
    case Unpacked::NotGzip:
        return failWith(error,
                        Text::tr("This is not a zsetlab replay: it is not gzip-compressed. Open a file saved "
                                 "with File > Save Replay or zsetlab-cli run --save-replay."));
    case Unpacked::Truncated:
        return failWith(error,
                        Text::tr("The replay ends early: the file is incomplete (cut off while it was copied "
                                 "or saved). Save the run again, or copy the whole file."));
    case Unpacked::Damaged:
        return failWith(error, damaged(Text::tr("its compressed data does not check out")));
    case Unpacked::TooLarge:
        return failWith(error,
                        Text::tr("The replay unpacks to more than %L1 times its size (or %L2 MB), more than any "
                                 "run zsetlab records: it is not a replay, or it is damaged.")
                            .arg(ReplayFile::maxUnpackRatio)
                            .arg(ReplayFile::maxUnpackedBytes >> 20));
    }
    if (!raw->startsWith(magic))
        return failWith(error,
                        Text::tr("This is not a zsetlab replay (it does not start as one). Open a file saved "
                                 "with File > Save Replay or zsetlab-cli run --save-replay."));
    return true;
}

// The format version: one this zsetlab reads.
bool readVersion(Cursor& file, quint64* version, QString* error)
{
    *version = file.varint();
    if (!file.ok())
        return failWith(error, damaged(Text::tr("no format version")));
    if (*version == 0) // no zsetlab writes it: damaged, not newer
        return failWith(error, damaged(Text::tr("its format version is 0, which no zsetlab writes")));
    if (*version > quint64(ReplayFile::formatVersion))
        return failWith(error,
                        Text::tr("This replay was saved by a newer zsetlab (replay format %1; this one reads "
                                 "format %2). Open it with a newer zsetlab.")
                            .arg(*version)
                            .arg(ReplayFile::formatVersion));
    return true;
}

// The header: the run's facts, every field present and in range.
bool readHeader(Cursor& file, QJsonObject* header, RecordingInfo* info, QString* error)
{
    Cursor headerBlock = file.block();
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(headerBlock.bytes(headerBlock.left()), &parseError);
    if (!file.ok() || !document.isObject())
        return failWith(error, damaged(Text::tr("its header is not readable")));
    *header = document.object();
    const QJsonObject& h = *header;
    bool ok = true;
    info->madeBy = h.value(QLatin1String("made_by")).toString();
    info->source = h.value(QLatin1String("source")).toString();
    info->plan = h.value(QLatin1String("plan")).toObject();
    info->limiter = h.value(QLatin1String("strategy")).toString();
    info->script = h.value(QLatin1String("script")).toString().toUtf8();
    ok = ok && parseZsetKnowledge(h.value(QLatin1String("state_from")).toString(), &info->knowledge);
    const QJsonObject server = h.value(QLatin1String("server")).toObject();
    info->serverName = server.value(QLatin1String("name")).toString();
    info->serverVersion = server.value(QLatin1String("version")).toString();
    info->key = QByteArray::fromBase64(h.value(QLatin1String("key")).toString().toLatin1());
    info->runTag = QByteArray::fromBase64(h.value(QLatin1String("run_tag")).toString().toLatin1());
    info->startWallMs = integer(h, "start_wall_ms", 0, qint64(1) << 53, &ok);
    info->nowUnitsPerMs = integer(h, "now_units_per_ms", 1, 1000, &ok);
    info->windowInNowUnits = integer(h, "window_now_units", 0, qint64(1) << 53, &ok);
    info->limit = integer(h, "limit", 0, qint64(1) << 53, &ok);
    info->users = int(integer(h, "users", 1, BurstPlan::maxUsers, &ok));
    info->requests = int(integer(h, "requests_planned", 0, BurstPlan::maxRequests, &ok));
    for (const auto& value : h.value(QLatin1String("seeded")).toArray()) {
        const QJsonObject m = value.toObject();
        SeededMember seeded;
        seeded.user = int(integer(m, "user", 0, info->users - 1, &ok));
        const QJsonValue score = m.value(QLatin1String("score"));
        seeded.score = score.toDouble();
        ok = ok && score.isDouble() && std::isfinite(seeded.score);
        seeded.member = QByteArray::fromBase64(m.value(QLatin1String("member")).toString().toLatin1());
        info->seeded.push_back(std::move(seeded));
    }
    if (!ok)
        return failWith(error, damaged(Text::tr("its header lacks a field or holds one out of range")));
    return true;
}

// The request columns, one block each (a watched key's three last), in the order encode() wrote them.
struct Columns
{
    Cursor flags, kinds, nows, sent, latencies, counts, connections, members, errors;
    Cursor scores, ends, truths;
};

Columns readColumns(Cursor& file, bool watched)
{
    // Braces: the blocks are read in order.
    return Columns {file.block(),
                    file.block(),
                    file.block(),
                    file.block(),
                    file.block(),
                    file.block(),
                    file.block(),
                    file.block(),
                    file.block(),
                    watched ? file.block() : Cursor(nullptr, 0),
                    watched ? file.block() : Cursor(nullptr, 0),
                    watched ? file.block() : Cursor(nullptr, 0)};
}

using ErrorList = std::vector<std::pair<qint64, QString>>; // request, its error, by request

// The failed requests' errors, read before the requests (they go into the records).
bool readErrors(Cursor& errors, qint64 n, const QJsonArray& errorTexts, ErrorList* errorOf, QString* error)
{
    const qint64 errorEntries = errors.size(n);
    qint64 errorAt = 0;
    for (qint64 e = 0; e < errorEntries && errors.ok(); ++e) {
        errorAt += qint64(errors.varint());
        const quint64 text = errors.varint();
        if (errorAt >= n || text >= quint64(errorTexts.size()) || (e > 0 && errorAt <= errorOf->back().first))
            return failWith(error, damaged(Text::tr("an error names no request")));
        errorOf->emplace_back(errorAt, errorTexts.at(qsizetype(text)).toString());
    }
    if (!errors.ok() || !errors.atEnd())
        return failWith(error, damaged(Text::tr("its error list does not read")));
    return true;
}

// Request i; *now and *sentMicros carry the previous request's, of which each is a difference.
bool readRequest(Columns& c, qint64 i, qint64* now, qint64* sentMicros, RequestRecord* record, QString* error)
{
    record->id = quint32(i);
    const quint8 f = c.flags.byte();
    const quint8 kind = c.kinds.byte();
    if (kind > quint8(RequestRecord::MemberKind::Unknown) || (f & ~quint8(31)))
        return failWith(error, damaged(Text::tr("request %L1 holds an unknown value").arg(i + 1)));
    record->memberKind = RequestRecord::MemberKind(kind);
    record->added = (f & AddedKnown) ? ((f & Added) ? 1 : 0) : -1;
    record->verdict = (f & VerdictKnown) ? ((f & VerdictAdmitted) ? 1 : 0) : -1;
    // Each value is a difference from the previous one: a sum past the range of a time is
    // refused, not wrapped around.
    if (__builtin_add_overflow(*now, c.nows.signedVarint(), now)
        || __builtin_add_overflow(*sentMicros, c.sent.signedVarint(), sentMicros) || *now > maxTime || *now < -maxTime
        || *sentMicros > maxTime || *sentMicros < -maxTime)
        return failWith(error, damaged(Text::tr("request %L1's time is out of range").arg(i + 1)));
    record->now = *now;
    record->sentMicros = *sentMicros;
    record->latencyMicros = quint32(std::min<quint64>(c.latencies.varint(), UINT32_MAX));
    record->count = std::clamp<qint64>(c.counts.signedVarint(), -1, INT32_MAX);
    record->connection = quint16(std::min<quint64>(c.connections.varint(), UINT16_MAX));
    if (record->memberKind == RequestRecord::MemberKind::Text)
        record->member = c.members.bytes(c.members.size(UINT16_MAX));
    if (f & Failed)
        record->error = Text::tr("failed");
    return true;
}

QString stoppedBySignal()
{
    return Text::tr("stopped by a signal before it was read");
}

// Every request into *log, in batches.
bool readRequests(Columns& c, qint64 n, const ErrorList& errorOf, RequestLog* log, QString* error)
{
    std::vector<RequestRecord> batch;
    constexpr qint64 batchSize = 65536;
    batch.reserve(size_t(std::min(n, batchSize)));
    qint64 now = 0, sentMicros = 0;
    size_t nextError = 0;
    for (qint64 i = 0; i < n; ++i) {
        RequestRecord record;
        if (!readRequest(c, i, &now, &sentMicros, &record, error))
            return false;
        if (!record.error.isEmpty() && nextError < errorOf.size() && errorOf[nextError].first == i)
            record.error = errorOf[nextError++].second;
        batch.push_back(std::move(record));
        if (qint64(batch.size()) == batchSize || i + 1 == n) {
            log->add(batch);
            batch.clear();
            if (interrupted()) // Ctrl+C or SIGTERM: a large replay is not read to its end first
                return failWith(error, stoppedBySignal());
        }
    }
    for (const Cursor* column : {&c.nows, &c.sent, &c.latencies, &c.counts, &c.connections, &c.members}) {
        if (!column->ok() || !column->atEnd())
            return failWith(error, damaged(Text::tr("a column of its requests does not read")));
    }
    return true;
}

// A watched key's columns: each write's score, when it left the set, and the true count.
bool readWatched(Columns& c, qint64 n, const QJsonObject& header, RequestLog* log, WatchedWrites* writes,
                 QString* error)
{
    writes->scores.reserve(size_t(n));
    writes->ends.reserve(size_t(n));
    for (qint64 i = 0; i < n; ++i) {
        const QByteArray le = c.scores.bytes(8);
        const quint64 bits = le.size() == 8 ? qFromLittleEndian<quint64>(le.constData()) : 0;
        double score = 0;
        std::memcpy(&score, &bits, sizeof score);
        const quint64 end = c.ends.varint();
        const qint64 truth = c.truths.signedVarint();
        if (std::isnan(score) || end > quint64(n - i) + 1 || truth < -1 || truth > INT32_MAX)
            return failWith(error, damaged(Text::tr("request %L1 holds an unknown value").arg(i + 1)));
        log->setTruth(int(i), truth);
        writes->scores.push_back(score);
        writes->ends.push_back(end == 0 ? ZsetHistory::alive : qint32(i + qint64(end) - 1));
    }
    if (!c.ends.ok() || !c.ends.atEnd() || !c.truths.ok() || !c.truths.atEnd())
        return failWith(error, damaged(Text::tr("a column of its requests does not read")));
    bool ok = true;
    for (const auto& value : header.value(QLatin1String("seeded")).toArray()) {
        const QJsonObject m = value.toObject();
        writes->seededEnds.push_back(m.contains(QLatin1String("end")) ? qint32(integer(m, "end", 0, n, &ok))
                                                                      : ZsetHistory::alive);
    }
    if (!ok)
        return failWith(error, damaged(Text::tr("its header lacks a field or holds one out of range")));
    return true;
}
} // namespace

bool ReplayFile::decode(const QByteArray& bytes, Recording* recording, QString* error)
{
    QByteArray raw;
    if (!unpackReplay(bytes, &raw, error))
        return false;
    Cursor file(raw.constData() + magic.size(), raw.size() - magic.size());
    quint64 version = 0;
    QJsonObject header;
    RecordingInfo info;
    if (!readVersion(file, &version, error) || !readHeader(file, &header, &info, error))
        return false;

    const qint64 n = file.size(info.requests);
    if (!file.ok())
        return failWith(error, damaged(Text::tr("it records more requests than its run planned")));
    // Memory follows the file's real content: a few bytes of it cannot hold millions of requests.
    if (n > qint64(bytes.size()) * maxRequestsPerByte + 65536)
        return failWith(error,
                        damaged(Text::tr("it claims %L1 requests in a file of %L2 bytes, more than %L3 a byte, "
                                         "which no zsetlab replay packs")
                                    .arg(n)
                                    .arg(bytes.size())
                                    .arg(maxRequestsPerByte)));
    const bool watched = info.knowledge == ZsetKnowledge::Watched;
    if (watched && (version < 2 || info.users != 1))
        return failWith(error, damaged(Text::tr("its header does not match its kind of run")));
    Columns columns = readColumns(file, watched);
    if (!file.ok() || !file.atEnd() || columns.flags.left() != n || columns.kinds.left() != n
        || columns.scores.left() != (watched ? 8 * n : 0))
        return failWith(error, damaged(Text::tr("its columns do not match its request count")));

    ErrorList errorOf;
    if (!readErrors(columns.errors, n, header.value(QLatin1String("errors")).toArray(), &errorOf, error))
        return false;
    RequestLog log;
    log.reset(int(n), info.windowInNowUnits, info.limit, info.runTag);
    log.setUsers(info.users);
    if (!readRequests(columns, n, errorOf, &log, error))
        return false;
    if (!watched) {
        *recording = Recording(std::move(info), std::move(log));
    } else {
        WatchedWrites writes;
        if (!readWatched(columns, n, header, &log, &writes, error))
            return false;
        *recording = Recording(std::move(info), std::move(log), std::move(writes));
    }
    if (interrupted()) { // came while the history was built: the recording may be cut short
        *recording = Recording();
        return failWith(error, stoppedBySignal());
    }
    return true;
}

bool ReplayFile::save(const QString& path, const Recording& recording, QString* error)
{
    // Only over a regular file or as a new one, whole or not at all (OutputFile): a device, a pipe
    // or a link at the path is refused, and a full disk leaves no partial file, with its reason.
    if (const QString refused = OutputFile::refusal(path); !refused.isEmpty())
        return failWith(error, Text::tr("Could not save the replay: %1").arg(refused));
    const QByteArray bytes = encode(recording);
    if (bytes.isEmpty())
        return failWith(error, Text::tr("Could not save the replay as %1: it could not be packed.").arg(path));
    QString why;
    if (!OutputFile::write(path, bytes, &why))
        return failWith(error, Text::tr("Could not save the replay: %1").arg(why));
    return true;
}

bool ReplayFile::open(const QString& path, Recording* recording, QString* error)
{
    // A replay compresses a request into a few bytes: the cap is the largest run's file. A file
    // that says it is larger is refused before any of it is read (a sparse file of 10 GB was read
    // to the cap first); CappedFile bounds what a file that does not say its size gives.
    if (const QFileInfo info(path); info.isFile() && info.size() > maxFileBytes)
        return failWith(error,
                        Text::tr("%1 is larger than any replay zsetlab saves (1 GB): it is not a replay.").arg(path));
    const CappedFile file = CappedFile::read(path, maxFileBytes);
    if (file.status == CappedFile::Status::CannotOpen)
        return failWith(error, Text::tr("Could not open %1: %2.").arg(path, file.why));
    if (file.status == CappedFile::Status::TooLarge)
        return failWith(error,
                        Text::tr("%1 is larger than any replay zsetlab saves (1 GB): it is not a replay.").arg(path));
    if (!decode(file.bytes, recording, error)) {
        if (error)
            error->prepend(QFileInfo(path).fileName() + QStringLiteral(": "));
        return false;
    }
    return true;
}

bool ReplayFile::requestsOf(const QString& path, qint64* requests, QString* error)
{
    if (const QFileInfo info(path); info.isFile() && info.size() > maxFileBytes)
        return failWith(error,
                        Text::tr("%1 is larger than any replay zsetlab saves (1 GB): it is not a replay.").arg(path));
    const CappedFile file = CappedFile::read(path, maxFileBytes);
    if (file.status != CappedFile::Status::Read)
        return failWith(error, Text::tr("Could not open %1: %2.").arg(path, file.why));
    QByteArray raw;
    if (!unpackReplay(file.bytes, &raw, error))
        return false;
    Cursor cursor(raw.constData() + magic.size(), raw.size() - magic.size());
    quint64 version = 0;
    QJsonObject header;
    RecordingInfo info;
    if (!readVersion(cursor, &version, error) || !readHeader(cursor, &header, &info, error))
        return false;
    *requests = cursor.size(info.requests);
    if (!cursor.ok())
        return failWith(error, damaged(Text::tr("it records more requests than its run planned")));
    return true;
}
