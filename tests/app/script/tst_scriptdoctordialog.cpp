#include "burst/planmodel.h"
#include "limiters/limitercatalog.h"
#include "mainwindow.h"
#include "redis/serversession.h"
#include "run/burstpanel.h"
#include "run/numberspanel.h"
#include "run/runview.h"
#include "script/codeeditor.h"
#include "script/scriptdoctordialog.h"
#include "sourcetree.h"
#include "testredis.h"
#include "testsettings.h"
#include "testwindow.h"

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QtTest>

class TestScriptDoctorDialog : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void flagsTheNowScript();
    void findingsGoWithTheScriptTheyRead();
    void findsNothingInRequestId();
    void readsABuiltinWithTheKeysZsetlabPasses();
    void probesTheNowScriptLive();
    void firesTheUsersScriptInItsOwnStyle();
    void keyRefusedOnTheServerHeadsTheReport();
    void firesALibraryFunctionAsAnEvalScript();
    void probesWithTheSetupField();
    void namesAPublicLibrarysLimiter();

private:
    void connectWindow();
    std::unique_ptr<MainWindow> m_window;
};

void TestScriptDoctorDialog::initTestCase()
{
    TestSettings::keepToThisRun();
}

void TestScriptDoctorDialog::init()
{
    m_window = std::make_unique<MainWindow>();
    m_window->show();
}

void TestScriptDoctorDialog::cleanup()
{
    m_window.reset();
}

void TestScriptDoctorDialog::connectWindow()
{
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    m_window->connectToServer(request);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
}

void TestScriptDoctorDialog::flagsTheNowScript()
{
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    doctor->setSource(QStringLiteral("now.lua"), LimiterCatalog::builtin("now")->script.source());
    QVERIFY(doctor->check());
    QVERIFY(doctor->examination().hasProblem());
    bool memberIsTime = false;
    for (const ScriptFinding& finding : doctor->examination().findings)
        memberIsTime = memberIsTime
            || (finding.code == QLatin1String("member-is-time") && finding.severity == ScriptFinding::Severity::Error);
    QVERIFY(memberIsTime);
    auto* editor = doctor->findChild<CodeEditor*>();
    QVERIFY(!editor->extraSelections().isEmpty()); // the line is marked
    if (qEnvironmentVariableIsSet("ZSETLAB_SCREENSHOT")) {
        doctor->show();
        QVERIFY(doctor->grab().save(qEnvironmentVariable("ZSETLAB_SCREENSHOT")));
    }
}

// Issue #30: after the script was replaced, a finding about EXPIRE pointed at "return 1".
void TestScriptDoctorDialog::findingsGoWithTheScriptTheyRead()
{
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    doctor->setSource(QStringLiteral("now.lua"), LimiterCatalog::builtin("now")->script.source());
    QVERIFY(doctor->check());
    auto* findings = doctor->findChild<QTreeWidget*>();
    auto* editor = doctor->findChild<CodeEditor*>();
    QVERIFY(findings->topLevelItemCount() > 0);
    QVERIFY(!editor->extraSelections().isEmpty());
    editor->setPlainText(QStringLiteral("return 1\n"));
    QCOMPARE(findings->topLevelItemCount(), 0);
    QVERIFY(editor->extraSelections().isEmpty());
    QVERIFY(!doctor->examination().findings.isEmpty()); // kept for the record, not shown
    QVERIFY(doctor->check()); // read again: the new script's findings
    for (int i = 0; i < findings->topLevelItemCount(); ++i)
        QVERIFY2(findings->topLevelItem(i)->text(0).toInt() <= 1, qPrintable(findings->topLevelItem(i)->text(2)));
}

void TestScriptDoctorDialog::findsNothingInRequestId()
{
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    doctor->setSource(QStringLiteral("request-id.lua"), LimiterCatalog::builtin("request-id")->script.source());
    QVERIFY(doctor->check());
    QVERIFY(!doctor->examination().hasProblem());
}

// Issue 18: the sequence script builds KEYS[1] .. ':seq', which zsetlab passes as KEYS[2]; with
// the application's key the dialog names the slots of a call's keys.
void TestScriptDoctorDialog::readsABuiltinWithTheKeysZsetlabPasses()
{
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    auto* builtin = doctor->findChild<QComboBox*>();
    QVERIFY(builtin);
    const int sequence = builtin->findData(QStringLiteral("sequence"));
    QVERIFY(sequence > 0);
    emit builtin->activated(sequence);
    const QList<QLineEdit*> fields = doctor->findChildren<QLineEdit*>();
    QCOMPARE(fields.size(), 4); // KEYS, ARGV, your key, setup
    QCOMPARE(fields.at(0)->text(), QStringLiteral("{key} {key}:seq"));
    QVERIFY(doctor->check());
    QVERIFY(doctor->examination().findings.isEmpty());

    auto codes = [doctor] {
        QStringList list;
        for (const ScriptFinding& finding : doctor->examination().findings)
            list << finding.code;
        return list;
    };
    fields.at(2)->setText(QStringLiteral("rl:user42")); // the application's key, without a hash tag
    QVERIFY(doctor->check());
    QCOMPARE(codes(), QStringList {QStringLiteral("cross-slot")});
    fields.at(2)->setText(QStringLiteral("rl:{user42}"));
    QVERIFY(doctor->check());
    QVERIFY(doctor->examination().findings.isEmpty());

    // Called with KEYS[1] alone, the counter is a key the caller does not pass.
    fields.at(0)->setText(QStringLiteral("{key}"));
    QVERIFY(doctor->check());
    QCOMPARE(codes(), QStringList {QStringLiteral("undeclared-key")});
    QVERIFY(doctor->examination().hasProblem());
}

void TestScriptDoctorDialog::probesTheNowScriptLive()
{
    connectWindow();
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    doctor->setSource(QStringLiteral("now.lua"), LimiterCatalog::builtin("now")->script.source());
    QSignalSpy finished(doctor, &ScriptDoctorDialog::probeFinished);
    doctor->probe();
    QVERIFY(doctor->isProbing());
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    const ProbeReport& report = doctor->probeReport();
    QCOMPARE(report.failure, ProbeReport::Failure::None);
    QVERIFY(report.hasProblem());
    QVERIFY2(report.verdict.join(QLatin1Char(' ')).contains(QLatin1String("1 entry")),
             qPrintable(report.verdict.join(QLatin1Char(' '))));
}

void TestScriptDoctorDialog::firesTheUsersScriptInItsOwnStyle()
{
    // A check-then-add script that replies 1/0 and takes its arguments in its own order.
    connectWindow();
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    QVERIFY(doctor->openFile(sourcePath(QStringLiteral("tests/doctor-corpus/check-then-add-zcount.lua"))));
    doctor->findChildren<QLineEdit*>().at(1)->setText(QStringLiteral("{now} {window} {limit}"));
    QSignalSpy probed(doctor, &ScriptDoctorDialog::probeFinished);
    doctor->probe();
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 1, 60000);
    QCOMPARE(doctor->probeReport().replyStyle, ReplyStyle::Admitted);
    QPushButton* use = buttonWithText(doctor, QStringLiteral("Use for Bursts"));
    QVERIFY(use);
    use->click();
    PlanModel* model = m_window->planModel();
    QVERIFY(model->customLimiter());
    QCOMPARE(model->plan().burst.limiter, model->customLimiter());
    QCOMPARE(model->customLimiter()->replyStyle, ReplyStyle::Admitted);
    model->edit([](ExperimentPlan& plan) {
        plan.burst.requests = 100;
        plan.burst.clock = ClockKind::Frozen;
        plan.burst.pacing = Pacing();
        plan.burst.limit = 5;
    });
    QCOMPARE(model->plan().burst.limiter->role, LimiterEntry::Role::Custom);
    QSignalSpy done(m_window->experiment(), &LimiterExperiment::allFinished);
    m_window->fire();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    const BurstSummary summary = m_window->experiment()->engine(LimiterExperiment::Left).summary();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.errors, 0);
    QCOMPARE(summary.sent, 100);
    // The script admits every call of the frozen millisecond (its one member never counts past 1),
    // so 95 of them go through beyond the limit of 5.
    QCOMPARE(summary.admitted, 100);
    QCOMPARE(summary.admittedOverLimit, 95);
    QCOMPARE(summary.finalCount, 1);
}

// A script that behaves on the private trial (sorted sets as listpacks) and writes a foreign key
// where they are skiplists: on the connected server its sandbox's user is refused that key, and
// the report leads with it, not with counts the probe never finished.
void TestScriptDoctorDialog::keyRefusedOnTheServerHeadsTheReport()
{
    connectWindow();
    RedisConnection admin;
    QVERIFY(TestRedis::connect(admin));
    const QByteArray setting = admin.command({"CONFIG", "GET", "zset-max-listpack-entries"}).elements().at(1).bytes();
    QVERIFY(!admin.command({"CONFIG", "SET", "zset-max-listpack-entries", "0"}).isError());
    QVERIFY(!admin.command({"SET", "foreign:doctor-dialog", "theirs"}).isError());
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    doctor->setSource(QStringLiteral("bomb.lua"),
                      "redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])\n"
                      "if redis.call('OBJECT', 'ENCODING', KEYS[1]) == 'skiplist' then\n"
                      "  redis.call('SET', 'foreign:doctor-dialog', 'overwritten')\n"
                      "end\n"
                      "redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
                      "return redis.call('ZCARD', KEYS[1])\n");
    QSignalSpy finished(doctor, &ScriptDoctorDialog::probeFinished);
    doctor->probe();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    admin.command({"CONFIG", "SET", "zset-max-listpack-entries", setting});
    QCOMPARE(admin.command({"GET", "foreign:doctor-dialog"}).bytes(), QByteArray("theirs"));
    admin.command({"DEL", "foreign:doctor-dialog"});
    QCOMPARE(doctor->probeReport().sandbox.refusedKeys, QList<QByteArray> {"foreign:doctor-dialog"});
    const auto* details = doctor->findChild<QTextBrowser*>();
    QVERIFY(details);
    QVERIFY2(details->toHtml().contains(QLatin1String("It touches keys it was not given")),
             qPrintable(details->toPlainText()));
    QVERIFY2(details->toPlainText().contains(QLatin1String("Redis refused it")), qPrintable(details->toPlainText()));
}

// A Redis Functions library: a function to choose, findings that name their function, the probe
// with FCALL, and bursts that fire the chosen function as an EVAL script.
void TestScriptDoctorDialog::firesALibraryFunctionAsAnEvalScript()
{
    connectWindow();
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    doctor->show();
    QComboBox* functions = nullptr;
    for (QComboBox* box : doctor->findChildren<QComboBox*>())
        if (box->toolTip().contains(QLatin1String("Redis Functions")))
            functions = box;
    QVERIFY(functions);
    QVERIFY(!functions->isVisible()); // an EVAL script has none
    QVERIFY(doctor->openFile(sourcePath(QStringLiteral("tests/doctor-corpus/library-now-and-unique.lua"))));
    QVERIFY(functions->isVisible());
    QCOMPARE(functions->count(), 3);
    QCOMPARE(functions->itemText(1), QStringLiteral("limit_now"));
    QVERIFY(doctor->check());
    QVERIFY2(doctor->findChild<QTextBrowser*>()->toPlainText().contains(QLatin1String("Line 41, in limit_now")),
             qPrintable(doctor->findChild<QTextBrowser*>()->toPlainText()));
    auto* tree = doctor->findChild<QTreeWidget*>();
    QCOMPARE(tree->topLevelItemCount(), 1);
    QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("41"));
    QVERIFY2(tree->topLevelItem(0)->text(2).startsWith(QLatin1String("limit_now: ")),
             qPrintable(tree->topLevelItem(0)->text(2)));

    // Choosing another function reads it again at once, as a user picks it from the list.
    functions->setCurrentIndex(functions->findData(QByteArray("limit_unique")));
    emit functions->activated(functions->currentIndex());
    QCOMPARE(doctor->chosenFunction(), QByteArray("limit_unique"));
    QCOMPARE(tree->topLevelItemCount(), 0);
    QSignalSpy probed(doctor, &ScriptDoctorDialog::probeFinished);
    doctor->probe();
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 1, 60000);
    QCOMPARE(doctor->probeReport().function, QByteArray("limit_unique"));
    QVERIFY2(doctor->probeReport().countsRight, qPrintable(doctor->probeReport().verdict.join(QLatin1Char('\n'))));
    QVERIFY(doctor->findChild<QTextBrowser*>()->toPlainText().contains(QLatin1String("Function limit_unique")));

    QPushButton* use = buttonWithText(doctor, QStringLiteral("Use as EVAL Script for Bursts"));
    QVERIFY(use);
    use->click();
    PlanModel* model = m_window->planModel();
    QVERIFY(model->customLimiter());
    const LimiterScript fired = model->customLimiter()->script;
    QVERIFY2(fired.name().contains(QLatin1String("limit_unique as an EVAL script")), qPrintable(fired.name()));
    QVERIFY(!fired.source().startsWith("#!"));
    model->edit([](ExperimentPlan& plan) {
        plan.burst.requests = 100;
        plan.burst.clock = ClockKind::Frozen;
        plan.burst.pacing = Pacing();
        plan.burst.limit = 5;
    });
    QSignalSpy done(m_window->experiment(), &LimiterExperiment::allFinished);
    m_window->fire();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    const BurstSummary summary = m_window->experiment()->engine(LimiterExperiment::Left).summary();
    QVERIFY2(!summary.failure.isFailure(), qPrintable(summary.failure.message));
    QCOMPARE(summary.errors, 0);
    // One member per request: the frozen millisecond is counted right, 5 admitted.
    QCOMPARE(summary.admitted, 5);
    QCOMPARE(summary.admittedOverLimit, 0);
    QCOMPARE(summary.finalCount, 5);
    // Nothing was loaded on the connected server.
    RedisConnection admin;
    QVERIFY(TestRedis::connect(admin));
    QCOMPARE(admin.command({"FUNCTION", "LIST"}).elements().size(), size_t(0));
}

// Issue 33: what the app writes first, typed in the Setup field.
void TestScriptDoctorDialog::probesWithTheSetupField()
{
    connectWindow();
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    QVERIFY(doctor->openFile(sourcePath(QStringLiteral("tests/doctor-corpus/setup-config-hash.lua"))));
    const QList<QLineEdit*> fields = doctor->findChildren<QLineEdit*>();
    fields.at(0)->setText(QStringLiteral("{key} {key}:config"));
    fields.at(1)->setText(QStringLiteral("{now} {window} {uuid}"));
    fields.at(3)->setText(QStringLiteral("SET zsetlab:elsewhere 1"));
    QSignalSpy probed(doctor, &ScriptDoctorDialog::probeFinished);
    doctor->probe(); // refused before anything runs
    QCOMPARE(probed.count(), 0);
    QVERIFY(!doctor->isProbing());
    fields.at(3)->setText(QStringLiteral("HSET {key}:config limit {limit}; HSET {key}:config note set-up"));
    doctor->probe();
    QTRY_COMPARE_WITH_TIMEOUT(probed.count(), 1, 60000);
    QVERIFY2(doctor->probeReport().failure == ProbeReport::Failure::None,
             qPrintable(doctor->probeReport().failureMessage));
    QCOMPARE(doctor->probeReport().setup.size(), 2);
    QVERIFY(doctor->probeReport().countsRight);
}

// Issue 33: a public library's script is named with its known issue; its addresses are links, and
// the finding, about the whole script, marks none of its lines.
void TestScriptDoctorDialog::namesAPublicLibrarysLimiter()
{
    ScriptDoctorDialog* doctor = m_window->scriptDoctor();
    QVERIFY(doctor->openFile(sourcePath(QStringLiteral("tests/upstream-limiters/rate-limit-redis-4.2.0.lua"))));
    QVERIFY(doctor->check());
    const ScriptFinding& named = doctor->examination().findings.first();
    QCOMPARE(named.code, QStringLiteral("known-limiter"));
    // A known issue is a warning until the live probe shows it (issue 45).
    QCOMPARE(named.severity, ScriptFinding::Severity::Warning);
    auto* findings = doctor->findChild<QTreeWidget*>();
    QVERIFY(findings->topLevelItem(0)->text(2).contains(QLatin1String("rate-limit-redis")));
    findings->setCurrentItem(findings->topLevelItem(0));
    const QString html = doctor->findChild<QTextBrowser*>()->toHtml();
    QVERIFY2(
        html.contains(QLatin1String("<a href=\"https://github.com/express-rate-limit/rate-limit-redis/pull/209\"")),
        qPrintable(html));
    QVERIFY(html.contains(QLatin1String("4.2.1")));
    QSet<int> marked;
    for (const QTextEdit::ExtraSelection& selection : doctor->findChild<CodeEditor*>()->extraSelections())
        marked << selection.cursor.blockNumber() + 1;
    QSet<int> expected;
    for (const ScriptFinding& finding : doctor->examination().findings) {
        if (finding.code != named.code && finding.severity != ScriptFinding::Severity::Info)
            expected << finding.line;
    }
    QCOMPARE(marked, expected);

    // The details offer the library's call; following it fills the fields and reads again.
    QVERIFY(html.contains(QLatin1String("zsetlab:library-call")));
    auto* browser = doctor->findChild<QTextBrowser*>();
    emit browser->anchorClicked(QUrl(QStringLiteral("zsetlab:library-call")));
    const QList<QLineEdit*> fields = doctor->findChildren<QLineEdit*>();
    QCOMPARE(fields.at(0)->text(), QString::fromUtf8(doctor->examination().known.limiter->call.keys));
    QCOMPARE(fields.at(1)->text(), QString::fromUtf8(doctor->examination().known.limiter->call.args));
    QVERIFY(doctor->examination().findings.first().suggestion.contains(QLatin1String("--args \"0 {window}\"")));
}

QTEST_MAIN(TestScriptDoctorDialog)
#include "tst_scriptdoctordialog.moc"
