#include "lessonpanel.h"

#include "charts/countschart.h"
#include "charts/timelineview.h"
#include "guessbox.h"
#include "lesson/lesson.h"
#include "lessonfigure.h"
#include "run/numberspanel.h"
#include "run/runview.h"
#include "run/zsetpanel.h"
#include "widgets/wheelguard.h"
#include "widgets/wholetextcombobox.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QShortcut>
#include <QSignalBlocker>
#include <QTimer>
#include <QVBoxLayout>

namespace {
// About the characters of a line of the lesson's text.
constexpr int readableColumns = 48;
} // namespace

LessonPanel::LessonPanel(Lesson* lesson, LessonViews views, QWidget* parent)
    : QWidget(parent)
    , m_lesson(lesson)
    , m_views(std::move(views))
{
    auto* layout = new QVBoxLayout(this);
    m_counter = new QLabel(this);
    m_counter->setObjectName(QStringLiteral("LessonCounter"));
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    applyFonts();
    // Text that wraps as the panel's width allows: its height is the panel's to fit (see
    // minimumSizeHint), so it never scrolls on its own. Read, not worked in: no Tab stop.
    m_setup = new QLabel(this);
    m_setup->setObjectName(QStringLiteral("LessonSetup"));
    m_explanation = new QLabel(this);
    m_explanation->setObjectName(QStringLiteral("LessonExplanation"));
    for (QLabel* text : {m_setup, m_explanation}) {
        text->setWordWrap(true);
        text->setTextFormat(Qt::RichText);
        text->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("LessonResult"));
    m_result->installEventFilter(this); // its size once laid out: see bringResultIntoView
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_action = new QPushButton(this);
    m_action->setObjectName(QStringLiteral("LessonAction"));
    m_back = new QPushButton(this);
    m_next = new QPushButton(this);
    m_askFirst = new QCheckBox(this);
    m_lesson->setAsksFirst(QSettings().value(QStringLiteral("lesson/askFirst"), true).toBool());
    m_askFirst->setChecked(m_lesson->asksFirst());
    connect(m_askFirst, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("lesson/askFirst"), on);
        m_lesson->setAsksFirst(on);
    });

    m_question = new QWidget(this);
    auto* question = new QVBoxLayout(m_question);
    question->setContentsMargins(0, 0, 0, 0);
    m_prompt = new QLabel(m_question);
    m_prompt->setWordWrap(true);
    m_prompt->setTextFormat(Qt::RichText);
    m_guessLabel = new QLabel(m_question);
    m_guessNumber = new GuessBox(m_question);
    m_guessNumber->setRange(-1, 1000000000);
    m_guessNumber->setGroupSeparatorShown(true);
    m_guessNumber->setValue(-1);
    m_guessChoice = new WholeTextComboBox(m_question); // "about 17 minutes", never "about 17 minute:"
    m_guessLabel->setBuddy(m_guessNumber);
    WheelGuard::protect(m_guessNumber);
    WheelGuard::protect(m_guessChoice);
    auto* guessRow = new QHBoxLayout;
    guessRow->addWidget(m_guessLabel);
    guessRow->addWidget(m_guessNumber);
    guessRow->addWidget(m_guessChoice, 1);
    guessRow->addStretch(1);
    question->addWidget(m_prompt);
    question->addLayout(guessRow);
    // "." and "b" go on and back from the guess too: a number takes neither.
    m_guessNumber->installEventFilter(this);
    m_guessChoice->installEventFilter(this);
    connect(m_guessNumber, &QSpinBox::valueChanged, this, [this](int value) {
        if (!m_guessNumber->isHidden())
            m_lesson->setGuess(value);
    });
    connect(m_guessChoice, &QComboBox::activated, this, [this](int index) {
        if (!m_guessChoice->isHidden())
            m_lesson->setGuess(index - 1); // item 0: no guess
    });

    auto* heading = new QHBoxLayout;
    heading->addWidget(m_counter);
    heading->addStretch(1);
    heading->addWidget(m_askFirst);
    auto* navigation = new QHBoxLayout;
    navigation->addWidget(m_back);
    navigation->addStretch(1);
    navigation->addWidget(m_next);
    // In reading order: what is about to happen, the question, the step, Redis's answer, and only
    // then why (the setup gives its place to the explanation).
    layout->addLayout(heading);
    layout->addWidget(m_title);
    layout->addWidget(m_setup);
    layout->addWidget(m_question);
    layout->addWidget(m_action);
    layout->addWidget(m_result);
    layout->addWidget(m_explanation);
    layout->addStretch(1); // Back and Next stay at the bottom
    layout->addLayout(navigation);
    setTabOrder(m_askFirst, m_guessNumber);
    setTabOrder(m_guessNumber, m_guessChoice);
    setTabOrder(m_guessChoice, m_action);
    setTabOrder(m_action, m_back);
    setTabOrder(m_back, m_next);
    connect(m_back, &QPushButton::clicked, m_lesson, &Lesson::back);
    connect(m_next, &QPushButton::clicked, m_lesson, &Lesson::next);
    connect(m_action, &QPushButton::clicked, m_lesson, &Lesson::runAction);
    createKeys();
    connect(m_lesson, &Lesson::changed, this, &LessonPanel::showStep);
    connect(m_lesson, &Lesson::actionFinished, this, &LessonPanel::showResult);
    retranslate();
}

void LessonPanel::createKeys()
{
    // A presenter's clicker sends PageDown / PageUp (some "." and "B"): Next and Back wherever the
    // focus is, while the lesson is in front. The arrows too, once the focus is in the lesson.
    // Enter does the step.
    setFocusPolicy(Qt::ClickFocus); // holds the focus while the step's button is disabled
    auto windowKeys = [this](const QList<QKeySequence>& keys, auto slot) {
        auto* action = new QAction(this);
        action->setShortcuts(keys);
        action->setShortcutContext(Qt::WindowShortcut);
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        m_keys << action;
    };
    windowKeys({QKeySequence(Qt::Key_PageDown), QKeySequence(Qt::Key_Period)}, &LessonPanel::goNext);
    windowKeys({QKeySequence(Qt::Key_PageUp), QKeySequence(Qt::Key_B), QKeySequence(Qt::SHIFT | Qt::Key_B)},
               &LessonPanel::goBack);
    windowKeys({QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}, &LessonPanel::doStep);
    auto* right = new QShortcut(QKeySequence(Qt::Key_Right), this, this, &LessonPanel::goNext);
    auto* left = new QShortcut(QKeySequence(Qt::Key_Left), this, this, &LessonPanel::goBack);
    right->setContext(Qt::WidgetWithChildrenShortcut);
    left->setContext(Qt::WidgetWithChildrenShortcut);
}

QSize LessonPanel::minimumSizeHint() const
{
    // Lines of readableColumns characters, the same for every step whatever its text: the steps'
    // texts are written to fit without a scroll bar on a projector's 1280x720 (tst_rehearsal).
    const QSize laidOut = QWidget::minimumSizeHint();
    return {std::max(laidOut.width(), fontMetrics().averageCharWidth() * readableColumns), laidOut.height()};
}

void LessonPanel::setInFront(bool inFront)
{
    // Behind another panel's tab, the keys are that panel's again (PageDown scrolls a table).
    for (QAction* action : std::as_const(m_keys))
        action->setEnabled(inFront);
}

void LessonPanel::goNext()
{
    if (!m_next->isEnabled())
        return;
    m_lesson->next();
    keepFocusInLesson();
}

void LessonPanel::goBack()
{
    if (!m_back->isEnabled())
        return;
    m_lesson->back();
    keepFocusInLesson();
}

void LessonPanel::doStep()
{
    if (m_action->isHidden() || !m_action->isEnabled())
        return;
    keepFocusInLesson();
    m_lesson->runAction();
}

void LessonPanel::keepFocusInLesson()
{
    // Keys pressed from elsewhere (a chart clicked before) bring the focus to the lesson, where
    // Enter, Space and the arrows go on; a focus already in the lesson stays where it is.
    QWidget* focus = QApplication::focusWidget();
    if (focus == this || isAncestorOf(focus))
        return;
    if (m_action->isVisible() && m_action->isEnabled())
        m_action->setFocus(Qt::ShortcutFocusReason);
    else
        m_next->setFocus(Qt::ShortcutFocusReason);
}

void LessonPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    if (event->type() == QEvent::FontChange)
        applyFonts();
}

void LessonPanel::applyFonts()
{
    // The heading stays larger than the text as the window's text grows.
    QFont heading = font();
    heading.setBold(true);
    heading.setPointSizeF(font().pointSizeF() * 1.3);
    m_title->setFont(heading);
}

void LessonPanel::retranslate()
{
    m_back->setText(tr("◀ Back"));
    m_next->setText(tr("Next ▶"));
    m_action->setToolTip(tr("Do this step on the real Redis server."));
    m_askFirst->setText(tr("Ask the class first"));
    m_askFirst->setToolTip(tr("Before each step's action, ask the class to predict what Redis will do, enter "
                              "their guess, then compare it with the result."));
    m_guessLabel->setText(tr("The class's guess:"));
    m_guessNumber->setSpecialValueText(tr("no guess"));
    showStep();
}

void LessonPanel::focusGuess()
{
    // A new step that asks first: the class's guess can be typed at once, Enter runs the step, "."
    // and "B" still go on and back. Only while the lesson is in front and no dialog is up.
    if (!isVisible() || visibleRegion().isEmpty() || m_lesson->hasAnswered() || !m_question->isVisible())
        return;
    if (QApplication::activeModalWidget() || QApplication::activePopupWidget())
        return;
    QWidget* guess = m_guessChoice->isVisible() ? static_cast<QWidget*>(m_guessChoice) : m_guessNumber;
    guess->setFocus(Qt::OtherFocusReason);
}

void LessonPanel::showQuestion()
{
    const bool asking = m_lesson->asksFirst() && m_lesson->hasQuestion();
    m_question->setVisible(asking);
    if (!asking)
        return;
    m_prompt->setText(tr("<b>Ask the class:</b> %1").arg(m_lesson->questionText().toHtmlEscaped()));
    const qint64 guess = m_lesson->guess();
    const QStringList choices = m_lesson->questionChoices();
    const bool choosing = !choices.isEmpty();
    m_guessNumber->setVisible(!choosing);
    m_guessChoice->setVisible(choosing);
    if (choosing) {
        const QSignalBlocker blocker(m_guessChoice);
        m_guessChoice->clear();
        m_guessChoice->addItem(tr("no guess"));
        m_guessChoice->addItems(choices);
        m_guessChoice->setCurrentIndex(int(guess) + 1);
        m_guessLabel->setBuddy(m_guessChoice);
    } else {
        const QSignalBlocker blocker(m_guessNumber);
        m_guessNumber->setValue(int(std::min<qint64>(guess, m_guessNumber->maximum())));
        m_guessLabel->setBuddy(m_guessNumber);
        WheelGuard::protect(m_guessNumber);
        WheelGuard::protect(m_guessChoice);
    }
}

void LessonPanel::showStep()
{
    const int step = m_lesson->currentStep();
    const int count = m_lesson->stepCount();
    m_counter->setText(tr("Step %1 of %2").arg(step + 1).arg(count));
    m_title->setText(m_lesson->stepTitle());
    const bool answered = m_lesson->hasAnswered();
    m_setup->setText(m_lesson->stepSetup());
    m_explanation->setText(answered ? m_lesson->stepExplanation() : QString());
    m_setup->setVisible(!answered);
    m_explanation->setVisible(answered);
    m_action->setText(m_lesson->actionLabel());
    if (!m_lesson->hasAction() && m_action->hasFocus())
        m_next->setFocus(Qt::OtherFocusReason); // not wherever Qt would send it (Back)
    m_action->setVisible(m_lesson->hasAction());
    // While the step runs its button is disabled: the focus waits on the panel, not on Back (a
    // second Space would go back a step), and returns to the button after.
    const bool running = m_lesson->isRunning();
    if (running && m_action->hasFocus()) {
        m_actionHadFocus = true;
        setFocus(Qt::OtherFocusReason);
    }
    m_action->setEnabled(!running);
    if (!running && m_actionHadFocus) {
        m_actionHadFocus = false;
        if (hasFocus() && m_action->isVisible())
            m_action->setFocus(Qt::OtherFocusReason);
    }
    showQuestion();
    if (step != m_shownStep) {
        m_shownStep = step;
        focusGuess();
    }
    const QString result = m_lesson->resultText(); // made in the language of the moment
    QString shown = result.isEmpty() ? QString() : tr("<b>Result:</b> %1").arg(result.toHtmlEscaped());
    if (const QString compared = m_lesson->guessVersusAnswer(); !compared.isEmpty())
        shown += QStringLiteral("<br>") + tr("<b>Guess first:</b> %1").arg(compared.toHtmlEscaped());
    if (m_lesson->isRunning())
        shown = result.toHtmlEscaped();
    m_result->setText(shown);
    m_back->setEnabled(step > 0);
    m_next->setEnabled(step + 1 < count);
    if (m_lesson->resultText().isEmpty())
        m_showResult = false;
    // The part that shows the result stays marked until the step changes (none before it ran).
    if (m_views.spotlight)
        m_views.spotlight(spotlightTarget());
}

QWidget* LessonPanel::spotlightTarget() const
{
    const Lesson::Spotlight part = m_lesson->spotlight();
    if (LessonFigure::draws(part))
        return m_views.figure && m_views.figure->showResult() ? m_views.figure : nullptr;
    switch (part) {
    case Lesson::Spotlight::Runs:
        return m_views.runs;
    case Lesson::Spotlight::Timeline:
        if (!m_views.left)
            return nullptr;
        m_views.left->showChart(0); // its tab, when the charts share a place
        return m_views.left->timeline();
    case Lesson::Spotlight::Numbers:
        return m_views.left ? m_views.left->numbers() : nullptr;
    case Lesson::Spotlight::Counts:
        if (!m_views.left)
            return nullptr;
        m_views.left->showCounts(); // its tab, when the charts share a place
        return m_views.left->countsFrame();
    case Lesson::Spotlight::Zset:
        return m_views.zset;
    default:
        break;
    }
    return nullptr;
}

void LessonPanel::showResult()
{
    if (!m_lesson->pointedMember().isEmpty() && m_views.zset)
        m_views.zset->selectMember(m_lesson->pointedMember());
    // In a panel that scrolls (a low screen, large text) the result may lie below the fold: it
    // comes into view once laid out, and as it grows (bringResultIntoView).
    m_showResult = true;
    bringResultIntoView();
}

void LessonPanel::bringResultIntoView()
{
    for (QWidget* parent = parentWidget(); parent; parent = parent->parentWidget())
        if (auto* area = qobject_cast<QScrollArea*>(parent)) {
            area->ensureWidgetVisible(m_result, 0, 0);
            return;
        }
}

bool LessonPanel::eventFilter(QObject* watched, QEvent* event)
{
    if ((watched == m_guessNumber || watched == m_guessChoice) && event->type() == QEvent::ShortcutOverride) {
        // The field would take "." and "b" as text; left unclaimed, they reach the window's keys.
        const auto* key = static_cast<QKeyEvent*>(event);
        const bool clicker = key->key() == Qt::Key_Period || key->key() == Qt::Key_B;
        if (clicker && !(key->modifiers() & ~(Qt::ShiftModifier | Qt::KeypadModifier)))
            return true;
    }
    if (watched == m_result && m_showResult && (event->type() == QEvent::Resize || event->type() == QEvent::Move))
        QTimer::singleShot(0, this, [this] {
            if (m_showResult)
                bringResultIntoView();
        });
    return QWidget::eventFilter(watched, event);
}
