// The web page of a replay without a browser: its data holds, request by request, what
// Recording::stateAt() says (the browser test, tests/web/, checks that the page shows it); the
// page asks no address for anything; bad output paths are refused before any work.

#include "replay/recording.h"
#include "testbursts.h"
#include "testredis.h"
#include "web/webpage.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

namespace {
QByteArray inflated(const QByteArray& packed)
{
    z_stream stream {};
    if (inflateInit(&stream) != Z_OK)
        return {};
    QByteArray out;
    QByteArray chunk(1 << 16, Qt::Uninitialized);
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.constData()));
    stream.avail_in = uInt(packed.size());
    int status = Z_OK;
    while (status == Z_OK) {
        stream.next_out = reinterpret_cast<Bytef*>(chunk.data());
        stream.avail_out = uInt(chunk.size());
        status = inflate(&stream, Z_NO_FLUSH);
        out.append(chunk.constData(), chunk.size() - qsizetype(stream.avail_out));
    }
    inflateEnd(&stream);
    return status == Z_STREAM_END ? out : QByteArray();
}

// Reads the page's data as its script does (resources/web/data.js).
class Reader
{
public:
    explicit Reader(QByteArray bytes)
        : m_bytes(std::move(bytes))
    { }
    quint64 varint()
    {
        quint64 value = 0;
        for (int shift = 0; m_at < m_bytes.size(); shift += 7) {
            const auto byte = quint8(m_bytes[m_at++]);
            value |= quint64(byte & 0x7f) << shift;
            if (!(byte & 0x80))
                return value;
        }
        m_failed = true;
        return 0;
    }
    qint64 signedValue()
    {
        const quint64 v = varint();
        return qint64(v >> 1) ^ -qint64(v & 1);
    }
    Reader block()
    {
        const auto length = qsizetype(varint());
        Reader part(m_bytes.mid(m_at, length));
        m_failed |= m_at + length > m_bytes.size();
        m_at += length;
        return part;
    }
    QByteArray bytes() const { return m_bytes; }
    bool atEnd() const { return m_at == m_bytes.size(); }
    bool failed() const { return m_failed; }

private:
    QByteArray m_bytes;
    qsizetype m_at = 0;
    bool m_failed = false;
};

struct Page
{
    QByteArray html;
    QJsonObject header;
    Reader columns {{}};
};

Page unpacked(const QByteArray& html)
{
    Page page;
    page.html = html;
    const QByteArray open = "id=\"zsetlab-data\">";
    const qsizetype from = html.indexOf(open) + open.size();
    const QByteArray data = html.mid(from, html.indexOf("</script>", from) - from);
    Reader all(inflated(QByteArray::fromBase64(data)));
    page.header = QJsonDocument::fromJson(all.block().bytes()).object();
    page.columns = all;
    return page;
}

// The inline block between `open` and `close` (a style or a script), as the CSP hashes it.
QByteArray blockAfter(const QByteArray& html, const QByteArray& open, const QByteArray& close)
{
    const qsizetype from = html.indexOf(open) + open.size();
    return html.mid(from, html.indexOf(close, from) - from);
}
} // namespace

class TestWebPage : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void eachRequestCarriesWhatStateAtSays_data();
    void eachRequestCarriesWhatStateAtSays();
    void onlyItsOwnScriptAndStyleMayRun();
    void textsFromTheRunStayText();
    void twoSidesPlayInOnePage();
    void nothingToPlayIsSaid();
    void badOutputPathsAreRefusedBeforeAnyWork_data();
    void badOutputPathsAreRefusedBeforeAnyWork();

private:
    QTemporaryDir m_dir;
    std::map<QString, Recording> m_runs;
};

void TestWebPage::initTestCase()
{
    QVERIFY(TestRedis::server().isRunning());
    for (const char* id : {"now", "random", "request-id"}) {
        BurstPlan plan = TestBursts::replayPlan(LimiterCatalog::builtin(QString::fromLatin1(id)));
        plan.windowMs = 7; // members leave the window while the run goes on
        if (QLatin1String(id) == QLatin1String("random"))
            plan.users = 3;
        m_runs[QString::fromLatin1(id)] = TestBursts::recordToTheEnd(TestRedis::endpoint(), plan);
    }
}

void TestWebPage::eachRequestCarriesWhatStateAtSays_data()
{
    QTest::addColumn<QString>("run");
    QTest::newRow("member = now: overwrites") << QStringLiteral("now");
    QTest::newRow("random members, three users") << QStringLiteral("random");
    QTest::newRow("request ids") << QStringLiteral("request-id");
}

void TestWebPage::eachRequestCarriesWhatStateAtSays()
{
    QFETCH(QString, run);
    const Recording& recording = m_runs.at(run);
    QString error;
    Page page = unpacked(WebPage::render({{&recording, {}}}, {}, &error));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(page.header.value(QLatin1String("schema")).toString(), QStringLiteral("zsetlab.page/1"));
    const QJsonObject side = page.header.value(QLatin1String("sides")).toArray().at(0).toObject();
    QCOMPARE(side.value(QLatin1String("users")).toInt(), recording.info().users);
    QCOMPARE(side.value(QLatin1String("keys")).toArray().size(), recording.info().users);

    Reader& columns = page.columns;
    const int n = int(columns.varint());
    QCOMPARE(n, recording.requests());
    const QByteArray flags = columns.block().bytes();
    const QByteArray kinds = columns.block().bytes();
    Reader nows = columns.block(), counts = columns.block(), truths = columns.block(), members = columns.block();
    Reader ends = columns.block(), writes = columns.block(), texts = columns.block();
    columns.block(); // errors
    QVERIFY(columns.atEnd() && !columns.failed());
    qint64 now = 0, count = 0, truth = 0, size = 0, overwritten = 0;
    int overwrites = 0;
    for (int i = 0; i < n; ++i) {
        const ReplayState state = recording.stateAt(i, false);
        now += nows.signedValue();
        count += counts.signedValue();
        truth += truths.signedValue();
        size += members.signedValue();
        QCOMPARE(now, state.now);
        QCOMPARE(count, state.countReturned);
        QCOMPARE(truth, state.trueCount);
        QCOMPARE(size, state.members);
        QCOMPARE(bool(flags[i] & 4), state.added == 1);
        QCOMPARE(bool(flags[i] & 2), state.added >= 0);
        QCOMPARE(bool(flags[i] & 16), state.admitted);
        QCOMPARE(bool(flags[i] & 32), state.admittedBeyondLimit);
        overwritten += !(flags[i] & 1) && (flags[i] & 2) && !(flags[i] & 4); // the page's sum
        QCOMPARE(overwritten, state.overwritten);
        overwrites += state.added == 0;
        const quint64 end = ends.varint();
        const qint32 historyEnd = recording.history().endOf(i);
        QCOMPARE(end, historyEnd == ZsetHistory::alive ? 0 : quint64(historyEnd - i + 1));
        QCOMPARE(qint64(writes.varint()), qint64(recording.history().writesOfMemberThrough(i)));
        QCOMPARE(int(kinds[i]), int(recording.log().memberKind(i)));
        if (kinds[i] == 0)
            QCOMPARE(texts.block().bytes(), state.member);
    }
    QVERIFY(texts.atEnd());
    if (run == QLatin1String("now"))
        QVERIFY(overwrites > 0);
    else
        QCOMPARE(overwrites, 0);
}

void TestWebPage::onlyItsOwnScriptAndStyleMayRun()
{
    QString error;
    const QByteArray html = WebPage::render({{&m_runs.at(QStringLiteral("now")), {}}}, {}, &error);
    const QRegularExpression policy(QStringLiteral("http-equiv=\"Content-Security-Policy\" content=\"([^\"]+)\""));
    const QString csp = policy.match(QString::fromUtf8(html)).captured(1);
    QVERIFY2(csp.startsWith(QLatin1String("default-src 'none';")), qPrintable(csp));
    const QByteArray script = blockAfter(html, "<script>", "</script>");
    const QByteArray style = blockAfter(html, "<style>", "</style>");
    QVERIFY(script.contains("window.zsetlab"));
    auto hash = [](const QByteArray& block) {
        return QStringLiteral("'sha256-%1'")
            .arg(QString::fromLatin1(QCryptographicHash::hash(block, QCryptographicHash::Sha256).toBase64()));
    };
    QVERIFY2(csp.contains(QStringLiteral("script-src ") + hash(script) + u';'), qPrintable(csp));
    QVERIFY2(csp.contains(QStringLiteral("style-src ") + hash(style) + u';'), qPrintable(csp));
    QVERIFY(!csp.contains(QLatin1String("unsafe")));
    // Nothing that names an address: no external script, style, font or picture.
    const QByteArray withoutData = html.left(html.indexOf("id=\"zsetlab-data\"")) + script + style;
    for (const char* reach : {"http:", "https:", "src=\"//", "url(", "@import", "<link rel=\"stylesheet\""})
        QVERIFY2(!withoutData.contains(reach), reach);
    QCOMPARE(html.count("<script"), 2); // the data (not run) and the page's own script
}

void TestWebPage::textsFromTheRunStayText()
{
    WebPage::Options options;
    options.title = QStringLiteral("<img src=x onerror=alert(1)> & \"more\"");
    options.language = QStringLiteral("vi");
    QString error;
    const QByteArray html = WebPage::render({{&m_runs.at(QStringLiteral("now")), {}}}, options, &error);
    QVERIFY(!html.contains("<img src=x"));
    QVERIFY(html.contains("&lt;img src=x onerror=alert(1)&gt; &amp; &quot;more&quot;"));
    QVERIFY(html.startsWith("<!DOCTYPE html>\n<html lang=\"vi\">"));
    QCOMPARE(unpacked(html).header.value(QLatin1String("title")).toString(), options.title);
}

void TestWebPage::twoSidesPlayInOnePage()
{
    QString error;
    Page page = unpacked(WebPage::render(
        {{&m_runs.at(QStringLiteral("now")), {}}, {&m_runs.at(QStringLiteral("request-id")), {}}}, {}, &error));
    const QJsonArray sides = page.header.value(QLatin1String("sides")).toArray();
    QCOMPARE(sides.size(), 2);
    QCOMPARE(sides.at(1).toObject().value(QLatin1String("strategy")).toString(), QStringLiteral("request-id"));
    QVERIFY(sides.at(0).toObject().value(QLatin1String("builtin")).toBool());
    for (int s = 0; s < 2; ++s) { // both sides' columns, and nothing after them
        QCOMPARE(int(page.columns.varint()), 600);
        for (int c = 0; c < 10; ++c)
            page.columns.block();
    }
    QVERIFY(page.columns.atEnd() && !page.columns.failed());
}

void TestWebPage::nothingToPlayIsSaid()
{
    const Recording empty;
    QString error;
    QVERIFY(WebPage::render({{&empty, {}}}, {}, &error).isEmpty());
    QVERIFY2(error.contains(QLatin1String("nothing to play")), qPrintable(error));
    const Recording& run = m_runs.at(QStringLiteral("now"));
    QVERIFY(WebPage::render({{&run, {}}, {&run, {}}, {&run, {}}}, {}, &error).isEmpty());
    QVERIFY2(error.contains(QLatin1String("two side by side")), qPrintable(error));
    const QString path = m_dir.filePath(QStringLiteral("empty.html"));
    QVERIFY(!WebPage::write(path, {{&empty, {}}}, {}, &error));
    QVERIFY(!QFile::exists(path)); // nothing half-written
}

void TestWebPage::badOutputPathsAreRefusedBeforeAnyWork_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("said");
    const QString replay = m_dir.filePath(QStringLiteral("run.zsetreplay"));
    QFile(replay).open(QIODevice::WriteOnly);
    QTest::newRow("a folder") << m_dir.path() << QStringLiteral("is a folder");
    QTest::newRow("a folder that does not exist")
        << m_dir.filePath(QStringLiteral("none/run.html")) << QStringLiteral("does not exist");
    QTest::newRow("the replay itself") << replay << QStringLiteral("the replay the page is made from");
    QTest::newRow("no name") << QString() << QStringLiteral("file name");
}

void TestWebPage::badOutputPathsAreRefusedBeforeAnyWork()
{
    QFETCH(QString, path);
    QFETCH(QString, said);
    const QString replay = m_dir.filePath(QStringLiteral("run.zsetreplay"));
    QString error;
    QVERIFY(!WebPage::write(path, {{&m_runs.at(QStringLiteral("now")), {}}}, {}, &error, {replay}));
    QVERIFY2(error.contains(said), qPrintable(error));
    QCOMPARE(QFileInfo(replay).size(), 0); // the replay is as it was
    const QString good = m_dir.filePath(QStringLiteral("good.html"));
    QVERIFY2(WebPage::write(good, {{&m_runs.at(QStringLiteral("now")), {}}}, {}, &error, {replay}), qPrintable(error));
    QVERIFY(QFileInfo(good).size() > 1000);
}

QTEST_GUILESS_MAIN(TestWebPage)
#include "tst_webpage.moc"
