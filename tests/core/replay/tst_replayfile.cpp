// Replay files: what is saved opens the same; anything else is refused with a message, no crash.

#include "replay/replayfile.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

namespace {
// A recording with every kind of request a run can leave: members as text, as now and as
// request ids, overwrites, refusals, failures with their messages, two users.
Recording sampleRecording(int requests)
{
    RecordingInfo info;
    info.limiter = QStringLiteral("random");
    info.plan = QJsonObject {{QStringLiteral("requests"), requests}};
    info.serverName = QStringLiteral("redis");
    info.serverVersion = QStringLiteral("7.0.15");
    info.key = QByteArrayLiteral("zsetlab:run:{x-\xff\x01}");
    info.runTag = QByteArrayLiteral("abc");
    info.startWallMs = 1'800'000'000'000;
    info.windowInNowUnits = 50;
    info.limit = 7;
    info.users = 2;
    info.requests = requests + 5;
    info.madeBy = QStringLiteral("zsetlab test");
    RequestLog log;
    log.reset(requests, info.windowInNowUnits, info.limit, info.runTag);
    log.setUsers(info.users);
    std::vector<RequestRecord> records;
    for (int i = 0; i < requests; ++i) {
        RequestRecord r;
        r.id = quint32(i);
        r.connection = quint16(i % 3);
        r.now = info.startWallMs + i / 4 - (i % 5 == 0 ? 3 : 0);
        r.sentMicros = i * 250;
        r.latencyMicros = quint32(40 + i % 17);
        if (i % 23 == 22) {
            r.error = i % 2 ? QStringLiteral("OOM command not allowed") : QStringLiteral("BUSY");
        } else {
            r.memberKind = RequestRecord::MemberKind(i % 3);
            if (r.memberKind == RequestRecord::MemberKind::Text)
                r.member = QByteArray::number(i % 11) + QByteArray("\x00\xfe", 2);
            r.added = qint8(i % 4 == 1 ? 0 : 1);
            r.count = i % 9;
            r.verdict = qint8(i % 7 == 0 ? 0 : (i % 7 == 1 ? -1 : 1));
        }
        records.push_back(r);
    }
    log.add(records);
    return Recording(info, log);
}

QByteArray gunzipped(const QByteArray& packed)
{
    z_stream s {};
    inflateInit2(&s, 15 + 16);
    QByteArray raw(64 << 20, Qt::Uninitialized);
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.constData()));
    s.avail_in = uInt(packed.size());
    s.next_out = reinterpret_cast<Bytef*>(raw.data());
    s.avail_out = uInt(raw.size());
    inflate(&s, Z_FINISH);
    raw.resize(qsizetype(s.total_out));
    inflateEnd(&s);
    return raw;
}

// The unpacked file in its parts: magic, version, header, request count, then the columns (flags,
// kinds, nows, sent, latencies, counts, connections, members, errors), to change one and join
// them again.
struct RawReplay
{
    quint64 version = 0;
    QByteArray header;
    quint64 requests = 0;
    QList<QByteArray> columns;

    static quint64 varint(const QByteArray& raw, qsizetype* at)
    {
        quint64 value = 0;
        for (int shift = 0; *at < raw.size(); shift += 7) {
            const quint8 byte = quint8(raw[(*at)++]);
            value |= quint64(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                break;
        }
        return value;
    }
    static void putVarint(QByteArray* out, quint64 value)
    {
        while (value >= 0x80) {
            out->append(char(value | 0x80));
            value >>= 7;
        }
        out->append(char(value));
    }
    static RawReplay of(const QByteArray& raw)
    {
        RawReplay parts;
        qsizetype at = qsizetype(qstrlen("ZSETLAB-REPLAY\n"));
        parts.version = varint(raw, &at);
        const qsizetype headerSize = qsizetype(varint(raw, &at));
        parts.header = raw.mid(at, headerSize);
        at += headerSize;
        parts.requests = varint(raw, &at);
        while (at < raw.size()) {
            const qsizetype size = qsizetype(varint(raw, &at));
            parts.columns << raw.mid(at, size);
            at += size;
        }
        return parts;
    }
    QByteArray joined() const
    {
        QByteArray raw("ZSETLAB-REPLAY\n");
        putVarint(&raw, version);
        putVarint(&raw, quint64(header.size()));
        raw += header;
        putVarint(&raw, requests);
        for (const QByteArray& column : columns) {
            putVarint(&raw, quint64(column.size()));
            raw += column;
        }
        return raw;
    }
};

QByteArray gzipped(const QByteArray& raw)
{
    z_stream s {};
    deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray packed(qsizetype(deflateBound(&s, uLong(raw.size()))), Qt::Uninitialized);
    s.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.constData()));
    s.avail_in = uInt(raw.size());
    s.next_out = reinterpret_cast<Bytef*>(packed.data());
    s.avail_out = uInt(packed.size());
    deflate(&s, Z_FINISH);
    packed.resize(qsizetype(s.total_out));
    deflateEnd(&s);
    return packed;
}
} // namespace

class TestReplayFile : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip();
    void newerVersionIsRefused();
    void truncatedFilesAreRefused();
    void damagedFilesAreRefused();
    void otherFilesAreRefused();
    void aDamagedHeaderIsRefused();
    void versionZeroIsDamagedNotNewer();
    void timesThatOverflowAreRefused();
    void memoryFollowsTheFilesContent();
    void aFileLargerThanTheCapIsNotRead();
};

void TestReplayFile::roundTrip()
{
    const Recording saved = sampleRecording(2000);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("run.zsetreplay"));
    QString error;
    QVERIFY2(ReplayFile::save(path, saved, &error), qPrintable(error));
    Recording opened;
    QVERIFY2(ReplayFile::open(path, &opened, &error), qPrintable(error));

    QCOMPARE(opened.requests(), saved.requests());
    const RecordingInfo& a = saved.info();
    const RecordingInfo& b = opened.info();
    QCOMPARE(b.limiter, a.limiter);
    QCOMPARE(b.plan, a.plan);
    QCOMPARE(b.key, a.key);
    QCOMPARE(b.runTag, a.runTag);
    QCOMPARE(b.serverName, a.serverName);
    QCOMPARE(b.serverVersion, a.serverVersion);
    QCOMPARE(b.startWallMs, a.startWallMs);
    QCOMPARE(b.windowInNowUnits, a.windowInNowUnits);
    QCOMPARE(b.limit, a.limit);
    QCOMPARE(b.users, a.users);
    QCOMPARE(b.requests, a.requests);
    QCOMPARE(b.madeBy, a.madeBy);
    const RequestLog& x = saved.log();
    const RequestLog& y = opened.log();
    for (int i = 0; i < saved.requests(); ++i) {
        QCOMPARE(y.now(i), x.now(i));
        QCOMPARE(y.sentMicros(i), x.sentMicros(i));
        QCOMPARE(y.latencyMicros(i), x.latencyMicros(i));
        QCOMPARE(y.connection(i), x.connection(i));
        QCOMPARE(y.count(i), x.count(i));
        QCOMPARE(y.added(i), x.added(i));
        QCOMPARE(y.isFailed(i), x.isFailed(i));
        QCOMPARE(y.isAdmitted(i), x.isAdmitted(i));
        QCOMPARE(y.truth(i), x.truth(i));
        QCOMPARE(y.memberKind(i), x.memberKind(i));
        QCOMPARE(y.member(i), x.member(i));
        QCOMPARE(y.error(i), x.error(i));
        QCOMPARE(opened.history().sizeAfter(i), saved.history().sizeAfter(i));
    }
    QCOMPARE(y.admittedOverLimit(), x.admittedOverLimit());
    QCOMPARE(y.overwritten(), x.overwritten());
    QVERIFY(x.errors() > 0);
    QVERIFY(x.overwritten() > 0);
}

void TestReplayFile::newerVersionIsRefused()
{
    QByteArray raw = gunzipped(ReplayFile::encode(sampleRecording(50)));
    const int versionAt = int(qstrlen("ZSETLAB-REPLAY\n"));
    QCOMPARE(int(raw.at(versionAt)), 1); // a burst's: the first version, which every zsetlab reads
    raw[versionAt] = char(ReplayFile::formatVersion + 1);
    Recording recording;
    QString error;
    QVERIFY(!ReplayFile::decode(gzipped(raw), &recording, &error));
    QVERIFY2(error.contains(QLatin1String("newer zsetlab")), qPrintable(error));
    QVERIFY(recording.isEmpty());
}

void TestReplayFile::truncatedFilesAreRefused()
{
    const QByteArray whole = ReplayFile::encode(sampleRecording(300));
    int endsEarly = 0;
    for (qsizetype size = 0; size < whole.size(); ++size) {
        Recording recording;
        QString error;
        QVERIFY2(!ReplayFile::decode(whole.left(size), &recording, &error), qPrintable(QString::number(size)));
        QVERIFY(!error.isEmpty());
        endsEarly += error.contains(QLatin1String("ends early"));
    }
    QVERIFY2(endsEarly > whole.size() / 2, "a cut file is told as one");
    // Cut inside the unpacked data, packed again whole: the columns no longer add up.
    const QByteArray raw = gunzipped(whole);
    for (const qsizetype size : {raw.size() - 1, raw.size() / 2, qsizetype(20)}) {
        Recording recording;
        QString error;
        QVERIFY(!ReplayFile::decode(gzipped(raw.left(size)), &recording, &error));
        QVERIFY2(error.contains(QLatin1String("damaged")), qPrintable(error));
    }
}

void TestReplayFile::damagedFilesAreRefused()
{
    const QByteArray whole = ReplayFile::encode(sampleRecording(300));
    for (qsizetype at = 10; at < whole.size() - 8; at += 7) {
        QByteArray bad = whole;
        bad[at] = char(bad[at] ^ 0x5a);
        Recording recording;
        QString error;
        QVERIFY2(!ReplayFile::decode(bad, &recording, &error), qPrintable(QString::number(at)));
    }
    // Flipped bits the gzip checksum cannot see: changed before packing.
    QByteArray raw = gunzipped(whole);
    for (qsizetype at = 16; at < raw.size(); at += 13) {
        QByteArray bad = raw;
        bad[at] = char(0xff);
        Recording recording;
        QString error;
        ReplayFile::decode(gzipped(bad), &recording, &error); // may read as another valid replay
        QVERIFY(recording.isEmpty() == !error.isEmpty());
    }
}

void TestReplayFile::otherFilesAreRefused()
{
    QTemporaryDir dir;
    Recording recording;
    QString error;
    QVERIFY(!ReplayFile::open(dir.filePath(QStringLiteral("missing.zsetreplay")), &recording, &error));
    QVERIFY2(error.contains(QLatin1String("Could not open")), qPrintable(error));
    QVERIFY(!ReplayFile::decode(QByteArrayLiteral("{\"plan\": {}}"), &recording, &error));
    QVERIFY2(error.contains(QLatin1String("not a zsetlab replay")), qPrintable(error));
    QVERIFY(!ReplayFile::decode(gzipped(QByteArrayLiteral("hello")), &recording, &error));
    QVERIFY2(error.contains(QLatin1String("not a zsetlab replay")), qPrintable(error));
    QVERIFY(!ReplayFile::decode(ReplayFile::encode(sampleRecording(10)) + "tail", &recording, &error));
    QVERIFY2(error.contains(QLatin1String("damaged")), qPrintable(error));
    QVERIFY(recording.isEmpty());
    QVERIFY(!ReplayFile::save(dir.filePath(QStringLiteral("no/such/folder/x.zsetreplay")), sampleRecording(3), &error));
    QVERIFY2(error.contains(QLatin1String("Could not save")), qPrintable(error));
}

void TestReplayFile::aDamagedHeaderIsRefused()
{
    // A header that claims more users or requests than a run can have, or a window of text.
    const QByteArray raw = gunzipped(ReplayFile::encode(sampleRecording(20)));
    for (const auto& [from, to] :
         std::vector<std::pair<QByteArray, QByteArray>> {{"\"users\":2", "\"users\":2000000"},
                                                         {"\"users\":2", "\"users\":-1"},
                                                         {"\"window_now_units\":50", "\"window_now_units\":\"50\""},
                                                         {"\"requests_planned\":25", "\"requests_planned\":3"},
                                                         {"\"state_from\":\"flow\"", "\"state_from\":\"x\""}}) {
        QVERIFY2(raw.contains(from), from.constData());
        QByteArray bad = raw;
        bad.replace(from, to);
        // The header's length is its block's: a header of another length no longer fits it.
        const qsizetype headerAt = qsizetype(qstrlen("ZSETLAB-REPLAY\n")) + 1;
        const int delta = int(to.size() - from.size());
        const int length = quint8(raw[headerAt]) | (quint8(raw[headerAt + 1]) & 0x7f) << 7;
        QVERIFY(quint8(raw[headerAt]) & 0x80); // two bytes of length
        const int fixed = length + delta;
        bad[headerAt] = char((fixed & 0x7f) | 0x80);
        bad[headerAt + 1] = char(fixed >> 7);
        Recording recording;
        QString error;
        QVERIFY2(!ReplayFile::decode(gzipped(bad), &recording, &error), to.constData());
        QVERIFY2(error.contains(QLatin1String("damaged")), qPrintable(error));
    }
}

// Issue #44: a replay of version 0 was "saved by a newer zsetlab".
void TestReplayFile::versionZeroIsDamagedNotNewer()
{
    QByteArray raw = gunzipped(ReplayFile::encode(sampleRecording(50)));
    raw[qsizetype(qstrlen("ZSETLAB-REPLAY\n"))] = char(0);
    Recording recording;
    QString error;
    QVERIFY(!ReplayFile::decode(gzipped(raw), &recording, &error));
    QVERIFY2(error.contains(QLatin1String("damaged")) && error.contains(QLatin1String("version is 0")),
             qPrintable(error));
    QVERIFY2(!error.contains(QLatin1String("newer")), qPrintable(error));
}

// Issue #44: `now` values whose differences add up past a 64-bit number were taken (and wrapped).
void TestReplayFile::timesThatOverflowAreRefused()
{
    const QByteArray raw = gunzipped(ReplayFile::encode(sampleRecording(3)));
    RawReplay parts = RawReplay::of(raw);
    QCOMPARE(parts.joined(), raw); // the test's own reading of the format holds
    QCOMPARE(parts.requests, quint64(3));
    QCOMPARE(parts.columns.size(), 9);
    for (const int column : {2, 3}) { // now, then the time it was sent
        RawReplay bad = parts;
        QByteArray deltas;
        for (int i = 0; i < 3; ++i) // zigzag: 2 * (2^62 - 1), each a positive difference of 2^62 - 1
            RawReplay::putVarint(&deltas, (quint64(1) << 63) - 2);
        bad.columns[column] = deltas;
        Recording recording;
        QString error;
        QVERIFY(!ReplayFile::decode(gzipped(bad.joined()), &recording, &error));
        QVERIFY2(error.contains(QLatin1String("time is out of range")), qPrintable(error));
        QVERIFY(recording.isEmpty());
    }
}

// Issue #44: a file of 340 KB claiming 50M requests (within its header's limits) took 5.6 GB.
void TestReplayFile::memoryFollowsTheFilesContent()
{
    // A million requests claimed in a file of a few KB (a column of zeros, and some noise so that
    // it does not unpack past the other bound first).
    RawReplay parts = RawReplay::of(gunzipped(ReplayFile::encode(sampleRecording(3))));
    const int claimed = 1'000'000;
    const QByteArray planned = "\"requests_planned\":" + QByteArray::number(claimed);
    parts.header.replace(QByteArray("\"requests_planned\":8"), planned);
    parts.requests = quint64(claimed);
    parts.columns[0] = QByteArray(claimed, char(0));
    QByteArray noise(12000, Qt::Uninitialized);
    for (char& byte : noise)
        byte = char(QRandomGenerator::global()->bounded(256));
    parts.columns[7] = noise;
    const QByteArray packed = gzipped(parts.joined());
    QVERIFY2(qint64(packed.size()) * ReplayFile::maxRequestsPerByte + 65536 < claimed, "too large to be refused");
    QVERIFY2(qint64(packed.size()) * ReplayFile::maxUnpackRatio > parts.joined().size(), "refused for another bound");
    Recording recording;
    QString error;
    QVERIFY(!ReplayFile::decode(packed, &recording, &error));
    QVERIFY2(error.contains(QLatin1String("1,000,000 requests in a file of")), qPrintable(error));

    // Zeros that unpack to far more than a replay's share of its file.
    const QByteArray bomb = gzipped(QByteArray("ZSETLAB-REPLAY\n") + QByteArray(64 << 20, char(0)));
    QVERIFY(bomb.size() * ReplayFile::maxUnpackRatio + (1 << 20) < (64 << 20));
    QVERIFY(!ReplayFile::decode(bomb, &recording, &error));
    QVERIFY2(error.contains(QLatin1String("unpacks to more than")), qPrintable(error));

    // A real run of the same size is read: the bounds leave room for what zsetlab writes.
    const Recording saved = sampleRecording(200000);
    QVERIFY2(ReplayFile::decode(ReplayFile::encode(saved), &recording, &error), qPrintable(error));
    QCOMPARE(recording.requests(), 200000);
}

// Issue #44: a sparse file of 10 GB was read to 1 GB before being refused.
void TestReplayFile::aFileLargerThanTheCapIsNotRead()
{
    QTemporaryDir dir;
    QFile sparse(dir.filePath(QStringLiteral("huge.zsetreplay")));
    QVERIFY(sparse.open(QIODevice::WriteOnly));
    QVERIFY(sparse.resize(qint64(10) << 30)); // no blocks written: nothing for the disk
    sparse.close();
    QElapsedTimer timer;
    timer.start();
    Recording recording;
    QString error;
    QVERIFY(!ReplayFile::open(sparse.fileName(), &recording, &error));
    QVERIFY2(error.contains(QLatin1String("larger than any replay")), qPrintable(error));
    QVERIFY2(timer.elapsed() < 1000, qPrintable(QStringLiteral("took %1 ms: it was read").arg(timer.elapsed())));
}

QTEST_GUILESS_MAIN(TestReplayFile)
#include "tst_replayfile.moc"
