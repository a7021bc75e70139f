#include "burst/burstplan.h"
#include "charts/sweepchart.h"
#include "charts/timelineview.h"
#include "doctor/scriptdoctor.h"
#include "limiters/limitercatalog.h"
#include "limiters/limiterscript.h"
#include "mainwindow.h"
#include "redis/redisendpoint.h"
#include "redis/serversession.h"
#include "run/burstpanel.h"
#include "run/numberspanel.h"
#include "run/runview.h"
#include "script/scriptdoctordialog.h"
#include "script/scriptview.h"
#include "sourcetree.h"
#include "studies/clienttallymodel.h"
#include "studies/simulatedserverswindow.h"
#include "studies/sweeptablemodel.h"
#include "studies/sweepwindow.h"
#include "testpictures.h"
#include "testredis.h"
#include "testsettings.h"
#include "testwindow.h"
#include "widgets/elidinglabel.h"
#include "widgets/language.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QLogValueAxis>
#include <QMenuBar>
#include <QPushButton>
#include <QTableView>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QXmlStreamReader>
#include <QtTest>

namespace {
struct TsCheck
{
    int messages = 0;
    QStringList untranslated;
};

// Reads a .ts file: every message needs a finished, non-empty translation (each numerus form).
TsCheck readTs(const QString& path)
{
    TsCheck check;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return check;
    QXmlStreamReader xml(&file);
    QString source;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            ++check.messages;
            const QString type = xml.attributes().value(QLatin1String("type")).toString();
            QString text;
            bool emptyForm = false;
            while (!(xml.isEndElement() && xml.name() == QLatin1String("translation")) && !xml.atEnd()) {
                xml.readNext();
                if (xml.isCharacters())
                    text += xml.text();
                if (xml.isStartElement() && xml.name() == QLatin1String("numerusform")) {
                    const QString form = xml.readElementText();
                    emptyForm = emptyForm || form.trimmed().isEmpty();
                    text += form;
                }
            }
            if (type == QLatin1String("unfinished") || type == QLatin1String("vanished")
                || type == QLatin1String("obsolete") || emptyForm || text.trimmed().isEmpty())
                check.untranslated << source;
        }
    }
    return check;
}
} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT
private slots:
    void everyStringHasATranslation_data();
    void everyStringHasATranslation();
    void switchingLanguageChangesVisibleTexts();
    void serverLabelAndChoiceFollowTheLanguage();
    void coreMessagesFollowTheLanguage();
    void openToolWindowsFollowTheLanguage();
    void scriptWindowsFollowTheLanguage();
};

void TestTranslations::everyStringHasATranslation_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("minimum");
    QTest::newRow("vi") << sourcePath(QStringLiteral("resources/translations/zsetlab_vi.ts")) << 300;
    QTest::newRow("en plurals") << sourcePath(QStringLiteral("resources/translations/zsetlab_en.ts")) << 5;
    QTest::newRow("Qt's texts, vi") << sourcePath(QStringLiteral("resources/translations/qtbase_vi.ts")) << 50;
}

void TestTranslations::everyStringHasATranslation()
{
    QFETCH(QString, path);
    QFETCH(int, minimum);
    const TsCheck check = readTs(path);
    QVERIFY2(check.messages >= minimum, qPrintable(QString::number(check.messages)));
    QVERIFY2(check.untranslated.isEmpty(),
             qPrintable(QStringLiteral("%1 untranslated, e.g.: %2")
                            .arg(check.untranslated.size())
                            .arg(check.untranslated.mid(0, 5).join(QStringLiteral(" | ")))));
}

void TestTranslations::switchingLanguageChangesVisibleTexts()
{
    QVERIFY(Language::set(QStringLiteral("en")));
    MainWindow window;
    window.show();
    QPushButton* fire = window.burstPanel()->fireButton();
    const QString english = fire->text();
    const QString englishMenu = window.menuBar()->actions().first()->text();
    QCOMPARE(english, QStringLiteral("Fire"));
    QVERIFY(Language::set(QStringLiteral("vi")));
    QTRY_VERIFY(fire->text() != english);
    QVERIFY(window.menuBar()->actions().first()->text() != englishMenu);
    QCOMPARE(Language::current(), QStringLiteral("vi"));
    QVERIFY(Language::set(QStringLiteral("en")));
    QTRY_COMPARE(fire->text(), english);
    QCOMPARE(window.menuBar()->actions().first()->text(), englishMenu);
    QVERIFY(!Language::set(QStringLiteral("fr")));
}

// Issue #30: the status bar's server label stayed "private server" after a switch to Vietnamese,
// and the language chosen was gone after a restart.
void TestTranslations::serverLabelAndChoiceFollowTheLanguage()
{
    TestSettings::keepToThisRun();
    QVERIFY(Language::set(QStringLiteral("en")));
    MainWindow window;
    QVERIFY(showConnected(window));
    auto* label = window.findChild<ElidingLabel*>(QStringLiteral("ServerStatus"));
    QVERIFY(label);
    const QString english = label->fullText();
    QCOMPARE(english, window.session()->description());
    QVERIFY2(english.contains(QLatin1String("given server")), qPrintable(english));
    // The View menu's choice: installed, and kept.
    QAction* vietnamese = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->data().toString() == QLatin1String("vi"))
            vietnamese = action;
    QVERIFY(vietnamese);
    vietnamese->trigger();
    QCOMPARE(Language::current(), QStringLiteral("vi"));
    QTRY_VERIFY(label->fullText() != english);
    QCOMPARE(label->fullText(), window.session()->description());
    QCOMPARE(Language::chosen(), QStringLiteral("vi")); // what the next start reads
    QVERIFY(Language::choose(QStringLiteral("en")));
    QCOMPARE(Language::chosen(), QStringLiteral("en"));
    QTRY_COMPARE(label->fullText(), english);
}

namespace {
// What the core says about a few kinds of bad input, in the language installed now.
QStringList coreMessages()
{
    QStringList messages;
    RedisEndpoint endpoint;
    QString error;
    RedisEndpoint::parse(QStringLiteral("ftp://example.org"), &endpoint, &error);
    messages << error;
    BurstPlan plan;
    plan.requests = 0;
    messages << plan.validate();
    const ScriptExamination examination = ScriptDoctor::examine(LimiterCatalog::builtin("now")->script.source());
    messages << (examination.findings.isEmpty() ? QString() : examination.findings.first().title);
    return messages;
}

// The text of the label that names `field` (its buddy).
QString formLabel(QWidget* field)
{
    for (const QLabel* label : field->window()->findChildren<QLabel*>()) {
        if (label->buddy() == field)
            return label->text();
    }
    return {};
}
} // namespace

void TestTranslations::coreMessagesFollowTheLanguage()
{
    // Messages made in the core (URL parsing, plan checks, script findings) reach the window as
    // text: they come in the language installed when they are made.
    QVERIFY(Language::set(QStringLiteral("en")));
    const QStringList english = coreMessages();
    QVERIFY2(english[0].contains(QLatin1String("Unknown scheme")), qPrintable(english[0]));
    QVERIFY2(english[1].startsWith(QLatin1String("requests must be")), qPrintable(english[1]));
    QCOMPARE(english[2], QStringLiteral("The ZSET member is the timestamp"));

    QVERIFY(Language::set(QStringLiteral("vi")));
    const QStringList vietnamese = coreMessages();
    for (int i = 0; i < english.size(); ++i)
        QVERIFY2(!vietnamese[i].isEmpty() && vietnamese[i] != english[i], qPrintable(vietnamese[i]));
    QVERIFY2(vietnamese[0].contains(QLatin1String("redis://")), qPrintable(vietnamese[0])); // the advice kept
    QVERIFY2(vietnamese[1].startsWith(QLatin1String("requests")), qPrintable(vietnamese[1])); // the field name kept
    QVERIFY(Language::set(QStringLiteral("en")));
    QCOMPARE(coreMessages(), english);
}

void TestTranslations::openToolWindowsFollowTheLanguage()
{
    QVERIFY(Language::set(QStringLiteral("en")));
    ServerSession session; // never connected: firing reports that in the status lines
    SweepWindow sweep(&session);
    SimulatedServersWindow* servers = sweep.simulatedServers();
    sweep.show();
    servers->show();
    sweep.run();
    servers->fire();

    const auto texts = [&] {
        return QStringList {
            sweep.windowTitle(),
            sweep.runButton()->text(),
            formLabel(sweep.ratesField()),
            sweep.clockField()->itemText(0),
            sweep.menuBar()->actions().first()->text(),
            sweep.progressLine()->text(),
            sweep.chart()->rateAxis()->titleText(),
            sweep.model()->headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(),
            servers->windowTitle(),
            servers->fireButton()->text(),
            formLabel(servers->serversField()),
            servers->limiterField()->itemText(0),
            servers->statusLine()->text(),
            servers->lanes()->toolTip(),
            servers->model()->headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(),
        };
    };
    const QStringList english = texts();
    QCOMPARE(english[1], QStringLiteral("Run sweep"));
    QCOMPARE(english[2], QStringLiteral("&Rates per ms"));
    QVERIFY2(english[5].startsWith(QLatin1String("Not connected")), qPrintable(english[5]));
    QVERIFY2(english[12].startsWith(QLatin1String("Not connected")), qPrintable(english[12]));

    QVERIFY(Language::set(QStringLiteral("vi")));
    // The language change is posted to every window: wait until both have seen it.
    QTRY_VERIFY(sweep.windowTitle() != english[0] && servers->windowTitle() != english[8]);
    const QStringList vietnamese = texts();
    keepPicture(&sweep, QStringLiteral("sweep-vi.png"));
    keepPicture(servers, QStringLiteral("servers-vi.png"));
    for (int i = 0; i < english.size(); ++i)
        QVERIFY2(!vietnamese[i].isEmpty() && vietnamese[i] != english[i],
                 qPrintable(QStringLiteral("text %1 stayed \"%2\"").arg(i).arg(vietnamese[i])));
    QVERIFY(Language::set(QStringLiteral("en")));
    QTRY_COMPARE(texts(), english);
}

void TestTranslations::scriptWindowsFollowTheLanguage()
{
    QVERIFY(Language::set(QStringLiteral("en")));
    ServerSession session;
    ScriptDoctorDialog doctor(&session);
    const LimiterScript now = LimiterCatalog::builtin("now")->script;
    doctor.setSource(QStringLiteral("now.lua"), now.source());
    QVERIFY(doctor.check());
    ScriptView scripts;
    doctor.show();
    scripts.show();
    auto* findings = doctor.findChild<QTreeWidget*>();
    auto* details = doctor.findChild<QTextBrowser*>();
    QVERIFY(findings && details && findings->topLevelItemCount() > 0);

    const auto texts = [&] {
        QTreeWidgetItem* first = findings->topLevelItem(0);
        return QStringList {
            doctor.windowTitle(),
            findings->headerItem()->text(2),
            first->text(1), // severity
            first->text(2), // the finding's title, made in the core
            details->toPlainText(), // the current finding, explained
            scripts.windowTitle(),
            scripts.findChildren<QLabel*>().last()->text(), // the summary of the marked lines
            doctor.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Close)->text(), // Qt's own text
        };
    };
    const QStringList english = texts();
    QCOMPARE(english[2], QStringLiteral("error"));
    QCOMPARE(english[3], QStringLiteral("The ZSET member is the timestamp"));

    QVERIFY(Language::set(QStringLiteral("vi")));
    QTRY_VERIFY(doctor.windowTitle() != english[0] && scripts.windowTitle() != english[5]);
    const QStringList vietnamese = texts();
    keepPicture(&doctor, QStringLiteral("doctor-vi.png"));
    for (int i = 0; i < english.size(); ++i)
        QVERIFY2(!vietnamese[i].isEmpty() && vietnamese[i] != english[i],
                 qPrintable(QStringLiteral("text %1 stayed \"%2\"").arg(i).arg(vietnamese[i])));
    QCOMPARE(findings->topLevelItemCount(), doctor.examination().findings.size()); // the same findings
    QVERIFY(Language::set(QStringLiteral("en")));
    QTRY_COMPARE(texts(), english);
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
