// Public libraries' limiter scripts, named by their tokens: each entry of the table recognized from
// the text its library publishes (tests/upstream-limiters/<id>.lua) and from a copy laid out
// otherwise, a changed copy named "derived from" it with what changed, and other limiters (zsetlab's
// own, the doctor's corpus) not named at all.

#include "doctor/knownlimiters.h"
#include "doctor/luatokens.h"
#include "doctor/scriptdoctor.h"
#include "doctor/scriptprobe.h"
#include "sourcetree.h"
#include "testredis.h"

#include <QDir>
#include <QFile>
#include <QtTest>

namespace {
QByteArray upstreamText(const char* id)
{
    QFile file(sourcePath(QStringLiteral("tests/upstream-limiters/%1.lua").arg(QLatin1String(id))));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.readAll();
}

// The same tokens in another layout: each token on its own terms, apart by spaces, tabs and new
// lines, with comments between them; strings keep their bytes.
QByteArray relaidOut(const QByteArray& source)
{
    int trouble = 0;
    QByteArray out = "-- a copy, laid out anew\n";
    int n = 0;
    for (const LuaFlow::Token& token : LuaFlow::tokenize(source, &trouble)) {
        if (token.kind == LuaFlow::Token::Kind::End)
            break;
        out += source.mid(token.offset, token.length);
        out += (++n % 7 == 0) ? QByteArray(" --[[ note ]]\n\t") : (n % 3 == 0 ? QByteArray("\n  ") : QByteArray(" "));
    }
    return out;
}

void addEntryRows()
{
    QTest::addColumn<int>("entry");
    for (int i = 0; i < KnownLimiters::table().size(); ++i)
        QTest::newRow(KnownLimiters::table().at(i).id) << i;
}

const char* addedLine = "local zsetlab_extra = redis.call('PING')\n";
} // namespace

class TestKnownLimiters : public QObject
{
    Q_OBJECT
private slots:
    void theTableHoldsTheLibrariesAsked()
    {
        QSet<QString> libraries;
        QSet<QString> ids;
        for (const KnownLimiter& limiter : KnownLimiters::table()) {
            libraries << QString::fromUtf8(limiter.library).section(QLatin1Char(' '), 0, 0);
            QVERIFY2(!ids.contains(QLatin1String(limiter.id)), limiter.id);
            ids << QLatin1String(limiter.id);
            QVERIFY2(QByteArray(limiter.source).startsWith("https://github.com/"), limiter.id);
            if (limiter.issue) {
                QVERIFY2(QByteArray(limiter.issueUrl).startsWith("https://github.com/"), limiter.id);
            }
        }
        for (const char* library : {"Redisson", "Apache", "Spring", "go-redis/redis_rate", "rate-limiter-flexible",
                                    "rate-limit-redis", "async-ratelimiter", "Upstash", "go-zero", "Tyk",
                                    // Issue 45: PHP and Python web frameworks, .NET, a Ruby job queue.
                                    "Laravel", "limits", "fastapi-limiter", "RedisRateLimiting", "sidekiq-throttled"})
            QVERIFY2(libraries.contains(QLatin1String(library)), library);
        QSet<QString> named; // by the whole name: Apache APISIX and Apache ShenYu are two
        for (const KnownLimiter& limiter : KnownLimiters::table())
            named << QString::fromUtf8(limiter.library).section(QLatin1Char(' '), 0, 1);
        QVERIFY2(named.size() >= 18, qPrintable(QStringList(named.values()).join(QStringLiteral(", "))));
    }

    void recognizesEachUpstreamText_data() { addEntryRows(); }
    void recognizesEachUpstreamText()
    {
        QFETCH(int, entry);
        const KnownLimiter& limiter = KnownLimiters::table().at(entry);
        const QByteArray text = upstreamText(limiter.id);
        QVERIFY2(!text.isEmpty(), "the upstream text is missing from tests/upstream-limiters");

        // The table is what --fingerprint prints of the text: nothing drifted.
        const ScriptFingerprint fingerprint = ScriptFingerprint::of(text);
        QVERIFY(QByteArray(limiter.sha1).split(' ').contains(fingerprint.sha1));
        QCOMPARE(QByteArray(limiter.tokenDigest), fingerprint.tokenDigest);
        QCOMPARE(limiter.tokenCount, fingerprint.tokenCount);
        QCOMPARE(QByteArray(limiter.commands), fingerprint.commands.join(' '));

        const LimiterRecognition known = KnownLimiters::recognize(text);
        QCOMPARE(int(known.match), int(LimiterRecognition::Match::Same));
        QCOMPARE(known.limiter->id, limiter.id);
        QVERIFY(known.sameBytes);
        QCOMPARE(KnownLimiters::bySha1(fingerprint.sha1.toUpper()), &limiter); // EVALSHA in MONITOR
        QCOMPARE(KnownLimiters::nameOf(fingerprint.sha1), QString::fromUtf8(limiter.library));
    }

    void keepsTheNameThroughLayoutAndComments_data() { addEntryRows(); }
    void keepsTheNameThroughLayoutAndComments()
    {
        QFETCH(int, entry);
        const KnownLimiter& limiter = KnownLimiters::table().at(entry);
        const QByteArray copy = relaidOut(upstreamText(limiter.id));
        QVERIFY(ScriptFingerprint::of(copy).sha1 != ScriptFingerprint::of(upstreamText(limiter.id)).sha1);
        const LimiterRecognition known = KnownLimiters::recognize(copy);
        QCOMPARE(int(known.match), int(LimiterRecognition::Match::Same));
        QCOMPARE(known.limiter->id, limiter.id);
        QVERIFY(!known.sameBytes);
        QVERIFY(!KnownLimiters::bySha1(ScriptFingerprint::of(copy).sha1));
        // The watch sees the copy's body: the name comes from its tokens.
        QCOMPARE(KnownLimiters::nameOf(ScriptFingerprint::of(copy).sha1, copy), QString::fromUtf8(limiter.library));
    }

    void namesAChangedCopyDerivedWithWhatChanged_data() { addEntryRows(); }
    void namesAChangedCopyDerivedWithWhatChanged()
    {
        QFETCH(int, entry);
        const KnownLimiter& limiter = KnownLimiters::table().at(entry);
        const QByteArray changed = addedLine + upstreamText(limiter.id);
        const LimiterRecognition known = KnownLimiters::recognize(changed);
        QCOMPARE(int(known.match), int(LimiterRecognition::Match::Derived));
        QCOMPARE(QByteArray(known.limiter->library), QByteArray(limiter.library));
        QCOMPARE(known.changedLines, QVector<int> {1});
        QCOMPARE(known.commandsAdded, QList<QByteArray> {"PING"});
        QVERIFY(known.commandsDropped.isEmpty());
        QVERIFY(known.shared > 0.9);

        const ScriptExamination examination = ScriptDoctor::examine(changed);
        QCOMPARE(examination.findings.first().code, QStringLiteral("derived-limiter"));
        QVERIFY2(examination.findings.first().explanation.contains(
                     QStringLiteral("Line 1 is new or changed. Redis calls added: PING.")),
                 qPrintable(examination.findings.first().explanation));
    }

    void aDroppedCallIsSaid()
    {
        // go-zero's token limiter without its EXPIRE calls: what it no longer does is named.
        const KnownLimiter* limiter = nullptr;
        for (const KnownLimiter& l : KnownLimiters::table()) {
            if (QByteArray(l.commands).contains("EXPIRE") && QByteArray(l.library).startsWith("go-zero"))
                limiter = &l;
        }
        QVERIFY(limiter);
        QByteArray text = upstreamText(limiter->id);
        QByteArray withoutExpire;
        for (const QByteArray& line : text.split('\n')) {
            if (!line.contains("\"expire\"") && !line.contains("'expire'"))
                withoutExpire += line + '\n';
        }
        QVERIFY(withoutExpire.size() < text.size());
        const LimiterRecognition known = KnownLimiters::recognize(withoutExpire);
        QCOMPARE(int(known.match), int(LimiterRecognition::Match::Derived));
        QVERIFY(known.commandsDropped.contains("EXPIRE"));
    }

    // Issue 45: a call made fewer times is still there: "fewer", and "removed" only when gone.
    void aCallMadeFewerTimesIsNotRemoved()
    {
        // Laravel's duration limiter reads the window's end with HGET twice; a copy reads it once.
        QByteArray text = upstreamText("laravel-duration-limiter");
        const QByteArray twice = "        redis.call('HGET', KEYS[1], 'end'),\n";
        QVERIFY(text.contains(twice));
        text.replace(twice, "        ARGV[2] + ARGV[3],\n");
        const LimiterRecognition known = KnownLimiters::recognize(text);
        QCOMPARE(int(known.match), int(LimiterRecognition::Match::Derived));
        QVERIFY(known.commandsDropped.isEmpty());
        QCOMPARE(known.commandsFewer.size(), 1);
        QCOMPARE(known.commandsFewer.first().command, QByteArray("HGET"));
        QCOMPARE(known.commandsFewer.first().known, 4);
        QCOMPARE(known.commandsFewer.first().here, 3);
        const QString explanation = ScriptDoctor::examine(text).findings.first().explanation;
        QVERIFY2(explanation.contains(QStringLiteral("Redis calls made fewer times: HGET (4 → 3).")),
                 qPrintable(explanation));
        QVERIFY2(!explanation.contains(QLatin1String("removed")), qPrintable(explanation));

        // Every HINCRBY gone: removed.
        const QByteArray without = QByteArray(upstreamText("laravel-duration-limiter"))
                                       .replace("tonumber(redis.call('HINCRBY', KEYS[1], 'count', 1))", "1");
        const LimiterRecognition dropped = KnownLimiters::recognize(without);
        QCOMPARE(dropped.commandsDropped, QList<QByteArray> {"HINCRBY"});
        QVERIFY(ScriptDoctor::examine(without).findings.first().explanation.contains(
            QStringLiteral("Redis calls removed: HINCRBY.")));
    }

    // Issue 45: the two classes seen in the held-out libraries are in the table where a real
    // library has them, and the probe on the library's own call shows ShenYu's.
    void theTwoClassesAreNamed()
    {
        const LimiterRecognition concurrent = KnownLimiters::recognize(upstreamText("shenyu-concurrent"));
        QVERIFY(concurrent.limiter && concurrent.limiter->countsWrong);
        QVERIFY(concurrent.issue().contains(QLatin1String("no TTL")));
        const LimiterRecognition bucket = KnownLimiters::recognize(upstreamText("aspnetcore-redis-token-bucket"));
        QVERIFY(bucket.limiter && bucket.limiter->countsWrong);
        QVERIFY(bucket.issue().contains(QLatin1String("rounds down to 0")));

        // Read alone, ShenYu's issue is a warning; its library's call on a real server shows it: a
        // slot is never given back, so calls a window apart are refused. Then it is an error.
        const QByteArray text = upstreamText("shenyu-concurrent");
        CallTemplate call;
        QString error;
        QVERIFY(CallTemplate::parse(QString::fromUtf8(concurrent.limiter->call.keys),
                                    QString::fromUtf8(concurrent.limiter->call.args), &call, &error));
        ScriptExamination examination = ScriptDoctor::examine(text, call);
        QCOMPARE(examination.findings.first().severity, ScriptFinding::Severity::Warning);
        ScriptProbe probe(LimiterScript::fromSource(QStringLiteral("shenyu-concurrent.lua"), text), call);
        const ProbeReport report = probe.run(TestRedis::endpoint());
        QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
        QVERIFY2(report.countsWrong(), qPrintable(report.verdict.join(QLatin1Char('\n'))));
        QCOMPARE(report.scenario(QStringLiteral("slide"))->admitted, 1);
        QVERIFY(ScriptDoctor::weighProbe(&examination, report) > 0);
        QCOMPARE(examination.findings.first().severity, ScriptFinding::Severity::Error);
        QVERIFY(
            examination.findings.first().explanation.contains(QLatin1String("The live probe measured a wrong count")));
    }

    void leavesOtherLimitersUnnamed_data()
    {
        QTest::addColumn<QString>("path");
        for (const char* folder : {"lua", "tests/doctor-corpus"}) {
            const QDir dir(sourcePath(QLatin1String(folder)));
            for (const QString& name : dir.entryList({QStringLiteral("*.lua")}, QDir::Files))
                QTest::newRow(qPrintable(QLatin1String(folder) + QLatin1Char('/') + name)) << dir.filePath(name);
        }
    }
    void leavesOtherLimitersUnnamed()
    {
        // zsetlab's own sliding logs (sliding-log-now.lua: ZREMRANGEBYSCORE, ZCARD, ZADD now now,
        // PEXPIRE) are near misses of async-ratelimiter's: the same commands, the same member.
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray source = file.readAll();
        const LimiterRecognition known = KnownLimiters::recognize(source);
        QVERIFY2(known.match == LimiterRecognition::Match::None, qPrintable(known.libraryName()));
        QVERIFY2(known.resemblance < KnownLimiters::derivedAt, qPrintable(QString::number(known.resemblance)));
        qInfo("closest known limiter: %.2f of runs alike", known.resemblance);
        for (const ScriptFinding& finding : ScriptDoctor::examine(source).findings)
            QVERIFY(!finding.code.endsWith(QLatin1String("-limiter")));
    }

    void aTokenBucketOfTheSameShapeIsNotNamed()
    {
        // A near miss: a token bucket written apart from Spring Cloud Gateway's, with its keys,
        // arguments, calls and reply, is a limiter of its own.
        const QByteArray bucket = R"(
local bucket, stamp = KEYS[1], KEYS[2]
local per_second, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local at, cost = tonumber(ARGV[3]), tonumber(ARGV[4])
local held = tonumber(redis.call('GET', bucket))
if held == nil then held = burst end
local since = tonumber(redis.call('GET', stamp))
if since == nil then since = 0 end
local refill = (at - since) * per_second
if refill < 0 then refill = 0 end
held = math.min(burst, held + refill)
local ok = 0
if held >= cost then
  ok = 1
  held = held - cost
end
local keep = math.floor(2 * burst / per_second)
if keep > 0 then
  redis.call('SETEX', bucket, keep, held)
  redis.call('SETEX', stamp, keep, at)
end
return {ok, held}
)";
        const LimiterRecognition known = KnownLimiters::recognize(bucket);
        QCOMPARE(int(known.match), int(LimiterRecognition::Match::None));
        QVERIFY(known.resemblance > 0);
        qInfo("closest known limiter: %.2f of runs alike", known.resemblance);
    }

    void eachLibrarysCallRunsOnRedis_data() { addEntryRows(); }
    void eachLibrarysCallRunsOnRedis()
    {
        // The call the table gives is how the library calls its script: the live probe runs it to
        // the end (no Lua error, no missing setup) and reads its replies.
        QFETCH(int, entry);
        const KnownLimiter& limiter = KnownLimiters::table().at(entry);
        const LibraryCall& library = limiter.call;
        QVERIFY(library.isKnown());
        CallTemplate call;
        QString error;
        QVERIFY2(CallTemplate::parse(QString::fromUtf8(library.keys), QString::fromUtf8(library.args), &call, &error),
                 qPrintable(error));
        ProbeSettings settings;
        for (const QString& text : library.setupCommands()) {
            SetupCommand command;
            QVERIFY2(SetupCommand::parse(text, &command, &error), qPrintable(error));
            settings.setup << text;
        }
        if (*library.reply)
            QVERIFY(parseReplyStyle(QString::fromUtf8(library.reply), &settings.replyStyle, &settings.replyElement));
        if (library.windowMs > 0)
            settings.windowMs = library.windowMs;
        const QByteArray text = upstreamText(limiter.id);
        settings.randomMemberValues = ScriptDoctor::examine(text, call).randomMemberValues;
        ScriptProbe probe(LimiterScript::fromSource(QString::fromUtf8(limiter.id) + QStringLiteral(".lua"), text), call,
                          settings);
        const ProbeReport report = probe.run(TestRedis::endpoint());
        QVERIFY2(report.failure == ProbeReport::Failure::None, qPrintable(report.failureMessage));
        // Read by a style or by the element that changes when calls are refused (a slot's name or nil).
        QVERIFY2(report.replyStyle != ReplyStyle::Unknown || report.decision.isKnown(),
                 qPrintable(report.replyStyleWhy));
        QVERIFY2(report.admissionsRead, qPrintable(report.verdict.join(QLatin1Char('\n'))));
        // The doctor, reading the script as the library calls it, says how.
        const ScriptExamination examination = ScriptDoctor::examine(text, call);
        QVERIFY(examination.findings.first().suggestion.contains(library.options()));
        for (const ScriptFinding& finding : examination.findings)
            QVERIFY2(finding.code != QLatin1String("template-mismatch") && finding.code != QLatin1String("keys-missing")
                         && finding.code != QLatin1String("argv-missing"),
                     qPrintable(finding.title));
    }

    void theDoctorNamesTheKnownIssueAndItsFix_data() { addEntryRows(); }
    void theDoctorNamesTheKnownIssueAndItsFix()
    {
        QFETCH(int, entry);
        const KnownLimiter& limiter = KnownLimiters::table().at(entry);
        const ScriptExamination examination = ScriptDoctor::examine(upstreamText(limiter.id));
        QCOMPARE(examination.known.limiter, &limiter);
        const ScriptFinding& named = examination.findings.first();
        QCOMPARE(named.code, QStringLiteral("known-limiter"));
        QCOMPARE(named.line, 1);
        QVERIFY(named.title.contains(QString::fromUtf8(limiter.library)));
        QVERIFY(named.explanation.contains(QString::fromUtf8(limiter.source)));
        if (!limiter.issue) {
            QCOMPARE(named.severity, ScriptFinding::Severity::Info);
            return;
        }
        // A known issue is a warning until the live probe shows it on the calls given.
        QCOMPARE(named.severity, ScriptFinding::Severity::Warning);
        QVERIFY(named.explanation.contains(QString::fromUtf8(limiter.issueUrl)));
        if (limiter.fixedIn)
            QVERIFY(named.suggestion.contains(QString::fromUtf8(limiter.fixedIn)));
        else if (limiter.fixedBy)
            QVERIFY(named.suggestion.contains(QString::fromUtf8(limiter.fixedBy)));
        else
            QVERIFY(named.suggestion.contains(QStringLiteral("knows of no release")));
    }
};

QTEST_GUILESS_MAIN(TestKnownLimiters)
#include "tst_knownlimiters.moc"
