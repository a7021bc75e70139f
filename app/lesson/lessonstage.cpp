#include "lessonstage.h"

#include "lesson/lesson.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QScreen>
#include <QVBoxLayout>
#include <QWindow>

namespace {
// The stage's picture: the scene at the widget's size.
// It paints only: no signal, slot or property, so no Q_OBJECT.
class StageCanvas : public QWidget // clazy:exclude=missing-qobject-macro
{
public:
    explicit StageCanvas(const LessonStage* stage, QWidget* parent)
        : QWidget(parent)
        , m_stage(stage)
    {
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        StageScene scene = m_stage->scene();
        scene.paint(&painter);
    }

private:
    const LessonStage* m_stage;
};

// A ring a back row sees: thick, in the palette's blue, around whatever has the focus.
const char* const barStyle = R"(
QWidget#StageBar { background: #f2f2f2; }
QPushButton, QLineEdit { color: #141414; background: white; border: 2px solid #8c8c8c; border-radius: 6px;
                         padding: 4px 10px; }
QPushButton:checked { background: #cfe3f2; border-color: #0072b2; }
QPushButton:disabled { color: #9a9a9a; border-color: #d0d0d0; }
QPushButton:focus, QLineEdit:focus { border: 5px solid #0072b2; padding: 1px 7px; }
QLabel { color: #141414; }
)";
} // namespace

LessonStage::LessonStage(Lesson* lesson, QWidget* parent)
    : QWidget(parent, Qt::Window)
    , m_lesson(lesson)
{
    setObjectName(QStringLiteral("LessonStage"));
    m_canvas = new StageCanvas(this, this);
    m_canvas->setObjectName(QStringLiteral("StageCanvas"));
    m_canvas->setFocusPolicy(Qt::NoFocus);

    m_bar = new QWidget(this);
    m_bar->setObjectName(QStringLiteral("StageBar"));
    m_bar->setAttribute(Qt::WA_StyledBackground);
    m_bar->setStyleSheet(QString::fromLatin1(barStyle));
    auto* bar = new QHBoxLayout(m_bar);
    m_back = new QPushButton(m_bar);
    m_next = new QPushButton(m_bar);
    m_guessLabel = new QLabel(m_bar);
    m_guess = new QLineEdit(m_bar);
    m_guess->setValidator(new QIntValidator(0, 999'999'999, m_guess));
    m_guessLabel->setBuddy(m_guess);
    m_play = new QPushButton(m_bar);
    m_earlier = new QPushButton(m_bar);
    m_later = new QPushButton(m_bar);
    m_leave = new QPushButton(m_bar);
    bar->addWidget(m_back);
    bar->addWidget(m_next);
    bar->addSpacing(12);
    bar->addWidget(m_guessLabel);
    bar->addWidget(m_guess);
    for (int i = 0; i < 4; ++i) {
        auto* choice = new QPushButton(QString::number(i + 1), m_bar);
        choice->setCheckable(true);
        choice->setAutoExclusive(false);
        connect(choice, &QPushButton::clicked, this, [this, i] {
            if (!m_lesson->hasAnswered())
                m_lesson->setGuess(i);
            showStep();
        });
        bar->addWidget(choice);
        m_choices << choice;
    }
    bar->addWidget(m_play);
    bar->addStretch(1);
    bar->addWidget(m_earlier);
    bar->addWidget(m_later);
    bar->addSpacing(12);
    bar->addWidget(m_leave);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_canvas, 1);
    layout->addWidget(m_bar);

    connect(m_back, &QPushButton::clicked, this, [this] { goTo(m_lesson->currentStep() - 1); });
    connect(m_next, &QPushButton::clicked, this, [this] { goTo(m_lesson->currentStep() + 1); });
    connect(m_play, &QPushButton::clicked, this, &LessonStage::play);
    connect(m_earlier, &QPushButton::clicked, this, [this] { moveCursor(-1); });
    connect(m_later, &QPushButton::clicked, this, [this] { moveCursor(+1); });
    connect(m_leave, &QPushButton::clicked, this, &LessonStage::leaveRequested);
    connect(m_guess, &QLineEdit::textEdited, this, [this](const QString& text) {
        bool ok = false;
        const qint64 value = text.toLongLong(&ok);
        m_lesson->setGuess(ok ? value : -1);
    });
    connect(m_lesson, &Lesson::changed, this, &LessonStage::showStep);
    connect(m_lesson, &Lesson::actionFinished, this, [this] { m_cursor = -1; });

    setFocusPolicy(Qt::StrongFocus);
    for (QWidget* child : findChildren<QWidget*>())
        child->installEventFilter(this);
    installEventFilter(this);
    retranslate();
    showStep();
}

void LessonStage::present(QWidget* screenOf)
{
    if (screenOf && screenOf->screen())
        setGeometry(screenOf->screen()->geometry());
    showFullScreen();
    raise();
    activateWindow();
    m_play->setFocus();
}

QSize LessonStage::canvasSize() const
{
    return m_canvas->size();
}

StageScene LessonStage::scene() const
{
    StageScene::State state = stageStateOf(*m_lesson, m_cursor);
    state.textScale = m_textScale;
    return StageScene(state, m_canvas->size());
}

void LessonStage::goTo(int step)
{
    if (step < 0 || step >= m_lesson->stepCount() || m_lesson->isRunning())
        return;
    m_lesson->goToStep(step);
}

void LessonStage::play()
{
    if (m_lesson->isRunning() || !m_lesson->hasAction())
        return;
    m_cursor = -1;
    m_lesson->runAction();
}

void LessonStage::moveCursor(int by)
{
    const int requests = stageRequests(*m_lesson);
    if (requests <= 0)
        return;
    m_cursor = std::clamp(m_cursor < 0 ? (by > 0 ? 0 : requests - 1) : m_cursor + by, 0, requests - 1);
    showStep();
}

void LessonStage::typeDigit(int digit)
{
    if (!m_lesson->hasQuestion() || !m_lesson->asksFirst() || m_lesson->hasAnswered())
        return;
    const QStringList choices = m_lesson->questionChoices();
    if (!choices.isEmpty()) {
        if (digit >= 1 && digit <= choices.size())
            m_lesson->setGuess(digit - 1);
        return;
    }
    const QString before = m_freshGuess ? QString() : m_guess->text();
    m_freshGuess = false;
    const QString text = QString(before + QString::number(digit)).right(9);
    m_guess->setText(text);
    m_lesson->setGuess(text.toLongLong());
}

bool LessonStage::handleKey(QKeyEvent* event)
{
    const int key = event->key();
    const bool typing = event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier);
    if (typing)
        return false;
    switch (key) {
    case Qt::Key_PageDown:
    case Qt::Key_Period:
        goTo(m_lesson->currentStep() + 1);
        return true;
    case Qt::Key_PageUp:
    case Qt::Key_B:
        goTo(m_lesson->currentStep() - 1);
        return true;
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (auto* button = qobject_cast<QPushButton*>(focusWidget()); button && button != m_play) {
            button->click();
            return true;
        }
        play();
        return true;
    case Qt::Key_Left:
        moveCursor(-1);
        return true;
    case Qt::Key_Right:
        moveCursor(+1);
        return true;
    case Qt::Key_Escape:
    case Qt::Key_F11:
        emit leaveRequested();
        return true;
    case Qt::Key_Backspace:
        if (focusWidget() == m_guess)
            return false;
        m_guess->clear();
        m_lesson->setGuess(-1);
        return true;
    default:
        break;
    }
    if (key >= Qt::Key_0 && key <= Qt::Key_9) {
        typeDigit(key - Qt::Key_0);
        return true;
    }
    return false;
}

bool LessonStage::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress && isActiveWindow()) {
        auto* key = static_cast<QKeyEvent*>(event);
        // The guess field edits its own text with Backspace; every other stage key is the stage's.
        if (handleKey(key))
            return true;
    }
    if (event->type() == QEvent::ShortcutOverride) {
        // The stage's keys are not the workbench's shortcuts while the stage is in front.
        auto* key = static_cast<QKeyEvent*>(event);
        if (!(key->modifiers() & (Qt::ControlModifier | Qt::AltModifier))) {
            event->accept();
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void LessonStage::showStep()
{
    const bool stepChanged = m_shownStep != m_lesson->currentStep();
    if (stepChanged) {
        m_shownStep = m_lesson->currentStep();
        m_cursor = -1;
        m_freshGuess = true;
        m_scaledFor = {};
    }
    const bool asks = m_lesson->asksFirst() && m_lesson->hasQuestion();
    const QStringList choices = m_lesson->questionChoices();
    const bool number = asks && choices.isEmpty();
    m_guessLabel->setVisible(asks);
    m_guess->setVisible(number);
    const qint64 guess = m_lesson->guess();
    if (number && (stepChanged || guess < 0))
        m_guess->setText(guess >= 0 ? QString::number(guess) : QString());
    // Read-only, not disabled, once answered: a disabled control would send the focus elsewhere.
    m_guess->setReadOnly(m_lesson->hasAnswered());
    for (int i = 0; i < m_choices.size(); ++i) {
        QPushButton* choice = m_choices.at(i);
        choice->setVisible(asks && i < choices.size());
        choice->setChecked(asks && guess == i);
        choice->setAccessibleName(choices.value(i));
        choice->setToolTip(choices.value(i));
    }
    m_back->setEnabled(m_lesson->currentStep() > 0);
    m_next->setEnabled(m_lesson->currentStep() + 1 < m_lesson->stepCount());
    m_play->setEnabled(m_lesson->hasAction()); // while it runs, play() does nothing
    const bool hasRun = stageRequests(*m_lesson) > 0;
    m_earlier->setEnabled(hasRun);
    m_later->setEnabled(hasRun);
    if (focusWidget() && !focusWidget()->isEnabled())
        m_play->setFocus();
    fitText();
    m_canvas->update();
}

void LessonStage::fitText()
{
    if (m_scaledFor == m_canvas->size() || m_canvas->size().isEmpty())
        return;
    m_scaledFor = m_canvas->size();
    m_textScale = stageTextScale(*m_lesson, m_canvas->size());
}

void LessonStage::applyFonts()
{
    // The bar's text is the stage's text: its size follows the frame.
    const QSize frame = size();
    QFont font = this->font();
    font.setPixelSize(std::max(10, qRound(std::min(frame.height() / 36.0, frame.width() / 64.0))));
    m_bar->setFont(font);
    for (QWidget* child : m_bar->findChildren<QWidget*>())
        child->setFont(font);
    m_guess->setFixedWidth(QFontMetrics(font).horizontalAdvance(QStringLiteral("0000000")));
}

void LessonStage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    applyFonts();
    m_scaledFor = {};
    fitText();
}

void LessonStage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        m_scaledFor = {};
        fitText();
        m_canvas->update();
    }
    QWidget::changeEvent(event);
}

void LessonStage::closeEvent(QCloseEvent* event)
{
    // Closing the stage's window (the window manager's button, Alt+F4) is leaving it.
    QWidget::closeEvent(event);
    emit leaveRequested();
}

void LessonStage::retranslate()
{
    setWindowTitle(tr("zsetlab lesson"));
    m_back->setText(tr("Back (PgUp)"));
    m_next->setText(tr("Next (PgDn)"));
    m_guessLabel->setText(tr("&Guess:"));
    m_guess->setAccessibleName(tr("The class's guess"));
    m_play->setText(tr("Play (Enter)"));
    m_earlier->setText(tr("◀ Request"));
    m_earlier->setAccessibleName(tr("The request before (Left)"));
    m_later->setText(tr("Request ▶"));
    m_later->setAccessibleName(tr("The next request (Right)"));
    m_leave->setText(tr("Workbench (Esc)"));
}
