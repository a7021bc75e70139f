#include "burst/planmodel.h"
#include "debugger/scriptdebugger.h"
#include "doctor/functionlibrary.h"
#include "limiters/limitercatalog.h"
#include "mainwindow.h"
#include "redis/serversession.h"
#include "run/burstpanel.h"
#include "script/codeeditor.h"
#include "script/debuggerview.h"
#include "sourcetree.h"
#include "testredis.h"
#include "testsettings.h"
#include "testwindow.h"

#include <QPushButton>
#include <QRadioButton>
#include <QtTest>

class TestDebuggerView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void stepsTheNextRequestToItsZadd_data();
    void stepsTheNextRequestToItsZadd();
    void beforeAnyBurstAFixedKeyIsLeftAlone();
    void f10StepsAndTheEndListsEveryCall();
    void aFunctionIsSteppedAsAnEvalScript();
    void aCallShowsItsArgumentsWhole_data();
    void aCallShowsItsArgumentsWhole();
};

void TestDebuggerView::initTestCase()
{
    TestSettings::keepToThisRun();
}

void TestDebuggerView::stepsTheNextRequestToItsZadd_data()
{
    QTest::addColumn<bool>("sync");
    QTest::newRow("forked") << false;
    QTest::newRow("synchronous") << true;
}

void TestDebuggerView::stepsTheNextRequestToItsZadd()
{
    QFETCH(bool, sync);
    MainWindow window;
    QVERIFY(showConnected(window));
    BurstPlan plan;
    plan.limiter = LimiterCatalog::builtin("now");
    plan.clock = ClockKind::Frozen;
    plan.requests = 3;
    window.planModel()->edit([&plan](ExperimentPlan& experiment) { experiment.burst = plan; });
    QSignalSpy done(window.experiment(), &LimiterExperiment::allFinished);
    window.fire();
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 30000);

    DebuggerView* view = window.stepNextRequest();
    QVERIFY(view->isVisible());
    if (sync)
        view->findChildren<QRadioButton*>().at(1)->setChecked(true);
    QSignalSpy shown(view, &DebuggerView::stepShown);
    view->start();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
    // Step until the ZADD has run: the next request in the same millisecond only overwrites.
    for (int i = 0; i < 30 && !view->transcript().contains(QLatin1String("ZADD")); ++i) {
        const int before = shown.count();
        view->debugger()->step();
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() > before, 10000);
    }
    QVERIFY2(view->transcript().contains(QLatin1String("ZADD")), qPrintable(view->transcript()));
    const QString zaddLine = view->transcript().split(QLatin1Char('\n')).filter(QLatin1String("ZADD")).first();
    QVERIFY2(zaddLine.endsWith(QStringLiteral("→ 0")), qPrintable(zaddLine));
    QCOMPARE(view->lastStep().zsetSize, 1);
    if (qEnvironmentVariableIsSet("ZSETLAB_SCREENSHOT") && !sync)
        view->grab().save(qEnvironmentVariable("ZSETLAB_SCREENSHOT"));

    // Stopping mid-way frees the server at once.
    QSignalSpy aborted(view->debugger(), &ScriptDebugger::aborted);
    view->close();
    QTRY_COMPARE_WITH_TIMEOUT(aborted.count(), 1, 10000);
    RedisConnection other;
    ConnectOptions quick;
    quick.commandTimeout = std::chrono::milliseconds(500);
    QVERIFY(other.open(TestRedis::endpoint(), quick));
    QCOMPARE(other.command({"PING"}).text(), QStringLiteral("PONG"));
}

// Issue #20: before any burst the next request was stepped on "zsetlab:debug", a key this window
// did not create; the synchronous mode kept the script's writes there.
void TestDebuggerView::beforeAnyBurstAFixedKeyIsLeftAlone()
{
    RedisConnection redis;
    QVERIFY(TestRedis::connect(redis));
    const RedisArgs fixedKeys {"zsetlab:debug", "zsetlab:debug:seq"};
    QVERIFY(!redis.command({"ZADD", "zsetlab:debug", "1700000000000", "someone-else"}).isError());
    QVERIFY(!redis.command({"SET", "zsetlab:debug:seq", "100"}).isError());
    const QByteArray zsetBefore = redis.command({"DUMP", "zsetlab:debug"}).bytes();
    const QByteArray seqBefore = redis.command({"DUMP", "zsetlab:debug:seq"}).bytes();

    MainWindow window;
    QVERIFY(showConnected(window));
    window.planModel()->edit(
        [](ExperimentPlan& experiment) { experiment.burst.limiter = LimiterCatalog::builtin("sequence"); });
    DebuggerView* view = window.stepNextRequest();
    view->findChildren<QRadioButton*>().at(1)->setChecked(true); // synchronous: writes are kept
    QSignalSpy finished(view->debugger(), &ScriptDebugger::finished);
    QSignalSpy shown(view, &DebuggerView::stepShown);
    view->start();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
    view->debugger()->continueToEnd();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QCOMPARE(redis.command({"DUMP", "zsetlab:debug"}).bytes(), zsetBefore);
    QCOMPARE(redis.command({"DUMP", "zsetlab:debug:seq"}).bytes(), seqBefore);
    QCOMPARE(redis.command({"PTTL", "zsetlab:debug"}).toInteger(), -1LL);
    QCOMPARE(redis.command({"PTTL", "zsetlab:debug:seq"}).toInteger(), -1LL);
    redis.command(RedisArgs {"DEL"} + fixedKeys);
}

// Issue #30: F10 ("Step (F10)") did nothing, and after "Continue to the End" the EXPIRE of line 30
// was missing from the list while line 30 stayed marked.
void TestDebuggerView::f10StepsAndTheEndListsEveryCall()
{
    MainWindow window;
    QVERIFY(showConnected(window));
    window.planModel()->edit(
        [](ExperimentPlan& experiment) { experiment.burst.limiter = LimiterCatalog::builtin("now"); });
    DebuggerView* view = window.stepNextRequest();
    QVERIFY(QTest::qWaitForWindowActive(view));
    QSignalSpy shown(view, &DebuggerView::stepShown);
    QSignalSpy finished(view->debugger(), &ScriptDebugger::finished);
    view->start();
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, 10000);
    const int firstLine = view->lastStep().line;
    QTest::keyClick(view, Qt::Key_F10);
    QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 10000);
    QVERIFY2(view->lastStep().line > firstLine, qPrintable(QString::number(view->lastStep().line)));
    QVERIFY(!view->transcript().contains(QLatin1String("EXPIRE")));

    view->findChild<QPushButton*>(QStringLiteral("ContinueButton"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    // Every call of the script, in its order, the last one included.
    QStringList commands;
    for (const QString& line : view->transcript().split(QLatin1Char('\n')))
        commands << line.section(QLatin1Char(' '), 0, 0);
    commands.removeDuplicates();
    QCOMPARE(commands,
             (QStringList {QStringLiteral("ZREMRANGEBYSCORE"), QStringLiteral("ZADD"), QStringLiteral("ZCARD"),
                           QStringLiteral("EXPIRE")}));
    QVERIFY(view->findChild<CodeEditor*>()->extraSelections().isEmpty());
}

// The server's debugger takes EVAL scripts only: a library says why it cannot be stepped as it is,
// and Start steps the chosen function's body as an EVAL script that replies as FCALL does.
void TestDebuggerView::aFunctionIsSteppedAsAnEvalScript()
{
    MainWindow window;
    QVERIFY(showConnected(window));
    LimiterScript library;
    QString error;
    QVERIFY(LimiterScript::fromFile(sourcePath(QStringLiteral("tests/doctor-corpus/library-now-and-unique.lua")),
                                    &library, &error));
    // The core debugger refuses a library outright, saying why.
    ScriptDebugger direct;
    direct.setServer(TestRedis::endpoint(), {});
    QSignalSpy refused(&direct, &ScriptDebugger::failed);
    QVERIFY(!direct.start(library, TestRedis::uniqueKey("refused"), {"1"}, ScriptDebugger::Mode::Forked));
    QCOMPARE(refused.count(), 1);
    QVERIFY(refused.first().first().toString().contains(QLatin1String("EVAL scripts only")));

    DebuggerView view(window.session(), &window);
    const QByteArray key = TestRedis::uniqueKey("function-step");
    const RedisArgs argv {"1700000000000", "60000", "5", "req-1"};
    view.setRequest(library, {key}, argv, QStringLiteral("limit_unique"), "limit_unique");
    view.show();
    QPushButton* start = buttonWithText(&view, QStringLiteral("Step as an EVAL Script"));
    QVERIFY(start);
    QVERIFY(view.findChild<CodeEditor*>()->toPlainText().startsWith(QLatin1String("#!lua name=ratelimit")));
    if (qEnvironmentVariableIsSet("ZSETLAB_SCREENSHOT"))
        view.grab().save(qEnvironmentVariable("ZSETLAB_SCREENSHOT"));
    QSignalSpy shown(&view, &DebuggerView::stepShown);
    QSignalSpy finished(view.debugger(), &ScriptDebugger::finished);
    start->click();
    QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 1, 10000);
    const QByteArray eval = FunctionLibrary::read(library.source()).evalForm("limit_unique");
    QCOMPARE(view.script().source(), eval);
    QCOMPARE(view.findChild<CodeEditor*>()->toPlainText().toUtf8(), eval);
    view.debugger()->continueToEnd();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000);
    QVERIFY2(view.transcript().contains(QLatin1String("ZADD")), qPrintable(view.transcript()));
    // The reply FCALL gives for the same first request (forked mode kept nothing).
    RedisConnection connection;
    QVERIFY(TestRedis::connect(connection));
    const RedisReply loaded = connection.command({"FUNCTION", "LOAD", "REPLACE", library.source()});
    QVERIFY2(!loaded.isError(), qPrintable(loaded.text()));
    RedisArgs fcall {"FCALL", "limit_unique", "1", key};
    fcall << argv;
    const RedisReply viaFcall = connection.command(fcall);
    connection.command({"FUNCTION", "DELETE", "ratelimit"});
    connection.command({"DEL", key});
    QCOMPARE(finished.first().at(1).value<RedisReply>().toDisplayString(), viaFcall.toDisplayString());
}

// The call column: `ZADD key now now` cut in its key, never in the arguments a step is about
// (issue #43: "ZADD zsetlab:run:{2026…" hid both timestamps).
void TestDebuggerView::aCallShowsItsArgumentsWhole_data()
{
    QTest::addColumn<QString>("call");
    QTest::addColumn<int>("columns"); // the column's width, in average characters
    const QString zadd = QStringLiteral("ZADD zsetlab:run:{20261204-164232-961a19} 1796402552437 1796402552437");
    QTest::newRow("fits whole") << zadd << 120;
    QTest::newRow("a narrow column") << zadd << 50;
    QTest::newRow("narrower still") << zadd << 40;
    QTest::newRow("no key to cut") << QStringLiteral("TIME") << 10;
    QTest::newRow("the key last") << QStringLiteral("ZCARD zsetlab:run:{20261204-164232-961a19}") << 20;
}

void TestDebuggerView::aCallShowsItsArgumentsWhole()
{
    QFETCH(QString, call);
    QFETCH(int, columns);
    const QFontMetrics metrics(QApplication::font());
    const int width = metrics.averageCharWidth() * columns;
    const QString shown = DebuggerView::fittedCall(call, metrics, width);
    QVERIFY2(metrics.horizontalAdvance(shown) <= width, qPrintable(shown));
    if (metrics.horizontalAdvance(call) <= width) {
        QCOMPARE(shown, call);
        return;
    }
    QVERIFY2(shown.contains(QChar(0x2026)), qPrintable(shown));
    const QStringList words = call.split(QLatin1Char(' '));
    QVERIFY2(shown.startsWith(words.first() + QLatin1Char(' ')), qPrintable(shown)); // the command whole
    // Every argument after the key whole, wherever the command, an ellipsis and they fit.
    const QString arguments = QLatin1Char(' ') + words.mid(2).join(QLatin1Char(' '));
    if (words.size() > 2 && metrics.horizontalAdvance(words.first() + QStringLiteral(" …") + arguments) <= width)
        QVERIFY2(shown.endsWith(arguments), qPrintable(shown));
}

QTEST_MAIN(TestDebuggerView)
#include "tst_debuggerview.moc"
