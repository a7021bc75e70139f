// A class rehearsed by keys alone: the real window in presenter mode on a projector's screen
// (ZSETLAB_SCREEN=WxH, one ctest entry each), in English and Vietnamese, walked through all ten
// lesson steps with the keys a teacher and a clicker send (PageDown, PageUp, ".", "B", "b", Tab,
// Shift+Tab, digits typed into the guess, the arrows in a choice, Enter). At each step: the step
// number, the guess taken as typed, the result line in sight and not under another tab, no scroll
// bar in the lesson's text, and exactly one frame, around the part that the step's explanation
// names (issue #43).
#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "lesson/guessbox.h"
#include "lesson/lesson.h"
#include "lesson/lessonfigure.h"
#include "lesson/lessonpanel.h"
#include "mainwindow.h"
#include "offscreenscreen.h"
#include "redis/serversession.h"
#include "run/numberspanel.h"
#include "run/runcursor.h"
#include "run/runmodel.h"
#include "run/runview.h"
#include "run/transportbar.h"
#include "run/zsetmodel.h"
#include "run/zsetpanel.h"
#include "testpictures.h"
#include "testredis.h"
#include "testsettings.h"
#include "widgets/language.h"
#include "widgets/presentation.h"
#include "widgets/screenfit.h"
#include "widgets/spotlight.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMap>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStyle>
#include <QTableView>
#include <QtTest>

namespace {
QSize screenSize()
{
    const QStringList parts
        = qEnvironmentVariable("ZSETLAB_SCREEN", QStringLiteral("1280x720")).split(QLatin1Char('x'));
    return {parts.value(0).toInt(), parts.value(1).toInt()};
}

QString nameOf(const QWidget* widget)
{
    if (!widget)
        return QStringLiteral("nothing");
    QString name = QString::fromLatin1(widget->metaObject()->className()) + QLatin1Char(' ') + widget->objectName();
    for (const QWidget* parent = widget->parentWidget(); parent && !parent->isWindow(); parent = parent->parentWidget())
        if (!parent->objectName().isEmpty())
            return name + QStringLiteral(" in ") + parent->objectName();
    return name;
}

// The share of `widget`'s rectangle in sight: shown (not in a dock behind another's tab), and not
// cut off by a parent (a scroll area, the window's edge). 1: all of it.
double shownShare(const QWidget* widget)
{
    if (!widget || !widget->isVisible() || widget->width() <= 0 || widget->height() <= 0)
        return 0;
    QRect shown = widget->rect();
    const QWidget* child = widget;
    for (const QWidget* parent = widget->parentWidget(); parent && !child->isWindow();
         child = parent, parent = parent->parentWidget()) {
        shown = shown.translated(child->pos()).intersected(parent->rect());
    }
    return double(shown.width()) * shown.height() / (double(widget->width()) * widget->height());
}

// The ZSET tables in sight have every row they draw loaded (none shows "…" while its page is on
// its way from Redis).
bool zsetRowsLoaded(const QWidget* window)
{
    for (const ZsetPanel* panel : window->findChildren<ZsetPanel*>()) {
        const QTableView* view = panel->view();
        if (shownShare(view) < 0.5 || !view->model())
            continue;
        const QAbstractItemModel* model = view->model();
        if (const auto* live = qobject_cast<const ZsetModel*>(model); live && !live->isSettled())
            return false;
        const int first = std::max(0, view->rowAt(0));
        int last = view->rowAt(view->viewport()->height() - 1);
        if (last < 0)
            last = model->rowCount() - 1;
        for (int row = first; row <= last; ++row) {
            if (model->index(row, ZsetModel::MemberColumn).data().toString() == QStringLiteral("…"))
                return false;
        }
    }
    return true;
}

// The first text in the ZSET tables in sight that its column cuts (score and member columns, the
// rows drawn), measured in the font the model gives it, or an empty string.
QString cutZsetText(const QWidget* window)
{
    for (const ZsetPanel* panel : window->findChildren<ZsetPanel*>()) {
        const QTableView* view = panel->view();
        if (shownShare(view) < 0.5 || !view->model())
            continue;
        const QAbstractItemModel* model = view->model();
        const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
        const int first = std::max(0, view->rowAt(0));
        int last = view->rowAt(view->viewport()->height() - 1);
        if (last < 0)
            last = model->rowCount() - 1;
        for (int row = first; row <= last; ++row) {
            for (int column : {int(ZsetModel::ScoreColumn), int(ZsetModel::MemberColumn)}) {
                const QModelIndex index = model->index(row, column);
                const QString text = index.data().toString();
                const QVariant font = index.data(Qt::FontRole);
                const QFontMetrics metrics(font.isValid() ? font.value<QFont>() : view->font());
                const int room = view->columnWidth(column) - 2 * margin;
                if (metrics.horizontalAdvance(text) > room)
                    return QStringLiteral("\"%1\" (%2 px) in a column of %3 px")
                        .arg(text)
                        .arg(metrics.horizontalAdvance(text))
                        .arg(room);
            }
        }
    }
    return {};
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
    void aReplayInFrontOfAClass_data();
    void aReplayInFrontOfAClass();

private:
    // A new window in `language`, as on a fresh machine, connected to the test's server.
    void openWindow(const QString& language);
    void press(int key, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    void type(char character, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
    // Types or chooses the guess where the focus is as the step comes, then Tab to the step's
    // button and Shift+Tab back to the guess.
    void enterGuess(int step, qint64* guessed);
    void checkStep(int step, qint64 guessed);
    QWidget* expectedPart(Lesson::Spotlight part) const;

    std::unique_ptr<MainWindow> m_window;
    Lesson* m_lesson = nullptr;
    LessonPanel* m_panel = nullptr;
    QString m_language;
};

void TestRehearsal::initTestCase()
{
    TestSettings::keepToThisRun();
    QCOMPARE(QGuiApplication::primaryScreen()->geometry().size(), screenSize());
    QVERIFY(TestRedis::server().isRunning());
}

void TestRehearsal::cleanup()
{
    if (m_window) {
        m_window->presentation()->setPresenting(false);
        m_window->presentation()->resetZoom();
    }
    m_window.reset();
    Language::set(QStringLiteral("en"));
}

void TestRehearsal::press(int key, Qt::KeyboardModifiers modifiers)
{
    QWidget* focus = QApplication::focusWidget();
    QVERIFY2(focus, "no widget has the focus");
    QTest::keyClick(focus, Qt::Key(key), modifiers); // the window's shortcuts first, as from a keyboard
}

void TestRehearsal::type(char character, Qt::KeyboardModifiers modifiers)
{
    QWidget* focus = QApplication::focusWidget();
    QVERIFY2(focus, "no widget has the focus");
    QTest::keyClick(focus, character, modifiers); // with its text: ".", "b", "B", a digit
}

void TestRehearsal::enterGuess(int step, qint64* guessed)
{
    *guessed = -1;
    if (!m_lesson->hasQuestion())
        return;
    // A step that asks first takes the class's guess at once: typed as it arrives, as a teacher
    // with a clicker types what the class calls out.
    QWidget* focus = QApplication::focusWidget();
    if (m_lesson->questionChoices().isEmpty()) {
        auto* box = qobject_cast<GuessBox*>(focus);
        QVERIFY2(box,
                 qPrintable(QStringLiteral("step %1: the guess does not have the focus as the step comes, %2 has")
                                .arg(step + 1)
                                .arg(nameOf(focus))));
        QVERIFY(box->showsNoGuess());
        // A number of one or two digits, typed as a class calls it out.
        const qint64 guess = 3 + step;
        for (const char digit : QByteArray::number(guess))
            type(digit);
        *guessed = guess;
    } else {
        auto* choices = qobject_cast<QComboBox*>(focus);
        QVERIFY2(choices,
                 qPrintable(QStringLiteral("step %1: the choices do not have the focus as the step comes, %2 has")
                                .arg(step + 1)
                                .arg(nameOf(focus))));
        press(Qt::Key_Down);
        press(Qt::Key_Down); // "no guess", the first choice, the second
        *guessed = 1;
    }
    QVERIFY2(m_lesson->guess() == *guessed,
             qPrintable(QStringLiteral("step %1: typed %2, the lesson took %3")
                            .arg(step + 1)
                            .arg(*guessed)
                            .arg(m_lesson->guess())));
    // Tab to the step's button and Shift+Tab back: the guess again, as it was.
    QWidget* guessField = QApplication::focusWidget();
    auto* action = m_panel->findChild<QPushButton*>(QStringLiteral("LessonAction"));
    QVERIFY(action && action->isVisible());
    for (int i = 0; i < 12 && QApplication::focusWidget() != action; ++i)
        press(Qt::Key_Tab);
    QVERIFY2(QApplication::focusWidget() == action,
             qPrintable(QStringLiteral("step %1: Tab never reached the step's button (%2)")
                            .arg(step + 1)
                            .arg(nameOf(QApplication::focusWidget()))));
    press(Qt::Key_Backtab, Qt::ShiftModifier);
    QVERIFY2(QApplication::focusWidget() == guessField,
             qPrintable(QStringLiteral("step %1: Shift+Tab from the step's button reached %2, not the guess")
                            .arg(step + 1)
                            .arg(nameOf(QApplication::focusWidget()))));
    QCOMPARE(m_lesson->guess(), *guessed);
}

QWidget* TestRehearsal::expectedPart(Lesson::Spotlight part) const
{
    RunView* left = m_window->runView(LimiterExperiment::Left);
    switch (part) {
    case Lesson::Spotlight::Script:
    case Lesson::Spotlight::Expiry:
    case Lesson::Spotlight::Price:
        return m_window->findChild<LessonFigure*>();
    case Lesson::Spotlight::Timeline:
        return left->timeline();
    case Lesson::Spotlight::Numbers:
        return left->numbers();
    case Lesson::Spotlight::Counts:
        return left->countsFrame();
    case Lesson::Spotlight::Runs:
        return m_window->runsArea();
    case Lesson::Spotlight::Zset:
        return m_window->zsetPanel();
    case Lesson::Spotlight::None:
        break;
    }
    return nullptr;
}

void TestRehearsal::checkStep(int step, qint64 guessed)
{
    const QString at = QStringLiteral("%1 %2x%3, step %4")
                           .arg(m_language)
                           .arg(screenSize().width())
                           .arg(screenSize().height())
                           .arg(step + 1);
    QCOMPARE(m_lesson->currentStep(), step);
    QVERIFY2(m_lesson->hasAnswered(), qPrintable(at + QStringLiteral(": ") + m_lesson->resultText()));
    if (guessed >= 0)
        QCOMPARE(m_lesson->guess(), guessed);
    QTRY_VERIFY2(zsetRowsLoaded(m_window.get()),
                 qPrintable(at + QStringLiteral(": the ZSET table's rows never arrived")));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    keepPicture(m_window.get(),
                QStringLiteral("rehearsal-%1-%2x%3-step%4.png")
                    .arg(m_language)
                    .arg(screenSize().width())
                    .arg(screenSize().height())
                    .arg(step + 1, 2, 10, QLatin1Char('0')));

    // The result line, whole and in sight: no other tab over the lesson.
    auto* result = m_panel->findChild<QLabel*>(QStringLiteral("LessonResult"));
    QVERIFY(result);
    QTRY_VERIFY2(shownShare(result) > 0.99,
                 qPrintable(at + QStringLiteral(": %1 of the result line in sight").arg(shownShare(result))));
    if (guessed >= 0)
        QVERIFY2(result->text().contains(QLocale().toString(guessed)) || m_lesson->questionChoices().size() > 1,
                 qPrintable(at + QStringLiteral(": ") + result->text()));
    // No scroll bar in the lesson's text, nor around the panel.
    auto* explanation = m_panel->findChild<QLabel*>(QStringLiteral("LessonExplanation"));
    QVERIFY(explanation && !explanation->text().isEmpty());
    QVERIFY2(shownShare(explanation) > 0.99,
             qPrintable(at + QStringLiteral(": %1 of the explanation in sight").arg(shownShare(explanation))));
    for (QWidget* parent = m_panel->parentWidget(); parent; parent = parent->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(parent))
            QVERIFY2(!area->verticalScrollBar()->isVisible(), qPrintable(at + QStringLiteral(": the lesson scrolls")));

    // Exactly one frame, around the part the explanation names, and that part in sight.
    int frames = 0;
    for (QWidget* frame : m_window->findChildren<QWidget*>(QStringLiteral("SpotlightFrame")))
        frames += frame->isVisible() ? 1 : 0;
    QCOMPARE(frames, 1);
    QWidget* expected = expectedPart(m_lesson->stepShows());
    QVERIFY2(m_window->spotlight()->lit() == expected,
             qPrintable(at
                        + QStringLiteral(": the frame is around %1, not %2")
                              .arg(nameOf(m_window->spotlight()->lit()), nameOf(expected))));
    const QString named = Lesson::partName(m_lesson->stepShows());
    QVERIFY2(m_lesson->stepExplanation().contains(named, Qt::CaseInsensitive),
             qPrintable(at + QStringLiteral(": the explanation does not name ") + named));
    QTRY_VERIFY2(shownShare(expected) > 0.9,
                 qPrintable(at + QStringLiteral(": %1 of the framed part in sight").arg(shownShare(expected))));
    // Scores and members whole in the ZSET table, as step 8 needs them.
    const QString cut = cutZsetText(m_window.get());
    QVERIFY2(cut.isEmpty(), qPrintable(at + QStringLiteral(": the ZSET table cuts ") + cut));
    // Presenter mode's text size holds through the lesson: the window fits its screen at that size,
    // with every part given at least its minimum, so that nothing will step the text down later.
    const auto* fit = m_window->findChild<ScreenFit*>();
    QVERIFY(fit);
    QTRY_VERIFY2(fit->fits(),
                 qPrintable(at
                            + QStringLiteral(": the window needs %1x%2 or a part gets less than its minimum")
                                  .arg(m_window->minimumSizeHint().width())
                                  .arg(m_window->minimumSizeHint().height())));
    QVERIFY2(m_window->presentation()->isPresenting(), qPrintable(at));
}

void TestRehearsal::openWindow(const QString& language)
{
    m_language = language;
    QSettings().clear(); // a fresh machine: no window layout kept from another test
    Language::set(language);
    m_window = std::make_unique<MainWindow>();
    m_window->show();
    RedisServerChoice::Request request;
    request.url = TestRedis::endpoint().displayUrl();
    m_window->connectToServer(request);
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
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
    m_lesson = m_window->lesson();
    m_panel = m_window->lessonPanel();
    m_lesson->setAsksFirst(true);
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    m_window->setFocus();

    // Presenter mode and the lesson in front, by their keys.
    press(Qt::Key_F11);
    QTRY_VERIFY(m_window->presentation()->isPresenting());
    QTRY_VERIFY(m_window->isFullScreen());
    const double zoom = m_window->presentation()->zoom();
    press(Qt::Key_L, Qt::ControlModifier);
    QTRY_VERIFY(!m_panel->visibleRegion().isEmpty());
    // To step 1 from wherever the lesson was: back twice, by PageUp and by "B" (Shift+b).
    press(Qt::Key_PageUp);
    type('B', Qt::ShiftModifier);
    QCOMPARE(m_lesson->currentStep(), 0);

    const int count = m_lesson->stepCount();
    QCOMPARE(count, 10);
    for (int step = 0; step < count; ++step) {
        QCOMPARE(m_lesson->currentStep(), step);
        auto* counter = m_panel->findChild<QLabel*>(QStringLiteral("LessonCounter"));
        QVERIFY(counter && counter->text().contains(QString::number(step + 1)));
        qint64 guessed = -1;
        enterGuess(step, &guessed);
        if (QTest::currentTestFailed())
            return;
        QSignalSpy finished(m_lesson, &Lesson::actionFinished);
        press(Qt::Key_Return);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60000);
        checkStep(step, guessed);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(qFuzzyCompare(m_window->presentation()->zoom(), zoom), // the text never shrank
                 qPrintable(QStringLiteral("%1 %2x%3, step %4: the text shrank to %5")
                                .arg(language)
                                .arg(screenSize().width())
                                .arg(screenSize().height())
                                .arg(step + 1)
                                .arg(m_window->presentation()->zoom())));
        if (step + 1 == count)
            break;
        // On to the next step, a different key each time; now and then back and on again.
        switch (step % 4) {
        case 0:
            type('.');
            break;
        case 1:
            press(Qt::Key_PageDown);
            type('b');
            QCOMPARE(m_lesson->currentStep(), step);
            type('.');
            break;
        case 2:
            press(Qt::Key_PageDown);
            press(Qt::Key_PageUp);
            QCOMPARE(m_lesson->currentStep(), step);
            press(Qt::Key_PageDown);
            break;
        default:
            type('.');
            type('B', Qt::ShiftModifier);
            QCOMPARE(m_lesson->currentStep(), step);
            press(Qt::Key_PageDown);
            break;
        }
        QCOMPARE(m_lesson->currentStep(), step + 1);
        // A step that builds on the one before (the member's writes) finds it gone after a step back
        // and on: the keys ran it again, as a class would.
    }
}

void TestRehearsal::aReplayInFrontOfAClass_data()
{
    aClassRehearsedByKeysAlone_data();
}

// A run replayed request by request in presenter mode: every control of the transport bar in
// sight (none behind a "»"), the slider as wide as its row allows, the caption whole, and nothing
// in the window moving as the class steps through it (issue #43).
void TestRehearsal::aReplayInFrontOfAClass()
{
    QFETCH(QString, language);
    openWindow(language);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->session()->isUsable(), 10000);
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    m_window->setFocus();
    press(Qt::Key_F11);
    QTRY_VERIFY(m_window->isFullScreen());
    // A burst of the bug, fired by its key, then stepped from its start by the replay's keys.
    QSignalSpy done(m_window->experiment(), &LimiterExperiment::allFinished);
    press(Qt::Key_F5);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
    RunView* run = m_window->runView(LimiterExperiment::Left);
    QTRY_VERIFY(run->run()->hasRecording());
    run->timeline()->setFocus();
    press(Qt::Key_Home);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    TransportBar* bar = run->transport();
    QVERIFY(bar->isVisible());
    const QString at = QStringLiteral("%1 %2x%3").arg(language).arg(screenSize().width()).arg(screenSize().height());
    for (QWidget* control : bar->findChildren<QWidget*>()) {
        if (!control->isVisibleTo(bar) || qobject_cast<QLabel*>(control) || !control->parentWidget()->isVisible())
            continue;
        QVERIFY2(shownShare(control) > 0.99,
                 qPrintable(at + QStringLiteral(": %1 of %2 in sight").arg(shownShare(control)).arg(nameOf(control))));
    }
    for (const char* name : {"replaySpeed", "replaySlideBy"})
        QVERIFY2(bar->findChild<QWidget*>(QLatin1String(name))->isVisible(), name);
    QVERIFY(bar->forkAction()->isVisible());
    auto* slider = bar->findChild<QWidget*>(QStringLiteral("replaySlider"));
    auto* media = bar->findChild<QWidget*>(QStringLiteral("replayControls"));
    // The rest of its row: all of it, or, with the other controls beside it, a third of the bar.
    const bool alone = slider->width() >= bar->width() - media->width() - 40;
    QVERIFY2(
        alone || slider->width() >= bar->width() / 3 - 4,
        qPrintable(at + QStringLiteral(": a slider of %1 px in a bar of %2").arg(slider->width()).arg(bar->width())));
    // Step on: the caption follows, whole, and nothing moves.
    auto geometries = [this] {
        QMap<QString, QRect> all;
        auto behindATab = [](const QWidget* widget) { // in a dock whose tab is not the one in front
            for (const QWidget* parent = widget; parent; parent = parent->parentWidget())
                if (qobject_cast<const QDockWidget*>(parent))
                    return parent->visibleRegion().isEmpty();
            return false;
        };
        for (QWidget* widget : m_window->findChildren<QWidget*>())
            if (widget->isVisible() && !behindATab(widget) && widget->objectName() != QLatin1String("SpotlightFrame"))
                all.insert(nameOf(widget) + QString::number(quintptr(widget), 16),
                           QRect(widget->mapTo(m_window.get(), QPoint(0, 0)), widget->size()));
        return all;
    };
    auto moved = [](const QMap<QString, QRect>& before, const QMap<QString, QRect>& after) {
        for (auto it = after.begin(); it != after.end(); ++it)
            if (before.value(it.key()) != it.value())
                return QStringLiteral("%1 (%2,%3 %4x%5 to %6,%7 %8x%9)")
                    .arg(it.key())
                    .arg(before.value(it.key()).x())
                    .arg(before.value(it.key()).y())
                    .arg(before.value(it.key()).width())
                    .arg(before.value(it.key()).height())
                    .arg(it.value().x())
                    .arg(it.value().y())
                    .arg(it.value().width())
                    .arg(it.value().height());
        return QString();
    };
    press(Qt::Key_Right);
    // What is pending runs first (layouts, a fit of the window to its screen): then nothing may move.
    for (int round = 0; round < 5; ++round)
        QCoreApplication::processEvents();
    const QMap<QString, QRect> before = geometries();
    for (int step = 0; step < 12; ++step) {
        press(Qt::Key_Right);
        for (int round = 0; round < 5; ++round)
            QCoreApplication::processEvents();
        QCOMPARE(run->run()->cursor()->position(), step + 2);
        const QString caption = bar->captionText();
        auto* shown = bar->findChild<QLabel*>(QStringLiteral("replayCaption"));
        if (shown->isVisible())
            QVERIFY2(shown->text() == caption,
                     qPrintable(at + QStringLiteral(": the caption reads \"%1\"").arg(shown->text())));
        else
            QCOMPARE(run->timeline()->replayCaption(), caption); // the charts share a place: over the plot
        const QString changed = moved(before, geometries());
        QVERIFY2(changed.isEmpty(),
                 qPrintable(at + QStringLiteral(": %1 moved at request %2").arg(changed).arg(step + 3)));
    }
    keepPicture(
        m_window.get(),
        QStringLiteral("replay-%1-%2x%3.png").arg(language).arg(screenSize().width()).arg(screenSize().height()));
}

ZSETLAB_TEST_MAIN_ON_SCREEN(TestRehearsal, screenSize())
#include "tst_rehearsal.moc"
