// A class rehearsed by keys alone on the lesson's stage (issue #56): the real window, F11, then the
// stage full screen on a projector's screen (ZSETLAB_SCREEN=WxH, one ctest entry each), in English
// and Vietnamese, all ten steps in order and each step cold (a new window that ran nothing before).
// At each step, read from the scene's own labels (not from a screenshot): every chart has its axis
// titles, tick labels and legend inside the picture at the text's pixel size or larger; Redis's
// answer as a figure after Enter and not before; nothing cut, nothing scrolls, and the text does
// not shrink when Redis answers. The keys: PageDown/PageUp, "."/B, digits (a new guess after a
// step is revisited), 1-4 for a choice, Enter, Left/Right through the run, Tab to every control,
// Esc back to the workbench.
#include "lesson/lesson.h"
#include "lesson/lessonstage.h"
#include "mainwindow.h"
#include "offscreenscreen.h"
#include "redis/serversession.h"
#include "testredis.h"
#include "testsettings.h"
#include "testwindow.h"
#include "widgets/language.h"

#include <QAbstractScrollArea>
#include <QDockWidget>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QtTest>

namespace {
QSize screenSize()
{
    const QStringList parts
        = qEnvironmentVariable("ZSETLAB_SCREEN", QStringLiteral("1280x720")).split(QLatin1Char('x'));
    return {parts.value(0).toInt(), parts.value(1).toInt()};
}

using Role = StageScene::Role;

int count(const StageScene& scene, Role role, int chart = -2)
{
    int found = 0;
    for (const StageScene::Label& label : scene.labels())
        found += label.role == role && (chart == -2 || label.chart == chart || label.chart == -1) ? 1 : 0;
    return found;
}
} // namespace

class TestRehearsal : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void aClassRehearsedByKeysAlone_data();
    void aClassRehearsedByKeysAlone();
    void everyStepCold_data();
    void everyStepCold();
    void everyControlTakesTheFocusAndShowsIt();

private:
    void openWindow(const QString& language);
    void present();
    // Keys as the stage gets them, wherever its focus is.
    void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    void type(char character);
    // The stage's scene now, painted at the canvas's size.
    StageScene paintedScene() const;
    // Guess, check the question side, Enter, check the answer side, step through the run.
    void playStep(int step, bool cold);
    void checkScene(const StageScene& scene, const QString& at) const;

    std::unique_ptr<MainWindow> m_window;
    Lesson* m_lesson = nullptr;
    LessonStage* m_stage = nullptr;
};

void TestRehearsal::initTestCase()
{
    TestSettings::keepToThisRun();
    QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), screenSize());
    QVERIFY(TestRedis::server().isRunning());
}

void TestRehearsal::cleanup()
{
    m_window.reset();
    m_stage = nullptr;
    m_lesson = nullptr;
    Language::set(QStringLiteral("en"));
}

void TestRehearsal::openWindow(const QString& language)
{
    QSettings().clear();
    Language::set(language);
    m_window = std::make_unique<MainWindow>();
    QVERIFY(showConnected(*m_window));
    m_lesson = m_window->lesson();
    m_lesson->setAsksFirst(true);
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
}

void TestRehearsal::present()
{
    // F11 from the workbench, as a teacher does.
    QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : m_window.get(), Qt::Key_F11);
    m_stage = m_window->findChild<LessonStage*>();
    QVERIFY(m_stage);
    QTRY_VERIFY(m_stage->isVisible());
    QVERIFY(QTest::qWaitForWindowActive(m_stage));
    QTRY_COMPARE(m_stage->size(), screenSize()); // full screen, nothing of the workbench
    QVERIFY(m_stage->canvasSize().height() > screenSize().height() * 0.85);
    QTRY_VERIFY2(QApplication::focusWidget() && QApplication::focusWidget()->window() == m_stage,
                 QApplication::focusWidget() ? QApplication::focusWidget()->metaObject()->className() : "none");
}

void TestRehearsal::press(int key, Qt::KeyboardModifiers modifiers)
{
    QWidget* focus = QApplication::focusWidget();
    QVERIFY2(focus && focus->window() == m_stage, "the stage does not have the focus");
    QTest::keyClick(focus, Qt::Key(key), modifiers);
}

void TestRehearsal::type(char character)
{
    QWidget* focus = QApplication::focusWidget();
    QVERIFY2(focus && focus->window() == m_stage, "the stage does not have the focus");
    QTest::keyClick(focus, character);
}

StageScene TestRehearsal::paintedScene() const
{
    StageScene scene = m_stage->scene();
    QImage image(m_stage->canvasSize(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    scene.paint(&painter);
    return scene;
}

void TestRehearsal::checkScene(const StageScene& scene, const QString& at) const
{
    const QRectF frame(QPointF(0, 0), QSizeF(m_stage->canvasSize()));
    QVERIFY2(scene.fits(),
             qPrintable(at + QStringLiteral(": did not fit its room: ") + scene.cut().join(QStringLiteral(" | "))));
    for (const StageScene::Label& label : scene.labels()) {
        QVERIFY2(frame.contains(label.rect),
                 qPrintable(QStringLiteral("%1: \"%2\" at %3,%4 %5x%6 is outside the picture")
                                .arg(at, label.text)
                                .arg(label.rect.x())
                                .arg(label.rect.y())
                                .arg(label.rect.width())
                                .arg(label.rect.height())));
        const bool chartText = label.role == Role::AxisTitle || label.role == Role::Tick || label.role == Role::Legend
            || label.role == Role::Code || label.role == Role::TableCell || label.role == Role::BarLabel;
        if (chartText)
            QVERIFY2(label.pixelSize >= scene.textPixelSize() - 0.5,
                     qPrintable(QStringLiteral("%1: \"%2\" is %3 px, the text %4 px")
                                    .arg(at, label.text)
                                    .arg(label.pixelSize)
                                    .arg(scene.textPixelSize())));
    }
    // Each chart whole: both axis titles, numbers on both axes, a legend.
    for (int chart = 0; chart < scene.charts(); ++chart) {
        const QString which = QStringLiteral("%1, chart %2").arg(at).arg(chart + 1);
        QVERIFY2(count(scene, Role::AxisTitle, chart) >= 2, qPrintable(which + QStringLiteral(": axis titles")));
        QVERIFY2(count(scene, Role::Tick, chart) >= 4, qPrintable(which + QStringLiteral(": tick labels")));
        QVERIFY2(count(scene, Role::Legend, chart) >= 2, qPrintable(which + QStringLiteral(": legend")));
    }
    // Nothing scrolls on the stage.
    for (const QAbstractScrollArea* area : m_stage->findChildren<QAbstractScrollArea*>())
        QVERIFY2(!area->isVisible(), qPrintable(at + QStringLiteral(": a scroll area")));
}

void TestRehearsal::playStep(int step, bool cold)
{
    const QString screen
        = QString::number(screenSize().width()) + QLatin1Char('x') + QString::number(screenSize().height());
    const QString at
        = QStringLiteral("%1 %2 step %3%4")
              .arg(Language::current(), screen, QString::number(step + 1), cold ? QStringLiteral(" cold") : QString());
    QCOMPARE(m_lesson->currentStep(), step);
    QVERIFY(!m_lesson->hasAnswered());
    // The guess: digits, or a choice's number.
    qint64 guessed = -1;
    if (m_lesson->hasQuestion()) {
        if (m_lesson->questionChoices().isEmpty()) {
            type('1');
            type('2');
            guessed = 12;
        } else {
            type('3');
            guessed = 2;
        }
        QVERIFY2(m_lesson->guess() == guessed,
                 qPrintable(QStringLiteral("%1: guess %2").arg(at).arg(m_lesson->guess())));
    }
    const StageScene before = paintedScene();
    checkScene(before, at + QStringLiteral(" (question)"));
    QCOMPARE(count(before, Role::Figure), 0); // no answer before Redis gave it
    QCOMPARE(before.charts(), 0);
    const double scale = m_stage->textScale();

    QWidget* focus = QApplication::focusWidget();
    const QString focusName = focus ? QString::fromLatin1(focus->metaObject()->className()) + QLatin1Char(' ')
            + (qobject_cast<QPushButton*>(focus) ? qobject_cast<QPushButton*>(focus)->text() : QString())
                                    : QStringLiteral("none");
    press(Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(m_lesson->hasAnswered() || !m_lesson->resultText().isEmpty(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!m_lesson->isRunning(), 60000);
    QVERIFY2(
        m_lesson->hasAnswered(),
        qPrintable(at + QStringLiteral(": ") + m_lesson->resultText() + QStringLiteral(", Enter on ") + focusName));
    const StageScene after = paintedScene();
    checkScene(after, at + QStringLiteral(" (answer)"));
    QCOMPARE(m_stage->textScale(), scale); // the text does not shrink when Redis answers
    QCOMPARE(after.textPixelSize(), before.textPixelSize());
    if (m_lesson->hasQuestion()) {
        QVERIFY2(count(after, Role::Figure) >= 2, qPrintable(at + QStringLiteral(": no answer figure")));
        QVERIFY2(count(after, Role::Verdict) == 1, qPrintable(at + QStringLiteral(": no verdict")));
        // The figure the question asks about is Redis's answer (a number's steps).
        if (m_lesson->questionChoices().isEmpty()) {
            bool shown = false;
            for (const StageScene::Label& label : after.labels())
                shown = shown || (label.role == Role::Figure && label.text == QLocale().toString(m_lesson->answer()));
            QVERIFY2(shown, qPrintable(at + QStringLiteral(": the answer %1 is not a figure").arg(m_lesson->answer())));
        }
    }
    // The same step as the exports draw it (the handout's pages, --export-png): whole at their sizes.
    for (const QSize size : {QSize(1280, 720), QSize(1600, 900), QSize(1000, 700), QSize(3840, 2160)}) {
        StageScene::State state = stageStateOf(*m_lesson);
        state.textScale = stageTextScale(*m_lesson, size);
        StageScene exported(state, size);
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        QPainter painter(&image);
        exported.paint(&painter);
        const QString where = QStringLiteral("%1 exported at %2x%3").arg(at).arg(size.width()).arg(size.height());
        QVERIFY2(exported.fits(),
                 qPrintable(where + QStringLiteral(": did not fit: ") + exported.cut().join(QStringLiteral(" | "))));
        for (const StageScene::Label& label : exported.labels())
            QVERIFY2(QRectF(QPointF(0, 0), QSizeF(size)).contains(label.rect),
                     qPrintable(where + QStringLiteral(": outside: ") + label.text));
    }
    switch (m_lesson->stepShows()) {
    case Lesson::Spotlight::Counts:
    case Lesson::Spotlight::Timeline:
    case Lesson::Spotlight::Numbers:
        QCOMPARE(after.charts(), 1);
        break;
    case Lesson::Spotlight::Runs:
        QCOMPARE(after.charts(), 2);
        break;
    default:
        QCOMPARE(after.charts(), 0);
        break;
    }
    if (m_lesson->stepShows() == Lesson::Spotlight::Runs) {
        // The refused requests are marked: the fix's legend names them.
        bool refused = false;
        for (const StageScene::Label& label : after.labels())
            refused = refused
                || (label.role == Role::Legend && label.chart == 1 && label.text == LessonStage::tr("refused"));
        QVERIFY2(refused, qPrintable(at + QStringLiteral(": the refused requests are not marked")));
    }
    // Right steps through the run, with a caption per request; Left goes back.
    if (!m_lesson->record().runs.isEmpty()) {
        press(Qt::Key_Right);
        QCOMPARE(m_stage->cursor(), 0);
        press(Qt::Key_Right);
        QCOMPARE(m_stage->cursor(), 1);
        const StageScene stepping = paintedScene();
        checkScene(stepping, at + QStringLiteral(" (request 2)"));
        QCOMPARE(count(stepping, Role::Caption), 1);
        press(Qt::Key_Left);
        QCOMPARE(m_stage->cursor(), 0);
    }
}

void TestRehearsal::aClassRehearsedByKeysAlone_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("vi") << QStringLiteral("vi");
}

void TestRehearsal::aClassRehearsedByKeysAlone()
{
    QFETCH(QString, language);
    openWindow(language);
    present();
    for (int i = 0; i < 12; ++i)
        press(Qt::Key_PageUp);
    QCOMPARE(m_lesson->currentStep(), 0);
    const int steps = m_lesson->stepCount();
    QCOMPARE(steps, 10);
    for (int step = 0; step < steps; ++step) {
        playStep(step, false);
        if (QTest::currentTestFailed())
            return;
        if (step == 1) {
            // Back and forth: "." and "B" as a clicker sends them; the first digit after coming back
            // starts a new guess.
            type('.');
            QCOMPARE(m_lesson->currentStep(), 2);
            type('b');
            QCOMPARE(m_lesson->currentStep(), 1);
            type('4');
            QCOMPARE(m_lesson->guess(), qint64(4));
        }
        if (step + 1 < steps) {
            press(Qt::Key_PageDown);
            QCOMPARE(m_lesson->currentStep(), step + 1);
        }
    }
    // Esc: the workbench again, the lesson in front, holding the same run.
    press(Qt::Key_Escape);
    QTRY_VERIFY(!m_stage->isVisible());
    QTRY_VERIFY(m_window->isActiveWindow());
    QVERIFY(m_window->findChild<QDockWidget*>(QStringLiteral("LessonDock"))->isVisible());
    QCOMPARE(m_lesson->currentStep(), steps - 1);
}

void TestRehearsal::everyStepCold_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("step");
    for (const char* language : {"en", "vi"})
        for (int step = 0; step < 10; ++step)
            QTest::addRow("%s step %d", language, step + 1) << QString::fromLatin1(language) << step;
}

// A step started cold (nothing ran before it) says what it says in order.
void TestRehearsal::everyStepCold()
{
    QFETCH(QString, language);
    QFETCH(int, step);
    openWindow(language);
    present();
    for (int i = 0; i < 12; ++i)
        press(Qt::Key_PageUp);
    for (int i = 0; i < step; ++i)
        press(Qt::Key_PageDown);
    playStep(step, true);
    if (step == 2) // step 3 alone: the member step 2's burst makes, written by its 3 requests
        QCOMPARE(m_lesson->answer(), qint64(3));
}

void TestRehearsal::everyControlTakesTheFocusAndShowsIt()
{
    openWindow(QStringLiteral("en"));
    present();
    for (int i = 0; i < 12; ++i)
        press(Qt::Key_PageUp);
    press(Qt::Key_PageDown); // step 2: a number to guess
    press(Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(m_lesson->hasAnswered(), 30000);
    // Every control of the stage is reached by Tab.
    QSet<QWidget*> wanted;
    for (QWidget* widget : m_stage->findChildren<QWidget*>())
        if ((qobject_cast<QPushButton*>(widget) || qobject_cast<QLineEdit*>(widget)) && widget->isVisible()
            && widget->isEnabled())
            wanted.insert(widget);
    QVERIFY(wanted.size() >= 6);
    QSet<QWidget*> reached;
    for (int i = 0; i < 30; ++i) {
        reached.insert(QApplication::focusWidget());
        press(Qt::Key_Tab);
    }
    for (QWidget* widget : std::as_const(wanted))
        QVERIFY2(reached.contains(widget),
                 qPrintable(
                     widget->accessibleName() + QLatin1Char(' ')
                     + (qobject_cast<QPushButton*>(widget) ? qobject_cast<QPushButton*>(widget)->text() : QString())));
    // The ring: a focused button shows a border of the ring's colour, at least 4 px wide.
    auto* button = qobject_cast<QPushButton*>(*std::find_if(
        wanted.begin(), wanted.end(), [](QWidget* widget) { return qobject_cast<QPushButton*>(widget) != nullptr; }));
    button->setFocus();
    QTRY_VERIFY(button->hasFocus());
    const QImage image = button->grab().toImage();
    int ring = 0;
    for (int x = 0; x < image.width(); ++x)
        for (int y = 0; y < std::min(6, image.height()); ++y)
            ring += image.pixelColor(x, y) == QColor(0x00, 0x72, 0xb2) ? 1 : 0;
    QVERIFY2(ring >= image.width() * 3, qPrintable(QString::number(ring)));
}

ZSETLAB_TEST_MAIN_ON_SCREEN(TestRehearsal, screenSize())
#include "tst_rehearsal.moc"
